// Expectations files: known, tracked outcomes of a plugin (waivers).
import { z } from 'zod';
import { validRange } from './semver.js';

export const WAIVABLE = ['fail', 'warn', 'crash', 'timeout', 'unsupported', 'flaky'] as const;
export type Waivable = (typeof WAIVABLE)[number];

const Globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const ExpectationEntry = z.strictObject({
  tests: Globs.optional().describe('id glob(s), picomatch syntax; with `rules`, only these cases'),
  rules: Globs.optional()
    .describe("rule key glob(s) (a result's `rule`, e.g. \"PJRT_Buffer_ToHostBuffer:host-layout-must-be-honoured\"): waives that deviation in whatever case reaches it"),
  status: z.union([z.enum(WAIVABLE), z.array(z.enum(WAIVABLE)).min(1)]),
  reason: z.string().min(1),
  issue: z.url().optional(),
  pluginVersion: z.string().refine(validRange, 'expected a version or semver range such as ">=0.4.0 <0.5"').optional()
    .describe("matched against the client's platform version"),
  apiMinor: z.strictObject({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() }).optional(),
}).refine((e) => e.tests !== undefined || e.rules !== undefined, { message: 'an expectation names `tests`, `rules` or both' });
export type ExpectationEntry = z.infer<typeof ExpectationEntry>;

/** A string-or-list field as a list ([] when absent). */
export const globList = (g: string | readonly string[] | undefined): string[] => (g === undefined ? [] : typeof g === 'string' ? [g] : [...g]);

export const ExpectationsFile = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  expectations: z.array(ExpectationEntry),
});
export type ExpectationsFile = z.infer<typeof ExpectationsFile>;

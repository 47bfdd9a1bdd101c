// The must-pass list of a CTS version (certification/must-pass-<version>.json): the case ids a certification run
// (`run --certify`) demands. It is generated from data by scripts/gen-must-pass.ts and reviewed before it is
// committed; test/must-pass.test.ts fails when it is stale against the catalogue.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { loadJson } from './load-json.js';

export const MustPassCase = z.strictObject({
  id: z.string().min(1),
  /** Set when `unsupported` is an acceptable answer (the header lets a plugin lack what the case needs): why. */
  optional: z.string().min(1).optional(),
});
export type MustPassCase = z.infer<typeof MustPassCase>;

export const MustPassList = z.strictObject({
  /** The CTS version (package.json) the list belongs to. */
  ctsVersion: z.string(),
  generated: z.strictObject({
    by: z.string(),
    regenerate: z.string(),
    /** The rule, in words: which cases are on the list and why. */
    rule: z.string(),
    /** The runs of the reference plugin the list was derived from (per personality: pass count and case count). */
    from: z.record(z.string(), z.strictObject({ cases: z.number().int().min(0), pass: z.number().int().min(0), startedAt: z.string() })),
  }),
  /** `pending` until a maintainer has read the diff; the generator resets it when the cases change. */
  review: z.strictObject({ state: z.enum(['pending', 'reviewed']), by: z.string().optional(), note: z.string() }),
  cases: z.array(MustPassCase),
  /** `header`/`framework` cases deliberately left off, each with the reason. */
  exclusions: z.array(z.strictObject({ id: z.string().min(1), reason: z.string().min(1) })),
});
export type MustPassList = z.infer<typeof MustPassList>;

export interface LoadedMustPass { file: string; sha256: string; list: MustPassList }

/** The list and the hash of its bytes (recorded in the results file, so a verdict names exactly what it was judged against). */
export function loadMustPass(file: string): LoadedMustPass {
  const list = loadJson(file, MustPassList);
  return { file, sha256: createHash('sha256').update(readFileSync(file)).digest('hex'), list };
}

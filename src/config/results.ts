// The result model: one record per case (JSON Lines stream and final file) and the final results file.
import { z } from 'zod';

export const STATUSES = ['pass', 'fail', 'crash', 'timeout', 'unsupported', 'skip', 'xfail', 'xpass', 'flaky'] as const;
export const Status = z.enum(STATUSES);
export type Status = z.infer<typeof Status>;

/** Statuses that break a gate unless waived. */
export const FAILING: ReadonlySet<Status> = new Set<Status>(['fail', 'crash', 'timeout']);
/** Statuses that mean the case body did not run. */
export const NOT_EXECUTED: ReadonlySet<Status> = new Set<Status>(['unsupported', 'skip']);

export const Requirements = z.strictObject({
  minMinor: z.number().int().min(0).optional(),
  slots: z.array(z.string()).optional(),
  capabilities: z.array(z.string()).optional(),
});
export type Requirements = z.infer<typeof Requirements>;

export const CaseResult = z.strictObject({
  id: z.string(),
  area: z.string(),
  tier: z.number().int().min(0),
  status: Status,
  durationMs: z.number().min(0),
  message: z.string().optional(),
  requires: Requirements,
  required: z.boolean().optional(),
  attempts: z.number().int().min(1).optional(),
  faultsCaught: z.array(z.string()).optional(),
  expectation: z.strictObject({ reason: z.string(), issue: z.string().optional(), status: z.array(z.string()) }).optional(),
  capabilities: z.record(z.string(), z.boolean()).optional(),
});
export type CaseResult = z.infer<typeof CaseResult>;

const AttrValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.number(), z.string()]))]);

export const PluginIdentity = z.strictObject({
  name: z.string(),
  path: z.string(),
  sha256: z.string().optional(),
  apiVersion: z.strictObject({ major: z.number().int(), minor: z.number().int() }).optional(),
  structSize: z.number().int().optional(),
  platformName: z.string().optional(),
  platformVersion: z.string().optional(),
  attributes: z.record(z.string(), AttrValue).optional(),
  devices: z.array(z.strictObject({ id: z.number(), kind: z.string(), processIndex: z.number().optional() })).optional(),
  createOptions: z.record(z.string(), AttrValue).optional(),
});
export type PluginIdentity = z.infer<typeof PluginIdentity>;

const Counts = z.record(z.string(), z.number().int().min(0));

export const ResultsFile = z.strictObject({
  schemaVersion: z.literal(1),
  cts: z.strictObject({ version: z.string() }),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().min(0),
  interrupted: z.boolean(),
  run: z.strictObject({
    strict: z.boolean(),
    gate: z.number().int().optional(),
    maxTier: z.number().int(),
    filters: z.array(z.string()),
    excludes: z.array(z.string()),
    shard: z.string().optional(),
    retries: z.number().int(),
    jobs: z.number().int(),
    expectations: z.string().optional(),
  }),
  plugin: PluginIdentity,
  environment: z.strictObject({ node: z.string(), platform: z.string(), arch: z.string(), cpus: z.number(), hostname: z.string() }),
  results: z.array(CaseResult),
  totals: z.strictObject({ byStatus: Counts, byTier: z.record(z.string(), Counts) }),
  capabilities: z.record(z.string(), z.boolean()),
  staleExpectations: z.array(z.strictObject({ tests: z.array(z.string()), reason: z.string() })),
  exitCode: z.number().int(),
});
export type ResultsFile = z.infer<typeof ResultsFile>;

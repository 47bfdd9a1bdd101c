// Output of `pjrt-cts compare --json` and `pjrt-cts compat --json` (JSON Schemas in schemas/, via `pjrt-cts schema`).
import { z } from 'zod';
import { Status } from './results.js';

const Change = z.strictObject({ id: z.string(), from: Status, to: Status, message: z.string().optional() });
const Side = z.strictObject({
  file: z.string(),
  plugin: z.string(),
  version: z.string().optional(),
  sha256: z.string().optional(),
  cts: z.string(),
  apiMinor: z.number().int(),
});

export const ComparisonReport = z.strictObject({
  /** pass → fail/crash/timeout, and pass → unsupported/skip unless --allow-new-unsupported. */
  regressions: z.array(Change),
  fixes: z.array(Change),
  /** Changes to unsupported or skip that are not regressions (from a non-pass, or pass with --allow-new-unsupported). */
  newlyUnsupported: z.array(Change),
  /** Quality checks that held before and warn now (never a regression of the gate). */
  newWarnings: z.array(Change),
  otherChanges: z.array(Change),
  added: z.array(z.strictObject({ id: z.string(), status: Status })),
  /** Ids of the old run missing from the new one: an error unless --allow-removed. */
  removed: z.array(z.strictObject({ id: z.string(), status: Status })),
  /** What differs between the runs' identities (CTS version, API minor, selection, create options); compared anyway with --force. */
  mismatches: z.array(z.string()),
  old: Side,
  new: Side,
  exitCode: z.number().int(),
});
export type ComparisonReport = z.infer<typeof ComparisonReport>;

export const CompatReport = z.strictObject({
  cts: z.strictObject({ version: z.string() }),
  plugin: z.strictObject({ name: z.string(), path: z.string(), sha256: z.string().optional(), apiMinor: z.number().int().optional() }),
  /** The minors run, newest first. */
  minors: z.array(z.number().int()),
  selection: z.strictObject({ maxTier: z.number().int(), filters: z.array(z.string()), excludes: z.array(z.string()) }),
  /** Per minor (as a string key): how many cases ended in each status. */
  counts: z.record(z.string(), z.record(z.string(), z.number().int().min(0))),
  /** Only the cases whose status differs across the minors: status per minor. */
  cases: z.array(z.strictObject({ id: z.string(), statuses: z.record(z.string(), Status), messages: z.record(z.string(), z.string()).optional() })),
  /** Cases that pass at the newest minor run and fail, crash or time out at an older one: what a compatibility window forbids. */
  windowViolations: z.array(z.strictObject({ id: z.string(), minor: z.number().int(), status: Status, message: z.string().optional() })),
  exitCode: z.number().int(),
});
export type CompatReport = z.infer<typeof CompatReport>;

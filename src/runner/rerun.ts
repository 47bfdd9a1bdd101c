// `run --rerun-failed RESULTS`: the cases of an earlier run to run again — those it recorded as not passing, and those
// it never ran (cut short by a signal, a kill or a full disk: no record at all; stopped or blocked: a `skip` saying so).
// What the earlier run selected is rebuilt from its recorded options (and, for a run that was itself a rerun, the ids
// it recorded), so a Ctrl-C'd run of 3,902 cases with 371 records reruns the other 3,531 too.
import { ConfigError } from '../config/errors.js';
import { FAILED, type ResultsFile } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { parseShard, selectCases } from './select.js';

/** Skips that say the case never ran (or ran and failed under a failed precondition). */
const NOT_A_VERDICT = /^(interrupted|not run|blocked by|depends on)/;

/** The ids the earlier run selected, as far as this catalogue has them. */
function earlierSelection(file: string, earlier: ResultsFile, catalogue: readonly CatalogueEntry[]): CatalogueEntry[] {
  const r = earlier.run;
  let shard: ReturnType<typeof parseShard> | undefined;
  try {
    shard = r.shard ? parseShard(r.shard) : undefined;
  } catch {
    throw new ConfigError(file, '$.run.shard', `expected i/n with 1 ≤ i ≤ n; got ${JSON.stringify(r.shard)}`);
  }
  const sel = selectCases(catalogue, { maxTier: r.maxTier, filters: r.filters, excludes: r.excludes, ...(shard ? { shard } : {}) });
  const narrowed = r.rerun ? new Set(r.rerun.ids) : undefined;
  return narrowed ? sel.filter((c) => narrowed.has(c.id)) : sel;
}

/** The ids to run again (`file` names the earlier run in messages). */
export function rerunSet(file: string, earlier: ResultsFile, catalogue: readonly CatalogueEntry[]): Set<string> {
  const recorded = new Set(earlier.results.map((r) => r.id));
  const ids = new Set(earlier.results.filter((r) => FAILED.has(r.status) || (r.status === 'skip' && NOT_A_VERDICT.test(r.message ?? ''))).map((r) => r.id));
  for (const c of earlierSelection(file, earlier, catalogue)) if (!recorded.has(c.id)) ids.add(c.id);
  return ids;
}

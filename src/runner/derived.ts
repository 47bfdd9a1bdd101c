// What a results file derives from its case results, in one place: the finish of a run and a `.jsonl` stream
// rebuilt into a results file (stream-results.ts) sum the same results the same way.
import type { CaseResult, ResultsFile } from '../config/results.js';
import { rootCauses } from './root-causes.js';
import { capabilityMatrix, totals } from './summary.js';

export function derivedFromResults(
  results: readonly CaseResult[], calledSlots?: ReadonlyMap<string, readonly string[]>,
): Pick<ResultsFile, 'totals' | 'capabilities' | 'rootCauses'> {
  return { totals: totals(results), capabilities: capabilityMatrix(results), rootCauses: rootCauses(results, calledSlots) };
}

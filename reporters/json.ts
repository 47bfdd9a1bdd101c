// The final results file (schema src/config/results.ts, schemaVersion 1).
import { writeFileAtomic } from '../src/runner/atomic-write.js';
import type { ResultsFile } from '../src/config/results.js';

export function writeJsonReport(file: string, results: ResultsFile): void {
  writeFileAtomic(file, JSON.stringify(results, null, 2) + '\n');
}

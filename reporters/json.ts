// The final results file (schema src/config/results.ts, schemaVersion 1).
import { writeFileAtomic } from '../src/runner/atomic-write.js';
import type { ResultsFile } from '../src/config/results.js';
import type { Reporter, RunEnd } from '../src/runner/reporter.js';

function writeJsonReport(file: string, results: ResultsFile): void {
  writeFileAtomic(file, JSON.stringify(results, null, 2) + '\n');
}

export class JsonReporter implements Reporter {
  constructor(readonly file: string) {}
  begin(): void {}
  result(): void {}
  end(e: RunEnd): void {
    e.outputs.write('JSON', this.file, () => writeJsonReport(this.file, e.file));
  }
}

// The results stream: the header line at begin, each case's final result as it arrives (written synchronously,
// so a dying CTS loses nothing written), closed at end.
import { JsonlWriter } from '../src/runner/jsonl.js';
import type { CaseResult } from '../src/config/results.js';
import type { Reporter, RunEnd, RunStart } from '../src/runner/reporter.js';

export class JsonlReporter implements Reporter {
  private w: JsonlWriter | undefined;
  constructor(readonly file: string) {}
  begin(s: RunStart): void {
    this.w = new JsonlWriter(this.file, s.header);
  }
  result(r: CaseResult): void {
    this.w?.write(r);
  }
  end(e: RunEnd): void {
    this.w?.close();
    if (this.w?.error) e.outputs.fail('results stream', this.file, this.w.error);
    else e.outputs.files.push(`results stream: ${this.file}`);
  }
}

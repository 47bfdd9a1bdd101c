// The results stream: the header line at begin, each case's final result as it arrives (written synchronously,
// so a dying CTS loses nothing written), closed at end. A result the finish amended after it was streamed (a
// message about the reference plugin rejecting the same external program) is appended again, whole: readers keep
// the last record of an id, so the stream reads as the JSON of the same run.
import { JsonlWriter } from '../src/runner/jsonl.js';
import type { CaseResult } from '../src/config/results.js';
import type { Reporter, RunEnd, RunStart } from '../src/runner/reporter.js';

export class JsonlReporter implements Reporter {
  private w: JsonlWriter | undefined;
  private readonly written = new Map<string, string>();
  constructor(readonly file: string) {}
  begin(s: RunStart): void {
    this.w = new JsonlWriter(this.file, s.header);
  }
  result(r: CaseResult): void {
    const line = JSON.stringify(r);
    this.w?.writeLine(line);
    this.written.set(r.id, line);
  }
  end(e: RunEnd): void {
    for (const r of e.file.results) {
      const before = this.written.get(r.id);
      if (before !== undefined && before !== JSON.stringify(r)) this.w?.write(r);
    }
    this.w?.close();
    if (this.w?.error) e.outputs.fail('results stream', this.file, this.w.error);
    else e.outputs.files.push(`results stream: ${this.file}`);
  }
}

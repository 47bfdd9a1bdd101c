// The outputs of a run, registered in one place. A new format is one file implementing Reporter plus one line here.
// The console comes last: it prints the lines the file reporters add to RunEnd.outputs.
import { ConsoleReporter, type ConsoleOptions } from './console.js';
import { BaselineExpectationsReporter } from './expectations.js';
import { HtmlReporter } from './html.js';
import { JsonReporter } from './json.js';
import { JsonlReporter } from './jsonl.js';
import { JunitReporter } from './junit.js';
import type { Reporter } from '../src/runner/reporter.js';

export type { Reporter, RunEnd, RunStart } from '../src/runner/reporter.js';

interface OutputOptions {
  /** The results stream (always written). */
  jsonl: string;
  json?: string;
  junit?: string;
  html?: string;
  writeExpectations?: string;
  console: ConsoleOptions;
}

const FILE_REPORTERS: readonly [keyof OutputOptions, (file: string) => Reporter][] = [
  ['json', (f) => new JsonReporter(f)],
  ['junit', (f) => new JunitReporter(f)],
  ['html', (f) => new HtmlReporter(f)],
  ['writeExpectations', (f) => new BaselineExpectationsReporter(f)],
];

export function reportersFor(o: OutputOptions): { all: Reporter[]; console: ConsoleReporter } {
  const console = new ConsoleReporter(o.console);
  const files = FILE_REPORTERS.flatMap(([k, make]) => (typeof o[k] === 'string' ? [make(o[k])] : []));
  return { all: [new JsonlReporter(o.jsonl), ...files, console], console };
}

/** Fans each call out to every reporter, in registration order. */
export class Reporters implements Reporter {
  constructor(private readonly list: readonly Reporter[]) {}
  begin(...a: Parameters<Reporter['begin']>): void { for (const r of this.list) r.begin(...a); }
  start(id: string): void { for (const r of this.list) r.start?.(id); }
  note(line: string): void { for (const r of this.list) r.note?.(line); }
  result(...a: Parameters<Reporter['result']>): void { for (const r of this.list) r.result(...a); }
  end(...a: Parameters<Reporter['end']>): void { for (const r of this.list) r.end(...a); }
}

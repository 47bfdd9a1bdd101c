// The outputs of a run, registered in one place. A new format is one file implementing Reporter plus one line here.
// The console comes last: it prints the lines the file reporters add to RunEnd.outputs.
import { ConsoleReporter, type ConsoleOptions } from './console.js';
import { JsonReporter } from './json.js';
import { JsonlReporter } from './jsonl.js';
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

// The formats with a library of their own (XML, templating) are imported only by a run that asks for them.
const FILE_REPORTERS: readonly [keyof OutputOptions, (file: string) => Reporter | Promise<Reporter>][] = [
  ['json', (f) => new JsonReporter(f)],
  ['junit', async (f) => new (await import('./junit.js')).JunitReporter(f)],
  ['html', async (f) => new (await import('./html.js')).HtmlReporter(f)],
  ['writeExpectations', async (f) => new (await import('./expectations.js')).BaselineExpectationsReporter(f)],
];

export async function reportersFor(o: OutputOptions): Promise<{ all: Reporter[]; console: ConsoleReporter }> {
  const console = new ConsoleReporter(o.console);
  const files = await Promise.all(FILE_REPORTERS.flatMap(([k, make]) => (typeof o[k] === 'string' ? [make(o[k])] : [])));
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

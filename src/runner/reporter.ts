// What every output of a run implements. A run calls begin once, result once per case (with its final status,
// from the status pipeline), and end once with the results file; a file reporter adds the line naming what it
// wrote to `files` (the console, registered last, prints them).
import type { CaseResult, ResultsFile, StreamHeader } from '../config/results.js';
import type { ReportOutputs } from './atomic-write.js';

export interface RunStart {
  /** How many cases were selected. */
  total: number;
  /** The plugin as people read it: name, library, spoken minor. */
  pluginLabel: string;
  header: StreamHeader;
}

export interface RunEnd {
  file: ResultsFile;
  verdict: string;
  stale: { tests: string[]; rules?: string[]; reason: string }[];
  /** The reports written so far (`files`: "JSON: out/full.json") and those that could not be (atomic-write.ts). */
  outputs: ReportOutputs;
}

export interface Reporter {
  begin(s: RunStart): void;
  /** A case was sent to a worker (live progress). */
  start?(id: string): void;
  /** A line about the run itself (warm-up, stop policy). */
  note?(line: string): void;
  result(r: CaseResult): void;
  end(e: RunEnd): void;
}

// One JAX test file, isolated: its own pytest process; a test that crashes the process or outlives its timeout is
// recorded as such and deselected, and the rest of the file runs in a fresh process. Then the tests that did not
// pass run again, up to `retries` times each, in fresh processes: one that passes on a retry is flaky.
import path from 'node:path';
import { runPytest, type CollectedInfo, type PytestInvocation, type PytestOutcome, type ProcessRun } from './pytest-process.js';

export interface DiedTest { id: string; how: 'crash' | 'timeout'; message: string; traceLog?: string; traceFrom?: number | null }

/** The final word on one test of the file, before triage. */
export interface TestRecord {
  id: string;
  /** The outcome of the last attempt. */
  outcome?: PytestOutcome;
  died?: DiedTest;
  /** The first attempt's failure, when a later attempt passed. */
  flakyFrom?: PytestOutcome | DiedTest;
  attempts: number;
  traceLog?: string;
}

export interface FileRun {
  file: string;
  records: TestRecord[];
  collected?: CollectedInfo;
  /** The file could not be run at all (a collection error, a crash before any test): why, with pytest's last lines. */
  broken?: { how: 'fail' | 'crash' | 'timeout'; message: string };
  seconds: number;
  processes: number;
}

type Base = Omit<PytestInvocation, 'deselect' | 'select' | 'traceLog'> & { traceLogs?: string };

const failed = (r: TestRecord): boolean => !!r.died || r.outcome?.outcome === 'failed';

/** Runs `select` (or the whole file) until every test has an outcome, one fresh process after each crash or hang. */
async function runUntilDone(base: Base, select: readonly string[] | undefined, counter: { n: number }): Promise<{ records: Map<string, TestRecord>; collected?: CollectedInfo; broken?: FileRun['broken'] }> {
  const records = new Map<string, TestRecord>();
  let collected: CollectedInfo | undefined;
  for (;;) {
    const traceLog = base.traceLogs ? path.join(base.traceLogs, `${path.basename(base.file, '.py')}-${++counter.n}.log`) : undefined;
    if (!traceLog) counter.n++;
    const run: ProcessRun = await runPytest({ ...base, deselect: [...records.keys()], ...(select ? { select } : {}), ...(traceLog ? { traceLog } : {}) });
    collected ??= run.collected;
    const before = records.size;
    for (const o of run.outcomes) records.set(o.id, { id: o.id, outcome: o, attempts: 1, ...(traceLog ? { traceLog } : {}) });
    const d = run.died;
    if (d?.inFlight) {
      const message = `${d.how === 'crash' ? 'crashed' : 'timed out'}: ${d.detail} (the test's process ran ${d.seconds} s)\n${run.tail}`;
      records.set(d.inFlight, { id: d.inFlight, died: { id: d.inFlight, how: d.how, message, ...(traceLog ? { traceLog, traceFrom: d.traceFrom ?? null } : {}) }, attempts: 1 });
      continue;
    }
    const remaining = (run.collected?.ids ?? []).filter((id) => !records.has(id));
    // A process that ended between tests with some still to run is restarted once it made progress; without
    // progress (nothing collected, a collection error) the file is broken.
    if (remaining.length && records.size > before) continue;
    if (!records.size && (d || (run.exitCode !== 0 && run.exitCode !== 5 && run.exitCode !== 1))) {
      const how = d?.how ?? (run.exitCode === null ? 'crash' : 'fail');
      return { records, ...(collected ? { collected } : {}), broken: { how, message: `${d ? d.detail : `pytest exited with code ${run.exitCode} before any test ran`}\n${run.tail}` } };
    }
    return { records, ...(collected ? { collected } : {}) };
  }
}

export async function runTestFile(base: Base, opts: { retries: number; select?: readonly string[] }): Promise<FileRun> {
  const t0 = Date.now();
  const counter = { n: 0 };
  const first = await runUntilDone(base, opts.select, counter);
  const records = first.records;
  for (let attempt = 2; attempt <= opts.retries + 1; attempt++) {
    const again = [...records.values()].filter(failed).map((r) => r.id);
    if (!again.length) break;
    const retry = await runUntilDone(base, again, counter);
    for (const [id, r] of retry.records) {
      const prev = records.get(id)!;
      const next: TestRecord = { ...r, attempts: attempt };
      if (!failed(r)) next.flakyFrom = prev.flakyFrom ?? prev.died ?? prev.outcome!;
      records.set(id, next);
    }
  }
  return {
    file: base.file, records: [...records.values()], seconds: (Date.now() - t0) / 1000, processes: counter.n,
    ...(first.collected ? { collected: first.collected } : {}), ...(first.broken ? { broken: first.broken } : {}),
  };
}

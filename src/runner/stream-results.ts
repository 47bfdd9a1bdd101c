// A results file from either form a run leaves: the final JSON, or its `.jsonl` stream (header + case records),
// which is all there is of a run that was killed. Every command that reads results (report, report --compare,
// run --rerun-failed) accepts both.
import type { ResultsFile } from '../config/results.js';
import { loadResults, loadRun } from './run-diff.js';
import { derivedFromResults } from './derived.js';
import { verdict } from './summary.js';

const UNKNOWN_ENVIRONMENT: ResultsFile['environment'] = { node: 'unknown (read from a .jsonl stream)', platform: 'unknown', arch: 'unknown', cpus: 0, hostname: 'unknown' };

/** The results of `file`: a results file as it is, a `.jsonl` stream rebuilt into one (interrupted when incomplete). */
export function loadResultsOrStream(file: string): ResultsFile {
  if (!file.endsWith('.jsonl')) return loadResults(file);
  const v = loadRun(file);
  const interrupted = v.incomplete !== undefined;
  const startedAt = v.startedAt ?? new Date(0).toISOString();
  return {
    schemaVersion: 1, cts: { version: v.cts }, startedAt, finishedAt: startedAt,
    durationMs: v.results.reduce((a, r) => a + r.durationMs, 0), interrupted,
    run: v.run,
    plugin: { name: v.plugin.name, path: v.plugin.path, ...(v.plugin.createOptions ? { createOptions: v.plugin.createOptions as NonNullable<ResultsFile['plugin']['createOptions']> } : {}) },
    environment: UNKNOWN_ENVIRONMENT, results: v.results, ...derivedFromResults(v.results),
    staleExpectations: [],
    exitCode: verdict(v.results, { ...(v.run.gate !== undefined ? { gate: v.run.gate } : {}), interrupted }).code,
  };
}

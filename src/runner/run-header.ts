// What a run records about itself before its first result (the results file's `run` and the stream's header): the
// options it ran with, its plugin, what it selected. Built once the plan is made, or from what was known when a run
// was interrupted before its cases started.
import type { LoadedMustPass } from '../config/must-pass.js';
import type { PluginIdentity, ResultsFile, StreamHeader } from '../config/results.js';
import { ctsVersion } from '../config/paths.js';
import { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS } from './defaults.js';
import type { RunOptions } from './plan.js';
import type { RunProfile } from './profile.js';

export interface RunFacts {
  maxTier: number;
  gate: number | undefined;
  apiMinor: number;
  expectations?: string;
  profile?: RunProfile;
  certification?: LoadedMustPass;
  /** --rerun-failed: the ids selected from the earlier run. */
  rerunIds?: string[];
  selected: number;
  identity: PluginIdentity;
  startedAt: Date;
}

export function runHeader(o: RunOptions, f: RunFacts): StreamHeader {
  const c = f.certification;
  const run: ResultsFile['run'] = {
    strict: o.strict, maxTier: f.maxTier, filters: o.filters, excludes: o.excludes, retries: o.retries, jobs: o.jobs,
    ...(f.gate !== undefined ? { gate: f.gate } : {}), ...(o.shard ? { shard: o.shard } : {}), ...(f.expectations ? { expectations: f.expectations } : {}),
    ...(o.programs ? { programs: o.programs } : {}), apiMinor: f.apiMinor, ...(f.profile ? { profile: f.profile } : {}),
    ...(c ? { certify: { list: c.file, ctsVersion: c.list.ctsVersion, sha256: c.sha256, cases: c.list.cases.length } } : {}),
    timeoutMs: o.timeoutMs, warmupTimeoutMs: o.warmupTimeoutMs ?? DEFAULT_WARMUP_TIMEOUT_MS,
    ...(o.maxFailures !== undefined ? { maxFailures: o.maxFailures } : {}),
    ...(f.rerunIds && o.rerunFailed ? { rerun: { file: o.rerunFailed, ids: f.rerunIds } } : {}),
    maxClientFailures: o.maxClientFailures ?? DEFAULT_MAX_CLIENT_FAILURES, maxCallFailures: o.maxCallFailures ?? DEFAULT_MAX_CALL_FAILURES,
    ...(o.repeat !== undefined && o.repeat > 1 ? { repeat: o.repeat } : {}), ...(o.soakMs !== undefined ? { soakMs: o.soakMs } : {}),
  };
  const id = f.identity;
  return {
    type: 'header', schemaVersion: 1, cts: { version: ctsVersion() }, startedAt: f.startedAt.toISOString(), run,
    plugin: { name: id.name, path: id.path, ...(id.createOptions ? { createOptions: id.createOptions } : {}), ...(id.topologyOptions ? { topologyOptions: id.topologyOptions } : {}) },
    apiMinor: f.apiMinor,
    selected: f.selected,
  };
}

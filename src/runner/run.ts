// `pjrt-cts run`: select cases, run them in workers, apply expectations, stream and write reports, decide the exit code.
import { preflight } from './preflight.js';
import { ConsoleReporter } from '../../reporters/console.js';
import { writeJsonReport } from '../../reporters/json.js';
import { writeJunitReport } from '../../reporters/junit.js';
import { ConfigError } from '../config/errors.js';
import { ExpectationsFile, WAIVABLE, type Waivable } from '../config/expectations.js';
import { ReportOutputs, writeFileAtomic } from './atomic-write.js';
import { CLIENT_CREATION_CALLS } from './call-trace.js';
import { loadResultsOrStream } from './stream-results.js';
import { checkOutputFile } from './outputs.js';
import { loadJson } from '../config/load-json.js';
import { FAILING, type CaseResult, type PluginIdentity, type ResultsFile, type StreamHeader } from '../config/results.js';
import { PJRT_API_MINOR } from '../abi/index.js';
import { API_MINOR_ENV, apiMinorProblem } from '../ffi/minor.js';
import type { CatalogueEntry } from '../harness/types.js';
import { loadCatalogue } from './catalogue.js';
import { Expectations } from './expectations.js';
import { baseIdentity, environment, sha256File } from './identity.js';
import { jsonlPath, JsonlWriter } from './jsonl.js';
import { checkRunPaths } from './run-paths.js';
import { capJobs, checkTiers } from './limits.js';
import { markBrokenPrograms } from './program-blame.js';
import type { NamedValues } from './named-value.js';
import { ctsVersion } from './paths.js';
import { isLibraryPath, loadPluginsFile, pluginsFilePath, resolvePluginArg, type ResolvedPlugin } from './plugins.js';
import type { RunCounters } from './counters.js';
import { schedule, type RawResult, type WarmupReport } from './scheduler.js';
import { checkGlobs, checkNotEmpty, inShard, parseShard, selectCases, type Shard } from './select.js';
import { capabilityMatrix, EXIT, rootCauses, skipDependents, totals, verdict } from './summary.js';

export interface RunOptions {
  config?: string;
  plugin?: string;
  createOptions: NamedValues;
  tier?: number;
  gate?: number;
  filters: string[];
  excludes: string[];
  expectations?: string;
  junit?: string;
  json?: string;
  jobs: number;
  timeoutMs: number;
  retries: number;
  shard?: string;
  strict: boolean;
  list: boolean;
  programs?: string;
  matrix: boolean;
  /** Record in each result the PJRT_Api slots the case called (docs/api-coverage.md is built from them). */
  recordSlots?: boolean;
  /** Check first that the library loads and accepts the create options (default true). */
  preflight?: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Stop after this many failures (fail, crash, timeout); the rest are recorded as not run. --bail is 1. */
  maxFailures?: number;
  /** Stop when client creation crashes or hangs in this many cases in a row (default 3; 0: never). */
  maxClientFailures?: number;
  /** Write a baseline expectations file from the run's non-passes. */
  writeExpectations?: string;
  /** Run only the non-passes of this earlier results file. */
  rerunFailed?: string;
  /** Speak this PJRT API minor (`--api-minor`): Args and PJRT_Api as a framework built against header 0.N. */
  apiMinor?: number;
  /** Deadline of each worker's warm-up before its first case (default 300 s; 0: no warm-up). */
  warmupTimeoutMs?: number;
  /** Called with the results file before the reports are written (`compat` runs once per minor and collects them). */
  onResults?: (file: ResultsFile) => void;
  /** For tests: replaces process signal handling. */
  signal?: AbortSignal;
}

/**
 * How many workers the plugin allows, and with which create options: devices held by one process at a time
 * (`exclusiveDevices`) mean one worker; several workers get the entry's `parallelCreateOptions`. Says why when
 * --jobs asked for something else.
 */
export function workerPlan(plugin: ResolvedPlugin, asked: number, out: NodeJS.WritableStream): { jobs: number; plugin: ResolvedPlugin } {
  const jobs = plugin.exclusiveDevices ? asked : capJobs(asked, out);
  if (plugin.exclusiveDevices && jobs > 1) {
    out.write(`pjrt-cts: running 1 worker instead of ${jobs}: the ${plugin.name} entry says its devices take one process at a time (exclusiveDevices)\n`);
    return { jobs: 1, plugin };
  }
  if (jobs > 1 && plugin.parallelCreateOptions) {
    const extra = plugin.parallelCreateOptions;
    out.write(`pjrt-cts: ${jobs} workers share the devices, so each creates its clients with ${Object.keys(extra).map((k) => `${k}=${String(extra[k])}`).join(', ')} (parallelCreateOptions)\n`);
    return { jobs, plugin: { ...plugin, createOptions: { ...plugin.createOptions, ...extra } } };
  }
  return { jobs, plugin };
}

function checkStrict(o: RunOptions): void {
  const bad: [boolean, string][] = [
    [o.filters.length > 0, '--filter'], [o.excludes.length > 0, '--exclude'], [o.expectations !== undefined, '--expectations'],
    [o.tier !== undefined, '--tier'], [o.shard !== undefined, '--shard'], [o.gate !== undefined, '--gate'],
  ];
  const used = bad.filter(([b]) => b).map(([, f]) => f);
  if (used.length) throw new ConfigError('--strict', used.join(' '), 'expected no selection, waiver or gate options in a certification run (it runs every tier)');
}

function toCaseResult(raw: RawResult, strict: boolean, exp: Expectations | undefined, identity: Partial<PluginIdentity>, recordSlots = false): CaseResult {
  const e = raw.entry;
  let status: CaseResult['status'] = raw.status;
  let message = raw.message;
  if (e.source === 'quality' && (FAILING.has(status) || (strict && status === 'flaky'))) {
    message = `quality check (never fails a gate) ended ${status}: ${message ?? ''}`.trimEnd();
    status = 'warn';
  } else if (strict && e.required && (status === 'skip' || status === 'unsupported')) {
    message = `required case was ${status} in a strict run${message ? `: ${message}` : ''}`;
    status = 'fail';
  } else if (strict && status === 'flaky') {
    status = 'fail';
  }
  const r: CaseResult = {
    id: e.id, area: e.area, tier: e.tier, status, durationMs: Math.round(raw.durationMs * 1000) / 1000,
    source: e.source, cite: e.cite, ...(e.selfTest ? { selfTest: e.selfTest } : {}), requires: e.requires,
  };
  if (exp) {
    const w = exp.apply(e.id, status, message, identity);
    r.status = w.status;
    message = w.message;
    if (w.expectation) r.expectation = w.expectation;
  }
  if (message) r.message = message;
  if (e.required) r.required = true;
  if (raw.attempts > 1) r.attempts = raw.attempts;
  if (e.catches.length) r.faultsCaught = e.catches;
  if (raw.capabilities) r.capabilities = raw.capabilities;
  if (raw.details) r.details = raw.details;
  if (recordSlots && raw.slots) r.slots = raw.slots;
  return r;
}

export function printList(cases: readonly CatalogueEntry[], json: boolean, out: NodeJS.WritableStream): void {
  if (json) {
    out.write(JSON.stringify(cases, null, 2) + '\n');
    return;
  }
  for (const c of cases) {
    const req = [
      c.requires.minMinor !== undefined ? `minor≥${c.requires.minMinor}` : '',
      ...(c.requires.slots ?? []), ...(c.requires.capabilities ?? []).map((x) => `cap:${x}`),
    ].filter(Boolean);
    out.write(`${c.id}\ttier${c.tier}\t${c.source}${c.selfTest ? '\tself-test' : ''}${c.required ? '\trequired' : ''}${req.length ? `\trequires ${req.join(',')}` : ''}${c.catches.length ? `\tcatches ${c.catches.join(',')}` : ''}\n`);
  }
}

/** How long the preflight may take (load, GetPjrtApi, Plugin_Initialize, Client_Create) before it is judged a hang. */
const PREFLIGHT_TIMEOUT_MS = 30_000;
/** Default K: client creation crashing or hanging in K cases in a row stops the run. */
export const DEFAULT_MAX_CLIENT_FAILURES = 3;
/** Default deadline of a worker's warm-up (first-use JIT caches may take minutes). */
export const DEFAULT_WARMUP_TIMEOUT_MS = 300_000;

function preflightTimeout(o: RunOptions): number {
  const env = Number(process.env['PJRT_CTS_PREFLIGHT_TIMEOUT_MS']);
  return Math.min(o.timeoutMs, Number.isFinite(env) && env > 0 ? env : PREFLIGHT_TIMEOUT_MS);
}

/** Statuses --rerun-failed picks up again: every non-pass that is not a verdict about the plugin's capabilities. */
const RERUN: ReadonlySet<string> = new Set(['fail', 'crash', 'timeout', 'warn', 'xfail', 'flaky']);
export const NOT_RUN = 'not run: ';

/** The ids of an earlier results file that did not pass (and those it never ran: stopped or interrupted). */
export function rerunIds(file: string): Set<string> {
  const r = loadResultsOrStream(file);
  return new Set(r.results.filter((x) => RERUN.has(x.status) || (x.status === 'skip' && /^(interrupted|not run)/.test(x.message ?? ''))).map((x) => x.id));
}

/** A baseline expectations file: every non-pass of the run, its message's first line as the reason (for a person to edit). */
export function baselineExpectations(results: readonly CaseResult[], plugin: PluginIdentity): ExpectationsFile {
  const entries: ExpectationsFile['expectations'] = [];
  for (const r of results) {
    if (r.status === 'xfail' && r.expectation) {
      entries.push({ tests: r.id, status: r.expectation.status as Waivable[], reason: r.expectation.reason, ...(r.expectation.issue ? { issue: r.expectation.issue } : {}) });
      continue;
    }
    if (!(WAIVABLE as readonly string[]).includes(r.status) || r.status === 'unsupported') continue;
    const first = (r.message ?? '').split('\n')[0]!.trim().slice(0, 300);
    entries.push({ tests: r.id, status: r.status as Waivable, reason: first || `${r.status} (no message)` });
  }
  return ExpectationsFile.parse({
    description: `baseline written by pjrt-cts run --write-expectations for ${plugin.name}${plugin.platformVersion ? ` ${plugin.platformVersion}` : ''} on ${new Date().toISOString()}: review every entry, add an issue link, narrow with pluginVersion`,
    expectations: entries,
  });
}

export async function runCommand(o: RunOptions): Promise<number> {
  if (o.strict) checkStrict(o);
  checkGlobs('--filter', o.filters);
  checkGlobs('--exclude', o.excludes);
  if (o.gate !== undefined && o.tier !== undefined && o.tier < o.gate) {
    throw new ConfigError('--gate', `tier${o.gate}`, `expected --tier ≥ ${o.gate}: with --tier ${o.tier} no case of tier ${o.gate} runs, so the gate could not judge it`);
  }
  if (o.apiMinor !== undefined) {
    const problem = apiMinorProblem(o.apiMinor);
    if (problem) throw new ConfigError('--api-minor', String(o.apiMinor), problem);
  }
  const apiMinor = o.apiMinor ?? PJRT_API_MINOR;
  const shard: Shard | undefined = o.shard ? parseShard(o.shard) : undefined;
  const rerun = o.rerunFailed ? rerunIds(o.rerunFailed) : undefined;
  const startedAt = new Date();
  const jsonlFile = jsonlPath(o.json, startedAt);
  if (!o.list) {
    // Every output path is checked before anything runs: a report that cannot be written is bad input, now.
    if (o.json) checkOutputFile(o.json, '--json');
    checkOutputFile(jsonlFile, o.json ? '--json (its .jsonl stream)' : 'results stream');
    if (o.junit) checkOutputFile(o.junit, '--junit');
    if (o.writeExpectations) checkOutputFile(o.writeExpectations, '--write-expectations');
  }
  const catalogue = await loadCatalogue(o.programs);
  checkTiers(catalogue, o);
  const maxTier = o.strict ? Math.max(0, ...catalogue.map((c) => c.tier)) : (o.tier ?? o.gate ?? Math.max(0, ...catalogue.map((c) => c.tier)));
  const sel = { maxTier: o.tier ?? o.gate ?? (o.strict ? maxTier : Infinity), filters: o.filters, excludes: o.excludes };
  let unsharded = selectCases(catalogue, sel);
  checkNotEmpty(catalogue, unsharded, sel);
  if (rerun) {
    unsharded = unsharded.filter((c) => rerun.has(c.id));
    if (!unsharded.length) throw new ConfigError('--rerun-failed', o.rerunFailed!, `expected at least one case to rerun: ${rerun.size ? 'none of its non-passes is in this selection' : 'every case of that run passed (or was unsupported)'}`);
  }
  const selected = shard ? unsharded.filter((c) => inShard(c.id, shard)) : unsharded;
  if (o.list) {
    // The same configuration checks as a real run, so `--list` cannot accept what `run` would reject.
    if (!o.plugin || !isLibraryPath(o.plugin)) loadPluginsFile(pluginsFilePath(o.config));
    if (o.expectations) loadExpectations(o.expectations);
    printList(selected, false, o.stdout);
    return EXIT.ok;
  }
  const resolved = resolvePluginArg(o.config, o.plugin, o.createOptions);
  // The workers (and the preflight's) speak the minor from their first import of src/ffi on.
  const plugin: ResolvedPlugin = { ...resolved, env: { ...resolved.env, [API_MINOR_ENV]: String(apiMinor) } };
  const expFile = o.strict ? undefined : (o.expectations ?? plugin.expectations);
  checkRunPaths(o, plugin, expFile, jsonlFile);
  const exp = expFile ? new Expectations(loadExpectations(expFile).expectations) : undefined;
  // Fake suites (the project's own runner tests) never load the plugin, so there is nothing to check.
  if (o.preflight !== false && !process.env['PJRT_CTS_SUITES']) await preflight(plugin, preflightTimeout(o));

  const t0 = Date.now();
  const identity: PluginIdentity = baseIdentity(plugin);
  const gate = o.strict ? maxTier : o.gate;
  const sha = sha256File(plugin.library);
  const runRecord: ResultsFile['run'] = {
    strict: o.strict, maxTier, filters: o.filters, excludes: o.excludes, retries: o.retries, jobs: o.jobs,
    ...(gate !== undefined ? { gate } : {}), ...(o.shard ? { shard: o.shard } : {}), ...(expFile ? { expectations: expFile } : {}),
    ...(o.programs ? { programs: o.programs } : {}), apiMinor,
  };
  const header: StreamHeader = {
    type: 'header', schemaVersion: 1, cts: { version: ctsVersion() }, startedAt: startedAt.toISOString(), run: runRecord,
    plugin: { name: identity.name, path: identity.path, ...(identity.createOptions ? { createOptions: identity.createOptions } : {}) }, apiMinor,
    selected: selected.length,
  };
  const jsonl = new JsonlWriter(jsonlFile, header);
  const con = new ConsoleReporter({ stream: o.stdout, matrix: o.matrix });
  con.begin(selected.length, `${plugin.name} (${plugin.library})${o.apiMinor !== undefined ? `, speaking PJRT API 0.${apiMinor}` : ''}`);
  const order = new Map(selected.map((c, i) => [c.id, i]));
  const results: CaseResult[] = [];

  const ac = new AbortController();
  let signalName: string | undefined;
  let stopped: string | undefined;
  const onSignal = (sig?: unknown): void => {
    signalName ??= typeof sig === 'string' ? sig : 'SIGINT';
    ac.abort();
  };
  const onAbortSignal = (): void => onSignal('SIGINT');
  o.signal?.addEventListener('abort', onAbortSignal);
  if (!o.signal) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  // Stop early: after --max-failures non-passes, or when client creation crashed or hung in K cases in a row.
  const maxClient = o.maxClientFailures ?? DEFAULT_MAX_CLIENT_FAILURES;
  let failures = 0;
  let clientStreak = 0;
  let lastClientDeath = '';
  const stop = (why: string): void => {
    if (stopped || ac.signal.aborted) return;
    stopped = why;
    ac.abort();
  };
  let interrupted = false;
  let internal: Error | undefined;
  // The warm-up: only for a real plugin, and only when some selected case compiles.
  const warmupMs = o.warmupTimeoutMs ?? DEFAULT_WARMUP_TIMEOUT_MS;
  const wantWarmup = warmupMs > 0 && !process.env['PJRT_CTS_SUITES'] && selected.some((c) => c.requires.slots?.includes('PJRT_Client_Compile'));
  let warmup: WarmupReport | undefined;
  const onWarmup = (w: WarmupReport): void => {
    if (warmup && !warmup.ok) return;
    if (!w.ok) con.note(`pjrt-cts: warm-up (a trivial program compiled and run before the first case) failed: ${w.message ?? 'unknown'}; no case is charged with it`);
    warmup ??= w;
    if (!w.ok) warmup = w;
  };
  let counters: RunCounters | undefined;
  const lanes = workerPlan(plugin, o.jobs, o.stdout);
  try {
    ({ interrupted, counters } = await schedule(
      {
        cases: selected, plugin: lanes.plugin, jobs: lanes.jobs, retries: o.retries, defaultTimeoutMs: o.timeoutMs, signal: ac.signal,
        ...(o.programs ? { programs: o.programs } : {}), ...(wantWarmup ? { warmupMs } : {}),
      },
      {
        onWarmup,
        onStart: (id) => con.start(id),
        onIdentity: (i) => Object.assign(identity, i),
        onResult: (raw) => {
          let r = toCaseResult(raw, o.strict, exp, identity, o.recordSlots);
          if (stopped && r.status === 'skip' && r.message === 'interrupted') r = { ...r, message: `${NOT_RUN}${stopped}` };
          results.push(r);
          jsonl.write(r);
          con.result(r);
          if (stopped) return;
          const call = raw.call;
          if ((raw.status === 'crash' || raw.status === 'timeout') && call && CLIENT_CREATION_CALLS.has(call)) {
            clientStreak++;
            lastClientDeath = `${call} ${raw.status === 'crash' ? (/killed by (SIG\w+)|exited with code \d+/.exec(raw.message ?? '')?.[0] ?? 'crashed') : 'hung'}`;
          } else if (raw.status !== 'skip' && raw.status !== 'unsupported') clientStreak = 0;
          if (FAILING.has(r.status)) failures++;
          if (maxClient > 0 && clientStreak >= maxClient) {
            stop(`client creation failed in ${clientStreak} cases in a row (${lastClientDeath}); no case can run until the plugin can create a client`);
          } else if (o.maxFailures !== undefined && failures >= o.maxFailures) {
            stop(`stopped after ${failures} failure(s) (${o.maxFailures === 1 ? '--bail' : `--max-failures ${o.maxFailures}`})`);
          }
        },
      },
    ));
  } catch (e) {
    internal = e as Error;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    o.signal?.removeEventListener('abort', onAbortSignal);
  }
  if (stopped) {
    interrupted = false;
    // Cases never started are recorded as not run, so the reports account for every selected case.
    const have = new Set(results.map((r) => r.id));
    for (const c of selected) {
      if (have.has(c.id)) continue;
      const r = toCaseResult({ entry: c, status: 'skip', durationMs: 0, message: `${NOT_RUN}${stopped}`, attempts: 1 }, false, undefined, identity);
      results.push(r);
      jsonl.write(r);
    }
  }
  jsonl.close();
  const s = await sha;
  if (s) identity.sha256 = s;
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  skipDependents(results, new Map(selected.filter((c) => c.dependsOn).map((c) => [c.id, c.dependsOn!])));
  if (!internal && !interrupted) await markBrokenPrograms(results, o.programs, plugin.library);
  const v = verdict(results, { ...(gate !== undefined ? { gate } : {}), interrupted });
  let code = internal ? EXIT.internal : v.code;
  if (interrupted && signalName === 'SIGTERM') code = EXIT.terminated;
  let verdictText = internal ? `pjrt-cts itself failed: ${internal.message}` : v.text;
  if (stopped && !internal) {
    code = EXIT.gateFailed;
    verdictText = `run STOPPED: ${stopped}; ${results.filter((r) => r.message?.startsWith(NOT_RUN)).length} case(s) not run. ${v.text}`;
  }
  const stale = exp ? exp.stale(catalogue.map((c) => c.id)).map((e) => ({ tests: typeof e.tests === 'string' ? [e.tests] : [...e.tests], reason: e.reason })) : [];
  const file: ResultsFile = {
    schemaVersion: 1,
    cts: { version: ctsVersion() },
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Date.now() - t0,
    interrupted,
    ...(stopped ? { stopped } : {}),
    run: runRecord,
    plugin: identity,
    environment: environment(),
    results,
    totals: totals(results),
    capabilities: capabilityMatrix(results),
    staleExpectations: stale,
    rootCauses: rootCauses(results),
    ...(counters ? { counters } : {}),
    ...(warmup ? { warmup: { ...warmup, ms: Math.round(warmup.ms) } } : {}),
    coverage: { selected: selected.length, selfTests: selected.filter((c) => c.selfTest).length },
    exitCode: code,
  };
  o.onResults?.(file);
  // Reports are written whatever happened to stdout (a closed pipe must not cost the results), each whole or not at
  // all: one that cannot be written is named with its reason, and the others and the summary still appear.
  const outs = new ReportOutputs();
  if (jsonl.error) outs.fail('results stream', jsonl.file, jsonl.error);
  else outs.files.push(`results stream: ${jsonl.file}`);
  if (o.json) outs.write('JSON', o.json, () => writeJsonReport(o.json!, file));
  if (o.junit) outs.write('JUnit', o.junit, () => writeJunitReport(o.junit!, file));
  if (o.writeExpectations) outs.write('baseline expectations', o.writeExpectations, () => writeFileAtomic(o.writeExpectations!, JSON.stringify(baselineExpectations(results, identity), null, 2) + '\n'));
  con.end(file, { verdict: verdictText, stale, files: outs.files });
  return outs.finish(code);
}

function loadExpectations(file: string): ExpectationsFile {
  const f = loadJson(file, ExpectationsFile);
  f.expectations.forEach((e, i) => checkGlobs(`$.expectations[${i}].tests`, typeof e.tests === 'string' ? [e.tests] : e.tests, file));
  return f;
}

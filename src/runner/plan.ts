// `run`, step 1 of 3: the plan. Options are checked, output paths probed, cases selected, the plugin resolved,
// expectations loaded and the preflight passed, all before any worker starts (bad input is exit 2, now).
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../config/errors.js';
import { ExpectationsFile, globList } from '../config/expectations.js';
import { loadJson } from '../config/load-json.js';
import type { PluginIdentity, ResultsFile, StreamHeader } from '../config/results.js';
import { PJRT_API_MINOR } from '../abi/index.js';
import { API_MINOR_ENV, apiMinorProblem } from '../ffi/minor.js';
import type { CatalogueEntry } from '../harness/types.js';
import type { LoadedMustPass } from '../config/must-pass.js';
import { loadCatalogue, loadCatalogueKeepingWorkers } from './catalogue.js';
import type { RunningChunk } from './child.js';
import { loadCertification } from './certify.js';
import { loadResultsOrStream } from './stream-results.js';
import { checkRunPaths, noteStreamDirectory, streamDirectoryIsNew } from './run-paths.js';
import { rerunSet } from './rerun.js';
import { runHeader } from './run-header.js';
import { interruptedPlan, type PlanProgress } from './plan-interrupted.js';
import { untilAborted } from './interrupt.js';
import { capJobs, checkTiers } from './limits.js';
import { Expectations } from './expectations.js';
import { baseIdentity, sha256File } from './identity.js';
import { jsonlPath } from './jsonl.js';
import type { NamedValues } from '../config/named-value.js';
import { isLibraryPath, loadPluginsFile, pluginsFilePath, resolvePluginArg } from './plugins.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { startPreflight, type Preflight } from './preflight.js';
import { envNumber } from '../config/env-numbers.js';
import { applyProfile, type RunProfile } from './profile.js';
import { checkGlobs, checkNotEmpty, inShard, parseShard, selectCases, type Shard } from './select.js';

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
  /** `--certify [LIST]`: a strict run judged against a must-pass list (true: this CTS version's committed one). */
  certify?: string | true;
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
  /** Block a PJRT call that crashed or hung in this many cases in a row: the cases needing it are skipped (default 3; 0: never). */
  maxCallFailures?: number;
  /** Run the selection up to this many times in the same workers (--repeat); each case's repetitions summed up. */
  repeat?: number;
  /** Keep repeating the selection until this many milliseconds have passed (--soak), up to `repeat` or SOAK_MAX_REPETITIONS. */
  soakMs?: number;
  /** Write the HTML report of the run here. */
  html?: string;
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
  /** The compile-only profile (`--compile-only`): no client; src/runner/profile.ts. */
  compileOnly?: boolean;
  /** Its topology name (`--topology`; else the entry's `topology`). */
  topology?: string;
  /** For tests: replaces process signal handling. */
  signal?: AbortSignal;
}

/** What a run will do, decided before it starts. */
export interface RunPlan {
  o: RunOptions;
  catalogue: CatalogueEntry[];
  selected: CatalogueEntry[];
  /** The plugin as the workers load it (with the spoken minor in its environment). */
  plugin: ResolvedPlugin;
  /** Filled in by the workers as they report what the plugin says about itself. */
  identity: PluginIdentity;
  pluginLabel: string;
  expectations?: Expectations;
  gate?: number;
  /** `--certify`: the must-pass list. */
  certification?: LoadedMustPass;
  startedAt: Date;
  header: StreamHeader;
  jsonlFile: string;
  sha: Promise<string | undefined>;
  /** The list worker and its spares, kept to become run workers (their environment is the run's). */
  keptWorkers?: RunningChunk[];
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

function checkStrict(o: RunOptions, flag: string): void {
  const bad: [boolean, string][] = [
    [o.filters.length > 0, '--filter'], [o.excludes.length > 0, '--exclude'], [o.expectations !== undefined, '--expectations'],
    [o.tier !== undefined, '--tier'], [o.shard !== undefined, '--shard'], [o.gate !== undefined, '--gate'],
  ];
  const used = bad.filter(([b]) => b).map(([, f]) => f);
  if (used.length) throw new ConfigError(flag, used.join(' '), 'expected no selection, waiver or gate options in a certification run (it runs every tier)');
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
    out.write(`${c.id}\ttier${c.tier}\t${c.source}${c.selfTest ? '\tself-test' : ''}${c.required ? '\trequired' : ''}${req.length ? `\trequires ${req.join(',')}` : ''}${c.catches.length ? `\tcatches ${c.catches.join(',')}` : ''}${c.description ? `\t— ${c.description}` : ''}\n`);
  }
}

/** How long the preflight may take (load, GetPjrtApi, Plugin_Initialize, Client_Create) before it is judged a hang. */
const PREFLIGHT_TIMEOUT_MS = 30_000;
export { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS } from './defaults.js';

function preflightTimeout(o: RunOptions): number {
  return Math.min(o.timeoutMs, envNumber('PJRT_CTS_PREFLIGHT_TIMEOUT_MS') ?? PREFLIGHT_TIMEOUT_MS);
}

export const NOT_RUN = 'not run: ';

/**
 * Everything decided before a worker starts: options checked, output paths probed, cases selected, plugin
 * resolved, expectations loaded, preflight passed. `undefined` for `--list` (printed here).
 */
export async function makePlan(o: RunOptions): Promise<RunPlan | undefined> {
  if (o.certify !== undefined) o = { ...o, strict: true };
  if (o.strict) checkStrict(o, o.certify !== undefined ? '--certify' : '--strict');
  const certification = o.certify !== undefined ? loadCertification(o.certify) : undefined;
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
  const startedAt = new Date();
  const jsonlFile = jsonlPath(o.json, startedAt);
  const newStreamDir = !o.json && streamDirectoryIsNew(jsonlFile);
  // Every output path is checked before anything runs: a report that cannot be written is bad input, now.
  if (!o.list) checkRunPaths(o, jsonlFile, { ...(certification ? { certify: certification.file } : {}) });
  const earlier = o.rerunFailed ? loadResultsOrStream(o.rerunFailed) : undefined;
  // What the run workers' environment and the preflight's plugin will be, when that can be told before the catalogue
  // is listed: the list worker then stays to become a run worker (with spares beside it) and the preflight runs
  // meanwhile; both are only used if the plan resolves the same plugin, in its turn.
  const early = o.list ? undefined : pluginBeforeListing(o, apiMinor);
  // What is known so far, for a run interrupted before its cases start (plan-interrupted.ts).
  const progress: PlanProgress = {
    phase: 'listing', apiMinor, startedAt, jsonlFile, ...(certification ? { certification } : {}),
    ...(early ? { plugin: early.plugin } : {}), ...(wantPreflight(o) ? {} : { preflightOff: true }),
  };
  // A signal already (during the options' checks, or before: `run --kv` waits for etcd first): nothing is started.
  if (o.signal?.aborted && !o.list) throw await interruptedPlan(o, progress);
  const checking = early && wantPreflight(o) ? startPreflight(early.plugin, preflightTimeout(o)) : undefined;
  if (checking) progress.preflight = checking;
  try {
    const listing: Promise<{ catalogue: CatalogueEntry[]; workers?: RunningChunk[] }> = early
      ? loadCatalogueKeepingWorkers(o.programs, { ...process.env, ...early.plugin.env }, early.spare, checking?.verdict)
      : loadCatalogue(o.programs).then((catalogue) => ({ catalogue }));
    // Interrupted while listing: the workers the listing would have kept are ended when it settles.
    const listed = await untilAborted(listing, o.signal, (p) => void p.then((l) => l.workers?.forEach((w) => w.kill()), () => undefined));
    const kept = listed.workers ?? [];
    try {
      const plan = await planWith(o, listed.catalogue, { apiMinor, shard, earlier, startedAt, jsonlFile, newStreamDir, certification, progress, ...(checking ? { checking } : {}) });
      if (plan && kept.length && isDeepStrictEqual(plan.plugin.env, early!.plugin.env)) return { ...plan, keptWorkers: kept };
      for (const w of kept) w.send({ type: 'end' });
      return plan;
    } catch (e) {
      for (const w of kept) w.kill();
      throw e;
    }
  } catch (e) {
    // A signal, whatever it broke on its way (a build's cmake getting the terminal's SIGINT too): an interrupted run.
    if (o.signal?.aborted && !o.list) throw await interruptedPlan(o, progress);
    checking?.cancel();
    throw e;
  }
}

/** The plugin as the run workers load it: resolved, with the profile applied and the spoken minor in its environment. */
function runPlugin(o: RunOptions, apiMinor: number, build: boolean): { plugin: ResolvedPlugin; profile?: RunProfile } {
  const { plugin: resolved, profile } = applyProfile(resolvePluginArg(o.config, o.plugin, o.createOptions, { build }), o);
  return { plugin: { ...resolved, env: { ...resolved.env, [API_MINOR_ENV]: String(apiMinor) } }, ...(profile ? { profile } : {}) };
}

/**
 * The run's plugin resolved before the catalogue is listed (without building the reference plugin), and how many
 * spare workers to start beside the list worker; undefined when it cannot be told yet (a resolution that fails now
 * fails again, in its turn, after the selection is checked).
 */
function pluginBeforeListing(o: RunOptions, apiMinor: number): { plugin: ResolvedPlugin; spare: number } | undefined {
  try {
    const { plugin } = runPlugin(o, apiMinor, false);
    // Spare workers only where the run will have them: one process at a time for exclusive devices, no more than the CPUs.
    const spare = plugin.exclusiveDevices ? 0 : Math.max(0, Math.min(o.jobs, os.availableParallelism()) - 1);
    return { plugin, spare };
  } catch {
    return undefined;
  }
}

// Fake suites (the project's own runner tests) never load the plugin, so there is nothing to check.
const wantPreflight = (o: RunOptions): boolean => o.preflight !== false && !process.env['PJRT_CTS_SUITES'];

interface PlanInputs {
  apiMinor: number;
  shard: Shard | undefined;
  /** The results file of --rerun-failed. */
  earlier: ResultsFile | undefined;
  startedAt: Date;
  jsonlFile: string;
  /** Without --json: the stream's directory (.cts-out) did not exist or was empty before this run. */
  newStreamDir: boolean;
  certification: LoadedMustPass | undefined;
  /** The preflight started before the catalogue was listed. */
  checking?: Preflight;
  progress: PlanProgress;
}

async function planWith(o: RunOptions, catalogue: CatalogueEntry[], { apiMinor, shard, earlier, startedAt, jsonlFile, newStreamDir, certification, checking, progress }: PlanInputs): Promise<RunPlan | undefined> {
  progress.catalogue = catalogue;
  checkTiers(catalogue, o);
  const maxTier = o.strict ? Math.max(0, ...catalogue.map((c) => c.tier)) : (o.tier ?? o.gate ?? Math.max(0, ...catalogue.map((c) => c.tier)));
  const sel = { maxTier: o.tier ?? o.gate ?? (o.strict ? maxTier : Infinity), filters: o.filters, excludes: o.excludes };
  let unsharded = selectCases(catalogue, sel);
  checkNotEmpty(catalogue, unsharded, sel);
  const rerun = earlier ? rerunSet(o.rerunFailed!, earlier, catalogue) : undefined;
  if (rerun) {
    unsharded = unsharded.filter((c) => rerun.has(c.id));
    if (!unsharded.length) {
      throw new ConfigError('--rerun-failed', o.rerunFailed!, `expected at least one case to rerun: ${rerun.size ? 'none of the cases it did not pass or never ran is in this selection' : 'that run recorded every case it selected, and each passed (or was unsupported or skipped)'}`);
    }
  }
  const selected = shard ? unsharded.filter((c) => inShard(c.id, shard)) : unsharded;
  if (!selected.length) {
    throw new ConfigError('--shard', o.shard!, `expected at least one case to run: shard ${shard!.index} of ${shard!.count} holds none of the ${unsharded.length} case(s) selected (ids are spread by a hash: with fewer shards each gets some)`);
  }
  if (o.list) {
    // The same configuration checks as a real run, so `--list` cannot accept what `run` would reject.
    if (!o.plugin || !isLibraryPath(o.plugin)) loadPluginsFile(pluginsFilePath(o.config));
    if (o.expectations) loadExpectations(o.expectations);
    printList(selected, false, o.stdout);
    return undefined;
  }
  progress.selected = selected;
  // The workers (and the preflight's) speak the minor from their first import of src/ffi on.
  const { plugin, profile } = runPlugin(o, apiMinor, true);
  const expFile = o.strict ? undefined : (o.expectations ?? plugin.expectations);
  Object.assign(progress, { plugin, ...(profile ? { profile } : {}), ...(expFile ? { expectations: expFile } : {}) });
  checkRunPaths(o, jsonlFile, { plugin, ...(expFile ? { expectations: expFile } : {}), ...(certification ? { certify: certification.file } : {}) });
  noteStreamDirectory(o, jsonlFile, newStreamDir);
  if (earlier) {
    const recorded = new Set(earlier.results.map((r) => r.id));
    const never = selected.filter((c) => !recorded.has(c.id)).length;
    o.stdout.write(`pjrt-cts: --rerun-failed: ${selected.length} case(s) of ${o.rerunFailed}: ${selected.length - never} it did not pass, ${never} it never ran\n`);
  }
  const exp = expFile ? new Expectations(loadExpectations(expFile).expectations) : undefined;
  progress.phase = 'preflight';
  if (checking && isDeepStrictEqual(checking.plugin, plugin)) await untilAborted(checking.verdict, o.signal);
  else {
    checking?.cancel();
    delete progress.preflight;
    if (wantPreflight(o)) {
      progress.preflight = startPreflight(plugin, preflightTimeout(o));
      await untilAborted(progress.preflight.verdict, o.signal);
    }
  }

  const identity: PluginIdentity = baseIdentity(plugin);
  const gate = o.strict ? maxTier : o.gate;
  const header = runHeader(o, {
    maxTier, gate, apiMinor, ...(expFile ? { expectations: expFile } : {}), ...(profile ? { profile } : {}), ...(certification ? { certification } : {}),
    ...(rerun ? { rerunIds: selected.map((c) => c.id) } : {}), selected: selected.length, identity, startedAt,
  });
  return {
    o, catalogue, selected, plugin, identity, startedAt, header, jsonlFile, sha: sha256File(plugin.library),
    ...(exp ? { expectations: exp } : {}), ...(gate !== undefined ? { gate } : {}), ...(certification ? { certification } : {}),
    pluginLabel: `${plugin.name} (${plugin.library})${o.apiMinor !== undefined ? `, speaking PJRT API 0.${apiMinor}` : ''}`,
  };
}

export function loadExpectations(file: string): ExpectationsFile {
  const f = loadJson(file, ExpectationsFile);
  f.expectations.forEach((e, i) => {
    checkGlobs(`$.expectations[${i}].tests`, globList(e.tests), file);
    checkGlobs(`$.expectations[${i}].rules`, globList(e.rules), file);
  });
  return f;
}

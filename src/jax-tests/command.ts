// `pjrt-cts jax-tests --jax-src DIR [FILE-GLOB…]`: JAX's own test files, unpatched, under pytest against the plugin
// (loaded as JAX loads plugins: src/framework/jax-env.ts), each file in its own watched processes (file-runner.ts), every test
// judged once (triage.ts, then the status pipeline with the expectations) and written by the reporters every run
// uses: console, JSON results and stream, JUnit, HTML, and the baseline to accept (baseline.ts).
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportersFor, Reporters } from '../../reporters/index.js';
import { ConfigError } from '../config/errors.js';
import type { NamedValues } from '../config/named-value.js';
import { ctsVersion } from '../config/paths.js';
import type { CaseResult, PluginIdentity, ResultsFile, StreamHeader } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { ReportOutputs } from '../runner/atomic-write.js';
import { derivedFromResults } from '../runner/derived.js';
import { Expectations } from '../runner/expectations.js';
import { environment, sha256File } from '../runner/identity.js';
import { jsonlPath } from '../runner/jsonl.js';
import { loadExpectations } from '../runner/plan.js';
import { resolvePluginArg } from '../runner/plugins.js';
import { StatusPipeline } from '../runner/status.js';
import { loadResultsOrStream } from '../runner/stream-results.js';
import { verdict } from '../runner/summary.js';
import { JaxBaselineReporter } from './baseline.js';
import { blameOf, logSlice, type Blame } from './call-blame.js';
import { traceShimPath } from '../runner/reference-build.js';
import { lackedFromResults } from './capabilities.js';
import { checkVersions, pythonFor, selectTestFiles } from './checkout.js';
import { runTestFile, type FileRun, type TestRecord } from './file-runner.js';
import { targetEnv, type JaxTarget } from '../framework/jax-env.js';
import { SMOKE_FILES } from './smoke.js';
import { rawResult } from './triage.js';

/** JAX's tests are framework cases of tier 1: what a user of the plugin meets first. */
const JAX_TESTS_TIER = 1;
/** The id of a JAX test: its pytest node id under `jax.`; its area is its file. */
const ID_PREFIX = 'jax.';
/** While no test is in flight (collection, module setup, JAX's backend coming up). */
const IDLE_TIMEOUT_MS = 600_000;
/** Statuses a rerun runs again (as run --rerun-failed: src/runner/rerun.ts). */
const AGAIN: ReadonlySet<string> = new Set(['fail', 'crash', 'timeout', 'warn', 'xfail', 'flaky']);

export interface JaxTestsOptions {
  jaxSrc: string;
  files: string[];
  smoke: boolean;
  keyword?: string;
  plugin?: string;
  config?: string;
  createOptions: NamedValues;
  jaxCpu: boolean;
  fromResults?: string;
  expectations?: string;
  writeExpectations?: string;
  rerunFailed?: string;
  json?: string;
  junit?: string;
  html?: string;
  jobs: number;
  timeoutMs: number;
  retries: number;
  callTrace: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
}

const idOf = (nodeid: string): string => `${ID_PREFIX}${nodeid}`;
const nodeIdOf = (id: string): string => id.slice(ID_PREFIX.length);
const fileOf = (nodeid: string): string => nodeid.split('::')[0]!;

function entryOf(nodeid: string, version: string): CatalogueEntry {
  const file = fileOf(nodeid);
  return {
    id: idOf(nodeid), area: idOf(file), tier: JAX_TESTS_TIER, catches: [], source: 'framework',
    cite: `JAX ${version} ${file} (JAX's own test suite, run unpatched)`, requires: {}, required: false,
  };
}

/** --rerun-failed: per file, the node ids an earlier run did not pass. */
function rerunSelection(file: string): Map<string, string[]> {
  const earlier = loadResultsOrStream(file);
  const out = new Map<string, string[]>();
  for (const r of earlier.results) {
    if (!r.id.startsWith(ID_PREFIX) || !(AGAIN.has(r.status) || (r.status === 'skip' && /^(interrupted|not run)/.test(r.message ?? '')))) continue;
    const nodeid = nodeIdOf(r.id);
    const f = fileOf(nodeid);
    (out.get(f) ?? out.set(f, []).get(f)!).push(nodeid);
  }
  if (!out.size) throw new ConfigError('--rerun-failed', file, 'expected a jax-tests results file with a test that did not pass; every test passed');
  return out;
}

/** The plugin (or JAX's CPU backend) under test, its identity, and the trace shim when --call-trace asks. */
async function targetOf(o: JaxTestsOptions): Promise<{ target: JaxTarget; identity: PluginIdentity; label: string; traced: boolean }> {
  if (o.jaxCpu) {
    if (o.plugin || o.callTrace) throw new ConfigError('--jax-cpu', 'true', 'runs JAX\'s own CPU backend: no --plugin, no --call-trace');
    return { target: { kind: 'jax-cpu' }, identity: { name: 'jax-cpu', path: 'jaxlib (JAX\'s built-in CPU backend)' }, label: 'JAX\'s CPU backend', traced: false };
  }
  const plugin = resolvePluginArg(o.config, o.plugin, o.createOptions);
  const identity: PluginIdentity = { name: plugin.name, path: plugin.library, createOptions: Object.fromEntries(Object.entries(plugin.createOptions).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : Array.isArray(v) ? v.map(Number) : v])) };
  if (!o.callTrace) return { target: { kind: 'plugin', plugin }, identity, label: plugin.name, traced: false };
  const shim = traceShimPath();
  return { target: { kind: 'plugin', plugin, traceShim: shim }, identity, label: plugin.name, traced: true };
}

export async function jaxTestsCommand(o: JaxTestsOptions): Promise<number> {
  const startedAt = new Date();
  const python = pythonFor();
  const { version } = checkVersions(path.resolve(o.jaxSrc), python);
  const checkout = path.resolve(o.jaxSrc);
  const rerun = o.rerunFailed ? rerunSelection(o.rerunFailed) : undefined;
  const files = rerun ? selectTestFiles(checkout, [...rerun.keys()]) : selectTestFiles(checkout, o.smoke ? SMOKE_FILES : o.files);
  const { target, identity, label, traced } = await targetOf(o);
  const expectations = o.expectations ? new Expectations(loadExpectations(o.expectations).expectations) : undefined;
  const lacking = o.fromResults ? lackedFromResults(o.fromResults) : [];
  const jobs = Math.max(1, Math.min(o.jobs, os.availableParallelism()));

  const t = targetEnv(target);
  try {
    const lackingFile = path.join(t.tmp, 'lacking.json');
    writeFileSync(lackingFile, JSON.stringify(lacking));
    const jsonl = jsonlPath(o.json, startedAt);
    const run: ResultsFile['run'] = {
      strict: false, maxTier: JAX_TESTS_TIER, filters: o.smoke ? ['--smoke'] : o.files, excludes: o.keyword ? [`-k ${o.keyword}`] : [],
      retries: o.retries, jobs, timeoutMs: o.timeoutMs, ...(o.expectations ? { expectations: path.resolve(o.expectations) } : {}),
      ...(rerun && o.rerunFailed ? { rerun: { file: o.rerunFailed, ids: [...rerun.values()].flat().map(idOf) } } : {}),
    };
    const header: StreamHeader = {
      type: 'header', schemaVersion: 1, cts: { version: ctsVersion() }, startedAt: startedAt.toISOString(), run,
      plugin: { name: identity.name, path: identity.path, ...(identity.createOptions ? { createOptions: identity.createOptions } : {}) }, apiMinor: 0,
    };
    const { all } = await reportersFor({ jsonl, console: { stream: o.stdout }, ...(o.json ? { json: o.json } : {}), ...(o.junit ? { junit: o.junit } : {}), ...(o.html ? { html: o.html } : {}) });
    const out = new Reporters(o.writeExpectations ? [new JaxBaselineReporter(o.writeExpectations, label), ...all] : all);
    out.begin({ total: 0, pluginLabel: `${label} under JAX ${version} (${files.length} test file${files.length > 1 ? 's' : ''})`, header });
    if (lacking.length) out.note(`pjrt-cts: capabilities the plugin lacks (from ${o.fromResults}): ${lacking.map((l) => l.name).join(', ')}; tests naming them are unsupported`);

    const results: CaseResult[] = [];
    const pipeline = new StatusPipeline({ strict: false, identity, ...(expectations ? { expectations } : {}) }, new Set(), (r) => {
      results.push(r);
      out.result(r);
    });
    const blame = (rec: TestRecord): Blame | undefined => {
      if (!traced || !rec.traceLog) return undefined;
      const from = rec.died ? rec.died.traceFrom : rec.outcome?.traceFrom;
      const to = rec.died ? null : rec.outcome?.traceTo;
      return blameOf(logSlice(rec.traceLog, from, to), rec.died?.how);
    };
    const perFile: FileRun[] = [];
    const accept = (fr: FileRun): void => {
      perFile.push(fr);
      if (fr.collected?.platform && !identity.platformName) {
        identity.platformName = fr.collected.platform;
        if (fr.collected.platformVersion) identity.platformVersion = fr.collected.platformVersion;
      }
      const devices = fr.collected?.devices;
      for (const rec of fr.records) {
        out.start(idOf(rec.id));
        pipeline.accept(rawResult(entryOf(rec.id, version), rec, devices, blame(rec)));
      }
      if (fr.broken) {
        const e = entryOf(fr.file, version);
        pipeline.accept({ entry: { ...e, area: e.id }, status: fr.broken.how, durationMs: fr.seconds * 1000, attempts: 1, message: `the test file did not run: ${fr.broken.message}`, ...(fr.broken.how === 'fail' ? { rule: `jax-collect:${fr.file}` } : { call: 'jax-test' }) });
      }
      out.note(`pjrt-cts: ${fr.file}: ${fr.records.length} test(s) in ${fr.seconds.toFixed(1)} s (${fr.processes} process${fr.processes > 1 ? 'es' : ''})`);
    };
    const queue = [...files];
    const traceDir = target.kind === 'plugin' && target.traceShim ? t.tmp : undefined;
    await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, async () => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        const select = rerun?.get(f);
        accept(await runTestFile({
          python, checkout, file: f, env: t.env, timeoutMs: o.timeoutMs, idleTimeoutMs: Math.max(IDLE_TIMEOUT_MS, o.timeoutMs), scratch: t.tmp, lackingFile,
          ...(o.keyword ? { keyword: o.keyword } : {}), ...(traceDir ? { traceLogs: traceDir } : {}),
        }, { retries: o.retries, ...(select ? { select } : {}) }));
      }
    }));
    pipeline.flush();

    const order = new Map(perFile.flatMap((f) => f.records.map((r) => idOf(r.id))).map((id, i) => [id, i]));
    results.sort((a, b) => (files.indexOf(nodeIdOf(a.area)) - files.indexOf(nodeIdOf(b.area))) || ((order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)));
    if (target.kind === 'plugin') {
      const sha = await sha256File(target.plugin.library);
      if (sha) identity.sha256 = sha;
    }
    const devices = perFile.find((f) => f.collected?.devices !== undefined)?.collected?.devices;
    if (devices !== undefined) identity.devices = Array.from({ length: devices }, (_, id) => ({ id, kind: identity.platformName ?? 'unknown' }));
    const v = verdict(results, { interrupted: false });
    const file: ResultsFile = {
      schemaVersion: 1, cts: { version: ctsVersion() }, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(),
      durationMs: Date.now() - startedAt.getTime(), interrupted: false, run, plugin: identity, environment: environment(), results,
      ...derivedFromResults(results), staleExpectations: [], coverage: { selected: results.length, selfTests: 0 }, exitCode: v.code,
    };
    const outputs = new ReportOutputs();
    out.end({ file, verdict: `JAX ${version} tests on ${label}: ${v.text}`, stale: [], outputs });
    return outputs.finish(v.code);
  } finally {
    rmSync(t.tmp, { recursive: true, force: true });
  }
}

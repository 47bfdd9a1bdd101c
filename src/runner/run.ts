// `pjrt-cts run`: select cases, run them in workers, apply expectations, stream and write reports, decide the exit code.
import { preflight } from './preflight.js';
import { ConsoleReporter } from '../../reporters/console.js';
import { writeJsonReport } from '../../reporters/json.js';
import { writeJunitReport } from '../../reporters/junit.js';
import { ConfigError } from '../config/errors.js';
import { ExpectationsFile } from '../config/expectations.js';
import { loadJson } from '../config/load-json.js';
import type { CaseResult, PluginIdentity, ResultsFile } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { loadCatalogue } from './catalogue.js';
import { Expectations } from './expectations.js';
import { baseIdentity, environment, sha256File } from './identity.js';
import { jsonlPath, JsonlWriter } from './jsonl.js';
import type { NamedValues } from './named-value.js';
import { ctsVersion } from './paths.js';
import { pluginsFilePath, resolvePlugin } from './plugins.js';
import { schedule, type RawResult } from './scheduler.js';
import { parseShard, selectCases, type Shard } from './select.js';
import { capabilityMatrix, EXIT, totals, verdict } from './summary.js';

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
  /** Check first that the library loads and accepts the create options (default true). */
  preflight?: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** For tests: replaces process signal handling. */
  signal?: AbortSignal;
}

function checkStrict(o: RunOptions): void {
  const bad: [boolean, string][] = [
    [o.filters.length > 0, '--filter'], [o.excludes.length > 0, '--exclude'], [o.expectations !== undefined, '--expectations'],
    [o.tier !== undefined, '--tier'], [o.shard !== undefined, '--shard'], [o.gate !== undefined, '--gate'],
  ];
  const used = bad.filter(([b]) => b).map(([, f]) => f);
  if (used.length) throw new ConfigError('--strict', used.join(' '), 'expected no selection, waiver or gate options in a certification run (it runs every tier)');
}

function toCaseResult(raw: RawResult, strict: boolean, exp: Expectations | undefined, identity: Partial<PluginIdentity>): CaseResult {
  const e = raw.entry;
  let status: CaseResult['status'] = raw.status;
  let message = raw.message;
  if (strict && e.required && (status === 'skip' || status === 'unsupported')) {
    message = `required case was ${status} in a strict run${message ? `: ${message}` : ''}`;
    status = 'fail';
  } else if (strict && status === 'flaky') {
    status = 'fail';
  }
  const r: CaseResult = { id: e.id, area: e.area, tier: e.tier, status, durationMs: Math.round(raw.durationMs * 1000) / 1000, requires: e.requires };
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
    out.write(`${c.id}\ttier${c.tier}${c.required ? '\trequired' : ''}${req.length ? `\trequires ${req.join(',')}` : ''}${c.catches.length ? `\tcatches ${c.catches.join(',')}` : ''}\n`);
  }
}

/** How long the preflight may take before the run goes on without its verdict. */
const PREFLIGHT_TIMEOUT_MS = 20_000;

export async function runCommand(o: RunOptions): Promise<number> {
  if (o.strict) checkStrict(o);
  const shard: Shard | undefined = o.shard ? parseShard(o.shard) : undefined;
  const catalogue = await loadCatalogue(o.programs);
  const maxTier = o.strict ? Math.max(0, ...catalogue.map((c) => c.tier)) : (o.tier ?? o.gate ?? Math.max(0, ...catalogue.map((c) => c.tier)));
  const selected = selectCases(catalogue, { maxTier, filters: o.filters, excludes: o.excludes, ...(shard ? { shard } : {}) });
  if (o.list) {
    printList(selected, false, o.stdout);
    return EXIT.ok;
  }
  const configFile = pluginsFilePath(o.config);
  const plugin = resolvePlugin(configFile, o.plugin, o.createOptions);
  const expFile = o.strict ? undefined : (o.expectations ?? plugin.expectations);
  const exp = expFile ? new Expectations(loadJson(expFile, ExpectationsFile).expectations) : undefined;
  // Fake suites (the project's own runner tests) never load the plugin, so there is nothing to check.
  if (o.preflight !== false && !process.env['PJRT_CTS_SUITES']) await preflight(plugin, Math.min(o.timeoutMs, PREFLIGHT_TIMEOUT_MS));

  const startedAt = new Date();
  const t0 = Date.now();
  const identity: PluginIdentity = baseIdentity(plugin);
  const sha = sha256File(plugin.library);
  const jsonl = new JsonlWriter(jsonlPath(o.json, startedAt));
  const con = new ConsoleReporter({ stream: o.stdout, matrix: o.matrix });
  con.begin(selected.length, `${plugin.name} (${plugin.library})`);
  const order = new Map(selected.map((c, i) => [c.id, i]));
  const results: CaseResult[] = [];

  const ac = new AbortController();
  const onSignal = (): void => ac.abort();
  o.signal?.addEventListener('abort', onSignal);
  if (!o.signal) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  let interrupted = false;
  let internal: Error | undefined;
  try {
    ({ interrupted } = await schedule(
      { cases: selected, plugin, jobs: o.jobs, retries: o.retries, defaultTimeoutMs: o.timeoutMs, signal: ac.signal, ...(o.programs ? { programs: o.programs } : {}) },
      {
        onStart: (id) => con.start(id),
        onIdentity: (i) => Object.assign(identity, i),
        onResult: (raw) => {
          const r = toCaseResult(raw, o.strict, exp, identity);
          results.push(r);
          jsonl.write(r);
          con.result(r);
        },
      },
    ));
  } catch (e) {
    internal = e as Error;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    jsonl.close();
  }
  const s = await sha;
  if (s) identity.sha256 = s;
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const gate = o.strict ? maxTier : o.gate;
  const v = verdict(results, { ...(gate !== undefined ? { gate } : {}), interrupted });
  const code = internal ? EXIT.internal : v.code;
  const stale = exp ? exp.stale(catalogue.map((c) => c.id)).map((e) => ({ tests: typeof e.tests === 'string' ? [e.tests] : [...e.tests], reason: e.reason })) : [];
  const file: ResultsFile = {
    schemaVersion: 1,
    cts: { version: ctsVersion() },
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Date.now() - t0,
    interrupted,
    run: {
      strict: o.strict, maxTier, filters: o.filters, excludes: o.excludes, retries: o.retries, jobs: o.jobs,
      ...(gate !== undefined ? { gate } : {}), ...(o.shard ? { shard: o.shard } : {}), ...(expFile ? { expectations: expFile } : {}),
    },
    plugin: identity,
    environment: environment(),
    results,
    totals: totals(results),
    capabilities: capabilityMatrix(results),
    staleExpectations: stale,
    exitCode: code,
  };
  const files = [`results stream: ${jsonl.file}`];
  if (o.json) {
    writeJsonReport(o.json, file);
    files.push(`JSON: ${o.json}`);
  }
  if (o.junit) {
    writeJunitReport(o.junit, file);
    files.push(`JUnit: ${o.junit}`);
  }
  con.end(file, { verdict: internal ? `pjrt-cts itself failed: ${internal.message}` : v.text, stale, files });
  return code;
}

// `pjrt-cts compat`: the same selection run once per API minor (`run --api-minor`, through runCommand), as a matrix of
// the cases whose status differs across minors. A case that passes at the newest minor run and fails, crashes or
// times out at an older one is what PJRT's compatibility window forbids: the summary names it and the exit code is 1.
import { Writable } from 'node:stream';
import { writeFileAtomic } from '../runner/atomic-write.js';
import { z } from 'zod';
import { PJRT_API_MINOR } from '../abi/index.js';
import { ConfigError } from '../config/errors.js';
import { FAILING, type ResultsFile, type Status } from '../config/results.js';
import type { CompatReport } from '../config/version-compat.js';
import { apiMinorProblem, OLDEST_API_MINOR } from '../ffi/minor.js';
import { checkCompatPaths } from '../runner/run-paths.js';
import { ctsVersion } from '../config/paths.js';
import { runCommand, type RunOptions } from './run.js';
import { EXIT } from '../runner/summary.js';

const GOOD: ReadonlySet<Status> = new Set(['pass', 'xpass', 'flaky']);
/** Default minors: the plugin's own and these many older. */
const DEFAULT_STEPS = [0, 6, 12, 24] as const;

const Item = z.string().regex(/^(\d+)(?:\.\.(\d+)(?::(\d+))?)?$/, 'expected N, A..B or A..B:STEP');

/** `114,108,102,90`, `90..114`, `90..114:6` (a range with a step, newest end kept): the minors, newest first. */
export function parseMinors(v: string): number[] {
  const out = new Set<number>();
  for (const raw of v.split(',')) {
    const item = raw.trim();
    const ok = Item.safeParse(item);
    if (!ok.success) throw new ConfigError('--minors', v, `${item || '(empty)'}: ${ok.error.issues[0]!.message}, comma-separated (e.g. 114,108,102,90 or 90..114:6)`);
    const m = /^(\d+)(?:\.\.(\d+)(?::(\d+))?)?$/.exec(item)!;
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    const step = m[3] !== undefined ? Number(m[3]) : 1;
    if (step < 1) throw new ConfigError('--minors', v, `${item}: expected a step ≥ 1`);
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    for (const n of [lo, hi]) {
      const problem = apiMinorProblem(n);
      if (problem) throw new ConfigError('--minors', v, `${n}: ${problem}`);
    }
    for (let n = hi; n >= lo; n -= step) out.add(n);
  }
  if (out.size < 2) throw new ConfigError('--minors', v, 'expected at least two minors to compare');
  return [...out].sort((x, y) => y - x);
}

/** The plugin's own minor (at most the CTS's newest) and DEFAULT_STEPS older, none below 0.29. */
export function defaultMinors(pluginMinor: number): number[] {
  const top = Math.min(pluginMinor, PJRT_API_MINOR);
  return [...new Set(DEFAULT_STEPS.map((d) => Math.max(OLDEST_API_MINOR, top - d)))].sort((x, y) => y - x);
}

interface CompatOptions extends Omit<RunOptions, 'apiMinor' | 'json' | 'junit' | 'list' | 'matrix' | 'onResults' | 'writeExpectations' | 'rerunFailed' | 'gate' | 'strict'> {
  /** Explicit minors (parseMinors); default: defaultMinors of the plugin's own. */
  minors?: number[];
  /** Write the matrix as JSON (schemas/compat.schema.json). */
  json?: string;
}

const discard = (): NodeJS.WritableStream => new Writable({ write: (_c, _e, cb) => cb() });

/** One run of the selection at `minor`: its results file (or the exit code that stopped it). */
async function runAt(o: CompatOptions, minor: number | undefined): Promise<ResultsFile | number> {
  let file: ResultsFile | undefined;
  const code = await runCommand({
    ...o, strict: false, list: false, matrix: false, stdout: discard(),
    ...(minor !== undefined ? { apiMinor: minor } : {}),
    onResults: (f) => (file = f),
  });
  if (code === EXIT.internal || code === EXIT.interrupted || code === EXIT.terminated || !file || file.interrupted) return code;
  return file;
}

export function compatReport(runs: ReadonlyMap<number, ResultsFile>, sel: CompatReport['selection']): CompatReport {
  const minors = [...runs.keys()].sort((x, y) => y - x);
  const newest = minors[0]!;
  const first = runs.get(newest)!;
  const ids = [...new Set(minors.flatMap((m) => runs.get(m)!.results.map((r) => r.id)))];
  const byMinor = new Map(minors.map((m) => [m, new Map(runs.get(m)!.results.map((r) => [r.id, r]))]));
  const cases: CompatReport['cases'] = [];
  const windowViolations: CompatReport['windowViolations'] = [];
  for (const id of ids) {
    const statuses: Record<string, Status> = {};
    const messages: Record<string, string> = {};
    for (const m of minors) {
      const r = byMinor.get(m)!.get(id);
      if (!r) continue;
      statuses[String(m)] = r.status;
      if (r.status !== 'pass' && r.message) messages[String(m)] = r.message.split('\n')[0]!;
    }
    if (new Set(Object.values(statuses)).size > 1) cases.push({ id, statuses, ...(Object.keys(messages).length ? { messages } : {}) });
    const top = statuses[String(newest)];
    if (top === undefined || !GOOD.has(top)) continue;
    for (const m of minors.slice(1)) {
      const r = byMinor.get(m)!.get(id);
      if (r && FAILING.has(r.status)) windowViolations.push({ id, minor: m, status: r.status, ...(r.message ? { message: r.message.split('\n')[0]! } : {}) });
    }
  }
  const counts: CompatReport['counts'] = {};
  for (const m of minors) counts[String(m)] = runs.get(m)!.totals.byStatus;
  return {
    cts: { version: ctsVersion() },
    plugin: {
      name: first.plugin.name, path: first.plugin.path, ...(first.plugin.sha256 ? { sha256: first.plugin.sha256 } : {}),
      ...(first.plugin.apiVersion ? { apiMinor: first.plugin.apiVersion.minor } : {}),
    },
    minors, selection: sel, counts, cases, windowViolations,
    exitCode: windowViolations.length ? EXIT.gateFailed : EXIT.ok,
  };
}

const STATUS_ORDER: readonly string[] = ['pass', 'fail', 'crash', 'timeout', 'warn', 'unsupported', 'skip', 'xfail', 'xpass', 'flaky'];

export function renderCompat(r: CompatReport): string {
  const cols = r.minors.map((m) => `0.${m}`);
  const width = Math.max(10, ...cols.map((c) => c.length)) + 2;
  const idWidth = Math.max(4, ...r.cases.map((c) => c.id.length)) + 2;
  const L: string[] = [`pjrt-cts compat: ${r.plugin.name}${r.plugin.apiMinor !== undefined ? ` (plugin API 0.${r.plugin.apiMinor})` : ''} at ${cols.join(', ')}`, ''];
  const row = (first: string, cells: string[]): string => (first.padEnd(idWidth) + cells.map((c) => c.padEnd(width)).join('')).trimEnd();
  L.push(row('case', cols));
  if (!r.cases.length) L.push('  (every case has the same status at every minor)');
  for (const c of r.cases) L.push(row(c.id, r.minors.map((m) => c.statuses[String(m)] ?? '-')));
  L.push('');
  const statuses = STATUS_ORDER.filter((s) => r.minors.some((m) => (r.counts[String(m)]?.[s] ?? 0) > 0));
  for (const s of statuses) L.push(row(`${s}:`, r.minors.map((m) => String(r.counts[String(m)]?.[s] ?? 0))));
  L.push('');
  if (r.windowViolations.length) {
    L.push(`COMPATIBILITY WINDOW BROKEN: ${r.windowViolations.length} case(s) pass at 0.${r.minors[0]} but fail at an older minor (a framework built against that header would break):`);
    for (const v of r.windowViolations) L.push(`  ${v.id} at 0.${v.minor}: ${v.status}${v.message ? `  ${v.message}` : ''}`);
  } else {
    L.push(`pjrt-cts compat: no case that passes at 0.${r.minors[0]} fails at an older minor (${r.cases.length} case(s) differ, e.g. unsupported where they need a newer minor)`);
  }
  return L.join('\n') + '\n';
}

const seconds = (ms: number): string => (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
const countsLine = (r: ResultsFile): string => Object.entries(r.totals.byStatus).map(([k, v]) => `${v} ${k}`).join(', ');

export async function compatCommand(o: CompatOptions): Promise<number> {
  if (o.json) checkCompatPaths(o, o.json);
  const say = (s: string): void => void o.stdout.write(s);
  const runs = new Map<number, ResultsFile>();
  let minors = o.minors;
  if (!minors) {
    // The plugin's own minor is learnt from a first run at the newest minor the CTS speaks.
    say(`pjrt-cts compat: running at 0.${PJRT_API_MINOR} to learn the plugin's minor\n`);
    const first = await runAt(o, undefined);
    if (typeof first === 'number') return first;
    const own = first.plugin.apiVersion?.minor ?? PJRT_API_MINOR;
    minors = defaultMinors(own);
    if (minors[0] === PJRT_API_MINOR) {
      runs.set(PJRT_API_MINOR, first);
      say(`  0.${PJRT_API_MINOR}: ${countsLine(first)}\n`);
    }
  }
  const todo = minors.filter((m) => !runs.has(m));
  say(`pjrt-cts compat: ${todo.length} run(s) of the selection, one per minor (${todo.map((m) => `0.${m}`).join(', ')})${todo.length > 1 ? '; an estimate follows the first' : ''}\n`);
  for (const [i, m] of todo.entries()) {
    const t0 = Date.now();
    const r = await runAt(o, m);
    if (typeof r === 'number') return r;
    runs.set(m, r);
    const left = todo.length - i - 1;
    say(`  0.${m}: ${countsLine(r)}${i === 0 && left ? `  (${seconds(Date.now() - t0)} s; about ${seconds((Date.now() - t0) * left)} s for the other ${left})` : ''}\n`);
  }
  const first = runs.get(Math.max(...runs.keys()))!;
  const report = compatReport(runs, { maxTier: first.run.maxTier, filters: o.filters, excludes: o.excludes });
  say(renderCompat(report));
  if (o.json) writeFileAtomic(o.json, JSON.stringify(report, null, 2) + '\n');
  return report.exitCode;
}

// Measures the runner's own cost (not a test): per-case overhead (IPC, mocha, reporting) and crash recovery
// (a fresh worker per crashed case). Usage: node dist/scripts/bench-runner.js [cases=400] [crashes=12]
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { packageRoot } from '../src/config/paths.js';
import { schedule, type RawResult } from '../src/runner/scheduler.js';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2 : NaN;
};
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

function writeSuite(cases: number, crashes: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-bench-'));
  mkdirSync(path.join(dir, 'tier0'));
  const harness = pathToFileURL(path.join(packageRoot(), 'dist', 'src', 'harness', 'index.js')).href;
  writeFileSync(path.join(dir, 'tier0', 'bench.js'), `import { area } from ${JSON.stringify(harness)};
const t = area('tier0.bench', { tier: 0, client: 'none' });
t.case('noop', { source: 'quality', cite: 'runner benchmark', catches: [] }).params(Array.from({ length: ${cases} }, (_, i) => ({ id: 'c' + i }))).run(() => {});
t.case('crash', { source: 'quality', cite: 'runner benchmark', catches: [] }).params(Array.from({ length: ${crashes} }, (_, i) => ({ id: 'c' + i }))).run(() => { process.kill(process.pid, 'SIGSEGV'); return new Promise(() => {}); });
`);
  return dir;
}

async function timed(ids: string[], all: Awaited<ReturnType<typeof loadCatalogue>>): Promise<{ arrivals: number[]; results: RawResult[]; start: number }> {
  const arrivals: number[] = [];
  const results: RawResult[] = [];
  const start = performance.now();
  const wanted = new Set(ids);
  await schedule(
    { cases: all.filter((c) => wanted.has(c.id)), plugin: { name: 'none', library: '/dev/null', createOptions: {}, env: {}, rtldGlobal: false }, jobs: 1, retries: 0, defaultTimeoutMs: 30000 },
    { onResult: (r) => { arrivals.push(performance.now()); results.push(r); } },
  );
  return { arrivals, results, start };
}

async function main(): Promise<void> {
  const cases = Number(process.argv[2] ?? 400);
  const crashes = Number(process.argv[3] ?? 12);
  process.env['PJRT_CTS_SUITES'] = writeSuite(cases, crashes);
  const t0 = performance.now();
  const all = await loadCatalogue();
  const listMs = performance.now() - t0;

  const noop = await timed(all.filter((c) => c.id.includes('.noop.')).map((c) => c.id), all);
  const overhead = noop.arrivals.slice(1).map((t, i) => t - noop.arrivals[i]! - noop.results[i + 1]!.durationMs);
  const firstResult = noop.arrivals[0]! - noop.start;

  const crash = await timed(all.filter((c) => c.id.includes('.crash.')).map((c) => c.id), all);
  const recovery = crash.arrivals.slice(1).map((t, i) => t - crash.arrivals[i]!);

  const fmt = (x: number): string => x.toFixed(2);
  delete process.env['PJRT_CTS_SUITES'];
  const t1 = performance.now();
  const real = await loadCatalogue();
  console.log(`real suites: ${real.length} cases, worker start + import of every suite file: ${fmt(performance.now() - t1)} ms`);
  console.log(`catalogue (worker start + suite import + list): ${fmt(listMs)} ms`);
  console.log(`worker start → first result: ${fmt(firstResult)} ms`);
  // Results arrive in bursts (IPC batching), so the mean over the run is the honest per-case figure.
  const mean = (noop.arrivals.at(-1)! - noop.arrivals[0]!) / Math.max(1, noop.arrivals.length - 1);
  console.log(`per-case overhead over ${overhead.length} cases: mean ${fmt(mean)} ms, median gap ${fmt(median(overhead))} ms, p90 gap ${fmt(pct(overhead, 0.9))} ms`);
  console.log(`crash recovery (crash → next case's result in a fresh worker) over ${recovery.length}: median ${fmt(median(recovery))} ms, max ${fmt(Math.max(...recovery))} ms`);
  console.log(`targets: per-case < 5 ms: ${Math.max(mean, median(overhead)) < 5 ? 'met' : 'MISSED'}; recovery < 500 ms: ${median(recovery) < 500 ? 'met' : 'MISSED'}`);
}

void main();

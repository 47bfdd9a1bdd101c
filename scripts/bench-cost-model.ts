// The cost model on simulated expensive hardware (not a test): full runs and a --programs run of the corpus
// against the reference plugin with and without a client-creation delay, a compile delay and a one-live-client
// limit, at --jobs 1 and 2. Prints wall time, the run's counters, peak worker memory and whether every verdict
// matches the run without delays. Usage: node dist/scripts/bench-cost-model.js [create_delay_ms=1000] [compile_delay_ms=50]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ResultsFile } from '../src/config/results.js';
import { packageRoot } from '../src/config/paths.js';

const root = packageRoot();
const cli = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const lib = path.join(root, 'build', 'reference-plugin', 'libpjrt_reference.so');
const createDelay = Number(process.argv[2] ?? 1000);
const compileDelay = Number(process.argv[3] ?? 50);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-cost-'));

function config(expensive: boolean): string {
  const file = path.join(dir, `plugins-${expensive ? 'expensive' : 'cheap'}.json`);
  const createOptions = expensive
    ? { device_count: 4, create_delay_ms: createDelay, compile_delay_ms: compileDelay, max_live_clients: 1 }
    : { device_count: 4 };
  writeFileSync(file, JSON.stringify({
    default: 'ref',
    plugins: { ref: { library: lib, createOptions, completionDelayOption: 'completion_delay_ms', ...(expensive ? { maxLiveClients: 1 } : {}) } },
  }));
  return file;
}

interface Row { label: string; wallS: number; res: ResultsFile }

function run(label: string, expensive: boolean, jobs: number, extra: string[] = []): Row {
  const json = path.join(dir, `${label.replace(/\W+/g, '_')}.json`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'run', '--config', config(expensive), '--jobs', String(jobs), '--json', json, '--timeout', '120000', ...extra], { encoding: 'utf8' });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status === null || r.status > 1) throw new Error(`${label}: exit ${r.status}\n${r.stderr}\n${r.stdout.slice(-2000)}`);
  return { label, wallS, res: JSON.parse(readFileSync(json, 'utf8')) as ResultsFile };
}

const verdicts = (res: ResultsFile): Map<string, string> => new Map(res.results.map((x) => [x.id, x.status]));
function differing(a: ResultsFile, b: ResultsFile): string[] {
  const va = verdicts(a);
  return [...verdicts(b)].filter(([id, s]) => va.get(id) !== s).map(([id, s]) => `${id}: ${va.get(id)} → ${s}`);
}

function line(row: Row, base?: Row): string {
  const k = row.res.counters!;
  const s = row.res.totals.byStatus;
  const diff = base ? differing(base.res, row.res) : [];
  return `| ${row.label} | ${row.wallS.toFixed(1)} s | ${k.workersStarted} (${k.workersReplaced} replaced) | ${k.clientsCreated} (${k.sharedClientsCreated} shared) | ${k.programsCompiled} | ` +
    `${(k.phaseMs.create / 1000).toFixed(1)} / ${(k.phaseMs.compile / 1000).toFixed(1)} s | ${k.peakWorkerRssMiB} MiB | ${s['pass'] ?? 0} pass, ${s['unsupported'] ?? 0} unsupported, ${(s['fail'] ?? 0) + (s['crash'] ?? 0) + (s['timeout'] ?? 0)} fail | ` +
    `${base ? (diff.length ? `${diff.length} differ: ${diff.slice(0, 3).join('; ')}` : 'same') : '—'} |`;
}

const programs = ['--programs', path.join(root, 'fixtures', 'programs'), '--filter', 'external.program.**'];
const rows: [Row, Row | undefined][] = [];
for (const jobs of [1, 2]) {
  const cheap = run(`full, --jobs ${jobs}`, false, jobs);
  rows.push([cheap, undefined]);
  rows.push([run(`full, --jobs ${jobs}, expensive`, true, jobs), cheap]);
}
const p1 = run('--programs corpus, --jobs 1, expensive', true, 1, programs);
rows.push([p1, undefined]);
rows.push([run('--programs corpus, --jobs 2, expensive', true, 2, programs), p1]);

console.log(`create_delay_ms=${createDelay}, compile_delay_ms=${compileDelay}, max_live_clients=1 ("expensive")\n`);
console.log('| run | wall | workers | clients created | programs compiled | time in create / compile | peak worker RSS | verdicts | vs the cheap run |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [row, base] of rows) console.log(line(row, base));
for (const jobs of [1, 2]) {
  const cheap = rows.find(([r]) => r.label === `full, --jobs ${jobs}`)![0];
  const exp = rows.find(([r]) => r.label === `full, --jobs ${jobs}, expensive`)![0];
  const compileS = (exp.res.counters!.programsCompiled * compileDelay) / 1000 / jobs;
  const target = 1.3 * cheap.wallS + jobs * (createDelay / 1000);
  console.log(`\n--jobs ${jobs}: expensive ${exp.wallS.toFixed(1)} s vs target 1.3 × ${cheap.wallS.toFixed(1)} + ${jobs} s = ${target.toFixed(1)} s; ` +
    `the simulated compile time alone is ≈ ${compileS.toFixed(1)} s (${exp.res.counters!.programsCompiled} compiles × ${compileDelay} ms / ${jobs} workers), ` +
    `so without it: ${(exp.wallS - compileS).toFixed(1)} s`);
}

// The cost of the CTS's ahead-of-time compile cases on libtpu against XLA's own: in one sitting, the corpus's
// tier1.aot_compile.program.* cases (`run --plugin libtpu --compile-only --jobs 1`, each compile plus every metadata
// check) and JAX's own compile of the same modules against the same topology (scripts/aot-compile-jax.py), one
// after the other on the same machine. Programs the expectations list as crashes are left out of both (they kill
// JAX's process too). Prints markdown for docs/benchmarks.md; writes the figures to .cts-out/bench-libtpu.json.
// Usage: node dist/scripts/bench-libtpu.js [--filter GLOB]   (PJRT_CTS_PYTHON: the venv with jax and libtpu)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { globList } from '../src/config/expectations.js';
import { packageRoot } from '../src/config/paths.js';

const root = packageRoot();
const PREFIX = 'tier1.aot_compile.program.';
const python = process.env['PJRT_CTS_PYTHON'] ?? path.join(root, '.cache', 'xla-venv', 'bin', 'python');
const filter = process.argv[2] === '--filter' ? process.argv[3]! : `${PREFIX}*`;
const out = path.join(root, '.cts-out');
mkdirSync(out, { recursive: true });

const crashes = (JSON.parse(readFileSync(path.join(root, 'expectations', 'libtpu.json'), 'utf8')) as { expectations: { tests: string | string[]; status: string | string[] }[] })
  .expectations.filter((e) => [e.status].flat().includes('crash')).flatMap((e) => globList(e.tests));

const json = path.join(out, 'bench-libtpu-cts.json');
// CPU time of the whole CTS run (parent and worker: every thread), through time(1); wall alone is at the mercy of the
// machine's load (a shared 2-core machine made the same 99 compiles take 4.2 s to 8.9 s of wall at ~2.6 s of CPU).
const cpuFile = path.join(out, 'bench-libtpu-cts.cpu');
const t0 = performance.now();
const cts = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, process.execPath, path.join(root, 'dist', 'bin', 'pjrt-cts.js'), 'run', '--plugin', 'libtpu', '--compile-only', '--jobs', '1',
  '--filter', filter, ...crashes.flatMap((id) => ['--exclude', id]), '--json', json], { env: { ...process.env, PJRT_CTS_PYTHON: python }, encoding: 'utf8', stdio: ['ignore', 'ignore', 'inherit'] });
const ctsWallMs = performance.now() - t0;
const ctsCpuMs = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').reduce((a, x) => a + Number(x) * 1000, 0);
if (cts.status !== 0) console.error(`bench-libtpu: the CTS run exited ${cts.status}`);
const results = (JSON.parse(readFileSync(json, 'utf8')) as { results: { id: string; status: string; durationMs: number }[] }).results;
const passed = results.filter((r) => r.status === 'pass' && r.id.startsWith(PREFIX));
const names = passed.map((r) => r.id.slice(PREFIX.length));

const t1 = performance.now();
const jax = spawnSync(python, [path.join(root, 'scripts', 'aot-compile-jax.py'), 'v4:2x2x1', path.join(root, 'fixtures', 'programs'), ...names], {
  env: { ...process.env, TPU_SKIP_MDS_QUERY: '1' }, encoding: 'utf8', maxBuffer: 1 << 26,
});
const jaxWallMs = performance.now() - t1;
const jaxSec = new Map<string, number>();
let jaxCpuMs = 0;
for (const line of jax.stdout.split('\n')) {
  if (!line.startsWith('{')) continue;
  const r = JSON.parse(line) as { name: string; seconds?: number; cpu_seconds?: number };
  if (r.seconds !== undefined) jaxSec.set(r.name, r.seconds);
  jaxCpuMs += (r.cpu_seconds ?? 0) * 1000;
}
const rows = passed.filter((r) => jaxSec.has(r.id.slice(PREFIX.length))).map((r) => ({ name: r.id.slice(PREFIX.length), ctsMs: r.durationMs, jaxMs: jaxSec.get(r.id.slice(PREFIX.length))! * 1000 }));
const sum = (f: (r: (typeof rows)[number]) => number): number => rows.reduce((a, r) => a + f(r), 0);
const ctsMs = sum((r) => r.ctsMs);
const jaxMs = sum((r) => r.jaxMs);
const byOp = new Map<string, { n: number; cts: number; jax: number }>();
for (const r of rows) {
  const op = r.name.replace(/_(pred|[sufc]\d+|bf16|f8\w*|f4\w*)(_.*)?$/, '').replace(/_\d.*$/, '');
  const x = byOp.get(op) ?? { n: 0, cts: 0, jax: 0 };
  byOp.set(op, { n: x.n + 1, cts: x.cts + r.ctsMs, jax: x.jax + r.jaxMs });
}
writeFileSync(path.join(out, 'bench-libtpu.json'), JSON.stringify({ rows, ctsMs, jaxMs, ctsWallMs, jaxWallMs, ctsCpuMs, jaxCpuMs }, null, 1));
const s = (ms: number): string => (ms / 1000).toFixed(2);
console.log(`| programs | CTS cases (compile + metadata checks) | JAX compile | CTS / JAX | CTS run wall | JAX process wall | CTS run CPU (parent + worker) | JAX compile CPU |`);
console.log(`|---|---|---|---|---|---|---|---|`);
console.log(`| ${rows.length} | ${s(ctsMs)} s | ${s(jaxMs)} s | ${((ctsMs / jaxMs - 1) * 100).toFixed(1)} % | ${s(ctsWallMs)} s | ${s(jaxWallMs)} s | ${s(ctsCpuMs)} s | ${s(jaxCpuMs)} s |`);
console.log('\n| op (programs) | CTS | JAX | CTS / JAX |\n|---|---|---|---|');
for (const [op, x] of [...byOp].sort((a, b) => b[1].jax - a[1].jax).slice(0, 20)) {
  console.log(`| ${op} (${x.n}) | ${s(x.cts)} s | ${s(x.jax)} s | ${((x.cts / x.jax - 1) * 100).toFixed(0)} % |`);
}
console.log('\n| slowest programs | CTS | JAX |\n|---|---|---|');
for (const r of [...rows].sort((a, b) => b.jaxMs - a.jaxMs).slice(0, 10)) console.log(`| ${r.name} | ${s(r.ctsMs)} s | ${s(r.jaxMs)} s |`);

// Builds the StableHLO interpreter's C++ unit tests (test/native/hlo-tests) with g++ under
// ASan+UBSan and runs them. The interpreter's objects are the ASan build's of the plugin
// (npm run build:plugin:asan, which npm test runs first: the same sources, sanitizers and -Wall -Wextra -Werror,
// at -O0; the Release build has -Werror at -O1) when they are up to date, so npm test compiles them once;
// otherwise they are compiled here, cached in build/hlo-tests/obj and rebuilt when a source or header is newer,
// two compiler processes at a time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = [path.resolve(here, '..'), path.resolve(here, '../..')].find((d) => existsSync(path.join(d, 'package.json')))!;
const hloDir = path.join(root, 'fixtures', 'reference-plugin', 'src', 'hlo');
const testDir = path.join(root, 'test', 'native', 'hlo-tests');
/** The plugin build's generated headers (FaultHooks comes from faults.json): `npm run build:plugin` writes them. */
const buildDir = path.join(root, 'build', 'reference-plugin');
const faultHooksHeader = path.join(buildDir, 'generated', 'fault_hooks.h');
const outDir = path.join(root, 'build', 'hlo-tests');
const objDir = path.join(outDir, 'obj');
const asanObjDir = path.join(root, 'build', 'reference-plugin-asan', 'CMakeFiles', 'pjrt_reference.dir', 'src', 'hlo');
const exe = path.join(outDir, 'hlo_tests');
/** The ASan build's flags (-O0, line tables only): the unit tests' one large source takes 60 s of CPU at -O1 -g under
 * the sanitizers and 17 s at -O0 -g1 (2 cores, measured), which is what a fresh clone's npm test waits for. */
const FLAGS = ['-std=c++17', '-O0', '-g1', '-fsanitize=address,undefined', '-fno-sanitize-recover=undefined', '-Wall', '-Wextra', '-Werror'];

interface Run { code: number | null; output: string }

function run(cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: env ?? process.env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const mtime = (p: string): number => (existsSync(p) ? statSync(p).mtimeMs : 0);

async function build(): Promise<void> {
  mkdirSync(objDir, { recursive: true });
  const sources = [
    ...readdirSync(hloDir).filter((f) => f.endsWith('.cc')).map((f) => path.join(hloDir, f)),
    path.join(testDir, 'hlo_tests.cc'),
  ];
  const headers = [...readdirSync(hloDir).filter((f) => f.endsWith('.h')).map((f) => path.join(hloDir, f)), faultHooksHeader];
  const newestHeader = Math.max(...headers.map(mtime));
  const asanObject = (s: string): string => path.join(asanObjDir, `${path.basename(s)}.o`);
  const shared = sources.slice(0, -1).every((s) => mtime(asanObject(s)) >= Math.max(mtime(s), newestHeader));
  const objects = sources.map((s, i) => (shared && i < sources.length - 1 ? asanObject(s) : path.join(objDir, path.basename(s, '.cc') + '.o')));
  const stale = sources.map((s, i) => ({ src: s, obj: objects[i]! }))
    .filter(({ src, obj }) => !obj.startsWith(asanObjDir) && mtime(obj) < Math.max(mtime(src), newestHeader));
  const queue = [...stale];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const r = await run('g++', [...FLAGS, `-I${hloDir}`, `-I${buildDir}`, '-c', job.src, '-o', job.obj]);
      assert.equal(r.code, 0, `g++ failed on ${job.src}:\n${r.output}`);
    }
  };
  await Promise.all([worker(), worker()]);
  if (stale.length > 0 || mtime(exe) < Math.max(...objects.map(mtime))) {
    const r = await run('g++', [...FLAGS, ...objects, '-pthread', '-o', exe]);
    assert.equal(r.code, 0, `link failed:\n${r.output}`);
  }
}

describe('StableHLO interpreter (C++ unit tests)', function () {
  this.timeout(600_000);

  it('builds with -Wall -Wextra -Werror under ASan+UBSan and passes', async function () {
    if (!existsSync(faultHooksHeader)) this.skip(); // the plugin is not built (npm run build:plugin)
    await build();
    const r = await run(exe, [], { ...process.env, ASAN_OPTIONS: 'detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1' });
    assert.equal(r.code, 0, `hlo_tests failed:\n${r.output.slice(-8000)}`);
    assert.match(r.output, / 0 failed/);
  });
});

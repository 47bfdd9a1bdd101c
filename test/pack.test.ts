// The package a vendor installs: `npm pack` from a clean copy of the tree (prepack builds dist/) holds the CLI,
// the suites, the corpus, the reference plugin's sources and the schemas, and no tests or CI files; installed
// into a temporary project, `pjrt-cts run --plugin reference --tier 0` works from another directory, finding the
// reference plugin in the per-user cache (seeded here with the built library: building it takes minutes).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { ROOT, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const sh = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string =>
  execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, timeout: 120_000 });

describe('package: npm pack, install elsewhere, run', function () {
  this.timeout(180_000);
  let dir: string;
  let tgz: string;
  let files: string[];

  before(function () {
    if (process.env['PJRT_CTS_SKIP_PACK']) this.skip();
    dir = tmpDir();
    // A clean copy: what git tracks plus untracked files it does not ignore (no dist/, no build/).
    const clone = path.join(dir, 'clone');
    mkdirSync(clone);
    const list = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'buffer' });
    const tar = spawnSync('tar', ['--null', '--ignore-failed-read', '-T', '-', '-cf', '-'], { cwd: ROOT, input: list.stdout, maxBuffer: 512 << 20 });
    spawnSync('tar', ['xf', '-'], { cwd: clone, input: tar.stdout });
    assert.ok(!existsSync(path.join(clone, 'dist')), 'the copy starts without dist/');
    // prepack runs tsc, which needs the dev dependencies: borrow this tree's.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
    const out = sh('npm', ['pack', '--json', '--pack-destination', dir], clone);
    const info = JSON.parse(out.slice(out.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    tgz = path.join(dir, info[0]!.filename);
    files = info[0]!.files.map((f) => f.path);
  });

  it('holds dist/, the suites, the corpus, the reference plugin\'s and the call-trace shim\'s sources and the schemas; no tests or CI files', () => {
    for (const f of ['dist/bin/pjrt-cts.js', 'dist/src/worker/worker.js', 'dist/src/cli/info-child.js', 'dist/reporters/junit.js', 'plugins.json',
      'fixtures/reference-plugin/CMakeLists.txt', 'fixtures/reference-plugin/faults.json', 'native/call-trace/CMakeLists.txt', 'native/call-trace/pjrt_api_slots.h', 'schemas/results.schema.json', 'src/proto/compile_options.proto', 'README.md']) {
      assert.ok(files.includes(f), `${f} is in the tarball`);
    }
    assert.ok(files.some((f) => f.startsWith('dist/suites/tier1/')), 'compiled suites');
    assert.ok(files.some((f) => f.startsWith('fixtures/programs/') && f.endsWith('.mlir')), 'the program corpus');
    assert.ok(files.some((f) => f.startsWith('fixtures/programs/') && f.endsWith('.mlirbc')) && files.includes('fixtures/artifacts/index.json'), 'the portable artifacts (docs/artifacts.md)');
    const bad = files.filter((f) => /^(test|dist\/test|\.ci|\.github|build|node_modules)\//.test(f) || /\.test\.js$/.test(f));
    assert.deepEqual(bad, []);
  });

  it('installed into a temporary project, runs tier 0 against the reference plugin from another directory', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    sh('npm', ['install', '--no-package-lock', '--prefer-offline', '--no-audit', '--no-fund', tgz], app);
    const bin = path.join(app, 'node_modules', '.bin', 'pjrt-cts');
    assert.ok(existsSync(bin));
    assert.ok(!existsSync(path.join(app, 'node_modules', 'pjrt-cts', 'build')), 'nothing is built into node_modules');
    // The per-user cache, seeded with the library a build would put there.
    const cache = path.join(dir, 'cache');
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const lib = path.join(cache, 'pjrt-cts', version, 'reference-plugin', 'libpjrt_reference.so');
    mkdirSync(path.dirname(lib), { recursive: true });
    copyFileSync(PLUGIN, lib);
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cache, NO_COLOR: '1' };
    delete env['PJRT_CTS_CONFIG'];
    delete env['PJRT_CTS_SUITES'];
    delete env['PJRT_CTS_CACHE']; // it would take the place of the seeded XDG cache
    const r = spawnSync(bin, ['run', '--plugin', 'reference', '--tier', '0', '--json', 'r.json'], { cwd: elsewhere, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const res = JSON.parse(readFileSync(path.join(elsewhere, 'r.json'), 'utf8')) as ResultsFile;
    assert.equal(res.plugin.path, lib);
    assert.ok(res.results.length > 50 && res.results.every((x) => x.status !== 'fail' && x.status !== 'crash'));
    // schema --out defaults to the current directory, not the installed package.
    assert.equal(spawnSync(bin, ['schema'], { cwd: elsewhere, env }).status, 0);
    assert.ok(existsSync(path.join(elsewhere, 'plugins.schema.json')));
  });
});

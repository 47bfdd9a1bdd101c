// The conformance cases against the ASan+UBSan build of the reference plugin (npm run build:plugin:asan), on both
// personalities.
// A sanitizer report aborts the worker, which the runner records as a crash; the output is also searched
// for reports that did not abort. The node binary is not instrumented, so the sanitizer runtime is preloaded.
// Tier 4 (JAX's own processes) is left out (below).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const ASAN_PLUGIN = path.join(root, 'build', 'reference-plugin-asan', 'libpjrt_reference.so');
const REPORT = /ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|SUMMARY: UndefinedBehaviorSanitizer/;

function sanitizerRuntime(): string {
  return execFileSync('gcc', ['-print-file-name=libasan.so'], { encoding: 'utf8' }).trim();
}

/**
 * The personalities. The reference one runs every case. The XLA-like one runs the areas where objects are made,
 * shared between threads and freed in the orders its own rules allow (its completion threads, aliasing and
 * zero-copy rules, donation): the rest of the catalogue takes the same paths under both, and ThreadSanitizer runs
 * every threaded family on both.
 */
const XLA_AREAS = ['concurrency', 'lifetime', 'events', 'async_transfer', 'dlpack', 'host_buffers', 'donation', 'execute_paths'];
const PERSONALITIES = [
  { name: 'reference', args: ['--exclude', 'tier1.aot_compile.program.**'], env: {}, minPass: 300 },
  {
    name: 'xla',
    args: ['-o', 'personality=xla', ...XLA_AREAS.flatMap((a) => ['--filter', `tier2.${a}.**`])],
    env: { PJRT_REFERENCE_PERSONALITY: 'xla' },
    minPass: 60,
  },
];

describe('reference plugin under ASan+UBSan', function () {
  this.timeout(600_000);

  for (const p of PERSONALITIES) {
    it(`passes every case it runs with no sanitizer report (${p.name} personality)`, function () {
      assert.ok(existsSync(ASAN_PLUGIN), `${ASAN_PLUGIN} is missing: run npm run build:plugin:asan`);
      const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-asan-'));
      try {
        const json = path.join(dir, 'results.json');
        // Tier 4 is left out: its cases are JAX's processes (uninstrumented CPython and jaxlib), which abort with
        // SIGABRT under the preloaded sanitizer runtime before a verdict (not read further); the plugin's paths they
        // take are the ones the other tiers run here.
        // The ahead-of-time compiles of the corpus are left out too: they parse and compile the same programs through
        // the same code (compile_program) as tier1.program's cases, which run here: 1,094 of the 3,900 cases.
        const r = spawnSync(process.execPath, [CLI, 'run', '--plugin', 'reference-asan', '--jobs', '2', '--json', json, ...WITHOUT_FRAMEWORK_TIER, ...p.args], {
          cwd: root,
          encoding: 'utf8',
          env: {
            ...process.env,
            ...p.env,
            LD_PRELOAD: sanitizerRuntime(),
            ASAN_OPTIONS: 'detect_leaks=0:halt_on_error=1:abort_on_error=1',
            UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1',
          },
          maxBuffer: 64 * 1024 * 1024,
        });
        const output = `${r.stdout}\n${r.stderr}`;
        const report = REPORT.exec(output);
        assert.equal(report, null, `sanitizer report:\n${report ? output.slice(Math.max(0, report.index - 200), report.index + 3000) : ''}`);
        const records = readFileSync(`${json}l`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: string; status?: string; message?: string });
        // (the XLA-like personality warns where XLA's CPU plugin takes latitude a quality case names)
        const allowed = p.name === 'reference' ? ['pass', 'skip', 'unsupported'] : ['pass', 'skip', 'unsupported', 'warn'];
        const bad = records.filter((x) => x.id && !allowed.includes(x.status ?? '')).map((x) => `${x.id}: ${x.status} ${x.message ?? ''}`);
        assert.deepEqual(bad, []);
        assert.ok(records.filter((x) => x.status === 'pass').length >= p.minPass, 'expected the catalogue to run');
        for (const area of ['tier2.concurrency.', 'tier2.lifetime.']) {
          assert.ok(records.some((x) => x.id?.startsWith(area) && x.status === 'pass'), `expected ${area}* to run and pass`);
        }
        assert.equal(r.status, 0, output.slice(-3000));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

// The conformance cases against the ASan+UBSan build of the reference plugin (npm run build:plugin:asan), on both
// personalities.
// A sanitizer report aborts the worker, which the runner records as a crash; the output is also searched
// for reports that did not abort. The node binary is not instrumented, so the sanitizer runtime is preloaded.
// Tier 4 (JAX's own processes) is left out (below).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './runner-helpers.js';
import { assertNoReport, assertVerdicts, runSanitized, sanitizerRuntime } from './sanitized-run.js';

const ASAN_PLUGIN = path.join(ROOT, 'build', 'reference-plugin-asan', 'libpjrt_reference.so');
const REPORT = /ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|SUMMARY: UndefinedBehaviorSanitizer/;

/**
 * The personalities. The reference one runs every case. The XLA-like one runs the areas where objects are made,
 * shared between threads and freed in the orders its own rules allow (its completion threads, aliasing and
 * zero-copy rules, donation): the rest of the catalogue takes the same paths under both, and ThreadSanitizer runs
 * every threaded family on both.
 */
const XLA_AREAS = ['concurrency', 'lifetime', 'events', 'async_transfer', 'dlpack', 'host_buffers', 'donation', 'execute_paths'];
const PERSONALITIES: { name: string; args: string[]; env: Record<string, string>; minPass: number }[] = [
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
      // Tier 4 is left out (runSanitized): its cases are JAX's processes (uninstrumented CPython and jaxlib), which
      // abort with SIGABRT under the preloaded sanitizer runtime before a verdict (not read further); the plugin's paths
      // they take are the ones the other tiers run here.
      // The ahead-of-time compiles of the corpus are left out too: they parse and compile the same programs through
      // the same code (compile_program) as tier1.program's cases, which run here: 1,094 of the 3,900 cases.
      const run = runSanitized('reference-asan', p.args, {
        ...p.env,
        LD_PRELOAD: sanitizerRuntime('libasan.so'),
        ASAN_OPTIONS: 'detect_leaks=0:halt_on_error=1:abort_on_error=1',
        UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1',
      });
      assertNoReport(run, REPORT, 'sanitizer report', 3000);
      // (the XLA-like personality warns where XLA's CPU plugin takes latitude a quality case names)
      const allowed = p.name === 'reference' ? ['pass', 'skip', 'unsupported'] : ['pass', 'skip', 'unsupported', 'warn'];
      assertVerdicts(run, { allowed, minPass: p.minPass, areas: ['tier2.concurrency.', 'tier2.lifetime.'], what: 'expected the catalogue to run' });
      assert.equal(run.status, 0, run.output.slice(-3000));
    });
  }
});

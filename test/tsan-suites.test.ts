// The ThreadSanitizer build of the reference plugin (npm run build:plugin:tsan), on both personalities, over every
// case where the plugin's threads meet the caller's: all of tiers 0–3 but the per-program corpus and the exhaustive
// area (WITHOUT_PROGRAM_CORPUS). Those run one program per execution on one completion thread, as the cases kept here
// do, and are 3,100 of the 3,900 cases: the time goes where races can be. The referee must be race-free itself, most
// of all in the concurrency and lifetime areas, which call it from many threads at once. A report aborts the worker (a crash) and is also searched
// for in the output. node is not instrumented: the runtime is preloaded, and ignore_noninstrumented_modules keeps it
// to the plugin's own synchronisation (node's and V8's would otherwise be reported through the pthread interceptors).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './runner-helpers.js';
import { assertNoReport, assertVerdicts, runSanitized, sanitizerRuntime } from './sanitized-run.js';

const TSAN_PLUGIN = path.join(ROOT, 'build', 'reference-plugin-tsan', 'libpjrt_reference.so');
const REPORT = /WARNING: ThreadSanitizer|ThreadSanitizer: /;
const TSAN_OPTIONS = 'halt_on_error=1:abort_on_error=1:ignore_noninstrumented_modules=1';
/** The corpus-driven families: a program each, run as the kept cases run theirs. */
const WITHOUT_PROGRAM_CORPUS = ['tier1.program.**', 'tier1.aot_compile.**', 'tier1.program_forms.**', 'tier2.exhaustive.**'].flatMap((g) => ['--exclude', g]);

/** The personalities: the plugins.json entry's create options, plus these (and the env the reference-xla entry sets). */
const PERSONALITIES: { name: string; options: string[]; env: Record<string, string> }[] = [
  { name: 'reference', options: [], env: {} },
  { name: 'xla', options: ['-o', 'personality=xla'], env: { PJRT_REFERENCE_PERSONALITY: 'xla' } },
];

describe('reference plugin under ThreadSanitizer', function () {
  this.timeout(600_000);

  it('is instrumented: without the runtime preloaded it does not load', function () {
    assert.ok(existsSync(TSAN_PLUGIN), `${TSAN_PLUGIN} is missing: run npm run build:plugin:tsan`);
    const r = spawnSync(process.execPath, [CLI, 'info', '--plugin', 'reference-tsan'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LD_PRELOAD: '' } });
    assert.notEqual(r.status, 0, 'the ThreadSanitizer build loaded without its runtime: it is not instrumented');
    assert.match(`${r.stdout}${r.stderr}`, /tsan/i, 'the load should fail for want of the ThreadSanitizer runtime');
  });

  for (const p of PERSONALITIES) {
    it(`passes every threaded case with no report (${p.name} personality)`, function () {
      const run = runSanitized('reference-tsan', [...p.options, ...WITHOUT_PROGRAM_CORPUS], { ...p.env, LD_PRELOAD: sanitizerRuntime('libtsan.so'), TSAN_OPTIONS });
      assertNoReport(run, REPORT, 'ThreadSanitizer report', 4000);
      // (tier 3 runs on the reference personality only: the XLA-like one rejects the node create options, as XLA's CPU plugin does)
      const allowed = p.name === 'reference' ? ['pass', 'skip', 'unsupported'] : ['pass', 'skip', 'unsupported', 'warn'];
      const areas = ['tier2.concurrency.', 'tier2.lifetime.', 'tier2.events.', 'tier2.async_transfer.', ...(p.name === 'reference' ? ['tier3.'] : [])];
      assertVerdicts(run, { allowed, minPass: 300, areas, what: 'expected the threaded families to run' });
    });
  }
});

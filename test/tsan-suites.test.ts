// The ThreadSanitizer build of the reference plugin (npm run build:plugin:tsan), on both personalities, over every
// case where the plugin's threads meet the caller's: all of tiers 0–3 but the per-program corpus and the exhaustive
// area (WITHOUT_PROGRAM_CORPUS). Those run one program per execution on one completion thread, as the cases kept here
// do, and are 3,100 of the 3,900 cases: the time goes where races can be. The referee must be race-free itself, most
// of all in the concurrency and lifetime areas, which call it from many threads at once. A report aborts the worker (a crash) and is also searched
// for in the output. node is not instrumented: the runtime is preloaded, and ignore_noninstrumented_modules keeps it
// to the plugin's own synchronisation (node's and V8's would otherwise be reported through the pthread interceptors).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const TSAN_PLUGIN = path.join(root, 'build', 'reference-plugin-tsan', 'libpjrt_reference.so');
const REPORT = /WARNING: ThreadSanitizer|ThreadSanitizer: /;
const TSAN_OPTIONS = 'halt_on_error=1:abort_on_error=1:ignore_noninstrumented_modules=1';
/** The corpus-driven families: a program each, run as the kept cases run theirs. */
const WITHOUT_PROGRAM_CORPUS = ['tier1.program.**', 'tier1.aot_compile.**', 'tier1.program_forms.**', 'tier2.exhaustive.**'].flatMap((g) => ['--exclude', g]);

const runtime = (): string => execFileSync('gcc', ['-print-file-name=libtsan.so'], { encoding: 'utf8' }).trim();

/** The personalities: the plugins.json entry's create options, plus these (and the env the reference-xla entry sets). */
const PERSONALITIES = [
  { name: 'reference', options: [] as string[], env: {} },
  { name: 'xla', options: ['-o', 'personality=xla'], env: { PJRT_REFERENCE_PERSONALITY: 'xla' } },
];

describe('reference plugin under ThreadSanitizer', function () {
  this.timeout(600_000);

  it('is instrumented: without the runtime preloaded it does not load', function () {
    assert.ok(existsSync(TSAN_PLUGIN), `${TSAN_PLUGIN} is missing: run npm run build:plugin:tsan`);
    const r = spawnSync(process.execPath, [CLI, 'info', '--plugin', 'reference-tsan'], { cwd: root, encoding: 'utf8', env: { ...process.env, LD_PRELOAD: '' } });
    assert.notEqual(r.status, 0, 'the ThreadSanitizer build loaded without its runtime: it is not instrumented');
    assert.match(`${r.stdout}${r.stderr}`, /tsan/i, 'the load should fail for want of the ThreadSanitizer runtime');
  });

  for (const p of PERSONALITIES) {
    it(`passes every threaded case with no report (${p.name} personality)`, function () {
      const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-tsan-'));
      try {
        const json = path.join(dir, 'results.json');
        const r = spawnSync(process.execPath, [CLI, 'run', '--plugin', 'reference-tsan', ...p.options, '--jobs', '2', '--json', json, ...WITHOUT_FRAMEWORK_TIER, ...WITHOUT_PROGRAM_CORPUS], {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, ...p.env, LD_PRELOAD: runtime(), TSAN_OPTIONS },
          maxBuffer: 64 * 1024 * 1024,
        });
        const output = `${r.stdout}\n${r.stderr}`;
        const report = REPORT.exec(output);
        assert.equal(report, null, `ThreadSanitizer report:\n${report ? output.slice(Math.max(0, report.index - 200), report.index + 4000) : ''}`);
        const records = readFileSync(`${json}l`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: string; status?: string; message?: string });
        const allowed = p.name === 'reference' ? ['pass', 'skip', 'unsupported'] : ['pass', 'skip', 'unsupported', 'warn'];
        const bad = records.filter((x) => x.id && !allowed.includes(x.status ?? '')).map((x) => `${x.id}: ${x.status} ${x.message ?? ''}`);
        assert.deepEqual(bad, []);
        // (tier 3 runs on the reference personality only: the XLA-like one rejects the node create options, as XLA's CPU plugin does)
        for (const area of ['tier2.concurrency.', 'tier2.lifetime.']) {
          assert.ok(records.some((x) => x.id?.startsWith(area) && x.status === 'pass'), `expected ${area}* to run and pass`);
        }
        assert.ok(records.filter((x) => x.status === 'pass').length >= 300, 'expected the threaded families to run');
        for (const area of ['tier2.events.', 'tier2.async_transfer.', ...(p.name === 'reference' ? ['tier3.'] : [])]) assert.ok(records.some((x) => x.id?.startsWith(area) && x.status === 'pass'), `expected ${area}* to run and pass`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

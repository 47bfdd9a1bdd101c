// One plugin bug, one failure: a fault in one optional path fails exactly the cases about that path; negative
// cases run a positive control first, and a failing negative check reads as such, not as its control.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import { cli, ROOT, tmpDir, WITHOUT_FRAMEWORK_TIER } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

function run(fault: string, extra: string[] = []): ResultsFile {
  const json = path.join(tmpDir(), 'r.json');
  // The CTS's own checks are what is tested here: tier 4 (JAX's processes) is left out.
  const r = cli(['run', '--json', json, '--jobs', '2', ...WITHOUT_FRAMEWORK_TIER, ...extra], { env: { PJRT_REFERENCE_FAULTS: fault } });
  assert.ok(existsSync(json), r.stderr + r.stdout);
  return JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
}

describe('independent checks', function () {
  this.timeout(300_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });

  it('a plugin that rejects only the ToHostBuffer size query fails exactly the size-query cases', () => {
    const res = run('to_host_size_query_rejected');
    const bad = res.results.filter((r) => !['pass', 'skip', 'unsupported'].includes(r.status)).map((r) => r.id);
    assert.ok(bad.length >= 2, 'the size-query cases must catch it');
    assert.deepEqual(bad.filter((id) => !/^tier1\.transfer\.to_host_size_query/.test(id)), [], 'every data check reads into a destination of its own size');
    assert.ok(res.results.filter((r) => r.status === 'pass').length > 1000, 'everything else still passes');
    // the failures are one root cause; a quality size-query case (to_host_size_query_no_event) warns beside it
    const failing = res.results.filter((r) => ['fail', 'crash', 'timeout'].includes(r.status));
    assert.equal(res.rootCauses?.[0]?.count, failing.length, 'one root cause');
    assert.ok(res.counters!.peakWorkerRssMiB <= 1024, `a worker's peak memory stays within 1 GiB (${res.counters!.peakWorkerRssMiB} MiB)`);
  });

  it('a Delete that does nothing fails the use-after-delete check, not its control', () => {
    const res = run('buffer_delete_noop', ['--filter', 'tier1.buffer.use_after_delete']);
    const r = res.results[0]!;
    assert.equal(r.status, 'warn', `${r.status}: ${r.message}`);
    assert.doesNotMatch(r.message ?? '', /positive control failed/);
    assert.match(r.message ?? '', /reading a deleted buffer should return an error/);
  });

  it('a plugin that calls itself something else keeps its plugins.json entry (options come from the entry)', () => {
    const json = path.join(tmpDir(), 'r.json');
    // The two not-ready cases use clients of their own; the shared client of tier0.plugin's cases says what the plugin calls itself.
    const r = cli(['run', '--plugin', 'reference-xla', '--json', json, '--filter', 'tier2.events.*_not_ready_early', '--filter', 'tier1.client.platform_*']);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    assert.equal(res.plugin.platformName, 'cpu', r.stdout);
    assert.deepEqual(res.results.filter((x) => /not_ready_early$/.test(x.id)).map((x) => x.status), ['pass', 'pass'], 'the entry names completionDelayOption, whatever the platform is called');
  });

  it('negative cases declare their positive control (list --json)', () => {
    const r = cli(['list', '--json']);
    const cases = JSON.parse(r.stdout) as CatalogueEntry[];
    const controlled = new Set(cases.filter((c) => c.control).map((c) => c.id));
    for (const id of ['tier1.buffer.use_after_delete', 'tier2.donation.use_after_donation_errors', 'tier1.compile.rejects_unknown_format']) {
      assert.ok(controlled.has(id), `${id} declares its control`);
    }
  });
});

describe('every wait on a plugin is bounded', function () {
  this.timeout(120_000);

  it('a plugin that lies about its number of outputs fails cases, and the run records every case', function () {
    if (!existsSync(LIB)) this.skip();
    const res = run('num_outputs_wrong', ['--timeout', '10000']);
    const listed = (JSON.parse(cli(['list', '--json', ...WITHOUT_FRAMEWORK_TIER]).stdout) as CatalogueEntry[]).length;
    assert.equal(res.results.length, listed, 'no case is lost');
    assert.ok(res.results.some((r) => r.status === 'fail'), 'the lie is caught');
    assert.equal(res.results.filter((r) => r.status === 'timeout').length, 0, 'nothing hangs');
  });

  it('a worker that cannot exit is killed after a grace period and the run ends', () => {
    const json = path.join(tmpDir(), 'r.json');
    const t0 = Date.now();
    const r = cli(['run', '--json', json, '--jobs', '1'], { env: { PJRT_CTS_SUITES: path.join(ROOT, 'dist', 'test', 'fixtures', 'suites-exit') } });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    assert.deepEqual(res.results.map((x) => x.status), ['pass', 'pass']);
    assert.ok(Date.now() - t0 < 30_000, 'bounded by the exit grace period, not the idle timeout');
  });
});

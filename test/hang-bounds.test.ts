// Hangs cost at most three timeouts per run, whatever hangs: a plugin hanging in execute (the warm-up's hang counts
// towards --max-call-failures and runs under a case's deadline, not the long compile one), or one that never calls an
// OnReady callback (the wait is the event's slot's). A crash the expectations waive does not block the call it
// crashed in; a crash in an extension function names it. Each bound is measured against the same run without the
// fault: the run's own time plus three timeouts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const TIMEOUT_MS = 2000;
/** Worker restarts after each kill, and a busy machine's jitter between the two runs. */
const SLACK_MS = 3000;

describe('hangs cost at most three timeouts per run', function () {
  this.timeout(180_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });
  const dir = tmpDir();
  const run = (name: string, args: string[], faults?: string): { res: ResultsFile; ms: number; code: number | null; stdout: string } => {
    const json = path.join(dir, `${name}.json`);
    const t0 = Date.now();
    const r = cli(['run', '--jobs', '2', '--timeout', String(TIMEOUT_MS), '--json', json, ...args], faults ? { env: { PJRT_REFERENCE_FAULTS: faults } } : {});
    const ms = Date.now() - t0;
    assert.ok(existsSync(json), r.stdout + r.stderr);
    return { res: JSON.parse(readFileSync(json, 'utf8')) as ResultsFile, ms, code: r.code, stdout: r.stdout };
  };
  const byStatus = (res: ResultsFile, s: string): ResultsFile['results'] => res.results.filter((c) => c.status === s);

  it('hang_in=PJRT_LoadedExecutable_Execute, a tier-1 run with the default warm-up: within 3 timeouts of the clean run', () => {
    const args = ['--tier', '1', '--filter', 'tier1.execute.**'];
    const clean = run('execute-clean', args);
    const hung = run('execute-hang', args, 'hang_in=PJRT_LoadedExecutable_Execute');
    assert.equal(hung.code, 1, hung.stdout);
    assert.ok(hung.ms <= clean.ms + 3 * TIMEOUT_MS + SLACK_MS, `${hung.ms} ms with the hang, ${clean.ms} ms without`);
    // The warm-up ran its program under a case's deadline and its hang was the first of the three.
    assert.match(hung.res.warmup?.message ?? '', new RegExp(`did not finish within ${TIMEOUT_MS} ms during PJRT_LoadedExecutable_Execute`));
    const timeouts = byStatus(hung.res, 'timeout');
    assert.ok(timeouts.length <= 2, `${timeouts.length} timeouts after the warm-up's hang`);
    assert.equal(hung.res.blocked?.[0]?.call, 'PJRT_LoadedExecutable_Execute');
    assert.ok(byStatus(hung.res, 'skip').every((c) => /^blocked by PJRT_LoadedExecutable_Execute hanging/.test(c.message ?? '')));
  });

  it('on_ready_never_calls_back: waits are PJRT_Event_OnReady\'s, blocked after 3, within 3 timeouts of the clean run', () => {
    const args = ['--tier', '2', '--filter', 'tier2.events.**', '--warmup-timeout', '0'];
    const clean = run('onready-clean', args);
    const hung = run('onready-hang', args, 'on_ready_never_calls_back');
    assert.ok(hung.ms <= clean.ms + 3 * TIMEOUT_MS + SLACK_MS, `${hung.ms} ms with the fault, ${clean.ms} ms without`);
    const timeouts = byStatus(hung.res, 'timeout');
    // Three in a row block the call; with two workers one more may have been in flight beside the third.
    assert.ok(timeouts.length >= 3 && timeouts.length <= 4, JSON.stringify(hung.res.totals.byStatus));
    for (const t of timeouts) {
      assert.match(t.message ?? '', /during PJRT_Event_OnReady \(waiting for the plugin to call the callback registered with it\)/);
      assert.equal(t.rule, 'PJRT_Event_OnReady:timeout');
    }
    assert.deepEqual(hung.res.blocked?.map((b) => `${b.call} ${b.how}`), ['PJRT_Event_OnReady hanging']);
  });

  it('crashes the expectations waive are known: they block nothing and the run passes', () => {
    const exp = path.join(dir, 'waive.json');
    writeFileSync(exp, JSON.stringify({ expectations: [{ rules: 'PJRT_Client_Compile:crash', status: 'crash', reason: 'known crash' }] }));
    const r = run('waived', ['--filter', 'tier1.compile.[a-f]*', '--expectations', exp], 'crash_in=PJRT_Client_Compile');
    assert.equal(r.code, 0, r.stdout);
    assert.ok(byStatus(r.res, 'xfail').length >= 3, JSON.stringify(r.res.totals.byStatus));
    assert.deepEqual(Object.keys(r.res.totals.byStatus), ['xfail']);
    assert.equal(r.res.blocked, undefined);
  });

  it('a crash in an extension function names it, as one in a PJRT_Api slot does', () => {
    const r = run('ffi', ['--filter', 'tier2.ext.ffi.**'], 'crash_in=PJRT_FFI_Register_Handler');
    const c = r.res.results.find((x) => x.id === 'tier2.ext.ffi.register_handler_rejects_null');
    assert.equal(c?.status, 'warn'); // a quality case
    assert.match(c?.message ?? '', /the worker process died during PJRT_FFI_Register_Handler: killed by SIGSEGV/);
    assert.equal(c?.rule, 'PJRT_FFI_Register_Handler:crash');
  });
});

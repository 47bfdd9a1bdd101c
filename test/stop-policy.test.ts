// A plugin that hangs or crashes in one PJRT call costs K cases, not one per case that needs the call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import type { RawResult } from '../src/runner/scheduler.js';
import { StopPolicy } from '../src/runner/stop-policy.js';
import { cli, tmpDir } from './runner-helpers.js';

const EXECUTE = 'PJRT_LoadedExecutable_Execute';
const entry = (id: string, slots: string[]): CatalogueEntry => ({ id, area: 't.a', tier: 1, catches: [], source: 'header', cite: 'test', requires: { slots }, required: false });
const raw = (e: CatalogueEntry, status: RawResult['status'], call?: string): RawResult => ({ entry: e, status, durationMs: 1, attempts: 1, ...(call ? { call } : {}) });
const judged = (r: RawResult) => ({ id: r.entry.id, area: 't.a', tier: 1, status: r.status, durationMs: 1, source: 'header' as const, cite: 'test', requires: r.entry.requires });

describe('stop policy: a call that hangs or crashes K times in a row is blocked', function () {
  this.timeout(120_000);

  it('blocks the call after K timeouts in a row; a case that got through the call ends the streak', () => {
    const p = new StopPolicy({ maxClientFailures: 3, maxCallFailures: 3 });
    const see = (r: RawResult): void => void p.observe(r, judged(r));
    const ex = (i: number): CatalogueEntry => entry(`t.a.x${i}`, [EXECUTE]);
    see(raw(ex(1), 'timeout', EXECUTE));
    see(raw(ex(2), 'timeout', EXECUTE));
    see(raw(ex(3), 'pass'));
    see(raw(ex(4), 'timeout', EXECUTE));
    see(raw(entry('t.a.other', ['PJRT_Client_Devices']), 'pass'));
    see(raw(ex(5), 'timeout', EXECUTE));
    assert.equal(p.blocked.size, 0, 'a pass in between ends the streak; unrelated passes do not');
    see(raw(ex(6), 'timeout', EXECUTE));
    assert.deepEqual([...p.blocked.values()], [{ call: EXECUTE, how: 'hanging', firstCase: 't.a.x4', cases: 0 }]);
    assert.match(p.blockedReason(ex(7))!, /^blocked by PJRT_LoadedExecutable_Execute hanging \(see t\.a\.x4\)/);
    assert.equal(p.blockedReason(entry('t.a.y', ['PJRT_Client_Devices'])), undefined);
    assert.equal(p.stopped, undefined, 'the run goes on with the cases that do not need the call');
  });

  it('a waived crash or hang (xfail) neither counts nor ends a streak', () => {
    const p = new StopPolicy({ maxClientFailures: 3, maxCallFailures: 3 });
    const ex = (i: number): CatalogueEntry => entry(`t.a.x${i}`, [EXECUTE]);
    for (let i = 1; i <= 5; i++) {
      const r = raw(ex(i), 'crash', EXECUTE);
      p.observe(r, { ...judged(r), status: 'xfail' });
    }
    assert.equal(p.blocked.size, 0, 'five waived crashes block nothing');
    const c = raw(entry('t.a.c', ['PJRT_Client_Create']), 'timeout', 'PJRT_Client_Create');
    for (let i = 0; i < 3; i++) p.observe(c, { ...judged(c), status: 'xfail' });
    assert.equal(p.stopped, undefined, 'nor do waived client-creation hangs stop the run');
    for (const i of [6, 7]) p.observe(raw(ex(i), 'crash', EXECUTE), judged(raw(ex(i), 'crash', EXECUTE)));
    const w = raw(ex(8), 'crash', EXECUTE);
    p.observe(w, { ...judged(w), status: 'xfail' });
    p.observe(raw(ex(9), 'crash', EXECUTE), judged(raw(ex(9), 'crash', EXECUTE)));
    assert.equal(p.blocked.get(EXECUTE)?.firstCase, 't.a.x6', 'a waived crash between two unwaived ones leaves their streak as it was');
  });

  it('a warm-up that hangs or crashes counts like a case: towards a blocked call, or towards stopping the run', () => {
    const p = new StopPolicy({ maxClientFailures: 3, maxCallFailures: 3 });
    const ex = (i: number): CatalogueEntry => entry(`t.a.x${i}`, [EXECUTE]);
    p.observeWarmup('hanging', EXECUTE);
    p.observe(raw(ex(1), 'timeout', EXECUTE), judged(raw(ex(1), 'timeout', EXECUTE)));
    p.observe(raw(ex(2), 'timeout', EXECUTE), judged(raw(ex(2), 'timeout', EXECUTE)));
    assert.deepEqual([...p.blocked.values()], [{ call: EXECUTE, how: 'hanging', firstCase: 'a worker\'s warm-up', cases: 0 }]);
    assert.equal(p.observeWarmup('hanging', undefined), undefined, 'a warm-up with no traced call in flight names no call to count');
    const q = new StopPolicy({ maxClientFailures: 3, maxCallFailures: 3 });
    q.observeWarmup('hanging', 'PJRT_Client_Create');
    q.observeWarmup('hanging', 'PJRT_Client_Create');
    const c = raw(entry('t.a.c', ['PJRT_Client_Create']), 'timeout', 'PJRT_Client_Create');
    assert.match(q.observe(c, judged(c)) ?? '', /^client creation failed 3 times in a row \(PJRT_Client_Create hung\)/);
  });

  it('with hang_in=PJRT_LoadedExecutable_Execute: 3 timeouts naming the call, the rest skipped as blocked, exit 1', () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const r = cli(['run', '--filter', 'tier1.execute.**', '--jobs', '1', '--timeout', '2000', '--warmup-timeout', '0', '--json', json], {
      env: { PJRT_REFERENCE_FAULTS: `hang_in=${EXECUTE}` },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    const timeouts = res.results.filter((c) => c.status === 'timeout');
    assert.equal(timeouts.length, 3, JSON.stringify(res.totals.byStatus));
    for (const t of timeouts) assert.match(t.message!, /no result within 2000 ms during PJRT_LoadedExecutable_Execute/);
    const blocked = res.results.filter((c) => c.status === 'skip' && /^blocked by PJRT_LoadedExecutable_Execute hanging \(see tier1\.execute\./.test(c.message ?? ''));
    assert.ok(blocked.length >= 10, JSON.stringify(res.totals.byStatus));
    assert.equal(res.blocked?.[0]?.call, EXECUTE);
    assert.match(r.stdout, /blocked: PJRT_LoadedExecutable_Execute hanging/);
  });
});

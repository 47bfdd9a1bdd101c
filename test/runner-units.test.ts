// Unit tests of the runner's pure parts: sharding, selection, expectations, semver, verdicts, client detection.
import assert from 'node:assert/strict';
import { ExpectationsFile } from '../src/config/expectations.js';
import { satisfies, validRange } from '../src/config/semver.js';
import { Expectations } from '../src/runner/expectations.js';
import { idHash, inShard, parseShard, selectCases } from '../src/runner/select.js';
import { capabilityMatrix, verdict } from '../src/runner/summary.js';
import { rootCauses } from '../src/runner/root-causes.js';
import { StatusPipeline } from '../src/runner/status.js';
import type { RawResult } from '../src/runner/scheduler.js';
import type { CaseResult } from '../src/config/results.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import { ConfigError } from '../src/config/errors.js';

const entry = (id: string, tier: number): CatalogueEntry => ({ id, area: id.split('.').slice(0, 2).join('.'), tier, catches: [], source: 'header', cite: 'test', requires: {}, required: false });
const result = (id: string, tier: number, status: CaseResult['status'], message?: string): CaseResult => ({
  id, area: 'a.b', tier, status, durationMs: 1, source: 'header', cite: 'test', requires: {}, ...(message ? { message } : {}),
});

describe('runner units', () => {
  it('shards partition the ids (every id in exactly one shard), deterministically', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `tier1.area${i % 7}.case${i}`);
    for (const n of [1, 2, 3, 8]) {
      for (const id of ids) {
        const hits = Array.from({ length: n }, (_, i) => inShard(id, { index: i + 1, count: n })).filter(Boolean).length;
        assert.equal(hits, 1);
      }
    }
    assert.equal(idHash('tier0.api.version_major'), idHash('tier0.api.version_major'));
    assert.throws(() => parseShard('0/3'), ConfigError);
    assert.throws(() => parseShard('4/3'), ConfigError);
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
  });

  it('selects by tier, filter and exclude globs', () => {
    const all = [entry('tier0.api.a', 0), entry('tier1.transfer.roundtrip.f32', 1), entry('tier1.transfer.roundtrip.bf16', 1), entry('tier2.events.x', 2)];
    const ids = (s: CatalogueEntry[]): string[] => s.map((e) => e.id);
    assert.deepEqual(ids(selectCases(all, { maxTier: 1, filters: [], excludes: [] })), ['tier0.api.a', 'tier1.transfer.roundtrip.f32', 'tier1.transfer.roundtrip.bf16']);
    assert.deepEqual(ids(selectCases(all, { maxTier: 9, filters: ['tier1.transfer.**'], excludes: ['*.bf16'] })), ['tier1.transfer.roundtrip.f32']);
    assert.deepEqual(ids(selectCases(all, { maxTier: 9, filters: ['tier1.*'], excludes: [] })), ['tier1.transfer.roundtrip.f32', 'tier1.transfer.roundtrip.bf16']);
  });

  it('semver ranges for expectation entries', () => {
    assert.equal(satisfies('0.4.2', '0.4.2'), true);
    assert.equal(satisfies('0.4.3', '0.4.2'), false);
    assert.equal(satisfies('0.4.3', '>=0.4.0 <0.5'), true);
    assert.equal(satisfies('0.5.0', '>=0.4.0 <0.5'), false);
    assert.equal(satisfies('1.9.0', '^1.2'), true);
    assert.equal(satisfies('2.0.0', '^1.2'), false);
    assert.equal(satisfies('0.2.5', '^0.2.3'), true);
    assert.equal(satisfies('0.3.0', '^0.2.3'), false);
    assert.equal(satisfies('1.2.9', '~1.2.3'), true);
    assert.equal(satisfies('1.3.0', '~1.2.3'), false);
    assert.equal(satisfies('3.1.0', '1.x || 3.x'), true);
    assert.equal(validRange('>=1 <2'), true);
    assert.equal(validRange('banana'), false);
  });

  it('expectations: waived failure → xfail, pass → xpass, other failure kinds stay, version-scoped entries', () => {
    const e = new Expectations([
      { tests: 'a.b.fails', status: 'fail', reason: 'r1' },
      { tests: ['a.b.crash*'], status: ['crash', 'timeout'], reason: 'r2' },
      { tests: 'a.b.flaky', status: 'flaky', reason: 'r3' },
      { tests: 'a.b.v', status: 'fail', reason: 'r4', pluginVersion: '>=0.4 <0.5', apiMinor: { min: 50 } },
    ]);
    const id = {};
    assert.equal(e.apply('a.b.fails', 'fail', 'm', id).status, 'xfail');
    assert.equal(e.apply('a.b.fails', 'crash', 'm', id).status, 'crash');
    assert.equal(e.apply('a.b.fails', 'pass', undefined, id).status, 'xpass');
    assert.equal(e.apply('a.b.crash2', 'timeout', 'm', id).status, 'xfail');
    assert.equal(e.apply('a.b.flaky', 'pass', undefined, id).status, 'pass');
    assert.equal(e.apply('a.b.flaky', 'fail', 'm', id).status, 'xfail');
    assert.equal(e.apply('a.b.v', 'fail', 'm', {}).status, 'fail', 'unknown plugin version: not waived');
    assert.equal(e.apply('a.b.v', 'fail', 'm', { platformVersion: '0.4.1', apiVersion: { major: 0, minor: 60 } }).status, 'xfail');
    assert.equal(e.apply('a.b.v', 'fail', 'm', { platformVersion: '0.4.1', apiVersion: { major: 0, minor: 40 } }).status, 'fail');
    assert.deepEqual(e.stale(['a.b.fails', 'a.b.crash1', 'a.b.v']).map((x) => x.reason), ['r3']);
    // Given a run that selected them all: an entry whose cases all ended unsupported or skipped is stale (r1: its
    // case no longer reaches the deviation); one whose case failed otherwise (r2), passed (r4: reported as xpass) or
    // ended as it allows is not.
    const ids = ['a.b.fails', 'a.b.crash1', 'a.b.flaky', 'a.b.v'];
    const run = { selected: ids, results: [
      { id: 'a.b.fails', status: 'unsupported' as const }, { id: 'a.b.crash1', status: 'fail' as const },
      { id: 'a.b.flaky', status: 'xfail' as const }, { id: 'a.b.v', status: 'xpass' as const },
    ] };
    assert.deepEqual(e.stale(ids, run).map((x) => x.reason), ['r1']);
    assert.deepEqual(e.stale(ids, { ...run, selected: ['a.b.crash1'] }).map((x) => x.reason), [], 'a filtered run proves nothing');
  });

  it('expectations by rule: any case breaking the rule is waived; with tests only those; stale when no selected case broke it', () => {
    const e = new Expectations([
      { rules: 'PJRT_X:nan-*', status: 'fail', reason: 'r1' },
      { tests: 'a.c.*', rules: ['PJRT_Y:must-hold'], status: ['fail', 'crash'], reason: 'r2' },
      { rules: 'PJRT_Client_Compile:crash', status: 'crash', reason: 'r3' },
    ]);
    const id = {};
    assert.equal(e.apply('a.new.case', 'fail', 'm', id, 'PJRT_X:nan-dropped').status, 'xfail', 'a new case reaching the rule');
    assert.equal(e.apply('a.new.case', 'fail', 'm', id, 'PJRT_X:other').status, 'fail');
    assert.equal(e.apply('a.new.case', 'fail', 'm', id).status, 'fail', 'no rule key: not waived by a rule entry');
    assert.equal(e.apply('a.new.case', 'pass', undefined, id).status, 'pass', 'a pass breaks no rule: never xpass');
    assert.equal(e.apply('a.c.one', 'fail', 'm', id, 'PJRT_Y:must-hold').status, 'xfail');
    assert.equal(e.apply('a.d.one', 'fail', 'm', id, 'PJRT_Y:must-hold').status, 'fail', 'outside the entry\'s tests');
    assert.equal(e.apply('a.e', 'crash', 'SIGABRT', id, 'PJRT_Client_Compile:crash').status, 'xfail');
    const all = ['a.new.case', 'a.c.one', 'a.d.one', 'a.e'];
    // Every case ran; only PJRT_X's deviation showed: the other two rule entries are stale.
    const run = { selected: all, results: [{ id: 'a.new.case', status: 'xfail' as const, rule: 'PJRT_X:nan-dropped' }, { id: 'a.d.one', status: 'fail' as const, rule: 'PJRT_Y:must-hold' }] };
    assert.deepEqual(e.stale(all, run).map((x) => x.reason), ['r2', 'r3']);
    // A filtered run that left out a covered case proves nothing; without a run, only id globs are checked.
    assert.deepEqual(e.stale(all, { selected: ['a.new.case'], results: [] }).map((x) => x.reason), []);
    assert.deepEqual(e.stale(all).map((x) => x.reason), []);
    assert.deepEqual(e.stale(['a.x']).map((x) => x.reason), ['r2'], 'tests that match no id');
    assert.equal(ExpectationsFile.safeParse({ expectations: [{ status: 'fail', reason: 'neither tests nor rules' }] }).success, false);
    assert.equal(ExpectationsFile.safeParse({ expectations: [{ rules: 'PJRT_X:y', status: 'fail', reason: 'r' }] }).success, true);
  });

  it('the status pipeline hands a raw outcome\'s rule, or a crash\'s call in flight, to the waiver', () => {
    const exp = new Expectations([
      { rules: 'PJRT_X:nan-*', status: 'fail', reason: 'nan' },
      { rules: 'PJRT_Client_Compile:crash', status: 'crash', reason: 'abort' },
    ]);
    const out: CaseResult[] = [];
    const p = new StatusPipeline({ strict: false, identity: {}, expectations: exp }, new Set(), (r) => out.push(r));
    p.accept({ entry: entry('t.a.nan', 1), status: 'fail', message: 'm', rule: 'PJRT_X:nan-dropped', durationMs: 1, attempts: 1 });
    p.accept({ entry: entry('t.a.abort', 1), status: 'crash', message: 'SIGABRT', call: 'PJRT_Client_Compile', durationMs: 1, attempts: 1 });
    p.accept({ entry: entry('t.a.other', 1), status: 'fail', message: 'm', rule: 'PJRT_X:other', durationMs: 1, attempts: 1 });
    assert.deepEqual(out.map((r) => [r.id, r.status, r.rule]), [
      ['t.a.nan', 'xfail', 'PJRT_X:nan-dropped'], ['t.a.abort', 'xfail', 'PJRT_Client_Compile:crash'], ['t.a.other', 'fail', 'PJRT_X:other'],
    ]);
    assert.equal(out[0]!.expectation?.reason, 'nan');
  });

  it('verdict: gate over tiers ≤ N, nothing executed fails a gate, interrupted is 130', () => {
    const rs = [result('t0', 0, 'pass'), result('t1', 1, 'fail'), result('t0u', 0, 'unsupported')];
    assert.equal(verdict(rs, { gate: 0, interrupted: false }).code, 0);
    assert.equal(verdict(rs, { gate: 1, interrupted: false }).code, 1);
    assert.equal(verdict(rs, { interrupted: false }).code, 1);
    assert.equal(verdict([result('x', 0, 'unsupported')], { gate: 0, interrupted: false }).code, 1);
    assert.equal(verdict([result('x', 0, 'xfail')], { gate: 0, interrupted: false }).code, 0);
    assert.equal(verdict(rs, { interrupted: true }).code, 130);
  });

  it('a warn never fails a gate; an expectation for fail/warn turns it into xfail', () => {
    assert.equal(verdict([result('tier1.a.b', 1, 'warn'), result('tier1.a.c', 1, 'pass')], { gate: 1, interrupted: false }).code, 0);
    const exp = new Expectations([{ tests: 'tier1.a.*', status: 'fail', reason: 'known' }]);
    assert.equal(exp.apply('tier1.a.b', 'warn', 'quality', {}).status, 'xfail');
  });

  it('dependents of a failed precondition are skipped when judged, also when they finish first', () => {
    const dep = (id: string, on: string): CatalogueEntry => ({ ...entry(id, 1), dependsOn: on });
    const raw = (e: CatalogueEntry, status: RawResult['status'], message: string): RawResult => ({ entry: e, status, message, durationMs: 1, attempts: 1 });
    const out: CaseResult[] = [];
    const ids = ['t.a.pre', 't.a.dep', 't.a.other', 't.a.dep2'];
    const p = new StatusPipeline({ strict: false, identity: {} }, new Set(ids), (r) => out.push(r));
    // The dependent's result arrives before its precondition's: it is held, then judged.
    p.accept(raw(dep('t.a.dep', 't.a.pre'), 'fail', 'same boom'));
    assert.equal(out.length, 0, 'held until the precondition is judged');
    p.accept(raw(entry('t.a.pre', 1), 'fail', 'boom'));
    p.accept(raw(entry('t.a.other', 1), 'fail', 'x'));
    p.accept(raw(dep('t.a.dep2', 't.a.other2'), 'fail', 'y'));
    p.flush();
    assert.deepEqual(out.map((r) => [r.id, r.status]), [['t.a.pre', 'fail'], ['t.a.dep', 'skip'], ['t.a.other', 'fail'], ['t.a.dep2', 'fail']]);
    assert.match(out[1]!.message!, /^depends on t\.a\.pre, which failed; this case's own failure: same boom/);
  });

  it('failures group by broken rule, not by message; a broken foundation heads the list with its followers under it', () => {
    const rs: CaseResult[] = [
      { ...result('t.a.1', 1, 'fail', 'PJRT_X must hold: expected 1, got 2\nmore'), rule: 'PJRT_X:must-hold' },
      { ...result('t.a.2', 1, 'fail', 'PJRT_X must hold: expected 3, got 4'), rule: 'PJRT_X:must-hold' },
      result('t.a.3', 1, 'crash', 'SIGSEGV'), result('t.a.4', 1, 'pass'),
    ];
    const g = rootCauses(rs);
    assert.equal(g.length, 2);
    assert.deepEqual({ rule: g[0]!.rule, count: g[0]!.count, ids: g[0]!.ids }, { rule: 'PJRT_X:must-hold', count: 2, ids: ['t.a.1', 't.a.2'] });
    const up = ['PJRT_Client_BufferFromHostBuffer'];
    const f = rootCauses([
      { ...result('t.b.x', 1, 'fail', 'x'), rule: 'PJRT_Y:other', requires: { slots: up } },
      { ...result('tier1.transfer.roundtrip.f32.2x3', 1, 'fail', 'bytes'), rule: 'PJRT_Client_BufferFromHostBuffer:bit-exact', requires: { slots: up } },
      { ...result('t.c.z', 1, 'fail', 'z'), rule: 'PJRT_Z:unrelated' },
    ]);
    assert.deepEqual(f.map((x) => [x.rule, x.foundation, x.following?.map((y) => y.rule)]), [
      ['PJRT_Client_BufferFromHostBuffer:bit-exact', 'upload and read-back', ['PJRT_Y:other']],
      ['PJRT_Z:unrelated', undefined, undefined],
    ]);
  });

  it('the capability matrix marks what only quality cases found lacking as warn', () => {
    const q = { ...result('t.a.q', 1, 'warn'), source: 'quality' as const, capabilities: { 'x/f32': false, 'y/f32': false } };
    const h = { ...result('t.a.h', 1, 'fail'), capabilities: { 'y/f32': false, 'z/f32': true } };
    assert.deepEqual(capabilityMatrix([q, h]), { 'x/f32': 'warn', 'y/f32': false, 'z/f32': true });
  });
});

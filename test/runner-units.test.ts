// Unit tests of the runner's pure parts: sharding, selection, expectations, semver, verdicts, client detection.
import assert from 'node:assert/strict';
import { satisfies, validRange } from '../src/config/semver.js';
import { needsClient } from '../src/harness/needs-client.js';
import { Expectations } from '../src/runner/expectations.js';
import { idHash, inShard, parseShard, selectCases } from '../src/runner/select.js';
import { verdict } from '../src/runner/summary.js';
import type { CaseResult } from '../src/config/results.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import { ConfigError } from '../src/config/errors.js';

const entry = (id: string, tier: number): CatalogueEntry => ({ id, area: id.split('.').slice(0, 2).join('.'), tier, catches: [], requires: {}, required: false });
const result = (id: string, tier: number, status: CaseResult['status']): CaseResult => ({ id, area: 'a.b', tier, status, durationMs: 1, requires: {} });

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

  it('creates a client only for run functions that ask for one', () => {
    assert.equal(needsClient(({ plugin }: { plugin: unknown }) => plugin), false);
    assert.equal(needsClient(({ client }: { client: unknown }) => client), true);
    assert.equal(needsClient(async ({ p: { dtype }, device }: { p: { dtype: string }; device: unknown }) => [dtype, device]), true);
    assert.equal(needsClient(({ p: { client } }: { p: { client: string } }) => client), false);
    assert.equal(needsClient(({ client, expect }: { client: unknown; expect: unknown }) => [client, expect]), true);
    assert.equal(needsClient(({ plugin, scope }: { plugin: unknown; scope: unknown }) => [plugin, scope]), false);
    assert.equal(needsClient(() => 1), false);
    assert.equal(needsClient((ctx: unknown) => ctx), true);
    assert.equal(needsClient(function ({ devices }: { devices: unknown }) { return devices; }), true);
    assert.equal(needsClient(({ plugin, ...rest }: { plugin: unknown }) => [plugin, rest]), true);
  });
});

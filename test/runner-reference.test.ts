// End-to-end against the reference plugin: the tier-0 runner smoke cases, each with the fault it must catch.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const SMOKE = 'tier0.runner.*';

function run(faults: string | undefined, extra: string[] = [], env: Record<string, string> = {}): { code: number | null; res: ResultsFile; stdout: string } {
  const json = path.join(tmpDir(), 'r.json');
  const r = cli(['run', '--json', json, ...extra], { env: { ...env, ...(faults ? { PJRT_REFERENCE_FAULTS: faults } : {}) } });
  assert.ok(existsSync(json), r.stderr + r.stdout);
  return { code: r.code, res: JSON.parse(readFileSync(json, 'utf8')) as ResultsFile, stdout: r.stdout };
}
const status = (res: ResultsFile): Record<string, string> => Object.fromEntries(res.results.map((x) => [x.id, x.status]));

describe('runner against the reference plugin', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });

  it('passes the smoke cases and records the plugin identity', () => {
    const { code, res } = run(undefined, ['--filter', SMOKE, '--gate', 'tier0']);
    assert.deepEqual(Object.values(status(res)), ['pass', 'pass', 'pass', 'pass']);
    assert.equal(code, 0);
    assert.equal(res.plugin.platformName, 'reference');
    assert.match(res.plugin.sha256 ?? '', /^[0-9a-f]{64}$/);
    assert.equal(res.plugin.apiVersion?.major, 0);
    assert.ok((res.plugin.devices ?? []).length >= 1);
  });

  for (const [fault, id, want, exit] of [
    ['crash_in=PJRT_Client_PlatformName', 'tier0.runner.platform_name', ['crash'], 1],
    ['accepts_unknown_create_option', 'tier0.runner.unknown_create_option', ['warn'], 0],
    ['abort_in=PJRT_Client_Create', 'tier0.runner.client_create_destroy', ['crash'], 1],
    ['hang_in=PJRT_Client_AddressableDevices', 'tier0.runner.addressable_devices', ['timeout'], 1],
  ] as const) {
    it(`${id} catches ${fault}, and the run goes on`, () => {
      // A crash in client creation is exit 2 in the preflight and stops a run after K in a row (test/gate.test.ts): both off here.
      const { code, res } = run(fault, ['--filter', SMOKE, '--timeout', '3000', ...(fault.includes('Client_Create') ? ['--no-preflight', '--max-client-failures', '0'] : [])]);
      const s = status(res);
      assert.ok((want as readonly string[]).includes(s[id]!), `${id}: ${s[id]} (${res.results.find((x) => x.id === id)?.message})`);
      assert.equal(res.results.length, 4, 'every case has a result');
      assert.equal(code, exit, exit === 0 ? 'a quality case warns and never fails the run' : 'a failure fails the run');
    });
  }

  it('decides requirements in the worker: unsupported with the reason, before the case runs', () => {
    // The reference plugin implements every slot: the null slot the fixture requires is made with the null_slot fault.
    const { res } = run('null_slot=PJRT_Compile', [], { PJRT_CTS_SUITES: path.join(ROOT, 'dist', 'test', 'fixtures', 'suites-plugin') });
    const by = Object.fromEntries(res.results.map((x) => [x.id, x]));
    assert.equal(by['tier0.requires.future_minor']!.status, 'unsupported');
    assert.match(by['tier0.requires.future_minor']!.message!, /needs PJRT API minor ≥ 9999/);
    assert.equal(by['tier0.requires.null_slot']!.status, 'unsupported');
    assert.match(by['tier0.requires.null_slot']!.message!, /PJRT_Compile is null/);
    assert.equal(by['tier0.requires.met']!.status, 'pass');
    assert.equal(by['tier0.requires.client_identity']!.status, 'pass');
  });
});

describe('one shared client per long-lived worker', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });
  const SUITES = { PJRT_CTS_SUITES: path.join(ROOT, 'dist', 'test', 'fixtures', 'suites-plugin') };
  const clientOf = (res: ResultsFile, id: string): string | undefined => /client=(\d+)/.exec(res.results.find((x) => x.id === id)?.message ?? '')?.[1];

  it('reuses it, replaces it after a case breaks it or the worker crashes, and counts all of it', () => {
    const { res } = run(undefined, ['--filter', 'tier1.shared.*', '--jobs', '1'], SUITES);
    const s = status(res);
    assert.deepEqual(s, {
      'tier1.shared.a_uses_shared': 'pass', 'tier1.shared.b_uses_shared_again': 'pass', 'tier1.shared.c_breaks_shared': 'pass',
      'tier1.shared.d_after_break': 'pass', 'tier1.shared.e_fresh': 'pass', 'tier1.shared.f_none': 'fail', 'tier1.shared.g_crashes': 'crash',
      'tier1.shared.h_after_crash': 'pass',
    });
    assert.equal(clientOf(res, 'tier1.shared.a_uses_shared'), clientOf(res, 'tier1.shared.b_uses_shared_again'), 'the same client serves consecutive cases');
    assert.notEqual(clientOf(res, 'tier1.shared.e_fresh'), clientOf(res, 'tier1.shared.d_after_break'), 'a fresh client is not the shared one');
    assert.match(res.results.find((x) => x.id === 'tier1.shared.c_breaks_shared')!.message!, /shared client was replaced: tier1\.shared\.c_breaks_shared destroyed the shared client/);
    assert.match(res.results.find((x) => x.id === 'tier1.shared.f_none')!.message!, /declared client: 'none'/);
    const k = res.counters!;
    assert.equal(k.workersStarted, 2, 'one worker, replaced once after the crash');
    assert.equal(k.workersReplaced, 1);
    assert.equal(k.sharedClientsCreated, 3, 'first, after the break, after the crash');
    assert.equal(k.clientsCreated, 4, 'three shared and one fresh');
    assert.deepEqual(k.sharedClientResets, ['tier1.shared.c_breaks_shared destroyed the shared client']);
  });

  it('an entry whose devices take one process at a time runs one worker, and says why', () => {
    const dir = tmpDir();
    const config = path.join(dir, 'plugins.json');
    writeFileSync(config, JSON.stringify({ default: 'x', plugins: { x: { library: LIB, exclusiveDevices: true } } }));
    const { res, stdout } = run(undefined, ['--config', config, '--filter', 'tier1.shared.[abd]_*', '--jobs', '2'], SUITES);
    assert.match(stdout, /running 1 worker instead of 2: the x entry says its devices take one process at a time/);
    assert.equal(res.counters!.workersStarted, 1);
  });
});

describe('a plugin that allows one live client per process', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });
  const SUITES = { PJRT_CTS_SUITES: path.join(ROOT, 'dist', 'test', 'fixtures', 'suites-plugin') };
  const config = (entry: Record<string, unknown>): string => {
    const file = path.join(tmpDir(), 'plugins.json');
    writeFileSync(file, JSON.stringify({ default: 'one', plugins: { one: { library: LIB, createOptions: { max_live_clients: 1 }, ...entry } } }));
    return file;
  };

  it('with maxLiveClients: 1 the shared client is dropped before a case that needs its own', () => {
    const { res } = run(undefined, ['--config', config({ maxLiveClients: 1 }), '--filter', 'tier1.shared.[abe]_*', '--jobs', '1'], SUITES);
    assert.deepEqual(Object.values(status(res)), ['pass', 'pass', 'pass']);
    assert.equal(res.counters!.sharedClientsCreated, 1);
    assert.match(res.counters!.sharedClientResets[0] ?? '', /e_fresh needs a client of its own and the plugin allows one live client per process/);
  });

  it('without it, the worker releases the shared client, retries once and records the limit', () => {
    const { res } = run(undefined, ['--config', config({}), '--filter', 'tier1.shared.[abe]_*', '--jobs', '1'], SUITES);
    assert.deepEqual(Object.values(status(res)), ['pass', 'pass', 'pass']);
    assert.match(res.counters!.clientLimit ?? '', /^one live client per process: at tier1\.shared\.e_fresh, PJRT_Client_Create failed while the worker's shared client lived \(FAILED_PRECONDITION: .*max_live_clients/);
    assert.match(res.counters!.sharedClientResets[0] ?? '', /e_fresh: PJRT_Client_Create failed .* the shared client was released and the call retried/);
  });

  it('a plugin without the limit records none', () => {
    const file = path.join(tmpDir(), 'plugins.json');
    writeFileSync(file, JSON.stringify({ default: 'many', plugins: { many: { library: LIB } } }));
    const { res } = run(undefined, ['--config', file, '--filter', 'tier1.shared.[abe]_*', '--jobs', '1'], SUITES);
    assert.deepEqual(Object.values(status(res)), ['pass', 'pass', 'pass']);
    assert.equal(res.counters!.clientLimit, undefined);
  });
});

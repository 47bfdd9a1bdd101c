// End-to-end against the reference plugin: the tier-0 runner smoke cases, each with the fault it must catch.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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

  for (const [fault, id, want] of [
    ['crash_in=PJRT_Client_PlatformName', 'tier0.runner.platform_name', ['crash']],
    ['platform_name_unstable', 'tier0.runner.platform_name', ['fail']],
    ['accepts_unknown_create_option', 'tier0.runner.unknown_create_option', ['fail']],
    ['wrong_error_code', 'tier0.runner.unknown_create_option', ['fail']],
    ['abort_in=PJRT_Client_Create', 'tier0.runner.client_create_destroy', ['crash']],
    ['hang_in=PJRT_Client_AddressableDevices', 'tier0.runner.addressable_devices', ['timeout']],
  ] as const) {
    it(`${id} catches ${fault}, and the run goes on`, () => {
      const { code, res } = run(fault, ['--filter', SMOKE, '--timeout', '3000']);
      const s = status(res);
      assert.ok((want as readonly string[]).includes(s[id]!), `${id}: ${s[id]} (${res.results.find((x) => x.id === id)?.message})`);
      assert.equal(res.results.length, 4, 'every case has a result');
      assert.equal(code, 1);
    });
  }

  it('decides requirements in the worker: unsupported with the reason, before the case runs', () => {
    const { res } = run(undefined, [], { PJRT_CTS_SUITES: path.join(ROOT, 'dist', 'test', 'fixtures', 'suites-plugin') });
    const by = Object.fromEntries(res.results.map((x) => [x.id, x]));
    assert.equal(by['tier0.requires.future_minor']!.status, 'unsupported');
    assert.match(by['tier0.requires.future_minor']!.message!, /needs PJRT API minor ≥ 9999/);
    assert.equal(by['tier0.requires.null_slot']!.status, 'unsupported');
    assert.match(by['tier0.requires.null_slot']!.message!, /PJRT_Compile is null/);
    assert.equal(by['tier0.requires.met']!.status, 'pass');
    assert.equal(by['tier0.requires.client_identity']!.status, 'pass');
  });
});

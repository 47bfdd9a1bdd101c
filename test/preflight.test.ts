// The run's preflight: an unusable library, rejected create options, or a crash in client creation is bad
// input (exit 2, one line), while a crash elsewhere still gets its cases run and recorded.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, cli, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

function oneErrorLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, /^pjrt-cts: error: /);
  assert.match(lines[0]!, pattern);
}

describe('run: preflight', function () {
  this.timeout(120_000);

  it('a file that is not a shared library: exit 2, one line, no case run', function () {
    const dir = tmpDir();
    try {
      const lib = path.join(dir, 'libnot_a_plugin.so');
      writeFileSync(lib, 'not an ELF file\n');
      const json = path.join(dir, 'r.json');
      const r = cli(['run', '--plugin', lib, '--json', json]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      oneErrorLine(r.stderr, /libnot_a_plugin\.so.*cannot load shared library/);
      assert.ok(!existsSync(`${json}l`), 'no case may have run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('create options the plugin rejects: exit 2 naming the option', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const r = cli(['run', '--create-option', 'device_count:string=four']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    oneErrorLine(r.stderr, /device_count/);
  });

  it('GetPjrtApi returning NULL (an unknown fault name makes the reference plugin do so): exit 2', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const r = cli(['run'], { env: { PJRT_REFERENCE_FAULTS: 'no_such_fault' } });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /^pjrt-cts: error: .*GetPjrtApi\(\) returned NULL; the plugin wrote on stderr: pjrt_reference: unknown fault .no_such_fault./m);
  });

  it('a crash in client creation during the preflight: exit 2, one line naming the call and the signal', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const dir = tmpDir();
    try {
      const json = path.join(dir, 'r.json');
      const r = cli(['run', '--filter', 'tier0.runner.*', '--json', json], { env: { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_Client_Create' } });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      oneErrorLine(r.stderr, /PJRT_Client_Create: the plugin crashed in PJRT_Client_Create: the worker was killed by SIGSEGV/);
      assert.ok(!existsSync(`${json}l`), 'no case may have run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a crash outside client creation (PlatformName) is left to the cases, which record it', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const dir = tmpDir();
    try {
      const json = path.join(dir, 'r.json');
      const r = cli(['run', '--filter', 'tier0.runner.*', '--json', json], { env: { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_Client_PlatformName' } });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const statuses = readFileSync(`${json}l`, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { status?: string }).status);
      assert.ok(statuses.includes('crash'), statuses.join(','));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Plugin calls get the stack a framework's thread has (src/ffi/koffi.ts). The reference plugin's
// PJRT_REFERENCE_CALL_STACK_KIB makes every PJRT_Api function use that much of its caller's stack, as XLA's GPU compiler
// does: a caller on koffi's default stacks (128 KiB async, 2 MiB sync) crashes on it, the CTS does not. The fault
// matrix proves that a whole run on it keeps every verdict.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const DEEP = { PJRT_REFERENCE_CALL_STACK_KIB: '4096' };
const FRAMEWORK_THREAD = 8 << 20;

/** A Node process that calls GetPjrtApi through koffi as configured by nothing but `setup` (koffi's defaults). */
function rawKoffiCall(how: 'sync' | 'async', setup = ''): { status: number | null; signal: NodeJS.Signals | null; stdout: string } {
  const script = `
    import koffi from 'koffi';
    ${setup}
    const get = koffi.load(${JSON.stringify(LIB)}).func('void *GetPjrtApi(void)');
    if (${JSON.stringify(how)} === 'sync') console.log(get() !== null);
    else get.async((e, r) => console.log(!e && r !== null));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, ...DEEP }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout };
}

describe('plugin calls get a framework thread\'s stack', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });

  it('the binding configures koffi before any load: 16 MiB for sync and async calls', function () {
    const script = `import { callStacks } from ${JSON.stringify(path.join(ROOT, 'dist', 'src', 'ffi', 'index.js'))}; console.log(JSON.stringify(callStacks()));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { syncBytes: 16 << 20, asyncBytes: 16 << 20 });
  });

  it('PJRT_REFERENCE_CALL_STACK_KIB=4096 crashes a caller on koffi\'s default stacks, sync and async', function () {
    for (const how of ['sync', 'async'] as const) {
      const r = rawKoffiCall(how);
      assert.equal(r.signal, 'SIGSEGV', `${how}: ${JSON.stringify(r)}`);
    }
    const big = rawKoffiCall('async', 'koffi.config({ sync_stack_size: 16 << 20, async_stack_size: 16 << 20 });');
    assert.equal(big.status, 0, JSON.stringify(big));
    assert.equal(big.stdout.trim(), 'true');
  });

  it('a run on it passes (compile, execute, transfers, events, AOT, info) and records the stack its calls had', function () {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const r = cli(['run', '-p', 'reference', '--json', json, '-f', 'tier0.**', '-f', 'tier1.compile.**', '-f', 'tier1.execute.numerics.*', '-f', 'tier1.aot_compile.program.add_*', '-f', 'tier2.events.*'], { env: DEEP });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(json, 'utf8')) as { plugin: { callStack?: { syncBytes: number; asyncBytes: number } } };
    assert.ok(results.plugin.callStack && Math.min(results.plugin.callStack.syncBytes, results.plugin.callStack.asyncBytes) >= FRAMEWORK_THREAD, JSON.stringify(results.plugin.callStack));
    const info = cli(['info', '-p', 'reference', '--json'], { env: DEEP });
    assert.equal(info.code, 0, info.stderr);
    assert.ok((JSON.parse(info.stdout) as { plugin: { callStack: { asyncBytes: number } } }).plugin.callStack.asyncBytes >= FRAMEWORK_THREAD);
  });
});

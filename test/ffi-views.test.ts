// Host memory we own, raw reads, the view on-delete tracker and the stray-OnReady counter: against the mock plugin,
// then views of foreign memory end to end against the reference plugin (skipped until it is built).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import koffi from '../src/ffi/koffi.js';
import { pendingHolds, pendingOnReady, viewDeleteTracker } from '../src/ffi/index.js';
import {
  Plugin,
  Event,
  Scope,
  allocateHostMemory,
  readNative,
  strayOnReadyCalls,
  strayViewDeleteCalls,
  drainRelayedCallbacks,
  waitForRelayedCallbacks,
  DeviceBufferView,
  Buffer as PjrtBuffer,
  type Client,
} from '../src/pjrt/index.js';
import { buildNative } from './ffi-native.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIB = process.env.PJRT_CTS_REFERENCE_PLUGIN ?? path.join(root, 'build/reference-plugin/libpjrt_reference.so');

function bytePattern(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);
}

describe('host memory and raw reads', () => {
  it('allocateHostMemory is aligned, writable through view(), readable with readNative, freed by its Scope', async () => {
    const scope = new Scope();
    const m = allocateHostMemory(100, { alignment: 512, scope });
    assert.equal(m.address % 512n, 0n);
    assert.equal(m.byteLength, 100);
    const p = bytePattern(100, 3);
    m.view().set(p);
    assert.deepEqual(readNative(m.address, 100), p);
    m.view()[5] = 0xab;
    const copy = readNative(m.address, 100);
    assert.equal(copy[5], 0xab);
    m.view()[5] = 0;
    assert.equal(copy[5], 0xab, 'readNative copies');
    assert.equal(scope.size, 1);
    await scope.dispose();
    assert.equal(m.destroyed, true);
    assert.throws(() => m.view(), /after free/);
    m.free(); // idempotent
  });

  it('readNative of nothing is empty', () => {
    assert.equal(readNative(0n, 0).byteLength, 0);
  });
});

describe('callback counters (mock plugin)', function () {
  this.timeout(30000);
  let plugin: Plugin;
  let helpers: {
    setOnReadyTimes: (n: number) => void;
    callOnDelete: (fn: bigint, ptr: bigint, arg: bigint, times: number) => void;
    liveErrors: () => number;
  };

  before(() => {
    const lib = buildNative('mock_plugin');
    plugin = Plugin.load(lib);
    const k = koffi.load(lib);
    helpers = {
      setOnReadyTimes: k.func('void mock_set_on_ready_times(int n)') as (n: number) => void,
      callOnDelete: k.func('void mock_call_on_delete(void *fn, void *ptr, void *arg, int times)') as (fn: bigint, p: bigint, a: bigint, t: number) => void,
      liveErrors: k.func('int mock_live_errors(void)') as () => number,
    };
  });
  afterEach(() => {
    helpers.setOnReadyTimes(1);
    assert.equal(pendingOnReady(), 0);
    assert.equal(pendingHolds(), 0);
  });

  function newEvent(scope: Scope): Event {
    const a = plugin.raw.args('PJRT_Event_Create');
    plugin.raw.call('PJRT_Event_Create', a);
    return new Event(plugin.raw, a.getPtr('event')!, scope);
  }
  function setEvent(e: Event, code = 0): void {
    plugin.raw.call('PJRT_Event_Set', plugin.raw.args('PJRT_Event_Set').ptr('event', e.ptr).i32('error_code', code).bytes('error_message', 'error_message_size', 'x'));
  }

  it('a well-behaved plugin leaves the stray OnReady count alone', async () => {
    const scope = new Scope();
    const before = strayOnReadyCalls();
    const evs = [newEvent(scope), newEvent(scope)];
    const ps = evs.map((e) => e.onReady());
    evs.forEach((e) => setEvent(e));
    await Promise.all(ps);
    assert.equal(await evs[0]!.onReady(), null);
    await drainRelayedCallbacks();
    assert.equal(strayOnReadyCalls(), before);
    await scope.dispose();
  });

  it('OnReady called twice (from a plugin thread and inline) is counted as stray, its error destroyed', async () => {
    helpers.setOnReadyTimes(2);
    const scope = new Scope();
    const before = strayOnReadyCalls();
    const evs = [newEvent(scope), newEvent(scope), newEvent(scope)];
    const ps = evs.map((e) => e.onReady());
    evs.forEach((e, i) => setEvent(e, i === 1 ? 13 : 0));
    const res = await Promise.all(ps);
    assert.equal(res[1]?.codeName, 'INTERNAL', 'the first call delivers the result');
    await drainRelayedCallbacks();
    assert.equal(strayOnReadyCalls() - before, 3, 'one repeat per event');
    assert.equal(await evs[0]!.onReady(), null, 'inline twice on an already-ready event');
    assert.equal(strayOnReadyCalls() - before, 4);
    assert.equal(helpers.liveErrors(), 0, 'the repeated call\'s PJRT_Error was destroyed too');
    await scope.dispose();
  });

  it('the view on-delete tracker counts calls per user_arg, relayed from a plugin thread', async () => {
    const a = viewDeleteTracker();
    const b = viewDeleteTracker();
    assert.equal(a.callback, b.callback, 'one process-wide callback');
    assert.notEqual(a.userArg, b.userArg);
    const strays = strayViewDeleteCalls();
    helpers.callOnDelete(a.callback, 0x1000n, a.userArg, 1);
    helpers.callOnDelete(b.callback, 0x2000n, b.userArg, 2);
    helpers.callOnDelete(a.callback, 0x3000n, 987654321n, 1);
    assert.equal(await waitForRelayedCallbacks(() => a.count() >= 1 && b.count() >= 2 && strayViewDeleteCalls() > strays), true);
    assert.equal(a.count(), 1);
    assert.deepEqual(a.pointers(), [0x1000n]);
    assert.equal(b.count(), 2);
    assert.deepEqual(b.pointers(), [0x2000n, 0x2000n]);
    assert.equal(strayViewDeleteCalls() - strays, 1, 'an unknown user_arg is a stray');
  });
});

describe('views of foreign memory (reference plugin)', function () {
  this.timeout(60000);
  let plugin: Plugin;
  let scope: Scope;
  let client: Client;
  before(function () {
    if (!existsSync(LIB)) return this.skip();
    plugin = Plugin.load(LIB);
    plugin.initialize();
  });
  beforeEach(async () => {
    scope = new Scope();
    client = await plugin.createClient({ scope });
  });
  afterEach(async () => {
    await scope.dispose();
    assert.equal(pendingOnReady(), 0);
    assert.equal(pendingHolds(), 0);
  });

  it('a view over memory we own aliases it, and its on-delete callback fires once, after destroy, with the pointer', async () => {
    const device = client.addressableDevices()[0]!;
    const m = allocateHostMemory(64, { scope });
    m.view().set(bytePattern(64, 1));
    const v = client.createViewOfDeviceBuffer({ pointer: m.address, dtype: 'u8', dims: [64], memory: device.defaultMemory(), onDelete: true });
    assert.ok(v instanceof DeviceBufferView);
    assert.deepEqual(await v.buffer.toHost(), bytePattern(64, 1));
    assert.equal(v.buffer.isOnCpu(), true);
    m.view().set(bytePattern(64, 9));
    assert.deepEqual(await v.buffer.toHost(), bytePattern(64, 9), 'later writes are visible through the view');
    await drainRelayedCallbacks();
    assert.equal(v.deleteCallbackCount(), 0, 'not before the buffer is destroyed');
    v.buffer.destroy();
    assert.equal(await v.settledDeleteCallbackCount(), 1);
    assert.deepEqual(v.deleteCallbackPointers(), [m.address]);
  });

  it('a callback is passed unless onDelete is false (as a framework passes one); the (pointer, spec) form still returns a Buffer', async () => {
    const device = client.addressableDevices()[0]!;
    const m = allocateHostMemory(16, { scope });
    m.view().set(bytePattern(16, 5));
    const counted = client.createViewOfDeviceBuffer({ pointer: m.address, dtype: 's32', dims: [4], device });
    counted.buffer.destroy();
    assert.equal(await counted.settledDeleteCallbackCount(), 1, 'the default view carries the counting callback');
    const v = client.createViewOfDeviceBuffer({ pointer: m.address, dtype: 's32', dims: [4], device, onDelete: false });
    assert.throws(() => v.deleteCallbackCount(), /onDelete: false/);
    const b = client.createViewOfDeviceBuffer(m.address, { dtype: 's32', dims: [4], device });
    assert.ok(b instanceof PjrtBuffer);
    assert.deepEqual(await b.toHost(), bytePattern(16, 5));
  });

  it('DLPack-style round trip: external ref + opaque pointer → view → same bytes → ref dropped', async () => {
    const host = bytePattern(256, 2);
    const buf = await client.upload(host, { dtype: 'f32', dims: [64] });
    buf.increaseExternalRef();
    const ptr = buf.opaqueDeviceMemoryDataPointer()!;
    assert.deepEqual(readNative(ptr, 256), host, 'the reference plugin is a CPU plugin: its device memory is host-readable');
    const v = client.createViewOfDeviceBuffer({ pointer: ptr, dtype: 'f32', dims: [64], memory: buf.memory(), onDelete: true });
    assert.deepEqual(await v.buffer.toHost(), host);
    v.buffer.destroy();
    await drainRelayedCallbacks();
    assert.equal(v.deleteCallbackCount(), 1);
    buf.decreaseExternalRef();
  });
});

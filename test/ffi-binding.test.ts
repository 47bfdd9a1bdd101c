import assert from 'node:assert/strict';
import koffi from '../src/ffi/koffi.js';
import { Plugin, Event, Scope, PjrtError, type KeyValueStore } from '../src/pjrt/index.js';
import { pendingOnReady, pendingHolds, encodeNamedValueList, decodeNamedValueList } from '../src/ffi/index.js';
import { buildNative } from './ffi-native.js';

describe('ffi binding (mock plugin)', function () {
  this.timeout(60000);
  let plugin: Plugin;
  let live: { errors: () => number; events: () => number; clients: () => number };

  before(() => {
    const path = buildNative('mock_plugin');
    plugin = Plugin.load(path);
    const lib = koffi.load(path);
    live = {
      errors: lib.func('int mock_live_errors(void)') as () => number,
      events: lib.func('int mock_live_events(void)') as () => number,
      clients: lib.func('int mock_live_clients(void)') as () => number,
    };
  });
  afterEach(() => {
    assert.equal(live.errors(), 0, 'every PJRT_Error was destroyed');
    assert.equal(pendingOnReady(), 0);
    assert.equal(pendingHolds(), 0, 'keep-alive released');
  });

  it('slot states: present, null, beyond', () => {
    assert.deepEqual(plugin.apiVersion, { major: 0, minor: 89 });
    assert.equal(plugin.slotState('PJRT_Client_Create'), 'present');
    assert.equal(plugin.slotState('PJRT_Compile'), 'null');
    assert.equal(plugin.slotState('PJRT_Event_Set'), 'present');
    assert.equal(plugin.slotState('PJRT_Device_GetAttributes'), 'beyond');
    assert.throws(() => plugin.raw.fn('PJRT_Compile'), { name: 'UnsupportedError' });
  });

  it('decodes every NamedValue type of the attributes', () => {
    plugin.initialize();
    assert.deepEqual(plugin.attributes(), {
      name: 'mock-plugin',
      big: -9007199254740993n,
      list: [1n, -2n, 9007199254740993n],
      ratio: 1.5,
      flag: true,
    });
    assert.deepEqual(
      plugin.attributeList().map((e) => e.kind),
      ['kString', 'kInt64', 'kInt64List', 'kFloat', 'kBool'],
    );
  });

  it('encodes create options of every type (the mock echoes them)', async () => {
    const c = await plugin.createClient({ options: { i: 5n, f: 1.5, b: true, s: 'str', l: [1n, -2n], e: [] } });
    assert.equal(c.platformName(), 'mock');
    assert.equal(c.platformVersion(), 'i:1=5;f:3=1.5;b:4=1;s:0=str;l:2=1,-2;e:2=');
    await c.destroy();
    assert.equal(live.clients(), 0);
  });

  it('NamedValue lists round-trip through the encoder and decoder', () => {
    const entries = [
      { name: 'a', value: 'x' },
      { name: 'a', value: 7n },
      { name: 'ü', value: [3n] },
    ];
    const enc = encodeNamedValueList(entries);
    assert.deepEqual(
      decodeNamedValueList(enc.ptr, enc.count).map(({ name, value }) => ({ name, value })),
      entries,
    );
  });

  it('raw Args: fields by name, struct_size from the table or overridden', async () => {
    const c = await plugin.createClient();
    const a = plugin.raw.args('PJRT_Client_PlatformName').ptr('client', c.ptr);
    plugin.raw.call('PJRT_Client_PlatformName', a);
    assert.equal(a.str('platform_name'), 'mock');
    const small = plugin.raw.args('PJRT_Client_PlatformName', a.layout.structSize - 8).ptr('client', c.ptr);
    assert.throws(
      () => plugin.raw.call('PJRT_Client_PlatformName', small),
      (e: unknown) =>
        e instanceof PjrtError && e.codeName === 'INVALID_ARGUMENT' && e.code === 3 &&
        e.slot === 'PJRT_Client_PlatformName' && /too small/.test(e.message),
    );
    await c.destroy();
  });

  it('a failing PJRT call becomes a PjrtError and the error is destroyed', async () => {
    await assert.rejects(plugin.createClient({ options: { reject: true } }), (e: unknown) => {
      assert.ok(e instanceof PjrtError);
      assert.equal(e.codeName, 'INVALID_ARGUMENT');
      assert.equal(e.slot, 'PJRT_Client_Create');
      assert.equal(e.message, "create option 'reject' was given");
      return true;
    });
  });

  it('KV callbacks are served from a plugin thread during Client_Create.async', async () => {
    const m = new Map<string, Uint8Array>();
    const kv: KeyValueStore = {
      get: (k) => m.get(k) ?? new Uint8Array(),
      tryGet: (k) => m.get(k),
      put: (k, v) => void m.set(k, v),
    };
    const c = await plugin.createClient({ options: { kv_roundtrip: true }, kv });
    assert.equal(Buffer.from(m.get('k1')!).toString(), 'hello');
    await c.destroy();
  });

  it('a KV get that answers with a Promise is reported, not hung', async () => {
    const kv: KeyValueStore = {
      get: async () => new Uint8Array([1]),
      tryGet: () => undefined,
      put: () => {},
    };
    await assert.rejects(plugin.createClient({ options: { kv_roundtrip: true }, kv }), /synchronously/);
  });

  function newEvent(scope?: Scope): Event {
    const a = plugin.raw.args('PJRT_Event_Create');
    plugin.raw.call('PJRT_Event_Create', a);
    return new Event(plugin.raw, a.getPtr('event')!, scope);
  }
  function setEvent(e: Event, code = 0, msg = ''): void {
    plugin.raw.call('PJRT_Event_Set', plugin.raw.args('PJRT_Event_Set').ptr('event', e.ptr).i32('error_code', code).bytes('error_message', 'error_message_size', msg));
  }

  it('OnReady from a plugin thread resolves a Promise; isReady/await/error agree', async () => {
    const scope = new Scope();
    const e = newEvent(scope);
    assert.equal(e.isReady(), false);
    const p = e.onReady();
    setEvent(e);
    assert.equal(await p, null);
    assert.equal(e.isReady(), true);
    await e.await();
    assert.equal(e.error(), null);
    assert.equal(await e.onReady(), null, 'already-ready event calls back inline');
    await scope.dispose();
    assert.equal(live.events(), 0);
  });

  it('an event that fails carries its PjrtError through OnReady, Await and Error', async () => {
    const scope = new Scope();
    const e = newEvent(scope);
    const p = e.onReady();
    setEvent(e, 13, 'device fell over');
    const err = await p;
    assert.ok(err instanceof PjrtError);
    assert.equal(err.codeName, 'INTERNAL');
    assert.equal(err.message, 'device fell over');
    await assert.rejects(e.await(), (x: unknown) => x instanceof PjrtError && x.code === 13 && x.slot === 'PJRT_Event_Await');
    assert.equal(e.error()?.message, 'device fell over');
    await scope.dispose();
    assert.equal(live.events(), 0);
  });

  it('many concurrent OnReady callbacks', async () => {
    const scope = new Scope();
    const evs = Array.from({ length: 50 }, () => newEvent(scope));
    const ps = evs.map((e) => e.onReady());
    evs.forEach((e, i) => setEvent(e, i % 2 ? 9 : 0, `e${i}`));
    const res = await Promise.all(ps);
    res.forEach((r, i) => assert.equal(r?.message, i % 2 ? `e${i}` : undefined));
    await scope.dispose();
  });

  it('Scope destroys in reverse order and skips what is already destroyed', async () => {
    const scope = new Scope();
    const c = await plugin.createClient({ scope });
    const e1 = newEvent(scope);
    newEvent(scope);
    setEvent(e1);
    await e1.await();
    e1.destroy();
    assert.equal(scope.size, 2);
    await scope.dispose();
    assert.equal(c.destroyed, true);
    assert.equal(live.clients(), 0);
    assert.equal(live.events(), 0);
  });
});

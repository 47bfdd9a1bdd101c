// End-to-end: the binding, the object model and `info` against the reference plugin (skipped until it is built).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInfo } from '../src/cli/info.js';
import { InfoDocument } from '../src/cli/info-schema.js';
import { PJRT_API_MINOR } from '../src/abi/index.js';
import { pendingHolds, pendingOnReady } from '../src/ffi/index.js';
import { Plugin, Scope, PjrtError, type Client } from '../src/pjrt/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIB = process.env.PJRT_CTS_REFERENCE_PLUGIN ?? path.join(root, 'build/reference-plugin/libpjrt_reference.so');

const ADD = `module @add attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
`;

describe('ffi end-to-end (reference plugin)', function () {
  this.timeout(120000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });

  it('info --json, field by field', async () => {
    const out: string[] = [];
    const code = await runInfo({ plugin: LIB, createOptions: {}, json: true }, { out: (s) => out.push(s), err: (s) => out.push(s) });
    assert.equal(code, 0, out.join('\n'));
    const d = InfoDocument.parse(JSON.parse(out.join('\n')));
    assert.deepEqual(d.apiVersion.plugin, { major: 0, minor: PJRT_API_MINOR });
    assert.equal(d.platform?.name, 'reference');
    assert.equal(d.platform?.version, '0.1.0');
    assert.equal(d.processIndex, 0);
    assert.equal(d.devices.length, 2);
    assert.deepEqual(d.addressableDevices, [0, 1]);
    d.devices.forEach((dev, i) => {
      assert.equal(dev.id, i);
      assert.equal(dev.kind, 'reference');
      assert.equal(dev.localHardwareId, i);
      assert.equal(dev.processIndex, 0);
      assert.equal(dev.addressable, true);
      assert.equal(dev.memories?.length, 2);
    });
    assert.equal(d.memories.length, 4);
    const kinds = d.memories.map((m) => `${m.kind}:${m.kindId}`).sort();
    assert.deepEqual(kinds, ['device:1', 'device:1', 'pinned_host:2', 'pinned_host:2']);
    assert.equal(new Set(d.memories.map((m) => m.id)).size, 4, 'memory ids unique');
    for (const m of d.memories) assert.equal(m.devices?.length, 1);
    assert.equal(d.extensions.loop, false);
    assert.deepEqual(d.slots.filter((s) => s.state !== 'present').map((s) => s.name), [], 'the reference plugin implements every slot of the table');
  });

  describe('object model', () => {
    let plugin: Plugin;
    let scope: Scope;
    let client: Client;
    before(async () => {
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

    it('rejects an unknown create option with INVALID_ARGUMENT naming it', async () => {
      await assert.rejects(plugin.createClient({ options: { no_such_option: 1n } }), (e: unknown) =>
        e instanceof PjrtError && e.codeName === 'INVALID_ARGUMENT' && /no_such_option/.test(e.message));
    });

    it('device_count create option', async () => {
      const c = await plugin.createClient({ options: { device_count: 3n }, scope });
      assert.equal(c.devices().length, 3);
    });

    it('host → device → host round trip, every core dtype byte pattern', async () => {
      const data = new Uint8Array(24).map((_, i) => (i * 37 + 11) & 0xff);
      for (const [dtype, dims] of [['f32', [2, 3]], ['u8', [24]], ['s64', [3]], ['f16', [12]]] as const) {
        const b = await client.upload(data, { dtype, dims: [...dims] });
        assert.equal(b.elementType(), dtype);
        assert.deepEqual(b.dims(), dims);
        assert.deepEqual(await b.toHost(), data);
      }
    });

    it('bufferFromHost events, memory placement and copies', async () => {
      const dev = client.addressableDevices()[1]!;
      const data = new Uint8Array([1, 2, 3, 4]);
      const { buffer, doneWithHost } = await client.bufferFromHost(data, { dtype: 'u8', dims: [4], device: dev });
      assert.equal(await doneWithHost.onReady(), null);
      assert.equal(buffer.device(), dev);
      const pinned = dev.addressableMemories().find((m) => m.kind() === 'pinned_host')!;
      const moved = await buffer.copyToMemory(pinned);
      assert.equal(moved.memory(), pinned);
      assert.deepEqual(await moved.toHost(), data);
      const other = await buffer.copyToDevice(client.addressableDevices()[0]!);
      assert.deepEqual(await other.toHost(), data);
    });

    it('compile and execute a tiny program', async function () {
      if (!plugin.has('PJRT_Client_Compile')) this.skip();
      const exe = await client.compile({ code: ADD, format: 'mlir' });
      assert.equal(exe.numOutputs(), 1);
      const meta = exe.executable();
      assert.deepEqual(meta.outputElementTypes(), ['f32']);
      assert.deepEqual(meta.outputDimensions(), [[4]]);
      const f32 = (xs: number[]) => new Uint8Array(new Float32Array(xs).buffer);
      const a = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4] });
      const b = await client.upload(f32([10, 20, 30, 0.5]), { dtype: 'f32', dims: [4] });
      const { outputs, completeEvents } = await exe.execute([[a, b]], { deviceCompleteEvents: true });
      for (const e of completeEvents) await e.await();
      assert.equal(outputs.length, 1);
      const r = new Float32Array((await outputs[0]![0]!.toHost()).buffer);
      assert.deepEqual(Array.from(r), [11, 22, 33, 4.5]);
    });
  });
});

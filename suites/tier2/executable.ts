// Tier 2 — executables: serialize → deserialize-and-load → same outputs; fingerprint; cost analysis; deletion.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addAndMul } from '../_lib/programs.js';
import type { Client, LoadedExecutable } from '../../src/pjrt/index.js';

const t = area('tier2.executable', { tier: 2, requires: { slots: ['PJRT_Client_Compile', 'PJRT_Executable_Serialize', 'PJRT_Executable_DeserializeAndLoad'] } });

async function outputsOf(client: Client, exe: LoadedExecutable): Promise<number[][]> {
  const dev = exe.addressableDevices()[0]!;
  const a = await client.upload(f32([1, 2, 3]), { dtype: 'f32', dims: [3], device: dev });
  const b = await client.upload(f32([4, 5, 6]), { dtype: 'f32', dims: [3], device: dev });
  const { outputs } = await exe.execute([[a, b]]);
  return Promise.all(outputs[0]!.map(async (o) => readF32(await o.toHost())));
}

t.case('serialize_roundtrip', { catches: ['deserialize_different_program'] }).run(async ({ client }) => {
  const exe = await compileText(client, addAndMul([3]));
  const bytes = exe.executable().serialize();
  check.ok(bytes.length > 0, 'PJRT_Executable_Serialize must return bytes', '> 0 bytes', '0');
  const loaded = await client.deserializeAndLoad(bytes);
  check.equal(await outputsOf(client, loaded), await outputsOf(client, exe), 'a deserialized executable must compute what the original computed');
  check.equal(await outputsOf(client, loaded), [[5, 7, 9], [4, 10, 18]], 'the deserialized program must compute (a + b, a * b)');
});

t.case('serialize_keeps_metadata', { catches: ['num_outputs_wrong'] }).run(async ({ client }) => {
  const exe = await compileText(client, addAndMul([3]));
  const loaded = await client.deserializeAndLoad(exe.executable().serialize());
  check.equal(loaded.executable().numOutputs(), 2, 'NumOutputs must survive serialization');
  check.equal(loaded.executable().name(), exe.executable().name(), 'the executable name must survive serialization');
});

t.case('deserialize_garbage_rejected', { catches: ['crash_in=PJRT_Executable_DeserializeAndLoad'] }).run(async ({ client }) => {
  await check.rejects(() => client.deserializeAndLoad(new TextEncoder().encode('not a serialized executable')), 'deserializing garbage must fail cleanly');
});

t.case('fingerprint_survives_serialization', { catches: ['fingerprint_unstable'], requires: { slots: ['PJRT_Executable_Fingerprint'] } }).run(async ({ client }) => {
  const exe = await compileText(client, addAndMul([3]));
  const loaded = await client.deserializeAndLoad(exe.executable().serialize());
  const again = await compileText(client, addAndMul([3]));
  check.equal(again.executable().fingerprint(), exe.executable().fingerprint(), 'recompiling the same program must give the same fingerprint');
  check.equal(loaded.executable().fingerprint(), exe.executable().fingerprint(), 'deserializing must keep the fingerprint');
});

t.case('cost_analysis_sane', { catches: ['crash_in=PJRT_Client_Compile'], requires: { slots: ['PJRT_Executable_GetCostAnalysis'] } }).run(async ({ client }) => {
  const cost = (await compileText(client, addAndMul([1000]))).executable().costAnalysis();
  for (const [name, v] of Object.entries(cost)) {
    if (typeof v === 'number' || typeof v === 'bigint') {
      check.ok(Number(v) >= 0 && Number.isFinite(Number(v)), `cost property '${name}' must be finite and non-negative`, '≥ 0', String(v));
    }
  }
  const flops = cost['flops'];
  if (flops !== undefined) check.ok(Number(flops) >= 1000, 'two elementwise ops over 1000 elements cost at least 1000 flops', '≥ 1000', String(flops));
});

t.case('execute_after_delete_rejected', { catches: ['crash_in=PJRT_Client_Compile'], requires: { slots: ['PJRT_LoadedExecutable_Delete'] } }).run(async ({ client }) => {
  const exe = await compileText(client, addAndMul([3]));
  const dev = exe.addressableDevices()[0]!;
  const a = await client.upload(f32([1, 2, 3]), { dtype: 'f32', dims: [3], device: dev });
  exe.delete();
  await check.rejects(() => exe.execute([[a, a]]), 'executing a deleted executable must fail cleanly');
});

// Tier 2 — executables: serialize → deserialize-and-load → same outputs; fingerprint; cost analysis; deletion.
// Serialization is platform-specific and cost analysis plugin-specific; Serialize, DeserializeAndLoad, Fingerprint
// ("May not be implemented by all platforms") and GetCostAnalysis answering UNIMPLEMENTED make a case unsupported.
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addAndMul } from '../_lib/programs.js';
import type { Client, LoadedExecutable } from '../../src/pjrt/index.js';

const t = area('tier2.executable', { tier: 2, requires: { slots: ['PJRT_Client_Compile'] } });

const SERIALIZE = ['PJRT_Executable_Serialize', 'PJRT_Executable_DeserializeAndLoad'];
const SERIALIZE_OPTIONAL = 'serialization is platform-specific ("Returns a platform-specific serialization of `executable`")';

async function outputsOf(client: Client, exe: LoadedExecutable): Promise<number[][]> {
  const dev = exe.addressableDevices()[0]!;
  const a = await client.upload(f32([1, 2, 3]), { dtype: 'f32', dims: [3], device: dev });
  const b = await client.upload(f32([4, 5, 6]), { dtype: 'f32', dims: [3], device: dev });
  const { outputs } = await exe.execute([[a, b]]);
  return Promise.all(outputs[0]!.map(async (o) => readF32(await o.toHost({ dtype: 'f32', dims: [3] })))); // addAndMul([3]): f32[3] twice
}

/** Compile, serialize, deserialize-and-load (UNIMPLEMENTED → unsupported). */
async function roundTrip(ctx: CaseContext<unknown>) {
  const exe = await compileText(ctx.client, addAndMul([3]));
  const bytes = await check.unimplementedIsUnsupported(ctx, SERIALIZE_OPTIONAL, () => exe.executable().serialize());
  check.ok(bytes.length > 0, 'PJRT_Executable_Serialize must return the serialization', '> 0 bytes', '0 bytes');
  const loaded = await check.unimplementedIsUnsupported(ctx, SERIALIZE_OPTIONAL, () => ctx.client.deserializeAndLoad(bytes));
  return { exe, loaded };
}

t.case('serialize_roundtrip', {
  source: 'header',
  cite: 'PJRT_Executable_DeserializeAndLoad: "Deserializes an executable serialized by `PJRT_Executable_Serialize`" (same platform and library version) — the loaded executable is that executable and computes what it computed',
  catches: ['deserialize_different_program'],
  requires: { slots: SERIALIZE },
}).run(async (ctx) => {
  const { exe, loaded } = await roundTrip(ctx);
  check.equal(await outputsOf(ctx.client, loaded), await outputsOf(ctx.client, exe), 'a deserialized executable must compute what the original computes');
});

t.case('serialize_keeps_metadata', {
  source: 'header',
  cite: 'PJRT_Executable_DeserializeAndLoad deserializes the executable PJRT_Executable_Serialize serialized; PJRT_Executable_NumOutputs "Gets the number of outputs per device produced by `executable`" — two for (a + b, a * b)',
  catches: ['num_outputs_wrong'],
  requires: { slots: [...SERIALIZE, 'PJRT_Executable_NumOutputs'] },
}).run(async (ctx) => {
  const { loaded } = await roundTrip(ctx);
  check.equal(loaded.executable().numOutputs(), 2, 'NumOutputs of a deserialized (a + b, a * b) executable must be 2');
});

t.case('deserialize_garbage_rejected', {
  source: 'header',
  cite: 'PJRT_Executable_DeserializeAndLoad: "`serialized_executable` must have been produced by the same platform and library version" — bytes that no Serialize produced cannot be loaded; no code named, so any error',
  control: 'the bytes PJRT_Executable_Serialize produced deserialize and load',
  catches: ['crash_in=PJRT_Executable_DeserializeAndLoad'],
  requires: { slots: SERIALIZE },
}).run(async (ctx) => {
  await check.control('deserializing a real serialization', () => roundTrip(ctx));
  await check.rejects(() => ctx.client.deserializeAndLoad(new TextEncoder().encode('not a serialized executable')), 'deserializing bytes that no Serialize produced must fail cleanly');
});

const FINGERPRINT_OPTIONAL = 'PJRT_Executable_Fingerprint "May not be implemented by all platforms"';
const fingerprintOf = (ctx: CaseContext<unknown>, exe: LoadedExecutable) => check.unimplementedIsUnsupported(ctx, FINGERPRINT_OPTIONAL, () => exe.executable().fingerprint());

t.case('fingerprint_stable_across_compiles', {
  source: 'header',
  cite: 'PJRT_Executable_Fingerprint: "Two executables that were produced by compiling with identical inputs (same program, compile options, compiler version, etc.) should have the same fingerprint"',
  catches: ['fingerprint_unstable'],
  requires: { slots: ['PJRT_Executable_Fingerprint'] },
}).run(async (ctx) => {
  const first = await fingerprintOf(ctx, await compileText(ctx.client, addAndMul([3])));
  const again = await fingerprintOf(ctx, await compileText(ctx.client, addAndMul([3])));
  check.equal(again, first, 'recompiling the same program with the same options must give the same fingerprint');
});

t.case('fingerprint_survives_serialization', {
  source: 'header',
  cite: 'PJRT_Executable_Fingerprint: executables "produced by compiling with identical inputs … should have the same fingerprint" — a deserialized executable is the serialized compilation itself',
  catches: ['fingerprint_unstable'],
  requires: { slots: ['PJRT_Executable_Fingerprint', ...SERIALIZE] },
}).run(async (ctx) => {
  const { exe, loaded } = await roundTrip(ctx);
  const original = await fingerprintOf(ctx, exe);
  check.equal(await fingerprintOf(ctx, loaded), original, 'deserializing must keep the fingerprint');
});

const COST_OPTIONAL = 'cost analysis is plugin-specific ("Different platforms may return different properties")';

t.case('cost_analysis_sane', {
  source: 'header',
  cite: 'PJRT_Executable_GetCostAnalysis: "Get the cost properties for the executable. Different platforms may return different properties"; `properties` (num_properties PJRT_NamedValue) "are owned by and have the same lifetime as `executable`" — each a named value of a defined type, the same on every call',
  catches: ['cost_analysis_malformed'],
  requires: { slots: ['PJRT_Executable_GetCostAnalysis'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([1000]))).executable();
  const cost = await check.unimplementedIsUnsupported(ctx, COST_OPTIONAL, () => exe.costAnalysis());
  for (const name of Object.keys(cost)) check.nonEmptyString(name, 'every cost property must be a PJRT_NamedValue with a name');
  check.equal(exe.costAnalysis(), cost, 'GetCostAnalysis must return the same properties on every call (they live as long as the executable)');
});

t.case('cost_analysis_plausible', {
  source: 'quality',
  cite: 'which properties a plugin reports is its choice, but XLA\'s plugins report "flops" and byte counts that profilers (jax.stages.Compiled.cost_analysis) show to users: they should be finite, non-negative and of the right order',
  catches: ['cost_analysis_malformed'],
  requires: { slots: ['PJRT_Executable_GetCostAnalysis'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([1000]))).executable();
  const cost = await check.unimplementedIsUnsupported(ctx, COST_OPTIONAL, () => exe.costAnalysis());
  for (const [name, v] of Object.entries(cost)) {
    if (typeof v === 'number' || typeof v === 'bigint') check.ok(Number.isFinite(Number(v)), `cost property '${name}' should be finite`, 'a finite number', check.show(v));
  }
  const flops = cost['flops'];
  check.ok(flops !== undefined, 'a cost analysis should report "flops" (as XLA\'s plugins do)', 'a "flops" property', () => `properties ${check.show(Object.keys(cost))}`);
  check.ok(Number(flops) >= 1000, 'two elementwise ops over 1000 elements cost at least 1000 flops', '≥ 1000', check.show(flops));
});

// execute_after_delete_rejected was removed: PJRT_LoadedExecutable_Delete says "`executable` can only be used with
// PJRT_LoadedExecutable_IsDeleted and PJRT_LoadedExecutable_Destroy after calling this method", so Execute after
// Delete is outside the contract (undefined in XLA's plugins) and a CTS must not call it. tier1.compile checks
// IsDeleted around Delete.

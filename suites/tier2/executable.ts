// Tier 2 — executables: serialize → deserialize-and-load → same outputs; fingerprint; cost analysis; deletion;
// the metadata queries (generated code size, memory kinds, optimized program, compiled memory stats, compile
// options, device assignment, logical ids).
// Serialization is platform-specific and cost analysis plugin-specific; Serialize, DeserializeAndLoad, Fingerprint
// ("May not be implemented by all platforms") and GetCostAnalysis answering UNIMPLEMENTED make a case unsupported.
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addAndMul, module, tensor } from '../_lib/programs.js';
import { decodeCompileOptions, decodeDeviceAssignment } from '../../src/proto/index.js';
import type { Client, LoadedExecutable } from '../../src/pjrt/index.js';
import { checkedOutputs } from '../_lib/outputs.js';

const t = area('tier2.executable', { tier: 2, requires: { slots: ['PJRT_Client_Compile'] } });

const SERIALIZE = ['PJRT_Executable_Serialize', 'PJRT_Executable_DeserializeAndLoad'];
const SERIALIZE_OPTIONAL = 'serialization is platform-specific ("Returns a platform-specific serialization of `executable`")';

async function outputsOf(client: Client, exe: LoadedExecutable): Promise<number[][]> {
  const dev = exe.addressableDevices()[0]!;
  const a = await client.upload(f32([1, 2, 3]), { dtype: 'f32', dims: [3], device: dev });
  const b = await client.upload(f32([4, 5, 6]), { dtype: 'f32', dims: [3], device: dev });
  const outputs = checkedOutputs(await exe.execute([[a, b]]), 2);
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
  dependsOn: BASIC_EXECUTE,
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

// ---- metadata queries ----

t.case('generated_code_size', {
  source: 'framework',
  cite: 'PJRT_Executable_SizeOfGeneratedCodeInBytes writes `size_in_bytes`; XLA\'s wrapper returns xla::Executable::SizeOfGeneratedCodeInBytes, "the size of the executable in bytes. Returns -1 if this query is not supported by the executable" (xla/service/executable.h) — a size ≥ 0, or -1 (→ unsupported)',
  catches: ['generated_code_size_garbage'],
  requires: { slots: ['PJRT_Executable_SizeOfGeneratedCodeInBytes'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([3]))).executable();
  const size = await check.unimplementedIsUnsupported(ctx, 'no generated code to measure', () => exe.sizeOfGeneratedCodeInBytes());
  if (size === -1n) return ctx.unsupported('SizeOfGeneratedCodeInBytes is -1: "this query is not supported by the executable"');
  check.ok(size >= 0n, 'SizeOfGeneratedCodeInBytes is a size in bytes (or -1: not supported)', '≥ 0 or -1', `${size}`);
});

/** The memory kinds the client's addressable devices have (PJRT_Memory_Kind). */
const clientMemoryKinds = (client: Client): Set<string> => new Set(client.addressableMemories().map((m) => m.kind()));
const KINDS_OPTIONAL = 'memory kinds of an executable may not be implemented';

t.case('parameter_memory_kinds', {
  source: 'header',
  cite: 'PJRT_Executable_ParameterMemoryKinds: "Returns a list of memory kind strings for parameters"; memory_kinds "Has length `num_parameters`" — one per parameter of the program (two for (a, b)), each a kind of the client\'s memories (PJRT_Memory_Kind)',
  catches: ['parameter_memory_kinds_short'],
  requires: { slots: ['PJRT_Executable_ParameterMemoryKinds', 'PJRT_Client_AddressableMemories', 'PJRT_Memory_Kind'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([3]))).executable();
  const kinds = await check.unimplementedIsUnsupported(ctx, KINDS_OPTIONAL, () => exe.parameterMemoryKinds());
  check.equal(kinds.length, 2, 'ParameterMemoryKinds of a two-parameter program lists two kinds');
  const known = clientMemoryKinds(ctx.client);
  for (const k of kinds) check.ok(known.has(k), 'a parameter memory kind must be a kind of the client\'s memories', check.show([...known]), k);
});

t.case('output_memory_kinds', {
  source: 'header',
  cite: 'PJRT_Executable_OutputMemoryKinds: "Returns a list of memory kind strings for outputs"; memory_kinds "Has length `num_outputs`" — as many as PJRT_Executable_NumOutputs, each a kind of the client\'s memories (PJRT_Memory_Kind)',
  catches: ['output_memory_kind_unknown'],
  requires: { slots: ['PJRT_Executable_OutputMemoryKinds', 'PJRT_Executable_NumOutputs', 'PJRT_Client_AddressableMemories', 'PJRT_Memory_Kind'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([3]))).executable();
  const kinds = await check.unimplementedIsUnsupported(ctx, KINDS_OPTIONAL, () => exe.outputMemoryKinds());
  check.equal(kinds.length, exe.numOutputs(), 'OutputMemoryKinds lists one kind per output (NumOutputs)');
  const known = clientMemoryKinds(ctx.client);
  for (const k of kinds) check.ok(known.has(k), 'an output memory kind must be a kind of the client\'s memories', check.show([...known]), k);
});

t.case('optimized_program', {
  source: 'header',
  cite: 'PJRT_Executable_OptimizedProgram: called with `program->code` NULL it "will populate `program->code_size` … the number of bytes the string `program->code` requires"; the second call "will then write the serialized program to `code_buff`" — that many bytes, in the format it sets',
  catches: ['optimized_program_size_mismatch'],
  requires: { slots: ['PJRT_Executable_OptimizedProgram'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([3]))).executable();
  const prog = await check.unimplementedIsUnsupported(ctx, 'the optimized program may not be available', () => exe.optimizedProgram());
  check.nonEmptyString(prog.format, 'OptimizedProgram must set the format of the program it returns');
  check.ok(prog.querySize > 0, 'the optimized program of a two-op module is not empty', '> 0 bytes', '0');
  check.equal(prog.code.length, prog.querySize, 'the copy must write as many bytes as the size query said the program requires');
});

t.case('compiled_memory_stats', {
  source: 'header',
  cite: 'PJRT_Executable_GetCompiledMemoryStats: "Return memory stats that allow callers to estimate memory usage when running this executable" — the `*_size_in_bytes` fields are sizes, never negative (UNIMPLEMENTED → unsupported)',
  catches: ['compiled_memory_stats_negative'],
  requires: { slots: ['PJRT_Executable_GetCompiledMemoryStats'] },
}).run(async (ctx) => {
  const exe = (await compileText(ctx.client, addAndMul([3]))).executable();
  const stats = await check.unimplementedIsUnsupported(ctx, 'memory stats may not be available', () => exe.compiledMemoryStats());
  for (const [name, v] of Object.entries(stats)) if (name.endsWith('_size_in_bytes')) check.ok(v >= 0n, `compiled memory stat ${name} is a size`, '≥ 0', `${v}`);
});

t.case('compile_options_roundtrip', {
  source: 'header',
  cite: 'PJRT_Executable_GetCompileOptions: "Returns the CompileOptions that were used to compile this executable" — the serialized CompileOptionsProto carries the num_replicas and device_assignment it was compiled with',
  catches: ['compile_options_returns_defaults'],
  requires: { slots: ['PJRT_Executable_GetCompileOptions'] },
}).run(async (ctx) => {
  if (ctx.devices.length < 2) return ctx.skip('needs two addressable devices');
  const target = ctx.devices[ctx.devices.length - 1]!;
  const exe = (await compileText(ctx.client, addAndMul([3]), { numReplicas: 1, deviceAssignment: [[target.id]] })).executable();
  const bytes = await check.unimplementedIsUnsupported(ctx, 'compile options may not be kept', () => exe.compileOptions());
  const build = (decodeCompileOptions(bytes).executableBuildOptions ?? {}) as { numReplicas?: string; deviceAssignment?: { computationDevices?: { replicaDeviceIds?: string[] }[] } };
  check.equal(Number(build.numReplicas ?? 0), 1, 'GetCompileOptions must return the num_replicas the executable was compiled with');
  const ids = (build.deviceAssignment?.computationDevices ?? []).map((c) => (c.replicaDeviceIds ?? []).map(Number));
  check.equal(ids, [[target.id]], 'GetCompileOptions must return the device_assignment the executable was compiled with');
});

t.case('loaded_fingerprint_stable', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_Fingerprint (deprecated): "Two executables that were produced by compiling with identical inputs (same program, compile options, compiler version, etc.) should have the same fingerprint. May not be implemented by all platforms" (UNIMPLEMENTED → unsupported)',
  catches: ['loaded_fingerprint_unstable'],
  requires: { slots: ['PJRT_LoadedExecutable_Fingerprint'] },
}).run(async (ctx) => {
  const why = 'PJRT_LoadedExecutable_Fingerprint is deprecated and "May not be implemented by all platforms"';
  const a = await check.unimplementedIsUnsupported(ctx, why, async () => (await compileText(ctx.client, addAndMul([3]))).fingerprint());
  const b = (await compileText(ctx.client, addAndMul([3]))).fingerprint();
  check.equal(b, a, 'two compiles of the same program with the same options must have the same (deprecated) loaded fingerprint');
});

/** x + 1 on f32[4] declaring n replicas (as JAX emits an n-replica computation). */
function addOneReplicated(n: number): string {
  const ty = tensor([4], 'f32');
  return module('jit_add_one', `  func.func public @main(%arg0: ${ty}) -> ${ty} {\n    %c = stablehlo.constant dense<1.000000e+00> : ${ty}\n    %0 = stablehlo.add %arg0, %c : ${ty}\n    return %0 : ${ty}\n  }`, n);
}

/** An n-replica executable over every addressable device in reverse order (so no default placement matches). */
async function reversedReplicas(ctx: CaseContext<unknown>): Promise<{ exe: LoadedExecutable; assignment: number[][] }> {
  const ids = ctx.devices.map((d) => d.id).reverse();
  const assignment = ids.map((id) => [id]);
  return { exe: await compileText(ctx.client, addOneReplicated(ids.length), { numReplicas: ids.length, deviceAssignment: assignment }), assignment };
}

t.case('device_assignment', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_GetDeviceAssignment "Retrieves the serialized DeviceAssignmentProto" of the executable: compiled with a CompileOptionsProto device_assignment ([replica][partition] → device), it is that assignment, and it covers every device of PJRT_LoadedExecutable_AddressableDevices',
  catches: ['device_assignment_transposed'],
  requires: { slots: ['PJRT_LoadedExecutable_GetDeviceAssignment', 'PJRT_LoadedExecutable_AddressableDevices'] },
}).run(async (ctx) => {
  if (ctx.devices.length < 2) return ctx.skip('needs two addressable devices');
  const { exe, assignment } = await reversedReplicas(ctx);
  const got = decodeDeviceAssignment(await check.unimplementedIsUnsupported(ctx, 'device assignments may not be available', () => exe.deviceAssignment()));
  check.equal(got, assignment, 'GetDeviceAssignment must return the [replica][partition] assignment the executable was compiled with');
  const assigned = new Set(got.flat());
  for (const d of exe.addressableDevices()) check.ok(assigned.has(d.id), 'every addressable device of the executable must be in its device assignment', check.show([...assigned]), `${d.id}`);
});

t.case('addressable_device_logical_ids', {
  source: 'framework',
  cite: 'PJRT_LoadedExecutable_AddressableDeviceLogicalIds "Returns a list of logical device ids this executable will run on"; XLA\'s PjRtLoadedExecutable keeps addressable_device_logical_ids parallel to addressable_devices, each the (replica, partition) whose device_assignment entry is that device (pjrt_client.h)',
  catches: ['logical_ids_swapped'],
  requires: { slots: ['PJRT_LoadedExecutable_AddressableDeviceLogicalIds', 'PJRT_LoadedExecutable_AddressableDevices'] },
}).run(async (ctx) => {
  if (ctx.devices.length < 2) return ctx.skip('needs two addressable devices');
  const { exe, assignment } = await reversedReplicas(ctx);
  const ids = exe.addressableDeviceLogicalIds();
  const devices = exe.addressableDevices();
  check.equal(ids.length, devices.length, 'one logical id per addressable device');
  ids.forEach(({ replica, partition }, i) => {
    check.equal(assignment[replica]?.[partition], devices[i]!.id, `logical id ${i} (replica ${replica}, partition ${partition}) must name the device at that index of AddressableDevices`);
  });
});

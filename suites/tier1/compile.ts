// Tier 1 — compilation: errors instead of crashes, compile options, executable metadata.
// Compile options are encoded by the CTS (src/proto) as a CompileOptionsProto the way JAX fills it: the module's
// mhlo.num_replicas agrees with the options, device assignments list addressable device ids (no
// DefaultDeviceAssignment call), so no case depends on how a plugin reconciles the two.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileRaw, compileText, readOut } from '../_lib/exec.js';
import { soleOutput } from '../_lib/outputs.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { programFor } from '../../src/harness/index.js';
import { BAD_PROGRAMS, addAndMul, addOne, module, onePlusOne, tensor } from '../_lib/programs.js';
import { READS_ONLY_CODE_SIZE_CITE, READS_WITHIN_TERMINATED_CITE } from '../_lib/program-code.js';

const t = area('tier1.compile', { tier: 1, requires: { slots: ['PJRT_Client_Compile'] } });

t.case('add_one', {
  source: 'header',
  cite: 'PJRT_Client_Compile: "Compiles a program in specified format (such as MLIR or HLO)"; PJRT_Program.format "mlir": "code string takes MLIR module bytecode (or string)"; PJRT_LoadedExecutable_AddressableDevices: "a list of devices this executable will run on"',
  catches: ['crash_in=PJRT_Client_Compile'],
}).run(async ({ client }) => {
  const exe = await compileText(client, addOne([4]));
  check.ok(exe.addressableDevices().length > 0, 'a compiled single-device executable must list the device it will run on (PJRT_LoadedExecutable_AddressableDevices)', '≥ 1 device', '0');
});

t.case('rejects_bad_program', {
  source: 'header',
  cite: 'PJRT_Program.format "mlir": "code string takes MLIR module bytecode (or string)" — text that is no valid module cannot be compiled; PJRT_Client_Compile names no error code, so any error passes (XLA: UNKNOWN "Failed to parse using StableHLO v…")',
  control: 'compiling a valid add-one module succeeds',
  catches: (p: { catches: string[] }) => p.catches,
})
  .params(BAD_PROGRAMS)
  .run(async ({ client, p }) => {
    await check.control('compile a valid module', () => compileText(client, addOne([4])));
    await check.rejects(() => compileRaw(client, p.text), `compiling a malformed program (${p.id}) must return an error, not succeed or crash`);
  });

t.case('rejects_bad_program_code', {
  source: 'quality',
  cite: 'the header names no code for an invalid program; INVALID_ARGUMENT says the caller\'s input was wrong (XLA\'s plugins return UNKNOWN here, so they get this warning)',
  control: 'compiling a valid add-one module succeeds',
  catches: ['wrong_error_code'],
})
  .params(BAD_PROGRAMS)
  .run(async ({ client, p }) => {
    await check.control('compile a valid module', () => compileText(client, addOne([4])));
    await check.rejects(() => compileRaw(client, p.text), `a malformed program (${p.id}) should be reported as INVALID_ARGUMENT (quality)`, ['INVALID_ARGUMENT']);
  });

t.case('program_reused_after_compile', {
  source: 'header',
  cite: 'PJRT_Client_Compile_Args.program: "Only needs to stay alive for the duration of the Compile call"; PJRT_Program.code: "String is owned by the caller" — once Compile returned, the caller may reuse or free the code, and the executable still runs the program it compiled',
  catches: ['compile_reads_program_lazily'],
  dependsOn: BASIC_EXECUTE,
  requires: { slots: ['PJRT_LoadedExecutable_Execute', 'PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] },
}).run(async ({ client }) => {
  const exe = await client.compile({ ...(await programFor(client, addOne([2]))), placement: 'zeroed_after_call' });
  const b = await client.upload(f32([1, 2]), { dtype: 'f32', dims: [2], device: exe.addressableDevices()[0] });
  const out = soleOutput(await exe.execute([[b]]));
  check.equal(readF32(await readOut(out, { dtype: 'f32', dims: [2] })), [2, 3], 'an executable must run the program it compiled after the caller zeroed the code it passed to Compile');
});

t.case('reads_within_terminated_code', {
  source: 'header',
  cite: READS_WITHIN_TERMINATED_CITE,
  catches: ['program_lookahead_past_end'],
}).run(async ({ client }) => {
  const program = await programFor(client, addOne([4]));
  await client.compile({ ...program, placement: 'guard_after_nul' });
});

/** A valid program, and one cut off inside a token (its parse error points at the end of the code). */
const GUARDED = [
  { id: 'valid', text: addOne([4]) },
  { id: 'truncated', text: addOne([4]).slice(0, 80) },
] as const;

t.case('reads_only_code_size', {
  source: 'quality',
  cite: READS_ONLY_CODE_SIZE_CITE,
  catches: ['program_read_as_c_string', 'program_lookahead_past_end'],
})
  .params(GUARDED)
  .run(async ({ client, p }) => {
    if (p.id === 'valid') {
      await client.compile({ ...(await programFor(client, p.text)), placement: 'guard_after_code' });
      return;
    }
    await check.rejects(() => client.compile({ code: p.text, format: 'mlir', placement: 'guard_after_code' }), 'a truncated program given as exactly code_size bytes should be rejected with an error, without reading past them (quality)');
  });

t.case('rejects_unknown_format', {
  source: 'header',
  cite: 'PJRT_Program.format: "Supported formats are: hlo, hlo_with_config, mlir" — a program in another format cannot be compiled; no error code is named, so any error passes',
  control: 'the same code compiles with format "mlir"',
  catches: ['compile_accepts_unknown_format'],
}).run(async ({ client }) => {
  const program = await programFor(client, addOne([4]));
  await check.control('compile the same code as "mlir"', () => client.compile(program));
  await check.rejects(() => client.compile({ ...program, format: 'pjrt_cts_unknown' }), 'an unknown program format ("pjrt_cts_unknown") must be rejected');
});

/**
 * Bytes no protobuf parser accepts, whatever the plugin's parser: field 3 (CompileOptionsProto's
 * executable_build_options) length-delimited with a length of 64 but one byte present (a truncated message).
 */
const TRUNCATED_PROTO = Uint8Array.from([0x1a, 0x40, 0x08]);

t.case('rejects_garbage_options', {
  source: 'quality',
  cite: 'PJRT_Client_Compile_Args.compile_options: "Serialized CompileOptionsProto"; bytes that are no protobuf at all break the caller\'s side of the contract, and rejecting them (XLA: INVALID_ARGUMENT "failed to deserialize CompileOptionsProto") beats compiling with options the caller did not ask for',
  control: 'the same program compiles with valid (empty) options',
  catches: ['compile_options_ignored'],
}).run(async ({ client }) => {
  const program = await programFor(client, addOne([4]));
  await check.control('compile with empty options', () => client.compile(program, {}));
  await check.rejects(() => client.compile(program, TRUNCATED_PROTO), 'compile options that are no valid protobuf (a truncated message) should be rejected (quality)');
});

/** x + 1 on f32[4] declaring n replicas, as JAX emits it for an n-replica computation. */
function addOneReplicated(n: number): string {
  const ty = tensor([4], 'f32');
  return module(
    'jit_add_one',
    `  func.func public @main(%arg0: ${ty}) -> ${ty} {
    %c = stablehlo.constant dense<1.000000e+00> : ${ty}
    %0 = stablehlo.add %arg0, %c : ${ty}
    return %0 : ${ty}
  }`,
    n,
  );
}

t.case('options_num_replicas', {
  source: 'header',
  cite: 'PJRT_Executable_NumReplicas: "Returns the number of replicas of the executable"; the module (mhlo.num_replicas) and the CompileOptionsProto (num_replicas, device_assignment) both say n, as JAX sends them',
  catches: ['executable_counts_zero', 'crash_in=PJRT_Executable_NumReplicas'],
}).run(async (ctx) => {
  const devices = ctx.client.addressableDevices();
  const n = devices.length;
  if (n < 2) return ctx.skip('needs two addressable devices');
  const exe = await compileText(ctx.client, addOneReplicated(n), { numReplicas: n, deviceAssignment: devices.map((d) => [d.id]) });
  check.equal(exe.executable().numReplicas(), n, `PJRT_Executable_NumReplicas ("the number of replicas of the executable") of an ${n}-replica compile`);
});

t.case('options_num_replicas_devices', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_AddressableDevices: "Returns a list of devices this executable will run on" — an n-replica executable assigned to n addressable devices runs on exactly those',
  catches: ['crash_in=PJRT_LoadedExecutable_AddressableDevices'],
}).run(async (ctx) => {
  const devices = ctx.client.addressableDevices();
  const n = devices.length;
  if (n < 2) return ctx.skip('needs two addressable devices');
  const exe = await compileText(ctx.client, addOneReplicated(n), { numReplicas: n, deviceAssignment: devices.map((d) => [d.id]) });
  const got = exe.addressableDevices().map((d) => d.id).sort((a, b) => a - b);
  check.equal(got, devices.map((d) => d.id).sort((a, b) => a - b), 'PJRT_LoadedExecutable_AddressableDevices of an n-replica executable must be the n assigned devices');
});

t.case('options_device_assignment', {
  source: 'header',
  cite: 'PJRT_Client_Compile_Args.compile_options: "Serialized CompileOptionsProto" (its device_assignment places the computation); PJRT_LoadedExecutable_AddressableDevices: "a list of devices this executable will run on"; PJRT_ExecuteOptions.execute_device: NULL executes "on the device(s) specified at compile time"',
  catches: ['compile_options_ignored'],
}).run(async (ctx) => {
  const devices = ctx.client.addressableDevices();
  if (devices.length < 2) return ctx.skip('needs two addressable devices');
  const target = devices[devices.length - 1]!;
  const exe = await compileText(ctx.client, addOne([4]), { deviceAssignment: [[target.id]] });
  check.equal(exe.addressableDevices().map((d) => d.id), [target.id], 'a one-replica executable whose compile options assign it to one device must run on that device');
});

t.case('num_outputs', {
  source: 'header',
  cite: 'PJRT_Executable_NumOutputs: "Gets the number of outputs per device produced by `executable`"',
  catches: ['num_outputs_wrong'],
}).run(async ({ client }) => {
  check.equal((await compileText(client, addAndMul([3]))).executable().numOutputs(), 2, 'PJRT_Executable_NumOutputs must count the results of a two-result program');
  check.equal((await compileText(client, onePlusOne())).executable().numOutputs(), 1, 'PJRT_Executable_NumOutputs must count the result of a one-result program');
});

t.case('output_metadata', {
  source: 'header',
  cite: 'PJRT_Executable_OutputElementTypes: "Returns a list of element types for outputs"',
  catches: ['output_element_types_wrong'],
  requires: { slots: ['PJRT_Executable_OutputElementTypes'] },
}).run(async ({ client }) => {
  const exe = (await compileText(client, addAndMul([2, 3], 'i32'))).executable();
  check.equal(exe.outputElementTypes(), ['s32', 's32'], 'PJRT_Executable_OutputElementTypes must list the result types (tensor<2x3xi32>, tensor<2x3xi32>)');
});

t.case('output_dimensions', {
  source: 'header',
  cite: 'PJRT_Executable_OutputDimensions: "Returns a list of dimensions for outputs. Each output has an array shape, which is represented by a list of dimensions"',
  catches: ['output_dims_reversed'],
  requires: { slots: ['PJRT_Executable_OutputDimensions'] },
}).run(async ({ client }) => {
  const exe = (await compileText(client, addAndMul([2, 3], 'i32'))).executable();
  check.equal(exe.outputDimensions(), [[2, 3], [2, 3]], 'PJRT_Executable_OutputDimensions must list the result shapes (2×3, 2×3)');
});

t.case('name_and_counts', {
  source: 'header',
  cite: 'PJRT_Executable_NumReplicas / NumPartitions: "the number of replicas/partitions of the executable" — a module declaring mhlo.num_replicas = 1, num_partitions = 1, compiled with default options, has one of each',
  catches: ['executable_counts_zero', 'crash_in=PJRT_Executable_NumPartitions'],
}).run(async ({ client }) => {
  const exe = (await compileText(client, addOne([4]))).executable();
  check.equal(exe.numReplicas(), 1, 'a one-replica module compiled with default options has one replica (PJRT_Executable_NumReplicas)');
  check.equal(exe.numPartitions(), 1, 'a one-partition module compiled with default options has one partition (PJRT_Executable_NumPartitions)');
});

t.case('name', {
  source: 'header',
  cite: 'PJRT_Executable_Name: "Returns a string that identifies the executable" — an empty string identifies nothing',
  catches: ['executable_name_empty'],
}).run(async ({ client }) => {
  const exe = (await compileText(client, addOne([4]))).executable();
  check.nonEmptyString(exe.name(), 'PJRT_Executable_Name ("a string that identifies the executable") must not be empty');
});

/** The fingerprint, or `unsupported` where the platform does not implement it (the header allows that). */
const fingerprintOf = (ctx: { unsupported(reason: string): never }, exe: { fingerprint(): string }): Promise<string> =>
  check.unimplementedIsUnsupported(ctx, 'PJRT_Executable_Fingerprint "May not be implemented by all platforms"', () => exe.fingerprint());

t.case('fingerprint_stable', {
  source: 'header',
  cite: 'PJRT_Executable_Fingerprint: "Two executables that were produced by compiling with identical inputs (same program, compile options, compiler version, etc.) should have the same fingerprint. May not be implemented by all platforms" (UNIMPLEMENTED → unsupported)',
  catches: ['fingerprint_unstable'],
  requires: { slots: ['PJRT_Executable_Fingerprint'] },
}).run(async (ctx) => {
  const a = await fingerprintOf(ctx, (await compileText(ctx.client, addOne([4]))).executable());
  const b = await fingerprintOf(ctx, (await compileText(ctx.client, addOne([4]))).executable());
  check.equal(b, a, 'two compiles of the same program with the same options must have the same fingerprint (PJRT_Executable_Fingerprint)');
});

t.case('fingerprint_distinct', {
  source: 'header',
  cite: 'PJRT_Executable_Fingerprint: "A unique fingerprint for `executable`. ... May not be implemented by all platforms" (UNIMPLEMENTED → unsupported)',
  catches: ['fingerprint_constant'],
  requires: { slots: ['PJRT_Executable_Fingerprint'] },
}).run(async (ctx) => {
  const a = await fingerprintOf(ctx, (await compileText(ctx.client, addOne([4]))).executable());
  const c = await fingerprintOf(ctx, (await compileText(ctx.client, addOne([5]))).executable());
  check.ok(c !== a, 'PJRT_Executable_Fingerprint is "a unique fingerprint for executable": different programs (f32[4] vs f32[5]) must differ', 'two different fingerprints', `the same (${a}) for both`);
});

t.case('loaded_delete', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_IsDeleted: "True if and only if PJRT_LoadedExecutable_Delete has previously been called" (after Delete only IsDeleted and Destroy may be called)',
  catches: ['loaded_is_deleted_stale', 'crash_in=PJRT_LoadedExecutable_IsDeleted'],
  requires: { slots: ['PJRT_LoadedExecutable_Delete', 'PJRT_LoadedExecutable_IsDeleted'] },
}).run(async ({ client }) => {
  const exe = await compileText(client, addOne([4]));
  check.equal(exe.isDeleted(), false, 'PJRT_LoadedExecutable_IsDeleted must be false before Delete ("if and only if")');
  exe.delete();
  check.equal(exe.isDeleted(), true, 'PJRT_LoadedExecutable_IsDeleted must be true after Delete');
});

// Tier 1 — compilation: errors instead of crashes, compile options, executable metadata.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { compileText } from '../_lib/exec.js';
import { BAD_PROGRAMS, addAndMul, addOne, onePlusOne } from '../_lib/programs.js';

const t = area('tier1.compile', { tier: 1, requires: { slots: ['PJRT_Client_Compile'] } });

t.case('add_one', { catches: ['crash_in=PJRT_Client_Compile'] }).run(async ({ client }) => {
  const exe = await compileText(client, addOne([4]));
  check.ok(exe.addressableDevices().length > 0, 'a compiled executable must have an addressable device', '≥ 1', '0');
});

t.case('rejects_bad_program', { catches: (p: { catches: string[] }) => [...p.catches, 'wrong_error_code'] })
  .params(BAD_PROGRAMS)
  .run(async ({ client, p }) => {
    await check.rejects(() => compileText(client, p.text), `compiling a malformed program (${p.id}) must fail with INVALID_ARGUMENT, not succeed or crash`, ['INVALID_ARGUMENT']);
  });

t.case('rejects_unknown_format', { catches: ['crash_in=PJRT_Client_Compile'] }).run(async ({ client }) => {
  await check.rejects(() => client.compile({ code: addOne([4]), format: 'pjrt_cts_unknown' }), 'an unknown program format must be rejected', ['INVALID_ARGUMENT', 'UNIMPLEMENTED', 'NOT_FOUND']);
});

t.case('rejects_garbage_options', { catches: ['compile_options_ignored'] }).run(async ({ client }) => {
  const garbage = new TextEncoder().encode('invalid compile options \xff\xff\xff');
  await check.rejects(() => client.compile({ code: addOne([4]), format: 'mlir' }, garbage), 'undecodable compile options must be rejected', ['INVALID_ARGUMENT']);
});

t.case('options_num_replicas', { catches: ['compile_options_ignored'] }).run(async (ctx) => {
  const n = ctx.client.addressableDevices().length;
  if (n < 2) return ctx.skip('needs two addressable devices');
  const da = ctx.client.defaultDeviceAssignment(n, 1).map((id) => [id]);
  const exe = await compileText(ctx.client, addOne([4]), { numReplicas: n, deviceAssignment: da });
  check.equal(exe.executable().numReplicas(), n, 'num_replicas from the compile options must reach the executable');
  check.equal(exe.addressableDevices().length, n, 'an n-replica executable must run on n addressable devices');
});

t.case('num_outputs', { catches: ['num_outputs_wrong'] }).run(async ({ client }) => {
  check.equal((await compileText(client, addAndMul([3]))).executable().numOutputs(), 2, 'PJRT_Executable_NumOutputs must count the program results');
  check.equal((await compileText(client, onePlusOne())).executable().numOutputs(), 1, 'PJRT_Executable_NumOutputs must count the program results');
});

t.case('output_metadata', { catches: ['num_outputs_wrong'], requires: { slots: ['PJRT_Executable_OutputElementTypes', 'PJRT_Executable_OutputDimensions'] } }).run(
  async ({ client }) => {
    const exe = (await compileText(client, addAndMul([2, 3], 'i32'))).executable();
    check.equal(exe.outputElementTypes(), ['s32', 's32'], 'PJRT_Executable_OutputElementTypes must match the result types');
    check.equal(exe.outputDimensions(), [[2, 3], [2, 3]], 'PJRT_Executable_OutputDimensions must match the result shapes');
    check.equal(exe.numOutputs(), exe.outputElementTypes().length, 'PJRT_Executable_NumOutputs must agree with OutputElementTypes');
  },
);

t.case('name_and_counts', { catches: ['crash_in=PJRT_Client_Compile'] }).run(async ({ client }) => {
  const exe = (await compileText(client, addOne([4]))).executable();
  check.nonEmptyString(exe.name(), 'PJRT_Executable_Name must be non-empty');
  check.equal(exe.numReplicas(), 1, 'a default compile has one replica');
  check.equal(exe.numPartitions(), 1, 'a default compile has one partition');
});

t.case('fingerprint_stable', { catches: ['fingerprint_unstable'], requires: { slots: ['PJRT_Executable_Fingerprint'] } }).run(async ({ client }) => {
  const a = (await compileText(client, addOne([4]))).executable().fingerprint();
  const b = (await compileText(client, addOne([4]))).executable().fingerprint();
  check.equal(b, a, 'two compiles of the same program with the same options must have the same fingerprint');
  const c = (await compileText(client, addOne([5]))).executable().fingerprint();
  check.ok(c !== a, 'different programs should have different fingerprints', 'a different fingerprint', `the same (${a})`);
});

t.case('loaded_delete', { catches: ['crash_in=PJRT_Client_Compile'], requires: { slots: ['PJRT_LoadedExecutable_Delete', 'PJRT_LoadedExecutable_IsDeleted'] } }).run(
  async ({ client }) => {
    const exe = await compileText(client, addOne([4]));
    check.equal(exe.isDeleted(), false, 'a fresh executable must not be deleted');
    exe.delete();
    check.equal(exe.isDeleted(), true, 'PJRT_LoadedExecutable_IsDeleted must be true after Delete');
  },
);

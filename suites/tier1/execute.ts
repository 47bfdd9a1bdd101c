// Tier 1 — execution: smoke programs with checked results, argument checking, and a few numerics rules
// whose violation real plugins have shipped (wrap-around, NaN propagation, layout-sensitive ops).
// Outputs are read into destinations sized from the expected output dtype and dims (no ToHostBuffer size query).
import { area, declareProgram } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { declinedIsUnsupported } from '../_lib/declined.js';
import { compileText, readOut, run1, type OutSpec } from '../_lib/exec.js';
import { f32, readF32, s32 } from '../_lib/patterns.js';
import { addOne, module, onePlusOne, tensor, timesTwo } from '../_lib/programs.js';
import { soleOutput } from '../_lib/outputs.js';
import { checkDeclared } from '../_lib/declared.js';

const t = area('tier1.execute', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

/** Where the demand on a program's result comes from: JAX compiles and runs exactly such programs. */
const JAX_RESULTS = 'jax.jit lowers to StableHLO and runs it through PJRT_Client_Compile / PJRT_LoadedExecutable_Execute (jax/_src/interpreters/pxla.py); JAX\'s results are the StableHLO semantics of the program';

/** A one-device program with its arguments and expected outputs, declared for the reproducers (src/harness/suite-programs.ts). */
const single = (id: string, description: string, rule: string, text: string, inputs: { dtype: string; dims: number[]; data: Uint8Array }[], outputs: { dtype: string; dims: number[]; data?: Uint8Array; anyValue?: string }[]) =>
  declareProgram(`tier1.execute.${id}`, { description, rule, text, replicas: 1, inputs: [inputs], outputs: [outputs] });

single('one_plus_one', 'jax.jit(lambda: 1 + 1)', '1 + 1 must be 2', onePlusOne(), [], [{ dtype: 's32', dims: [], data: s32([2]) }]);
t.case('one_plus_one', { source: 'framework', cite: `${JAX_RESULTS}: jax.jit(lambda: 1 + 1)`, catches: ['op_off_by_one=add'] }).run(async (ctx) => {
  checkDeclared(ctx, [await run1(ctx.client, onePlusOne(), [], [{ dtype: 's32', dims: [] }])]);
});

const TIMES_TWO = [1.5, -2, 0, 1e30];
single('times_two', 'jax.jit(lambda x: x * 2)', 'jitted x * 2 must double every element', timesTwo([4]), [{ dtype: 'f32', dims: [4], data: f32(TIMES_TWO) }], [{ dtype: 'f32', dims: [4], data: f32(TIMES_TWO.map((v) => Math.fround(v * 2))) }]);
t.case('times_two', { source: 'framework', cite: `${JAX_RESULTS}: jax.jit(lambda x: x * 2)`, catches: ['op_off_by_one=multiply'] }).run(async (ctx) => {
  checkDeclared(ctx, [await run1(ctx.client, timesTwo([4]), [{ dtype: 'f32', dims: [4], data: f32(TIMES_TWO) }], [{ dtype: 'f32', dims: [4] }])]);
});

const ADD_ONE_X = [41, 42, 43, 44];
const ADD_ONE_ROWS = [
  { id: 'f32', dtype: 'f32', mlir: 'f32', enc: f32 },
  { id: 's32', dtype: 's32', mlir: 'i32', enc: s32 },
];
for (const r of ADD_ONE_ROWS) {
  single(`add_one.${r.id}`, `jax.jit(lambda x: x + 1) on ${r.dtype}[4]`, 'add-one must add one to every element', addOne([4], r.mlir), [{ dtype: r.dtype, dims: [4], data: r.enc(ADD_ONE_X) }], [{ dtype: r.dtype, dims: [4], data: r.enc(ADD_ONE_X.map((x) => x + 1)) }]);
}
t.case('add_one', { source: 'framework', cite: `${JAX_RESULTS}: jax.jit(lambda x: x + 1) (also XLA's pjrt_c_api_test.cc add-one program)`, catches: ['op_off_by_one=add'] })
  .params(ADD_ONE_ROWS)
  .run(async (ctx) => {
    const p = ctx.p;
    checkDeclared(ctx, [await run1(ctx.client, addOne([4], p.mlir), [{ dtype: p.dtype, dims: [4], data: p.enc(ADD_ONE_X) }], [{ dtype: p.dtype, dims: [4] }])]);
  });

t.case('on_every_device', {
  source: 'framework',
  cite: `${JAX_RESULTS}: jax.jit(f, device=d) compiles with a one-device assignment for each device`,
  catches: ['op_off_by_one=add'],
}).run(async ({ client }) => {
  for (const d of client.addressableDevices()) {
    const exe = await compileText(client, addOne([2]), { deviceAssignment: [[d.id]] });
    const b = await client.upload(f32([1, 2]), { dtype: 'f32', dims: [2], device: d });
    const out = soleOutput(await exe.execute([[b]]));
    check.equal(readF32(await readOut(out, { dtype: 'f32', dims: [2] })), [2, 3], `add-one compiled for and run on device ${d.id}`);
  }
});

t.case('on_every_device_output_device', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_Execute_Args.execute_device: NULL "will execute on the device(s) specified at compile time"; PJRT_Buffer_Device: "Returns this buffer\'s storage device" — the outputs of a one-device execution are that device\'s',
  catches: ['compile_options_ignored'],
  requires: { slots: ['PJRT_Buffer_Device'] },
}).run(async ({ client }) => {
  for (const d of client.addressableDevices()) {
    const exe = await compileText(client, addOne([2]), { deviceAssignment: [[d.id]] });
    const b = await client.upload(f32([1, 2]), { dtype: 'f32', dims: [2], device: d });
    const out = soleOutput(await exe.execute([[b]]));
    check.equal(out.device().id, d.id, `the output of an execution on device ${d.id} (the device specified at compile time) must live on it`);
  }
});

const BAD_ARGS = [
  { id: 'too_few', make: () => [] as { dims: number[]; dtype: string }[] },
  { id: 'too_many', make: () => [{ dims: [4], dtype: 'f32' }, { dims: [4], dtype: 'f32' }] },
  { id: 'wrong_shape', make: () => [{ dims: [1024], dtype: 'f32' }] },
  { id: 'wrong_type', make: () => [{ dims: [4], dtype: 'f64' }] },
];
t.case('rejects_bad_arguments', {
  source: 'quality',
  cite: 'PJRT_LoadedExecutable_Execute_Args.argument_lists is "Execution input of size [num_devices, num_args]" of the program\'s parameters; arguments that do not match are a caller error the header leaves undefined. XLA\'s plugins reject them (INVALID_ARGUMENT "Execution supplied N buffers but compiled program expected M", shape mismatch), which turns an out-of-bounds read into a diagnosable error',
  control: 'the same executable runs with one matching f32[4] argument',
  catches: ['execute_no_arg_check'],
})
  .params(BAD_ARGS)
  .run(async ({ client, p }) => {
    const exe = await compileText(client, addOne([4]));
    const dev = exe.addressableDevices()[0]!;
    const good = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: dev });
    await check.control('execute with one f32[4] argument', () => exe.execute([[good]]));
    const args = await Promise.all(p.make().map((a) => client.upload(new Uint8Array(a.dims[0]! * 8), { ...a, device: dev })));
    await check.rejects(() => exe.execute([args]), `Execute with ${p.id.replace('_', ' ')} arguments should be rejected with an error (quality: XLA does)`);
  });

/** Programs whose results are fixed by the StableHLO spec and differ from the obvious-but-wrong implementation. */
const i32max = 2147483647;
const u32 = (xs: number[]) => new Uint8Array(Uint32Array.from(xs).buffer);
const u16 = (xs: number[]) => new Uint8Array(Uint16Array.from(xs).buffer);
const pred = (xs: boolean[]) => Uint8Array.from(xs, (b) => (b ? 1 : 0));
const arg = (dt: string, dims: number[], data: Uint8Array) => ({ dtype: dt, dims, data });
const fn = (name: string, params: string[], result: string, body: string) =>
  module(name, `  func.func public @main(${params.map((t, i) => `%arg${i}: ${t}`).join(', ')}) -> ${result} {\n${body}\n  }`);

function binary(op: string, mlir: string, dims: number[]): string {
  const ty = tensor(dims, mlir);
  return fn(op, [ty, ty], ty, `    %0 = stablehlo.${op} %arg0, %arg1 : ${ty}\n    return %0 : ${ty}`);
}

interface NumericsRow {
  id: string;
  catches: string[];
  text: string;
  args: { dtype: string; dims: number[]; data: Uint8Array }[];
  out: OutSpec;
  want?: Uint8Array;
  wantF32?: number[];
  /** The result is implementation-defined: any value passes; the row demands only that Execute completes. */
  anyValue?: string;
}

const NUMERICS: readonly NumericsRow[] = [
  {
    id: 'int_add_wraps',
    out: { dtype: 's32', dims: [2] },
    catches: ['int_overflow_saturates'],
    text: binary('add', 'i32', [2]),
    args: [arg('s32', [2], s32([i32max, -2147483648])), arg('s32', [2], s32([1, -1]))],
    want: s32([-2147483648, i32max]),
  },
  {
    id: 'maximum_propagates_nan',
    out: { dtype: 'f32', dims: [3] },
    catches: ['nan_propagation_wrong'],
    text: binary('maximum', 'f32', [3]),
    args: [arg('f32', [3], f32([NaN, 1, 2])), arg('f32', [3], f32([1, NaN, 3]))],
    wantF32: [NaN, NaN, 3],
  },
  {
    id: 'int_divide_by_zero',
    out: { dtype: 's32', dims: [2] },
    catches: ['div_by_zero_traps'],
    text: binary('divide', 'i32', [2]),
    args: [arg('s32', [2], s32([7, -7])), arg('s32', [2], s32([0, 0]))],
    // XLA's operation semantics: integer division by zero "produces an implementation defined value" (XLA's
    // CPU/GPU give -1): only a trap is wrong.
    anyValue: 'integer division by zero is implementation-defined (XLA operation semantics); Execute must still complete',
  },
  {
    id: 'shift_left_out_of_range',
    out: { dtype: 'u32', dims: [2] },
    catches: ['shift_out_of_range_wrong'],
    text: binary('shift_left', 'ui32', [2]),
    args: [arg('u32', [2], u32([1, 3])), arg('u32', [2], u32([32, 33]))],
    want: u32([0, 0]),
  },
  {
    id: 'compare_unsigned',
    out: { dtype: 'pred', dims: [2] },
    catches: ['compare_unsigned_as_signed'],
    text: fn('cmp', [tensor([2], 'ui32'), tensor([2], 'ui32')], tensor([2], 'i1'),
      `    %0 = stablehlo.compare  LT, %arg0, %arg1,  UNSIGNED : (${tensor([2], 'ui32')}, ${tensor([2], 'ui32')}) -> ${tensor([2], 'i1')}\n    return %0 : ${tensor([2], 'i1')}`),
    args: [arg('u32', [2], u32([1, 0x80000000])), arg('u32', [2], u32([0x80000000, 1]))],
    want: pred([true, false]),
  },
  {
    id: 'convert_f32_to_bf16_rounds',
    out: { dtype: 'bf16', dims: [2] },
    catches: ['bf16_truncates'],
    text: fn('cvt', [tensor([2], 'f32')], tensor([2], 'bf16'),
      `    %0 = stablehlo.convert %arg0 : (${tensor([2], 'f32')}) -> ${tensor([2], 'bf16')}\n    return %0 : ${tensor([2], 'bf16')}`),
    // 0x3f80_c000 is 1 + 2^-8 + 2^-9: above the halfway point, rounds up to 0x3f81; truncation gives 0x3f80
    args: [arg('f32', [2], u32([0x3f80c000, 0x3f81c000]))],
    want: u16([0x3f81, 0x3f82]),
  },
  {
    id: 'f16_subnormal_result',
    out: { dtype: 'f16', dims: [1] },
    catches: ['f16_flush_subnormals'],
    text: binary('multiply', 'f16', [1]),
    args: [arg('f16', [1], u16([0x0400])), arg('f16', [1], u16([0x3800]))], // smallest normal × 0.5
    want: u16([0x0200]),
  },
  {
    id: 'transpose',
    out: { dtype: 'f32', dims: [3, 2] },
    catches: ['transpose_ignores_permutation'],
    text: fn('transpose', [tensor([2, 3], 'f32')], tensor([3, 2], 'f32'),
      `    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (${tensor([2, 3], 'f32')}) -> ${tensor([3, 2], 'f32')}\n    return %0 : ${tensor([3, 2], 'f32')}`),
    args: [arg('f32', [2, 3], f32([1, 2, 3, 4, 5, 6]))],
    want: f32([1, 4, 2, 5, 3, 6]),
  },
  {
    // The spec's reduce result is defined only up to how often init takes part ("interspersed with an
    // implementation-defined amount of init_values_converted"), so init must be where its count cannot show: max over
    // an empty slice is init used once or more, max(init, …, init) = init, on every implementation.
    id: 'reduce_uses_init',
    out: { dtype: 'f32', dims: [2] },
    catches: ['reduce_drops_init'],
    text: fn('reduce', [tensor([2, 4], 'f32')], tensor([2], 'f32'),
      `    %init = stablehlo.constant dense<1.000000e+01> : tensor<f32>\n    %empty = stablehlo.slice %arg0 [0:2, 0:0] : (${tensor([2, 4], 'f32')}) -> ${tensor([2, 0], 'f32')}\n    %0 = stablehlo.reduce(%empty init: %init) applies stablehlo.maximum across dimensions = [1] : (${tensor([2, 0], 'f32')}, tensor<f32>) -> ${tensor([2], 'f32')}\n    return %0 : ${tensor([2], 'f32')}`),
    args: [arg('f32', [2, 4], f32([1, 2, 3, 4, 5, 6, 7, 8]))],
    want: f32([10, 10]),
  },
  {
    id: 'dot_general_batched',
    out: { dtype: 'f32', dims: [2, 1, 1] },
    catches: ['dot_general_ignores_batch'],
    text: fn('bdot', [tensor([2, 1, 2], 'f32'), tensor([2, 2, 1], 'f32')], tensor([2, 1, 1], 'f32'),
      `    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (${tensor([2, 1, 2], 'f32')}, ${tensor([2, 2, 1], 'f32')}) -> ${tensor([2, 1, 1], 'f32')}\n    return %0 : ${tensor([2, 1, 1], 'f32')}`),
    args: [arg('f32', [2, 1, 2], f32([1, 2, 3, 4])), arg('f32', [2, 2, 1], f32([5, 6, 7, 8]))],
    want: f32([17, 53]),
  },
  {
    id: 'while_counts',
    out: { dtype: 's32', dims: [] },
    catches: ['while_one_extra_iteration'],
    text: fn('loop', ['tensor<i32>'], 'tensor<i32>', `    %z = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %z, %acc = %arg0) : tensor<i32>, tensor<i32>
     cond {
      %c = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare  LT, %i, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %a = stablehlo.add %acc, %acc : tensor<i32>
      stablehlo.return %n, %a : tensor<i32>, tensor<i32>
    }
    return %r#1 : tensor<i32>`),
    args: [arg('s32', [], s32([5]))],
    want: s32([40]),
  },
];

for (const r of NUMERICS) {
  const want = r.want ?? (r.wantF32 ? f32(r.wantF32) : undefined);
  single(`numerics.${r.id}`, `${r.id}: a result the StableHLO spec defines`, r.wantF32 ? `${r.id}: StableHLO semantics` : `${r.id}: result defined by the StableHLO spec`, r.text, r.args, [{ ...r.out, dims: [...r.out.dims], ...(want ? { data: want } : {}), ...(r.anyValue ? { anyValue: r.anyValue } : {}) }]);
}

t.case('numerics', {
  source: 'framework',
  cite: `${JAX_RESULTS}: JAX documents and relies on these results — integer arithmetic wraps, jnp.maximum propagates NaN, astype(bfloat16) rounds to nearest even, out-of-range shifts give 0, unsigned compares are unsigned (each row's expected value is the StableHLO spec's and XLA's CPU answer)`,
  catches: (p: NumericsRow) => p.catches,
})
  .params(NUMERICS)
  .run(async (ctx) => {
    const { client, p } = ctx;
    // an implementation-defined value (anyValue) is not compared: the row fails only if Execute errs or the worker dies
    checkDeclared(ctx, [await declinedIsUnsupported(ctx, [...p.args.map((a) => a.dtype), p.out.dtype], () => run1(client, p.text, p.args, [p.out]))]);
  });

// dot_general, reduce, control flow (while, case, if, call), multiple results and constants.
import type { DtypeRow } from '../../abi/dtypes.js';
import { canonicalNanBits, largestFinite, smallestSubnormal } from '../../oracle/floats.js';
import { binary, unary } from '../../oracle/elementwise.js';
import { compare } from '../../oracle/compare.js';
import { convert } from '../../oracle/convert.js';
import { outOfRange } from './conversion-specs.js';
import { dotGeneral, type DotDims } from '../../oracle/dot.js';
import { reduce } from '../../oracle/reduce.js';
import { Tensor, numElements, partDtype, type Scalar } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, FLOATS, INTS, intRange, PRED, program, vec, type Program } from './program.js';

/** Small integers (exact in every float type, TF32 included), as `d` scalars. */
function smallInts(d: DtypeRow, dims: readonly number[], seed: number): Tensor {
  const n = numElements(dims);
  const v = (i: number): number => (((i * 7 + seed * 3) % 9) - 4);
  return Tensor.of(d, dims, Array.from({ length: n }, (_, i): Scalar => (d.kind === 'float' ? v(i) : BigInt(d.kind === 'uint' ? Math.abs(v(i)) : v(i)))));
}

interface DotCase { id: string; lhs: number[]; rhs: number[]; dims: DotDims; description: string }

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;

const DOTS: DotCase[] = [
  { id: 'matmul', lhs: [2, 3], rhs: [3, 4], dims: { lhsBatch: [], rhsBatch: [], lhsContract: [1], rhsContract: [0] }, description: 'matrix product 2x3 · 3x4' },
  { id: 'batch', lhs: [2, 2, 3], rhs: [2, 3, 2], dims: { lhsBatch: [0], rhsBatch: [0], lhsContract: [2], rhsContract: [1] }, description: 'batched matrix product, batch dim 0' },
  { id: 'vector', lhs: [5], rhs: [5], dims: { lhsBatch: [], rhsBatch: [], lhsContract: [0], rhsContract: [0] }, description: 'vector inner product to a scalar' },
  { id: 'outer', lhs: [3], rhs: [2], dims: { lhsBatch: [], rhsBatch: [], lhsContract: [], rhsContract: [] }, description: 'outer product (no contracting dims)' },
  { id: 'transposed', lhs: [3, 2], rhs: [4, 3], dims: { lhsBatch: [], rhsBatch: [], lhsContract: [0], rhsContract: [1] }, description: 'contracting lhs dim 0 with rhs dim 1' },
];

function dotText(name: string, a: Tensor, b: Tensor, out: Tensor, dd: DotDims, precision: boolean): string {
  const f = new FuncBuilder('main');
  const [x, y] = [f.arg(typeOf(a)), f.arg(typeOf(b))];
  const batch = dd.lhsBatch.length ? `batching_dims = ${list(dd.lhsBatch)} x ${list(dd.rhsBatch)}, ` : '';
  const prec = precision ? ', precision = [HIGHEST, HIGHEST]' : '';
  const r = f.op(`stablehlo.dot_general ${x}, ${y}, ${batch}contracting_dims = ${list(dd.lhsContract)} x ${list(dd.rhsContract)}${prec} : (${typeOf(a)}, ${typeOf(b)}) -> ${typeOf(out)}`);
  return moduleText(name, [f.text([{ value: r, type: typeOf(out) }])]);
}

function dotPrograms(): Program[] {
  const out: Program[] = [];
  for (const c of DOTS) {
    for (const d of ['f32', 'f64', 'f16', 'bf16', 's32', 's64', 'u32'].map(dt)) {
      if (c.id !== 'matmul' && !['f32', 's32'].includes(d.name)) continue;
      const [a, b] = [smallInts(d, c.lhs, 1), smallInts(d, c.rhs, 2)];
      const r = dotGeneral(a, b, c.dims, d);
      const name = `dot_general_${c.id}_${d.name}`;
      // the sign of a zero sum is not fixed (XLA's CPU compiler gives −0 for 0 · −3 where the oracle's +0 accumulator gives +0)
      const tolerance: Tolerance | undefined = d.kind === 'float' ? { signedZeros: false } : undefined;
      out.push(program({ name, description: `dot_general ${c.description} on ${d.name} (small integers: exact at any precision)`, ops: ['dot_general'], text: dotText(name, a, b, r, c.dims, d.name === 'f32'), inputs: [a, b], outputs: [r], ...(tolerance ? { tolerance } : {}) }));
    }
  }
  // preferred element type: i8 × i8 → i32, bf16 × bf16 → f32
  for (const [from, to] of [['s8', 's32'], ['bf16', 'f32']] as const) {
    const c = DOTS[0]!;
    const [a, b] = [smallInts(dt(from), c.lhs, 3), smallInts(dt(from), c.rhs, 4)];
    const r = dotGeneral(a, b, c.dims, dt(to));
    const name = `dot_general_matmul_${from}_to_${to}`;
    out.push(program({ name, description: `dot_general ${from} × ${from} → ${to} (operands converted to the result type)`, ops: ['dot_general'], text: dotText(name, a, b, r, c.dims, false), inputs: [a, b], outputs: [r], ...(to === 'f32' ? { tolerance: { signedZeros: false } } : {}) }));
  }
  const f32 = dt('f32');
  const c = DOTS[1]!;
  const a = Tensor.of(f32, c.lhs, Array.from({ length: 12 }, (_, i) => Math.fround(Math.sin(i + 1) * 3)));
  const b = Tensor.of(f32, c.rhs, Array.from({ length: 12 }, (_, i) => Math.fround(Math.cos(i * 2 + 1) * 2)));
  const r = dotGeneral(a, b, c.dims, f32);
  const tol: Tolerance = { ulp: 8, abs: 1e-5, signedZeros: false };
  out.push(program({ name: 'dot_general_batch_f32_fractional', description: 'batched dot_general on f32 fractions with precision HIGHEST (summation order free: tolerance)', ops: ['dot_general'], text: dotText('dot_general_batch_f32_fractional', a, b, r, c.dims, true), inputs: [a, b], outputs: [r], tolerance: tol }));
  return out;
}

function reduceInit(op: string, d: DtypeRow): Tensor {
  const v = (x: Scalar) => Tensor.of(d, [], [x]);
  if (d.kind === 'pred') return v(op === 'and');
  if (op === 'add') return v(d.kind === 'float' ? 0 : 0n);
  const { min, max } = d.kind === 'float' ? { min: -Infinity, max: Infinity } : intRange(d);
  return v(op === 'maximum' ? min : max);
}

function reducePrograms(): Program[] {
  const out: Program[] = [];
  const variants: { op: string; dims: number[] }[] = [
    { op: 'add', dims: [1] },
    { op: 'maximum', dims: [0] },
    { op: 'minimum', dims: [0, 1] },
  ];
  for (const d of ['f32', 'f64', 'f16', 'bf16', 's32', 's64', 's8', 'u8', 'u32'].map(dt)) {
    for (const { op, dims } of variants) {
      const x = smallInts(d, [3, 4], 5);
      if (d.kind === 'float' && op === 'maximum') x.setBits(5, canonicalNanBits(d)); // NaN propagates through max
      out.push(reduceProgram(x, op, dims));
    }
  }
  for (const op of ['and', 'or']) out.push(reduceProgram(vec(PRED, [true, true, false, true, false, false]).gather([2, 3], (i) => i), op, [1]));
  return out;
}

function reduceProgram(x: Tensor, op: string, dims: number[]): Program {
  const d = x.dtype;
  const init = reduceInit(op, d);
  const r = reduce(x, init, dims, op);
  const f = new FuncBuilder('main');
  const a = f.arg(typeOf(x));
  const c = f.constant(init);
  const v = f.op(`stablehlo.reduce(${a} init: ${c}) applies stablehlo.${op} across dimensions = ${list(dims)} : (${typeOf(x)}, ${typeOf(init)}) -> ${typeOf(r)}`);
  const name = `reduce_${op}_${dims.join('')}_${d.name}`;
  return program({ name, description: `reduce with ${op} over dims ${list(dims)} of 3x4 ${d.name}, init from a constant`, ops: ['reduce', op, 'constant'], text: moduleText(name, [f.text([{ value: v, type: typeOf(r) }])]), inputs: [x], outputs: [r] });
}

function controlPrograms(): Program[] {
  const out: Program[] = [];
  const f32 = dt('f32');
  const i32 = dt('s32');
  const t4 = tensorType(f32, [4]);
  const ti = tensorType(i32, []);
  const x = vec(f32, [1, -0.5, 3, Infinity]);
  {
    const f = new FuncBuilder('main');
    const a = f.arg(t4);
    const c = f.constant(Tensor.of(i32, [], [0n]));
    const w = f.fresh();
    const [p, q, s] = [f.fresh(), f.fresh(), f.fresh()];
    f.raw([
      `${w}:2 = stablehlo.while(%iterArg = ${c}, %iterArg_0 = ${a}) : ${ti}, ${t4}`,
      ` cond {`,
      `  %c_1 = stablehlo.constant dense<5> : ${ti}`,
      `  ${p} = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (${ti}, ${ti}) -> tensor<i1>`,
      `  stablehlo.return ${p} : tensor<i1>`,
      `} do {`,
      `  %c_1 = stablehlo.constant dense<1> : ${ti}`,
      `  ${q} = stablehlo.add %iterArg, %c_1 : ${ti}`,
      `  ${s} = stablehlo.add %iterArg_0, %iterArg_0 : ${t4}`,
      `  stablehlo.return ${q}, ${s} : ${ti}, ${t4}`,
      `}`,
    ].join('\n'));
    let y = x;
    for (let i = 0; i < 5; i++) y = binary('add', y, y);
    out.push(program({ name: 'while_counter', description: 'while loop: counter 0..5 with a doubled f32 carry; two results', ops: ['while', 'compare', 'add', 'constant'], text: moduleText('while_counter', [f.text([{ value: `${w}#0`, type: ti }, { value: `${w}#1`, type: t4 }])]), inputs: [x], outputs: [Tensor.of(i32, [], [5n]), y] }));
  }
  const branches = [
    { op: 'negate', apply: (t: Tensor) => unary('negate', t) },
    { op: 'abs', apply: (t: Tensor) => unary('abs', t) },
    { op: 'floor', apply: (t: Tensor) => unary('floor', t) },
  ];
  for (const idx of [0, 1, 2, 7, -1]) {
    const f = new FuncBuilder('main');
    const [i, a] = [f.arg(ti), f.arg(t4)];
    const r = f.fresh();
    const inner = branches.map(() => f.fresh());
    f.raw([
      `${r} = "stablehlo.case"(${i}) ({`,
      ...branches.flatMap((b, k) => [
        `  ${inner[k]} = stablehlo.${b.op} ${a} : ${t4}`,
        `  stablehlo.return ${inner[k]} : ${t4}`,
        k < branches.length - 1 ? '}, {' : `}) : (${ti}) -> ${t4}`,
      ]),
    ].join('\n'));
    const chosen = idx >= 0 && idx < branches.length ? idx : branches.length - 1;
    const name = `case_index_${idx < 0 ? 'm' : ''}${Math.abs(idx)}`;
    out.push(program({
      name,
      description: `case with 3 branches, index ${idx}${chosen !== idx ? ' (out of range: the last branch runs)' : ''}`,
      ops: ['case', ...branches.map((b) => b.op)],
      text: moduleText(name, [f.text([{ value: r, type: t4 }])]),
      inputs: [Tensor.of(i32, [], [BigInt(idx)]), x], outputs: [branches[chosen]!.apply(x)],
    }));
  }
  for (const p of [true, false]) {
    const f = new FuncBuilder('main');
    const [c, a] = [f.arg('tensor<i1>'), f.arg(t4)];
    const r = f.fresh();
    const [m, n] = [f.fresh(), f.fresh()];
    f.raw([
      `${r} = "stablehlo.if"(${c}) ({`,
      `  ${m} = stablehlo.multiply ${a}, ${a} : ${t4}`,
      `  stablehlo.return ${m} : ${t4}`,
      `}, {`,
      `  ${n} = stablehlo.subtract ${a}, ${a} : ${t4}`,
      `  stablehlo.return ${n} : ${t4}`,
      `}) : (tensor<i1>) -> ${t4}`,
    ].join('\n'));
    const name = `if_${p}`;
    out.push(program({ name, description: `if with predicate ${p} (true branch squares, false branch subtracts)`, ops: ['if', 'multiply', 'subtract'], text: moduleText(name, [f.text([{ value: r, type: t4 }])]), inputs: [Tensor.of(PRED, [], [p]), x], outputs: [binary(p ? 'multiply' : 'subtract', x, x)] }));
  }
  {
    const h = new FuncBuilder('helper', 'private');
    const [ha, hb] = [h.arg(t4), h.arg(t4)];
    const hs = h.op(`stablehlo.multiply ${ha}, ${hb} : ${t4}`);
    const hr = h.op(`stablehlo.add ${hs}, ${ha} : ${t4}`);
    const f = new FuncBuilder('main');
    const [a, b] = [f.arg(t4), f.arg(t4)];
    const c1 = f.op(`call @helper(${a}, ${b}) : (${t4}, ${t4}) -> ${t4}`);
    const c2 = f.op(`call @helper(${c1}, ${a}) : (${t4}, ${t4}) -> ${t4}`);
    const y = vec(f32, [2, 0.25, -1, 0]);
    const helper = (p: Tensor, q: Tensor) => binary('add', binary('multiply', p, q), p);
    out.push(program({ name: 'call_private', description: 'func.call of a private function, called twice (second call consumes the first result)', ops: ['call', 'multiply', 'add'], text: moduleText('call_private', [f.text([{ value: c2, type: t4 }]), h.text([{ value: hr, type: t4 }])]), inputs: [x, y], outputs: [helper(helper(x, y), x)] }));
  }
  {
    const f = new FuncBuilder('main');
    const [a, b] = [f.arg(t4), f.arg(t4)];
    const s = f.op(`stablehlo.add ${a}, ${b} : ${t4}`);
    const lt = f.op(`stablehlo.compare  LT, ${a}, ${b},  FLOAT : (${t4}, ${t4}) -> tensor<4xi1>`);
    const cv = f.op(`stablehlo.convert ${a} : (${t4}) -> tensor<4xi32>`);
    const y = vec(f32, [2, 0.25, -1, 0]);
    out.push(program({ name: 'multiple_results', description: 'three results of different dtypes (f32, pred, s32), one argument returned twice', ops: ['add', 'compare', 'convert'], text: moduleText('multiple_results', [f.text([{ value: s, type: t4 }, { value: lt, type: 'tensor<4xi1>' }, { value: cv, type: 'tensor<4xi32>' }, { value: a, type: t4 }])]), inputs: [x, y], outputs: [binary('add', x, y), compare('LT', x, y, 'FLOAT'), convert(x, dt('s32')), x], open: [undefined, undefined, [outOfRange(x, dt('s32'))]] }));
  }
  return out;
}

/** The corpus's other element types, whose constants XLA's CPU compiler also takes (f6 constants abort it). */
const MORE_CONSTANT_DTYPES = ['c64', 'c128', 's4', 'u4', 's2', 'u2', 'f8e5m2', 'f8e4m3fn', 'f8e4m3b11fnuz', 'f8e5m2fnuz', 'f8e4m3fnuz', 'f8e4m3', 'f8e3m4', 'f8e8m0fnu', 'f4e2m1fn'].map(dt);

function constantPrograms(): Program[] {
  const out: Program[] = [];
  for (const d of [PRED, ...INTS, ...FLOATS, ...MORE_CONSTANT_DTYPES]) {
    let t: Tensor;
    if (d.kind === 'pred') t = vec(d, [true, false, false, true]);
    else if (d.kind === 'complex') t = Tensor.of(d, [2, 3], [[0, -0], [1, -2.5], [0.1, 3.14159], [Infinity, NaN], [-Infinity, 65536 * 128], [largestFinite(partDtype(d)), smallestSubnormal(partDtype(d))]].map(([re, im]) => ({ re: re!, im: im! })));
    else if (d.kind === 'float') t = vec(d, [0, -0, 1, -2.5, 0.1, 3.14159, largestFinite(d), smallestSubnormal(d), Infinity, -Infinity, NaN, 65536 * 128]).gather([3, 4], (i) => i);
    else {
      const { min, max } = intRange(d);
      t = Tensor.of(d, [2, 3], [0n, 1n, min, max, d.kind === 'sint' ? -1n : 7n, 42n]);
    }
    const splat = Tensor.of(d, [2, 2], Array.from({ length: 4 }, () => t.get(2)));
    const f = new FuncBuilder('main');
    const a = f.constant(t);
    const b = f.constant(splat);
    const name = `constant_${d.name}`;
    out.push(program({ name, description: `constants of ${d.name}: a nested literal with edge values (MLIR spelling: hex for inf/NaN and large integral floats) and a splat`, ops: ['constant'], text: moduleText(name, [f.text([{ value: a, type: typeOf(t) }, { value: b, type: typeOf(splat) }])]), inputs: [], outputs: [t, splat], ...(d.kind === 'complex' ? { catches: ['complex_literal_parts_swapped'] } : {}) }));
  }
  out.push(e8m0ZeroLiteral());
  return out;
}

/** f8E8M0FNU has no zero: MLIR's parser (and so XLA) reads the literal 0.0 as the smallest value, 2^-127 (0x00). */
function e8m0ZeroLiteral(): Program {
  const d = dt('f8e8m0fnu');
  const name = 'constant_f8e8m0fnu_zero_literal';
  const ty = tensorType(d, [3]);
  const text = moduleText(name, [[
    `  func.func public @main() -> (${ty} {jax.result_info = "result"}) {`,
    `    %cst = stablehlo.constant dense<[0.000000e+00, 1.000000e+00, 0.0]> : ${ty}`,
    `    return %cst : ${ty}`,
    '  }',
  ].join('\n')]);
  return program({ name, description: 'an f8E8M0FNU constant spelling 0.0 (the type has no zero): MLIR and XLA read it as 2^-127, bit pattern 0x00', ops: ['constant'], text, inputs: [], outputs: [Tensor.fromBits(d, [3], [0n, 127n, 0n])], catches: ['e8m0_zero_literal_is_nan'] });
}

export function structurePrograms(): Program[] {
  return [...dotPrograms(), ...reducePrograms(), ...controlPrograms(), ...constantPrograms()];
}

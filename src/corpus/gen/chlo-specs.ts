// CHLO ops XLA's CPU compiler runs: the special functions, mulhi, is_inf, next_after, top_k, scan and the
// broadcasting binary ops. Their portable artifacts are what XLA's serializer makes of them (docs/artifacts.md):
// the high-level ops wrapped as composites named after them, the rest legalised to StableHLO.
import type { DtypeRow } from '../../abi/dtypes.js';
import { binary } from '../../oracle/elementwise.js';
import { epsilon, roundTo, smallestNormal } from '../../oracle/floats.js';
import { broadcastInDim } from '../../oracle/shape.js';
import { besselI1e, digamma, erf, erfc, erfInv, lgamma, nextAfter, polygamma, zeta } from '../../oracle/special.js';
import { Tensor } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, program, vec, type Program } from './program.js';

const f32 = dt('f32');
const s32 = dt('s32');
const UNARY_FILE = 'xla/tests/exhaustive/exhaustive_unary_test_functions.cc';

/** XLA's exhaustive-test bound for an op on f32: rel in epsilons, abs in smallest normals or absolute. */
function bound(op: string, relEps: number, abs: { normals: number } | { value: number }, d: DtypeRow = f32): Tolerance {
  const a = 'normals' in abs ? abs.normals * smallestNormal(d) : abs.value;
  const absText = 'normals' in abs ? `${abs.normals} smallest normal${abs.normals > 1 ? 's' : ''}` : `${abs.value}`;
  // the sign of a zero result is not checked: XLA's expansions of these functions do not keep it
  return { rel: relEps * epsilon(d), abs: a, signedZeros: false, source: `${UNARY_FILE} UNARY_TEST(${op}): ${relEps} epsilons relative or ${absText} absolute (CPU)` };
}
const DEFAULT = (op: string) => bound(op, 20, { normals: 2 });
/** Ours, for the functions XLA's exhaustive tests leave out: 2e-5 relative (about 168 f32 epsilons). */
const OURS = (what: string): Tolerance => ({ rel: 2e-5, abs: 2 * smallestNormal(f32), signedZeros: false, source: `ours: XLA's exhaustive tests do not cover ${what}; 2e-5 relative or 2 smallest normals absolute` });

interface UnarySpec {
  op: string;
  fn: (x: number) => number;
  inputs: readonly number[];
  tolerance: Tolerance;
  what: string;
}

const UNARY: readonly UnarySpec[] = [
  { op: 'acos', fn: Math.acos, inputs: [-1, -0.75, -0.25, 0, 0.3, 0.5, 0.9, 1], tolerance: DEFAULT('Acos'), what: 'the domain [-1, 1] end to end' },
  { op: 'asin', fn: Math.asin, inputs: [-1, -0.75, -0.25, 0, 0.3, 0.5, 0.9, 1], tolerance: bound('Asin', 10, { normals: 2 }), what: 'the domain [-1, 1] end to end' },
  { op: 'atan', fn: Math.atan, inputs: [-50, -2, -0.5, 0, 0.25, 1, 3, 10000], tolerance: bound('Atan', 20, { normals: 2 }), what: 'small and large magnitudes' },
  { op: 'acosh', fn: Math.acosh, inputs: [1, 1.25, 1.5, 2, 3, 10, 100, 100000], tolerance: bound('Acosh', 50, { value: 1e-7 }), what: 'from 1 up to 1e5' },
  { op: 'asinh', fn: Math.asinh, inputs: [-100, -2, -0.5, 0.001, 0.25, 1, 3, 100000], tolerance: DEFAULT('Asinh'), what: 'both signs, small and large' },
  { op: 'atanh', fn: Math.atanh, inputs: [-0.99, -0.5, -0.1, 0, 0.2, 0.5, 0.75, 0.95], tolerance: DEFAULT('Atanh'), what: 'inside (-1, 1), near both ends' },
  { op: 'sinh', fn: Math.sinh, inputs: [-10, -2, -0.5, 0, 0.01, 0.5, 1, 5], tolerance: DEFAULT('Sinh'), what: 'both signs, near zero and large' },
  { op: 'cosh', fn: Math.cosh, inputs: [-10, -2, -0.5, 0, 0.01, 0.5, 1, 5], tolerance: DEFAULT('Cosh'), what: 'both signs, near zero and large' },
  { op: 'erf', fn: erf, inputs: [-3, -1, -0.5, 0, 0.1, 0.5, 1.5, 2.5], tolerance: DEFAULT('Erf'), what: 'both signs, into the tails' },
  { op: 'erfc', fn: erfc, inputs: [-2, -0.5, 0, 0.25, 1, 2, 3, 5], tolerance: bound('Erfc', 35, { normals: 1 }), what: 'from 2 down to the small tail at 5' },
  { op: 'erf_inv', fn: erfInv, inputs: [-0.99, -0.5, -0.1, 0, 0.2, 0.5, 0.9, 0.999], tolerance: bound('ErfInv', 50, { normals: 2 }), what: 'inside (-1, 1), near both ends' },
  { op: 'lgamma', fn: lgamma, inputs: [-2.5, -0.5, 0.25, 0.5, 1, 2.5, 10, 30], tolerance: bound('Lgamma', 150, { value: 1e-5 }), what: 'negative non-integers (reflection), the zero at 1, large' },
  { op: 'bessel_i1e', fn: besselI1e, inputs: [-20, -3, -0.5, 0.25, 1, 2.5, 10, 100], tolerance: OURS('bessel_i1e'), what: 'odd in x, small and large (the scaling keeps it finite)' },
  { op: 'digamma', fn: digamma, inputs: [-2.5, -0.5, 0.25, 0.5, 1, 2.5, 10, 30], tolerance: bound('Digamma', 10, { value: 2e-5 }), what: 'negative non-integers (reflection), small and large' },
];

function unaryProgram(s: UnarySpec): Program {
  const x = vec(f32, s.inputs);
  const f = new FuncBuilder('main');
  const a = f.arg(typeOf(x));
  const v = f.op(`chlo.${s.op} ${a} : ${typeOf(x)} -> ${typeOf(x)}`);
  const name = `chlo_${s.op}_f32`;
  const r = vec(f32, s.inputs.map((e) => roundTo(f32, s.fn(e))));
  return program({ name, description: `chlo.${s.op} on f32: ${s.what}`, ops: [`chlo.${s.op}`], text: moduleText(name, [f.text([{ value: v, type: typeOf(r) }])]), inputs: [x], outputs: [r], tolerance: s.tolerance });
}

/** One-op program `chlo.<op>` of `inputs` giving `outputs` (types in CHLO's "A, B -> R" form). */
function oneOp(name: string, description: string, op: string, inputs: readonly Tensor[], outputs: readonly Tensor[], render: (args: string[]) => string, tolerance?: Tolerance): Program {
  const f = new FuncBuilder('main');
  const args = inputs.map((t) => f.arg(typeOf(t)));
  const v = f.op(render(args), outputs.length);
  const results = outputs.map((t, i) => ({ value: outputs.length > 1 ? `${v}#${i}` : v, type: typeOf(t) }));
  return program({ name, description, ops: [`chlo.${op}`], text: moduleText(name, [f.text(results)]), inputs, outputs, ...(tolerance ? { tolerance } : {}) });
}

function elementwisePrograms(): Program[] {
  const out = UNARY.map(unaryProgram);
  {
    const x = vec(f32, [-3, -1.5, 0.5, 2, 0.001, 1e20, 7, 0.1]);
    const r = binary('multiply', x, x);
    out.push(oneOp('chlo_square_f32', 'chlo.square on f32: x·x rounded once (1e20 squared overflows to inf)', 'square', [x], [r], ([a]) => `chlo.square ${a} : ${typeOf(x)} -> ${typeOf(r)}`));
  }
  {
    // complex conj and square on values whose products are exact (square: (re - im)(re + im) + 2·re·im i either way)
    const c64 = dt('c64');
    const zs = [{ re: 0.5, im: 1 }, { re: -1.5, im: 0.25 }, { re: 2, im: -1 }, { re: 3, im: 0 }];
    const x = vec(c64, zs);
    const conj = vec(c64, zs.map((z) => ({ re: z.re, im: -z.im })));
    out.push(oneOp('chlo_conj_c64', 'chlo.conj on c64: the imaginary part negated (a zero one becomes -0)', 'conj', [x], [conj], ([a]) => `chlo.conj ${a} : ${typeOf(x)} -> ${typeOf(conj)}`));
    const sq = vec(c64, zs.map((z) => ({ re: z.re * z.re - z.im * z.im, im: 2 * z.re * z.im })));
    out.push(oneOp('chlo_square_c64', 'chlo.square on c64: z·z on values where every product is exact', 'square', [x], [sq], ([a]) => `chlo.square ${a} : ${typeOf(x)} -> ${typeOf(sq)}`));
  }
  {
    const x = vec(f32, [Infinity, -Infinity, NaN, 1, 0, -1e38, 3.4028234663852886e38, -0.5]);
    for (const [op, want] of [['is_inf', (v: number) => Math.abs(v) === Infinity], ['is_pos_inf', (v: number) => v === Infinity], ['is_neg_inf', (v: number) => v === -Infinity]] as const) {
      const r = vec(dt('pred'), x.values().map((v) => want(v as number)));
      out.push(oneOp(`chlo_${op}_f32`, `chlo.${op} on f32: both infinities, NaN, the largest finite values and ordinary numbers`, op, [x], [r], ([a]) => `chlo.${op} ${a} : ${typeOf(x)} -> ${typeOf(r)}`));
    }
  }
  {
    const x = vec(f32, [0, 0, 1, 1, -2, 3.4028234663852886e38, Infinity, 1]);
    const y = vec(f32, [1, -1, 2, 0, -2, Infinity, 0, NaN]);
    const r = vec(f32, x.values().map((v, i) => nextAfter(f32, v as number, y.get(i) as number)));
    out.push(oneOp('chlo_next_after_f32', 'chlo.next_after on f32: from zero to the smallest subnormal of either sign, up and down from 1, x = y, the largest finite to inf, inf back to the largest finite, NaN', 'next_after', [x, y], [r], ([a, b]) => `chlo.next_after ${a}, ${b} : ${typeOf(x)}, ${typeOf(y)} -> ${typeOf(r)}`));
  }
  for (const [op, fn, xs, ys, what] of [
    ['zeta', zeta, [2, 3, 1.5, 4, 2, 10, 2.5, 6], [1, 2, 0.5, 3, 10, 1, 0.25, 100], 'Hurwitz zeta(x, q) for x > 1, q > 0 (zeta(2, 1) = pi^2/6)'],
    ['polygamma', polygamma, [0, 1, 2, 3, 1, 0, 2, 1], [0.5, 1, 2.5, 4, 10, 30, 0.25, 100], 'polygamma(n, x) for n = 0 (digamma) to 3, small and large x'],
  ] as const) {
    const x = vec(f32, xs), y = vec(f32, ys);
    const r = vec(f32, xs.map((a, i) => roundTo(f32, fn(a, ys[i]!))));
    out.push(oneOp(`chlo_${op}_f32`, `chlo.${op} on f32: ${what}`, op, [x, y], [r], ([a, b]) => `chlo.${op} ${a}, ${b} : ${typeOf(x)}, ${typeOf(y)} -> ${typeOf(r)}`, OURS(op)));
  }
  for (const [d, xs, ys] of [
    [s32, [5n, -3n, 2147483647n, -2147483648n, 123456789n, -1n], [7n, 2n, 2147483647n, -2147483648n, 987654321n, -1n]],
    [dt('u64'), [5n, 18446744073709551615n, 4294967296n, 12345678901234567890n], [7n, 18446744073709551615n, 4294967296n, 3n]],
  ] as const) {
    const x = vec(d, xs), y = vec(d, ys);
    const w = BigInt(d.bits);
    const r = vec(d, xs.map((a, i) => BigInt.asUintN(Number(w), (a * ys[i]!) >> w)).map((u) => (d.kind === 'sint' ? BigInt.asIntN(Number(w), u) : u)));
    out.push(oneOp(`chlo_mulhi_${d.name}`, `chlo.mulhi on ${d.name}: the high half of the double-width product, at the type's extremes`, 'mulhi', [x, y], [r], ([a, b]) => `chlo.mulhi ${a}, ${b} : ${typeOf(x)}, ${typeOf(y)} -> ${typeOf(r)}`));
  }
  return out;
}

/** chlo.broadcast_*: numpy's trailing alignment, a size-1 dimension and a scalar expanding. */
function broadcastPrograms(): Program[] {
  const out: Program[] = [];
  {
    const a = Tensor.of(f32, [2, 1], [1.5, -2]);
    const b = vec(f32, [10, 0.25, -3]);
    const r = binary('add', broadcastInDim(a, [2, 3], [0, 1]), broadcastInDim(b, [2, 3], [1]));
    out.push(oneOp('chlo_broadcast_add_f32', 'chlo.broadcast_add of f32[2,1] and f32[3] to f32[2,3] (trailing alignment, the size-1 dimension expands)', 'broadcast_add', [a, b], [r], ([x, y]) => `chlo.broadcast_add ${x}, ${y} : (${typeOf(a)}, ${typeOf(b)}) -> ${typeOf(r)}`));
  }
  {
    const a = Tensor.of(s32, [], [3n]);
    const b = vec(s32, [-5n, 3n, 7n, 2147483647n]);
    const r = binary('maximum', broadcastInDim(a, [4], []), b);
    out.push(oneOp('chlo_broadcast_maximum_s32', 'chlo.broadcast_maximum of a scalar s32 and s32[4]', 'broadcast_maximum', [a, b], [r], ([x, y]) => `chlo.broadcast_maximum ${x}, ${y} : (${typeOf(a)}, ${typeOf(b)}) -> ${typeOf(r)}`));
  }
  return out;
}

/** chlo.top_k: the k largest along the last dimension, descending, ties in index order, with their s32 indices. */
function topKPrograms(): Program[] {
  const x = Tensor.of(f32, [2, 6], [1, 5, -2, 5, 0.5, 3, -1, -4, 8, -1, 2.5, 7]);
  const k = 3;
  const vals: number[] = [], idx: bigint[] = [];
  for (let r = 0; r < 2; r++) {
    const row = Array.from({ length: 6 }, (_, j) => ({ v: x.get(r * 6 + j) as number, j }));
    row.sort((p, q) => q.v - p.v || p.j - q.j);
    for (const e of row.slice(0, k)) {
      vals.push(e.v);
      idx.push(BigInt(e.j));
    }
  }
  const rv = Tensor.of(f32, [2, k], vals), ri = Tensor.of(s32, [2, k], idx);
  return [oneOp('chlo_top_k_f32', 'chlo.top_k with k = 3 along the last dimension of f32[2,6]: values descending, a tie (5 at 1 and 3) in index order, and their s32 indices', 'top_k', [x], [rv, ri], ([a]) => `chlo.top_k(${a}, k = ${k}) : ${typeOf(x)} -> (${typeOf(rv)}, ${typeOf(ri)})`)];
}

/** chlo.scan (forward): the body takes (input slices…, carries…) and returns (output slices…, new carries…). */
function scanPrograms(): Program[] {
  const out: Program[] = [];
  {
    // a running f32 sum along dimension 1, each step rounded to f32
    const x = Tensor.of(f32, [2, 4], [1, 0.5, -3, 1e-3, 100, 0.25, 0.125, -50]);
    const init = vec(f32, [0.5, -1]);
    const outs = new Tensor(f32, [2, 4]);
    const carry = [...init.values()] as number[];
    for (let j = 0; j < 4; j++)
      for (let r = 0; r < 2; r++) {
        carry[r] = roundTo(f32, carry[r]! + (x.get(r * 4 + j) as number));
        outs.set(r * 4 + j, carry[r]!);
      }
    const last = vec(f32, carry);
    const name = 'chlo_scan_cumsum_f32';
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(x));
    const c = f.arg(typeOf(init));
    const v = f.fresh();
    f.raw([
      `${v}:2 = chlo.scan(${a}) inits(${c}) dimension=1 {`,
      `^bb0(%e: ${typeOf(init)}, %acc: ${typeOf(init)}):`,
      `  %s = stablehlo.add %acc, %e : ${typeOf(init)}`,
      `  stablehlo.return %s, %s : ${typeOf(init)}, ${typeOf(init)}`,
      `} : (${typeOf(x)}, ${typeOf(init)}) -> (${typeOf(outs)}, ${typeOf(last)})`,
    ].join('\n'));
    const text = moduleText(name, [f.text([{ value: `${v}#0`, type: typeOf(outs) }, { value: `${v}#1`, type: typeOf(last) }])]);
    out.push(program({ name, description: 'chlo.scan along dimension 1 of f32[2,4] with an f32[2] carry: the running sum (each step rounded to f32) and the final carry', ops: ['chlo.scan', 'add'], text, inputs: [x, init], outputs: [outs, last], catches: ['op_off_by_one=chlo.scan'] }));
  }
  {
    // two inputs, one output, two carries: the running sum of products and the running maximum of the first input
    const a = vec(s32, [3n, -1n, 4n, 1n, -5n]);
    const b = vec(s32, [2n, 7n, -1n, 8n, 2n]);
    const initSum = Tensor.of(s32, [], [10n]);
    const initMax = Tensor.of(s32, [], [-2147483648n]);
    let sum = 10n, max = -2147483648n;
    const sums: bigint[] = [];
    for (let i = 0; i < 5; i++) {
      sum = BigInt.asIntN(32, sum + (a.get(i) as bigint) * (b.get(i) as bigint));
      max = (a.get(i) as bigint) > max ? (a.get(i) as bigint) : max;
      sums.push(sum);
    }
    const outs = vec(s32, sums);
    const t = 'tensor<i32>';
    const name = 'chlo_scan_two_inputs_s32';
    const f = new FuncBuilder('main');
    const [pa, pb, ps, pm] = [a, b, initSum, initMax].map((x) => f.arg(typeOf(x)));
    const v = f.fresh();
    f.raw([
      `${v}:3 = chlo.scan(${pa}, ${pb}) inits(${ps}, ${pm}) dimension=0 {`,
      `^bb0(%x: ${t}, %y: ${t}, %sum: ${t}, %max: ${t}):`,
      `  %p = stablehlo.multiply %x, %y : ${t}`,
      `  %s = stablehlo.add %sum, %p : ${t}`,
      `  %m = stablehlo.maximum %max, %x : ${t}`,
      `  stablehlo.return %s, %s, %m : ${t}, ${t}, ${t}`,
      `} : (${typeOf(a)}, ${typeOf(b)}, ${t}, ${t}) -> (${typeOf(outs)}, ${t}, ${t})`,
    ].join('\n'));
    const text = moduleText(name, [f.text([{ value: `${v}#0`, type: typeOf(outs) }, { value: `${v}#1`, type: t }, { value: `${v}#2`, type: t }])]);
    out.push(program({ name, description: 'chlo.scan over two s32[5] inputs with two scalar carries: the running sum of products from 10 (one output) and the running maximum (a carry only)', ops: ['chlo.scan', 'multiply', 'add', 'maximum'], text, inputs: [a, b, initSum, initMax], outputs: [outs, Tensor.of(s32, [], [sum]), Tensor.of(s32, [], [max])], catches: ['op_off_by_one=chlo.scan'] }));
  }
  return out;
}

export function chloPrograms(): Program[] {
  return [...elementwisePrograms(), ...broadcastPrograms(), ...topKPrograms(), ...scanPrograms()];
}

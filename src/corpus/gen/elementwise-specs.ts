// Elementwise unary and binary ops × every applicable dtype, with edge values.
import type { DtypeRow } from '../../abi/dtypes.js';
import { binary, opKinds, unary, type Kind } from '../../oracle/elementwise.js';
import type { Tensor } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { floatConsts, FLOATS, INTS, intRange, ints, PRED, singleOp, vec, type Program } from './program.js';

const INF = Infinity;

/** Inputs per unary float op (f64 values, rounded to the dtype); chosen away from ill-conditioned points. */
function unaryFloatInputs(op: string, d: DtypeRow): number[] {
  const c = floatConsts(d);
  const specials = [0, -0, 1, -1, 2.5, -2.5, c.max, -c.max, c.sub, -c.sub, INF, -INF, NaN];
  switch (op) {
    case 'exponential': return [0, -0, 1, -1, 0.5, 2, -3.5, 7, INF, -INF, NaN];
    case 'exponential_minus_one': return [0, -0, 0.001, -0.001, 0.5, 1, -1, 5, -20, INF, -INF, NaN];
    case 'log': return [1, 2, 0.5, 10, 100, 0.001, 0, -0, -1, INF, -INF, NaN];
    case 'log_plus_one': return [0, -0, 0.001, 0.5, -0.5, 1, 10, -1, -2, INF, NaN];
    case 'sqrt': return [0, -0, 1, 2, 4, 0.25, 100, 3, -1, INF, -INF, NaN];
    case 'rsqrt': return [1, 4, 0.25, 2, 100, 3, 0, -0, -1, INF, NaN];
    case 'cbrt': return [0, -0, 1, 8, -8, 27, 2, -0.125, 100, INF, -INF, NaN];
    case 'tanh': return [0, -0, 0.5, -0.5, 1, 2, -3, 20, -20, INF, -INF, NaN];
    case 'logistic': return [0, 1, -1, 2, -2, 0.5, 5, 20, INF, -INF, NaN];
    case 'sine':
    case 'cosine': return [0, -0, 0.5, 1, -1, 2, -2, 4, 10, INF, -INF, NaN];
    case 'tan': return [0, -0, 0.5, -0.5, 1, -1, 1.25, 3, INF, -INF, NaN];
    case 'floor':
    case 'ceil':
    case 'round_nearest_even':
    case 'round_nearest_afz':
      return [0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.375, -0.375, 3.75, 1024.5, c.max, c.sub, -c.sub, INF, -INF, NaN];
    default: return specials;
  }
}

const EXACT_UNARY = new Set(['abs', 'negate', 'sign', 'floor', 'ceil', 'round_nearest_even', 'round_nearest_afz', 'is_finite', 'not', 'popcnt']);
const LOOSE = new Set(['tan', 'tanh', 'logistic', 'cbrt', 'power']);

/** ULP tolerance of a float op on XLA GPU (libdevice / approximations, f16/bf16 computed in f32). */
export function floatTolerance(op: string, d: DtypeRow): Tolerance | undefined {
  if (EXACT_UNARY.has(op) || ['add', 'subtract', 'multiply', 'maximum', 'minimum', 'remainder'].includes(op)) return undefined;
  if (op === 'sqrt' || op === 'divide') return { ulp: 1 };
  if (d.bits <= 16) return { ulp: 2 };
  return { ulp: LOOSE.has(op) ? 8 : 4 };
}

function signedInts(d: DtypeRow): bigint[] {
  const { min, max } = intRange(d);
  return [0n, 1n, -1n, 5n, -7n, 100n, min, max, min + 1n, max - 1n];
}

function unaryInputs(op: string, d: DtypeRow): Tensor {
  if (d.kind === 'float') return vec(d, unaryFloatInputs(op, d));
  if (d.kind === 'pred') return vec(d, [false, true]);
  return ints(d, [...signedInts(d), 0x5an, -0x5bn]);
}

function describe(op: string, d: DtypeRow, extra: string): string {
  return `${op} on ${d.name}${extra}`;
}

export function unaryPrograms(ops: readonly string[], dtypes: readonly DtypeRow[]): Program[] {
  const out: Program[] = [];
  for (const op of ops) {
    for (const d of [PRED, ...INTS, ...FLOATS]) {
      if (!dtypes.includes(d) || !opKinds(op).includes(d.kind as Kind)) continue;
      const x = unaryInputs(op, d);
      out.push(singleOp(`${op}_${d.name}`, op, [x], unary(op, x), describe(op, d, ': edge values (zeros, extremes, infinities, NaN)'), d.kind === 'float' ? floatTolerance(op, d) : undefined));
    }
  }
  return out;
}

/** Operand pairs per binary op, in signed form (wrapped for unsigned types). */
function intPairs(op: string, d: DtypeRow): [bigint[], bigint[]] {
  const { min, max } = intRange(d);
  const w = BigInt(d.bits);
  const signed = d.kind === 'sint';
  switch (op) {
    case 'add': return [[1n, max, min, -1n, 5n, 0n, max, min], [2n, 1n, -1n, -1n, -7n, 0n, max, min]];
    case 'subtract': return [[5n, 0n, min, max, -1n, 3n, min], [3n, 1n, 1n, -1n, max, 7n, max]];
    case 'multiply': return [[3n, -3n, max, min, min, 45n, -1n, 0n], [5n, 7n, 2n, -1n, min, 67n, -1n, max]];
    case 'divide':
    case 'remainder':
      return [[7n, -7n, 7n, -7n, 5n, min, min, 0n, max, 1n, -1n], [2n, 2n, -2n, -2n, 0n, -1n, 1n, 0n, 3n, max, 0n]];
    case 'maximum':
    case 'minimum':
      return [[1n, -1n, min, max, 0n, 5n], [2n, -2n, max, min, 0n, -5n]];
    case 'power':
      // XLA uses only the low 6 bits of the exponent: keep exponents below 64
      return signed
        ? [[2n, 3n, 0n, 2n, -1n, -1n, 1n, 2n, -2n, 3n, 5n, 0n], [3n, 0n, 0n, w - 1n, -3n, -4n, -5n, -1n, 3n, 40n, 2n, 5n]]
        : [[2n, 3n, 0n, 2n, 1n, 3n, 5n, 0n, 7n], [3n, 0n, 0n, w - 1n, 60n, 40n, 2n, 5n, w]];
    case 'and':
    case 'or':
    case 'xor':
      return [[0n, -1n, 0x5an, min, max, 0x33n, -1n], [-1n, -1n, 0x0fn, max, min, 0x55n, 0n]];
    default: // shifts: amounts ≥ width (and negative = huge unsigned) included
      return [[1n, 1n, 1n, 1n, 1n, -1n, -1n, min, 0x5an, -1n, max], [0n, 1n, w - 1n, w, w + 1n, 1n, w - 1n, 1n, 3n, -1n, w]];
  }
}

function floatPairs(op: string, d: DtypeRow): [number[], number[]] {
  const c = floatConsts(d);
  switch (op) {
    case 'add':
    case 'subtract':
    case 'multiply':
      return [[1, 0.5, -0, -0, 0, INF, INF, NaN, c.max, c.sub, c.sub, 1, 3, -2.5], [2, -0.25, -0, 0, -0, -INF, 1, 1, c.max, c.sub, -c.sub, c.eps / 2, 1.5, 4]];
    case 'divide':
      return [[1, 1, -1, 1, 0, INF, 6, -7, c.max, 1, -0, 3], [3, 0, 0, -0, 0, INF, 3, 2, 0.5, INF, 5, -4]];
    case 'remainder':
      return [[7, -7, 7, -4, 5.5, 1, INF, 1, NaN, 0, -0, 7.5], [2, 2, -2, 2, 1.5, 0, 1, INF, 1, 1, 1, -2]];
    case 'maximum':
    case 'minimum':
      return [[1, -0, 0, NaN, 1, INF, -1, c.sub, NaN, -INF], [2, 0, -0, 1, NaN, -INF, -2, 0, NaN, 3]];
    default: // power
      return [[2, 2, 4, NaN, 0, 10, 1.5, 0, 2, -2, -8, 1, 3], [3, 0.5, -0.5, 0, 0, 2, 2, 2, -1, 3, 1 / 3, NaN, 0]];
  }
}

const PRED_BINARY = new Set(['maximum', 'minimum', 'and', 'or', 'xor']);

export function binaryPrograms(ops: readonly string[], dtypes: readonly DtypeRow[]): Program[] {
  const out: Program[] = [];
  for (const op of ops) {
    for (const d of [PRED, ...INTS, ...FLOATS]) {
      if (!dtypes.includes(d) || !opKinds(op).includes(d.kind as Kind)) continue;
      // XLA stores pred as a byte and adds/multiplies it as an integer: only the logical ops are portable
      if (d.kind === 'pred' && !PRED_BINARY.has(op)) continue;
      let a: Tensor;
      let b: Tensor;
      if (d.kind === 'pred') [a, b] = [vec(d, [false, false, true, true]), vec(d, [false, true, false, true])];
      else if (d.kind === 'float') {
        const [x, y] = floatPairs(op, d);
        [a, b] = [vec(d, x), vec(d, y)];
      } else {
        const [x, y] = intPairs(op, d);
        [a, b] = [ints(d, x), ints(d, y)];
      }
      const what = d.kind === 'float' ? 'IEEE edge cases' : d.kind === 'pred' ? 'truth table' : 'wrap-around, XLA division-by-zero and shift-width rules';
      out.push(singleOp(`${op}_${d.name}`, op, [a, b], binary(op, a, b), describe(op, d, `: ${what}`), d.kind === 'float' ? floatTolerance(op, d) : undefined));
    }
  }
  return out;
}

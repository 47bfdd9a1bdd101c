// Elementwise unary and binary ops × every applicable dtype, with edge values.
import type { DtypeRow } from '../../abi/dtypes.js';
import { binary, opKinds, unary, type Kind } from '../../oracle/elementwise.js';
import type { Tensor } from '../../oracle/tensor.js';
import { boundOf } from '../../oracle/accuracy.js';
import type { Tolerance } from '../schema.js';
import { floatConsts, FLOATS, INTS, intRange, ints, PRED, singleOp, vec, type Alternative, type OpenElements, type Program } from './program.js';

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

/**
 * The tolerance of a float op: XLA's exhaustive-test bound for it (src/oracle/accuracy.ts, named in the sidecar's
 * `tolerance.source`; ours where XLA has none, and the source says so), or exact where the op has no entry. The
 * corpus' flush rules for f32/f64/bf16 apply besides, through `recompute`.
 */
function floatTolerance(op: string, d: DtypeRow): Tolerance | undefined {
  if (EXACT_UNARY.has(op)) return undefined;
  const b = boundOf(op, d);
  if (!b) return undefined;
  const tol: Tolerance = {
    ...(b.ulp ? { ulp: b.ulp } : {}),
    ...(b.rel ? { rel: b.rel } : {}),
    ...(b.abs ? { abs: b.abs } : {}),
    ...(b.strictZeros ? {} : { signedZeros: false }),
    ...(b.subnormalResultMayFlush ? { subnormalsMayFlush: true } : {}),
  };
  return { ...tol, source: b.source };
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

/**
 * The reference plugin's kernel faults the edge values here expose, per op (faults.json names): the integer inputs
 * hold a 0 for count_leading_zeros, atan2's operand pairs differ.
 */
const KERNEL_CATCHES: Readonly<Record<string, readonly string[]>> = {
  count_leading_zeros: ['clz_of_zero_wrong'],
  atan2: ['atan2_operands_swapped'],
};

export function unaryPrograms(ops: readonly string[], dtypes: readonly DtypeRow[]): Program[] {
  const out: Program[] = [];
  for (const op of ops) {
    for (const d of [PRED, ...INTS, ...FLOATS]) {
      if (!dtypes.includes(d) || !opKinds(op).includes(d.kind as Kind)) continue;
      const x = unaryInputs(op, d);
      const recompute = d.kind === 'float' ? ([y]: readonly Tensor[]) => [unary(op, y!)] : undefined;
      out.push(singleOp(`${op}_${d.name}`, op, [x], unary(op, x), describe(op, d, ': edge values (zeros, extremes, infinities, NaN)'), d.kind === 'float' ? floatTolerance(op, d) : undefined, [], { recompute, catches: KERNEL_CATCHES[op] ?? [] }));
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
    case 'atan2': // the four quadrants, the axes, signed zeros, infinities, NaN, subnormal and extreme ratios
      return [
        [1, 1, -1, -1, 0, -0, 0, -0, 1, -1, 0.5, 3, INF, -INF, INF, -INF, 2, -2, NaN, 1, c.sub, 1, c.max, 1],
        [1, -1, 1, -1, 0, 0, -0, -0, 0, -0, 2, -0.25, 1, 1, INF, -INF, INF, -INF, 1, NaN, 1, c.sub, 1, c.max],
      ];
    default: // power
      return [[2, 2, 4, NaN, 0, 10, 1.5, 0, 2, -2, -8, 1, 3], [3, 0.5, -0.5, 0, 0, 2, 2, 2, -1, 3, 1 / 3, NaN, 0]];
  }
}

// add and multiply on pred are the logical OR and AND (StableHLO spec); XLA's CPU compiler was observed to give
// false for true + true (shared/reference/xla-behaviour.md), so that answer is accepted as an alternative.
const PRED_BINARY = new Set(['add', 'multiply', 'maximum', 'minimum', 'and', 'or', 'xor']);

/**
 * Elements of an integer binary op whose value the StableHLO spec leaves implementation-defined ("Errors": integer
 * overflows and the like are implementation-defined unless called out): division and remainder by zero and
 * INT_MIN / −1, left and arithmetic right shifts by the bit width or more (or a negative amount), integer power
 * with a negative exponent of a base other than ±1. Wrap-around (add, subtract, multiply, power, negate, abs,
 * integer convert) and logical right shifts by the width stay demanded: JAX's PRNG relies on them. The values XLA gives there stay in the sidecar's data; any value is accepted.
 */
function openIntElements(op: string, a: Tensor, b: Tensor): OpenElements[] {
  const d = a.dtype;
  const { min } = intRange(d);
  const at = (pred: (x: bigint, y: bigint) => boolean) => a.values().flatMap((x, i) => (pred(x as bigint, b.get(i) as bigint) ? [i] : []));
  const wide = (y: bigint) => BigInt.asUintN(d.bits, y) >= BigInt(d.bits);
  const one = (u: OpenElements) => (u.elements.length ? [u] : []);
  switch (op) {
    case 'divide':
    case 'remainder':
      return one({
        reason: `the StableHLO spec leaves integer ${op} by zero and INT_MIN / -1 implementation-defined (spec "Errors"; XLA: x / 0 = -1, x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0)`,
        elements: at((x, y) => y === 0n || (d.kind === 'sint' && x === min && y === -1n)),
      });
    // shift_right_logical by the width stays demanded: JAX's PRNG seeds a 32-bit key with
    // shift_right_logical(seed, 32) and relies on 0 (jax/_src/random/threefry2x32.py, _threefry_seed)
    case 'shift_left':
    case 'shift_right_arithmetic':
      return one({ reason: 'the StableHLO spec does not define shifts by the bit width or more, or by a negative amount (XLA: 0 for shift_left, the sign fill for shift_right_arithmetic)', elements: at((_x, y) => wide(y)) });
    case 'power':
      return one({
        reason: 'integer power with a negative exponent has no integer result for a base other than ±1; the StableHLO spec leaves it implementation-defined (XLA: 0)',
        elements: at((x, y) => d.kind === 'sint' && y < 0n && x !== 1n && x !== -1n),
      });
    default:
      return [];
  }
}

/** Answers the StableHLO spec leaves open or XLA's compiler gives, for `op` on (a, b) (see docs/corpus.md). */
function binaryAlternatives(op: string, a: Tensor, b: Tensor): Alternative[] {
  const d = a.dtype;
  if (op === 'add' && d.kind === 'pred') {
    return [{ reason: "XLA's CPU compiler was observed to add i1 as an integer byte, giving false for true + true (the spec's add on i1 is logical OR)", outputs: [binary('xor', a, b)] }];
  }
  if (op === 'power' && (d.kind === 'sint' || d.kind === 'uint') && d.bits === 64) {
    // XLA's integer power loops over the exponent's low 6 bits: an exponent of 64 acts as 0
    const low = vec(d, b.values().map((e) => ((e as bigint) >= 64n ? BigInt.asUintN(6, e as bigint) : e)));
    return [{ reason: "XLA's compiler reads only the low 6 bits of a 64-bit exponent (u64 power with exponent 64 gives 1; the spec's integer power wraps)", outputs: [binary('power', a, low)] }];
  }
  return [];
}

export function binaryPrograms(ops: readonly string[], dtypes: readonly DtypeRow[]): Program[] {
  const out: Program[] = [];
  for (const op of ops) {
    for (const d of [PRED, ...INTS, ...FLOATS]) {
      if (!dtypes.includes(d) || !opKinds(op).includes(d.kind as Kind)) continue;
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
      const what = d.kind === 'float' ? 'IEEE edge cases' : d.kind === 'pred' ? 'truth table' : 'integer edge cases (wrap-around; implementation-defined elements open)';
      const recompute = d.kind === 'float' ? ([x, y]: readonly Tensor[]) => [binary(op, x!, y!)] : undefined;
      const alternatives = binaryAlternatives(op, a, b);
      const open = d.kind === 'sint' || d.kind === 'uint' ? openIntElements(op, a, b) : [];
      out.push(singleOp(`${op}_${d.name}`, op, [a, b], binary(op, a, b), describe(op, d, `: ${what}`), d.kind === 'float' ? floatTolerance(op, d) : undefined, [], { recompute, catches: KERNEL_CATCHES[op] ?? [], ...(alternatives.length ? { alternatives } : {}), ...(open.length ? { open: [open] } : {}) }));
    }
  }
  return out;
}

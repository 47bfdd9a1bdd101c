// Elementwise unary and binary ops. Integers compute in BigInt and wrap to the element width; floats
// compute in f64 and round once to the element type (XLA's upcast–compute–round per op).
import { dtype as dtypeByName, type DtypeRow } from '../abi/dtypes.js';
import { roundTo } from './floats.js';
import { Tensor, type Scalar } from './tensor.js';

export type Kind = 'pred' | 'sint' | 'uint' | 'float';

function wrap(d: DtypeRow, v: bigint): bigint {
  return d.kind === 'sint' ? BigInt.asIntN(d.bits, v) : BigInt.asUintN(d.bits, v);
}

function sameShape(a: Tensor, b: Tensor, op: string): void {
  if (a.dtype !== b.dtype || a.dims.join(',') !== b.dims.join(',')) {
    throw new Error(`${op}: operand types differ (${a.dtype.name}[${a.dims}] vs ${b.dtype.name}[${b.dims}])`);
  }
}

function map1(t: Tensor, out: DtypeRow, f: (v: Scalar) => Scalar): Tensor {
  const r = new Tensor(out, t.dims);
  for (let i = 0; i < t.size; i++) r.set(i, f(t.get(i)));
  return r;
}

function map2(a: Tensor, b: Tensor, out: DtypeRow, f: (x: Scalar, y: Scalar) => Scalar): Tensor {
  const r = new Tensor(out, a.dims);
  for (let i = 0; i < a.size; i++) r.set(i, f(a.get(i), b.get(i)));
  return r;
}

// ---- float helpers ----
function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const fl = Math.floor(x);
  const d = x - fl;
  const r = d > 0.5 || (d === 0.5 && fl % 2 !== 0) ? fl + 1 : fl;
  return r === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : r;
}

function roundAfz(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

function fsign(x: number): number {
  if (Number.isNaN(x) || x === 0) return x;
  return x > 0 ? 1 : -1;
}

/** IEEE 754-2019 maximum/minimum: NaN propagates, −0 < +0. */
export function fmax(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0 && y === 0) return Object.is(x, -0) ? y : x;
  return x > y ? x : y;
}

export function fmin(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0 && y === 0) return Object.is(x, -0) ? x : y;
  return x < y ? x : y;
}

/** C pow: pow(1, y) = 1 and pow(-1, ±inf) = 1, unlike Math.pow. */
function cpow(x: number, y: number): number {
  if (x === 1) return 1;
  if (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) return 1;
  return Math.pow(x, y);
}

// ---- integer helpers ----
function popcount(v: bigint, bits: number): bigint {
  let u = BigInt.asUintN(bits, v);
  let n = 0n;
  while (u !== 0n) {
    n += u & 1n;
    u >>= 1n;
  }
  return n;
}

/** Leading zero bits of `v` read as a `bits`-wide word (the width itself for 0). */
function clz(v: bigint, bits: number): bigint {
  const u = BigInt.asUintN(bits, v);
  return BigInt(bits - (u === 0n ? 0 : u.toString(2).length));
}

function ipow(d: DtypeRow, base: bigint, exp: bigint): bigint {
  if (exp < 0n) {
    if (base === 1n) return 1n;
    if (base === -1n) return exp % 2n === 0n ? 1n : wrap(d, -1n);
    return 0n;
  }
  let r = 1n;
  let b = base;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) r = wrap(d, r * b);
    b = wrap(d, b * b);
    e >>= 1n;
  }
  return r;
}

function imin(d: DtypeRow): bigint {
  return d.kind === 'sint' ? -(1n << BigInt(d.bits - 1)) : 0n;
}

// ---- op tables ----
interface UnaryDef {
  float?: (x: number) => number;
  int?: (x: bigint, d: DtypeRow) => bigint;
  pred?: (x: boolean) => boolean;
  /** result dtype if not the operand's */
  result?: string;
  kinds: readonly Kind[];
}

const INT: readonly Kind[] = ['sint', 'uint'];
const FLOAT: readonly Kind[] = ['float'];

export const UNARY: Record<string, UnaryDef> = {
  abs: { kinds: ['sint', 'float'], float: Math.abs, int: (x) => (x < 0n ? -x : x) },
  negate: { kinds: ['sint', 'uint', 'float'], float: (x) => -x, int: (x) => -x },
  sign: { kinds: ['sint', 'float'], float: fsign, int: (x) => (x > 0n ? 1n : x < 0n ? -1n : 0n) },
  exponential: { kinds: FLOAT, float: Math.exp },
  exponential_minus_one: { kinds: FLOAT, float: Math.expm1 },
  log: { kinds: FLOAT, float: Math.log },
  log_plus_one: { kinds: FLOAT, float: Math.log1p },
  sqrt: { kinds: FLOAT, float: Math.sqrt },
  rsqrt: { kinds: FLOAT, float: (x) => 1 / Math.sqrt(x) },
  cbrt: { kinds: FLOAT, float: Math.cbrt },
  tanh: { kinds: FLOAT, float: Math.tanh },
  logistic: { kinds: FLOAT, float: (x) => 1 / (1 + Math.exp(-x)) },
  sine: { kinds: FLOAT, float: Math.sin },
  cosine: { kinds: FLOAT, float: Math.cos },
  tan: { kinds: FLOAT, float: Math.tan },
  floor: { kinds: FLOAT, float: Math.floor },
  ceil: { kinds: FLOAT, float: Math.ceil },
  round_nearest_even: { kinds: FLOAT, float: roundHalfEven },
  round_nearest_afz: { kinds: FLOAT, float: roundAfz },
  is_finite: { kinds: FLOAT, float: (x) => (Number.isFinite(x) ? 1 : 0), result: 'pred' },
  not: { kinds: ['pred', ...INT], int: (x) => ~x, pred: (x) => !x },
  popcnt: { kinds: INT, int: (x, d) => popcount(x, d.bits) },
  count_leading_zeros: { kinds: INT, int: (x, d) => clz(x, d.bits) },
};

interface BinaryDef {
  float?: (x: number, y: number) => number;
  int?: (x: bigint, y: bigint, d: DtypeRow) => bigint;
  pred?: (x: boolean, y: boolean) => boolean;
  kinds: readonly Kind[];
}

function shiftAmount(y: bigint, d: DtypeRow): bigint | null {
  const u = BigInt.asUintN(d.bits, y);
  return u >= BigInt(d.bits) ? null : u;
}

export const BINARY: Record<string, BinaryDef> = {
  add: { kinds: ['pred', ...INT, 'float'], float: (x, y) => x + y, int: (x, y) => x + y, pred: (x, y) => x || y },
  subtract: { kinds: [...INT, 'float'], float: (x, y) => x - y, int: (x, y) => x - y },
  multiply: { kinds: ['pred', ...INT, 'float'], float: (x, y) => x * y, int: (x, y) => x * y, pred: (x, y) => x && y },
  divide: {
    kinds: [...INT, 'float'],
    float: (x, y) => x / y,
    // XLA: x/0 = -1 (all bits set), INT_MIN/-1 = INT_MIN; BigInt division truncates toward zero.
    int: (x, y, d) => (y === 0n ? -1n : d.kind === 'sint' && x === imin(d) && y === -1n ? x : x / y),
  },
  remainder: {
    kinds: [...INT, 'float'],
    float: (x, y) => x % y,
    // XLA: x%0 = x, INT_MIN%-1 = 0; BigInt % takes the dividend's sign like C.
    int: (x, y, d) => (y === 0n ? x : d.kind === 'sint' && x === imin(d) && y === -1n ? 0n : x % y),
  },
  maximum: { kinds: ['pred', ...INT, 'float'], float: fmax, int: (x, y) => (x > y ? x : y), pred: (x, y) => x || y },
  minimum: { kinds: ['pred', ...INT, 'float'], float: fmin, int: (x, y) => (x < y ? x : y), pred: (x, y) => x && y },
  power: { kinds: [...INT, 'float'], float: cpow, int: (x, y, d) => ipow(d, x, y) },
  atan2: { kinds: FLOAT, float: Math.atan2 },
  and: { kinds: ['pred', ...INT], int: (x, y) => x & y, pred: (x, y) => x && y },
  or: { kinds: ['pred', ...INT], int: (x, y) => x | y, pred: (x, y) => x || y },
  xor: { kinds: ['pred', ...INT], int: (x, y) => x ^ y, pred: (x, y) => x !== y },
  shift_left: {
    kinds: INT,
    int: (x, y, d) => {
      const s = shiftAmount(y, d);
      return s === null ? 0n : x << s;
    },
  },
  shift_right_logical: {
    kinds: INT,
    int: (x, y, d) => {
      const s = shiftAmount(y, d);
      return s === null ? 0n : BigInt.asUintN(d.bits, x) >> s;
    },
  },
  shift_right_arithmetic: {
    kinds: INT,
    int: (x, y, d) => {
      const s = shiftAmount(y, d);
      const sx = BigInt.asIntN(d.bits, x);
      return s === null ? (sx < 0n ? -1n : 0n) : sx >> s;
    },
  },
};

export function unary(op: string, t: Tensor): Tensor {
  const def = UNARY[op];
  if (!def) throw new Error(`unknown unary op ${op}`);
  const d = t.dtype;
  if (!def.kinds.includes(d.kind as Kind)) throw new Error(`${op} is not defined for ${d.name}`);
  const out = def.result ? dtypeByName(def.result) : d;
  return map1(t, out, (v) => {
    if (typeof v === 'boolean') return def.pred!(v);
    if (typeof v === 'bigint') return wrap(d, def.int!(v, d));
    const r = def.float!(v as number);
    return out.kind === 'pred' ? r !== 0 : roundTo(d, r);
  });
}

export function binary(op: string, a: Tensor, b: Tensor): Tensor {
  const def = BINARY[op];
  if (!def) throw new Error(`unknown binary op ${op}`);
  sameShape(a, b, op);
  const d = a.dtype;
  if (!def.kinds.includes(d.kind as Kind)) throw new Error(`${op} is not defined for ${d.name}`);
  return map2(a, b, d, (x, y) => {
    if (typeof x === 'boolean') return def.pred!(x, y as boolean);
    if (typeof x === 'bigint') return wrap(d, def.int!(x, y as bigint, d));
    return roundTo(d, def.float!(x as number, y as number));
  });
}

export function opKinds(op: string): readonly Kind[] {
  const def = UNARY[op] ?? BINARY[op];
  if (!def) throw new Error(`unknown elementwise op ${op}`);
  return def.kinds;
}

/** One element of a binary op (used by reductions and collectives). */
export function binaryScalar(op: string, d: DtypeRow, x: Scalar, y: Scalar): Scalar {
  const def = BINARY[op];
  if (!def) throw new Error(`unknown binary op ${op}`);
  if (typeof x === 'boolean') return def.pred!(x, y as boolean);
  if (typeof x === 'bigint') return wrap(d, def.int!(x, y as bigint, d));
  return roundTo(d, def.float!(x as number, y as number));
}

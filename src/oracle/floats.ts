// Bit-exact float formats for the oracle: rounding a real (f64) value to a narrower format with round-to-nearest-
// even, and converting between values and bit patterns. Formats are declared data (FLOAT_FORMATS in the dtype
// table): bias, NaN encoding, largest finite value and what overflow gives, so f8E4M3FN, the fnuz types,
// f8E8M0FNU and the MX types f4/f6 follow their own rules rather than IEEE's.
import { floatFormat, type DtypeRow, type FloatFormat } from '../abi/dtypes.js';

function fmt(row: DtypeRow): FloatFormat {
  if (row.kind !== 'float') throw new Error(`dtype ${row.name} is not a float`);
  return floatFormat(row);
}

const bits64 = new DataView(new ArrayBuffer(8));

/** floor(log2(a)) for finite a > 0, exact: a normal f64's biased exponent field (the exhaustive area's hot path). */
function ilog2(a: number): number {
  bits64.setFloat64(0, a);
  const biased = bits64.getUint16(0) >> 4; // sign bit 0 for a > 0
  if (biased !== 0) return biased - 1023;
  // an f64 subnormal (Math.log2 may be off by one near powers of two)
  let k = Math.floor(Math.log2(a));
  while (2 ** k > a) k--;
  while (2 ** (k + 1) <= a) k++;
  return k;
}

function roundHalfEven(q: number): number {
  const fl = Math.floor(q);
  const d = q - fl;
  if (d > 0.5 || (d === 0.5 && fl % 2 !== 0)) return fl + 1;
  return fl;
}

/** Whether the format has a sign bit (every one but f8E8M0FNU). */
const signed = (f: FloatFormat): boolean => f.nan !== 'e8m0';
/** Width of the format's bit patterns. */
const width = (f: FloatFormat): number => (signed(f) ? 1 : 0) + f.exponentBits + f.mantissaBits;

/**
 * f8E8M0FNU: powers of two only. ml_dtypes and XLA round up from 1.5·2^k (not to nearest even), and anything
 * strictly between 2^-127 and 2^-126 (f32 subnormals) up to 2^-126; they clamp below the smallest power (there is
 * no zero), and give NaN for anything not positive and finite or rounding past 2^127.
 */
function roundExponentOnly(f: FloatFormat, x: number): number {
  if (!(x > 0) || x === Infinity) return NaN;
  let k = ilog2(x);
  if (x / 2 ** k >= 1.5 || (k === -f.bias && x > 2 ** k)) k++;
  k = Math.max(k, -f.bias);
  return 2 ** k > f.maxFinite ? NaN : 2 ** k;
}

/** Round an f64 value to the format of `row` (RNE; overflow per the format: ±inf, NaN or ±max; gradual underflow). */
export function roundTo(row: DtypeRow, x: number): number {
  if (row.bits === 64) return x;
  if (row.bits === 32) return Math.fround(x);
  const f = fmt(row);
  if (f.nan === 'e8m0') return roundExponentOnly(f, x);
  if (Number.isNaN(x)) return f.nan === 'none' ? -0 : NaN;
  const zero = (neg: boolean) => (neg && f.nan !== 'fnuz' ? -0 : 0);
  const overflow = (neg: boolean) => {
    const v = f.overflow === 'inf' ? Infinity : f.overflow === 'nan' ? NaN : f.maxFinite;
    return neg ? -v : v;
  };
  if (!Number.isFinite(x)) return overflow(x < 0);
  if (x === 0) return zero(Object.is(x, -0));
  const a = Math.abs(x);
  const emin = 1 - f.bias;
  const exp = Math.max(ilog2(a), emin);
  const quantum = 2 ** (exp - f.mantissaBits);
  const r = roundHalfEven(a / quantum) * quantum;
  if (r > f.maxFinite) return overflow(x < 0);
  if (r === 0) return zero(x < 0);
  return x < 0 ? -r : r;
}

/** Round an exact integer to the float format of `row` with a single RNE rounding. */
export function roundIntTo(row: DtypeRow, v: bigint): number {
  if (v >= -(2n ** 53n) && v <= 2n ** 53n) return roundTo(row, Number(v));
  const a = v < 0n ? -v : v;
  const len = a.toString(2).length;
  const keep = BigInt(fmt(row).mantissaBits + 1);
  let r = a;
  if (BigInt(len) > keep) {
    const drop = BigInt(len) - keep;
    const q = a >> drop;
    const rem = a - (q << drop);
    const half = 1n << (drop - 1n);
    const up = rem > half || (rem === half && (q & 1n) === 1n);
    r = (up ? q + 1n : q) << drop;
  }
  const n = roundTo(row, Number(r)); // r has ≤ m+2 significant bits: exact in f64
  return v < 0n ? -n : n;
}

/** Bit pattern of `x` (already representable in the format) as an unsigned bigint. NaN gives the format's NaN. */
export function floatToBits(row: DtypeRow, x: number): bigint {
  if (row.bits === 64) {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, x, true);
    return dv.getBigUint64(0, true);
  }
  if (row.bits === 32) {
    const dv = new DataView(new ArrayBuffer(4));
    dv.setFloat32(0, x, true);
    return BigInt(dv.getUint32(0, true));
  }
  const f = fmt(row);
  const m = f.mantissaBits;
  if (Number.isNaN(x)) return BigInt(f.nanBits);
  const r = roundTo(row, x);
  if (Number.isNaN(r)) return BigInt(f.nanBits);
  if (f.nan === 'e8m0') return BigInt(ilog2(r) + f.bias);
  const signBit = 2 ** (f.exponentBits + m);
  const sign = r < 0 || Object.is(r, -0) ? signBit : 0;
  const a = Math.abs(r);
  if (a === Infinity) return BigInt(sign + (2 ** f.exponentBits - 1) * 2 ** m);
  if (a === 0) return BigInt(sign);
  const emin = 1 - f.bias;
  const k = ilog2(a);
  if (k < emin) return BigInt(sign + a / 2 ** (emin - m));
  const mant = (a / 2 ** k - 1) * 2 ** m;
  return BigInt(sign + (k + f.bias) * 2 ** m + mant);
}

/** Value of a bit pattern (NaN payloads collapse to NaN). */
export function bitsToFloat(row: DtypeRow, bits: bigint): number {
  if (row.bits === 64) {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setBigUint64(0, BigInt.asUintN(64, bits), true);
    return dv.getFloat64(0, true);
  }
  if (row.bits === 32) {
    const dv = new DataView(new ArrayBuffer(4));
    dv.setUint32(0, Number(BigInt.asUintN(32, bits)), true);
    return dv.getFloat32(0, true);
  }
  const f = fmt(row);
  return smallFloatValues(row.name, f)[Number(BigInt.asUintN(width(f), bits))]!;
}

/** Every value of a format of 16 bits or fewer, by bit pattern (−0 and NaN kept): decoded once per format, since the
 * exhaustive area judges up to 65,536 results per case. */
const smallValues = new Map<string, Float64Array>();

function smallFloatValues(name: string, f: ReturnType<typeof fmt>): Float64Array {
  let t = smallValues.get(name);
  if (!t) {
    t = new Float64Array(2 ** width(f));
    for (let b = 0; b < t.length; b++) t[b] = decodeSmall(f, b);
    smallValues.set(name, t);
  }
  return t;
}

function decodeSmall(f: ReturnType<typeof fmt>, b: number): number {
  const m = f.mantissaBits;
  if (f.nan === 'e8m0') return b === f.nanBits ? NaN : 2 ** (b - f.bias);
  const magBits = f.exponentBits + m;
  const neg = b >= 2 ** magBits;
  const expField = Math.floor(b / 2 ** m) % 2 ** f.exponentBits;
  const mant = b % 2 ** m;
  const expAll = 2 ** f.exponentBits - 1;
  if (f.nan === 'ieee' && expField === expAll) return mant === 0 ? (neg ? -Infinity : Infinity) : NaN;
  if (f.nan === 'fn' && expField === expAll && mant === 2 ** m - 1) return NaN;
  if (f.nan === 'fnuz' && b === 2 ** magBits) return NaN;
  const a = expField === 0 ? mant * 2 ** (1 - f.bias - m) : (1 + mant / 2 ** m) * 2 ** (expField - f.bias);
  return neg ? -a : a;
}

/** Canonical quiet NaN bit pattern of the format (for formats without NaN: what a NaN converts to). */
export function canonicalNanBits(row: DtypeRow): bigint {
  return floatToBits(row, NaN);
}

/** Whether the format has a sign bit (f8e8m0fnu has none: its ULP distances are those of its bits). */
export function hasSign(row: DtypeRow): boolean {
  return signed(fmt(row));
}

/** Whether the format has a NaN at all (f4E2M1FN and the f6 types do not). */
export function hasNan(row: DtypeRow): boolean {
  return fmt(row).nan !== 'none';
}

/** Ordered integer image of a float's bits (−0 and +0 both map to 0); used for ULP distances. */
export function orderedBits(row: DtypeRow, bits: bigint): bigint {
  const f = row.kind === 'float' ? fmt(row) : undefined;
  if (f && !signed(f)) return bits;
  const w = BigInt(f ? width(f) : row.bits);
  const signMask = 1n << (w - 1n);
  return (bits & signMask) !== 0n ? -(bits & (signMask - 1n)) : bits;
}

export function largestFinite(row: DtypeRow): number {
  return fmt(row).maxFinite;
}

export function smallestSubnormal(row: DtypeRow): number {
  const f = fmt(row);
  return f.nan === 'e8m0' ? 2 ** -f.bias : 2 ** (1 - f.bias - f.mantissaBits);
}

export function smallestNormal(row: DtypeRow): number {
  const f = fmt(row);
  return f.nan === 'e8m0' ? 2 ** -f.bias : 2 ** (1 - f.bias);
}

export function epsilon(row: DtypeRow): number {
  return 2 ** -fmt(row).mantissaBits;
}

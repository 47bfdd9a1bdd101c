// Bit-exact float formats for the oracle: rounding a real (f64) value to a narrower IEEE-like format with
// round-to-nearest-even, and converting between values and bit patterns. Formats come from the dtype table.
import type { DtypeRow } from '../abi/dtypes.js';

interface Fmt { e: number; m: number }

function fmt(row: DtypeRow): Fmt {
  if (row.kind !== 'float' || row.exponentBits === undefined || row.mantissaBits === undefined) {
    throw new Error(`dtype ${row.name} is not an IEEE float`);
  }
  return { e: row.exponentBits, m: row.mantissaBits };
}

function bias(f: Fmt): number {
  return 2 ** (f.e - 1) - 1;
}

/** floor(log2(a)) for finite a > 0, exact (Math.log2 may be off by one near powers of two). */
function ilog2(a: number): number {
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

/** Round an f64 value to the format of `row` (RNE, overflow to ±inf, gradual underflow). */
export function roundTo(row: DtypeRow, x: number): number {
  if (row.bits === 64) return x;
  if (row.bits === 32) return Math.fround(x);
  const f = fmt(row);
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  const emin = 1 - bias(f);
  const exp = Math.max(ilog2(a), emin);
  const quantum = 2 ** (exp - f.m);
  const r = roundHalfEven(a / quantum) * quantum;
  const maxFinite = (2 - 2 ** -f.m) * 2 ** bias(f);
  const v = r > maxFinite ? Infinity : r;
  return x < 0 ? -v : v;
}

/** Round an exact integer to the float format of `row` with a single RNE rounding. */
export function roundIntTo(row: DtypeRow, v: bigint): number {
  const a = v < 0n ? -v : v;
  const len = a.toString(2).length;
  const keep = BigInt((fmt(row).m + 1));
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

/** Bit pattern of `x` (already representable in the format) as an unsigned bigint. */
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
  const signBit = 2 ** (f.e + f.m);
  const expAll = 2 ** f.e - 1;
  const sign = x < 0 || Object.is(x, -0) ? signBit : 0;
  if (Number.isNaN(x)) return BigInt(expAll * 2 ** f.m + 2 ** (f.m - 1));
  const a = Math.abs(roundTo(row, x));
  if (a === Infinity) return BigInt(sign + expAll * 2 ** f.m);
  if (a === 0) return BigInt(sign);
  const emin = 1 - bias(f);
  const k = ilog2(a);
  if (k < emin) return BigInt(sign + a / 2 ** (emin - f.m));
  const mant = (a / 2 ** k - 1) * 2 ** f.m;
  return BigInt(sign + (k + bias(f)) * 2 ** f.m + mant);
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
  const b = Number(BigInt.asUintN(1 + f.e + f.m, bits));
  const sign = b >= 2 ** (f.e + f.m) ? -1 : 1;
  const expField = Math.floor(b / 2 ** f.m) % 2 ** f.e;
  const mant = b % 2 ** f.m;
  const expAll = 2 ** f.e - 1;
  if (expField === expAll) return mant === 0 ? sign * Infinity : NaN;
  if (expField === 0) return sign * mant * 2 ** (1 - bias(f) - f.m);
  return sign * (1 + mant / 2 ** f.m) * 2 ** (expField - bias(f));
}

/** Canonical quiet NaN bit pattern of the format (positive, top mantissa bit set). */
export function canonicalNanBits(row: DtypeRow): bigint {
  return floatToBits(row, NaN);
}

/** Ordered integer image of a float's bits (−0 and +0 both map to 0); used for ULP distances. */
export function orderedBits(row: DtypeRow, bits: bigint): bigint {
  const w = BigInt(row.bits);
  const signMask = 1n << (w - 1n);
  return (bits & signMask) !== 0n ? -(bits & (signMask - 1n)) : bits;
}

export function largestFinite(row: DtypeRow): number {
  const f = fmt(row);
  return (2 - 2 ** -f.m) * 2 ** bias(f);
}

export function smallestSubnormal(row: DtypeRow): number {
  const f = fmt(row);
  return 2 ** (1 - bias(f) - f.m);
}

export function smallestNormal(row: DtypeRow): number {
  return 2 ** (1 - bias(fmt(row)));
}

export function epsilon(row: DtypeRow): number {
  return 2 ** -fmt(row).m;
}

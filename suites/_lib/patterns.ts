// Deterministic host data for a dtype and shape: edge values first (NaN with payload, ±inf, -0, subnormals,
// extremes), then pseudo-random bit patterns. Bit-exact round trips must preserve all of them.
import { DTYPES, denseByteSize, dtype, hostByteSize, hostElementBytes, type DtypeRow } from '../../src/abi/dtypes.js';

export { DTYPES, dtype, denseByteSize, hostElementBytes, type DtypeRow };

export function elementCount(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

/** The packed size of the data (bits × elements, rounded up to bytes): a lower bound of any device storage. */
export function byteSize(d: DtypeRow, dims: readonly number[]): number {
  return denseByteSize(d, elementCount(dims));
}

/** Bytes of the default dense host layout (one byte per sub-byte element): what host arrays and dst hold. */
export function hostSize(d: DtypeRow, dims: readonly number[]): number {
  return hostByteSize(d, elementCount(dims));
}

/** Edge bit patterns per float format, as (sign, exponent, mantissa) recipes independent of the width. */
function floatEdges(d: DtypeRow): bigint[] {
  const e = BigInt(d.exponentBits ?? 0);
  const m = BigInt(d.mantissaBits ?? 0);
  const expMax = (1n << e) - 1n;
  const sign = 1n << (e + m);
  const enc = (s: bigint, ex: bigint, man: bigint) => s | (ex << m) | man;
  const out = [
    enc(0n, 0n, 0n), // +0
    enc(sign, 0n, 0n), // -0
    enc(0n, expMax, 0n), // +inf (or NaN/max for fn/fnuz formats — still a valid bit pattern)
    enc(sign, expMax, 0n), // -inf
    enc(0n, 1n, 0n), // smallest normal
    enc(0n, expMax - 1n, (1n << m) - 1n), // largest finite
  ];
  if (m > 0n) {
    out.push(enc(0n, expMax, 1n << (m - 1n))); // quiet NaN
    out.push(enc(sign, expMax, 1n)); // NaN with a payload
    out.push(enc(0n, 0n, 1n)); // smallest subnormal
    out.push(enc(sign, 0n, (1n << m) - 1n)); // largest negative subnormal
  }
  return out;
}

function intEdges(d: DtypeRow): bigint[] {
  const bits = BigInt(d.bits);
  const all = (1n << bits) - 1n;
  if (d.kind === 'uint') return [0n, 1n, all, all >> 1n, (all >> 1n) + 1n];
  // two's complement bit patterns: 0, 1, -1, min, max
  return [0n, 1n, all, 1n << (bits - 1n), (1n << (bits - 1n)) - 1n];
}

function edgeBits(d: DtypeRow): bigint[] {
  if (d.kind === 'pred') return [0n, 1n];
  if (d.kind === 'float') return floatEdges(d);
  if (d.kind === 'complex') {
    const half = dtype(d.bits === 64 ? 'f32' : 'f64');
    const h = BigInt(half.bits);
    const f = floatEdges(half);
    return f.map((re, i) => re | (f[(i + 3) % f.length]! << h));
  }
  return intEdges(d);
}

/**
 * xorshift64* (stable across Node versions; Math.random is not seedable), its 64-bit state and output held as two
 * uint32 halves: plain Number arithmetic instead of BigInt, about thirty times faster and the same bits.
 */
class Xorshift64Star {
  private hi: number;
  private lo: number;
  /** The last output's halves. */
  outHi = 0;
  outLo = 0;
  constructor(seed: bigint) {
    const x = seed || 0x9e3779b97f4a7c15n;
    this.hi = Number((x >> 32n) & 0xffffffffn);
    this.lo = Number(x & 0xffffffffn);
  }
  next(): void {
    let { hi, lo } = this;
    // x ^= x >> 12; x ^= x << 25; x ^= x >> 27 (mod 2^64)
    lo = (lo ^ ((lo >>> 12) | (hi << 20))) >>> 0;
    hi = (hi ^ (hi >>> 12)) >>> 0;
    hi = (hi ^ ((hi << 25) | (lo >>> 7))) >>> 0;
    lo = (lo ^ (lo << 25)) >>> 0;
    lo = (lo ^ ((lo >>> 27) | (hi << 5))) >>> 0;
    hi = (hi ^ (hi >>> 27)) >>> 0;
    this.hi = hi;
    this.lo = lo;
    // x * 0x2545f4914f6cdd1d (mod 2^64): lo × M_LO in 16-bit limbs (exact in doubles), the cross terms mod 2^32.
    const a0 = lo & 0xffff, a1 = lo >>> 16;
    const p00 = a0 * M_LO0, p01 = a0 * M_LO1, p10 = a1 * M_LO0, p11 = a1 * M_LO1;
    const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    this.outLo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
    this.outHi = (p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(hi, M_LO) + Math.imul(lo, M_HI)) >>> 0;
  }
}
const M_HI = 0x2545f491;
const M_LO = 0x4f6cdd1d;
const M_LO0 = M_LO & 0xffff;
const M_LO1 = M_LO >>> 16;

function seedOf(d: DtypeRow, dims: readonly number[]): bigint {
  let h = 1469598103934665603n;
  for (const c of `${d.name}:${dims.join('x')}`) h = ((h ^ BigInt(c.charCodeAt(0))) * 1099511628211n) & ((1n << 64n) - 1n);
  return h;
}

/** Writes the low `n` bytes (n ≤ 8) of the generator's last output at `at`, little-endian. */
function putLow(out: Uint8Array, at: number, g: Xorshift64Star, n: number): void {
  for (let b = 0; b < n; b++) out[at + b] = b < 4 ? (g.outLo >>> (8 * b)) & 0xff : (g.outHi >>> (8 * (b - 4))) & 0xff;
}

/**
 * Dense row-major host bytes (little-endian). Sub-byte elements are one per byte, the value in the low bits and
 * the high bits zero — the default host layout of XLA's clients (ml_dtypes arrays; `[1,-2,7,-8]` as s4 is
 * `01 0e 07 08`).
 */
export function pattern(d: DtypeRow, dims: readonly number[], opts: { edges?: boolean } = {}): Uint8Array {
  const out = rawPattern(d, dims, opts);
  // A non-zero last byte, so that a transfer which drops it shows (bit 0 is always inside the last element).
  if (out.length > 0 && out[out.length - 1] === 0) out[out.length - 1] = 1;
  return out;
}

function rawPattern(d: DtypeRow, dims: readonly number[], opts: { edges?: boolean }): Uint8Array {
  const n = elementCount(dims);
  const out = new Uint8Array(hostByteSize(d, n));
  const edges = opts.edges === false ? [] : edgeBits(d);
  const g = new Xorshift64Star(seedOf(d, dims));
  const bytes = d.bits < 8 ? 1 : d.bits / 8;
  const width = BigInt(d.bits);
  // The edge values first, then one draw per element (two for a 128-bit element), masked to the element's width.
  const head = Math.min(n, edges.length);
  for (let i = 0; i < head; i++) {
    let v = edges[i]! & ((1n << width) - 1n);
    for (let b = 0; b < bytes; b++, v >>= 8n) out[i * bytes + b] = Number(v & 0xffn);
  }
  for (let i = head; i < n; i++) {
    g.next();
    if (d.kind === 'pred') out[i] = g.outLo & 1;
    else if (d.bits < 8) out[i] = g.outLo & ((1 << d.bits) - 1);
    else if (bytes <= 8) putLow(out, i * bytes, g, bytes);
    else {
      putLow(out, i * bytes, g, 8);
      g.next();
      putLow(out, i * bytes + 8, g, bytes - 8);
    }
  }
  return out;
}

/** Typed values for programs and expected results (little-endian host assumed, as on every PJRT platform). */
export const f32 = (xs: readonly number[]): Uint8Array => new Uint8Array(Float32Array.from(xs).buffer);
export const s32 = (xs: readonly number[]): Uint8Array => new Uint8Array(Int32Array.from(xs).buffer);
export const readF32 = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer));
export const readS32 = (b: Uint8Array): number[] => Array.from(new Int32Array(b.slice().buffer));

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

/** xorshift64*: stable across Node versions (Math.random is not seedable). */
function rng(seed: bigint): () => bigint {
  let x = seed || 0x9e3779b97f4a7c15n;
  const mask = (1n << 64n) - 1n;
  return () => {
    x ^= x >> 12n;
    x ^= (x << 25n) & mask;
    x ^= x >> 27n;
    return (x * 0x2545f4914f6cdd1dn) & mask;
  };
}

function seedOf(d: DtypeRow, dims: readonly number[]): bigint {
  let h = 1469598103934665603n;
  for (const c of `${d.name}:${dims.join('x')}`) h = ((h ^ BigInt(c.charCodeAt(0))) * 1099511628211n) & ((1n << 64n) - 1n);
  return h;
}

/** Element i's raw bits. */
function elementBits(d: DtypeRow, edges: bigint[], next: () => bigint, i: number): bigint {
  const width = BigInt(d.bits);
  if (i < edges.length) return edges[i]! & ((1n << width) - 1n);
  if (d.kind === 'pred') return next() & 1n;
  let v = next();
  if (width > 64n) v |= next() << 64n;
  return v & ((1n << width) - 1n);
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
  const next = rng(seedOf(d, dims));
  if (d.bits < 8) {
    for (let i = 0; i < n; i++) out[i] = Number(elementBits(d, edges, next, i)) & ((1 << d.bits) - 1);
    return out;
  }
  const bytes = d.bits / 8;
  for (let i = 0; i < n; i++) {
    let v = elementBits(d, edges, next, i);
    for (let b = 0; b < bytes; b++) {
      out[i * bytes + b] = Number(v & 0xffn);
      v >>= 8n;
    }
  }
  return out;
}

/** Typed values for programs and expected results (little-endian host assumed, as on every PJRT platform). */
export const f32 = (xs: readonly number[]): Uint8Array => new Uint8Array(Float32Array.from(xs).buffer);
export const s32 = (xs: readonly number[]): Uint8Array => new Uint8Array(Int32Array.from(xs).buffer);
export const readF32 = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer));
export const readS32 = (b: Uint8Array): number[] => Array.from(new Int32Array(b.slice().buffer));

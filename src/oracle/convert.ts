// convert and bitcast_convert.
import type { DtypeRow } from '../abi/dtypes.js';
import { roundIntTo, roundTo } from './floats.js';
import { Tensor, byteWidth, isSubByteInt, partDtype, type Scalar } from './tensor.js';

function intRange(d: DtypeRow): [bigint, bigint] {
  const w = BigInt(d.bits);
  return d.kind === 'sint' ? [-(1n << (w - 1n)), (1n << (w - 1n)) - 1n] : [0n, (1n << w) - 1n];
}

/** One element of `convert` from `from` to `to` (XLA semantics: float → int truncates and saturates, NaN → 0). */
export function convertScalar(v: Scalar, to: DtypeRow): Scalar {
  // complex: to a complex type each part converts as a float (a real source's imaginary part is zero); from a
  // complex type to any other the imaginary part is dropped (StableHLO spec, convert)
  if (to.kind === 'complex') {
    const p = partDtype(to);
    if (typeof v === 'object') return { re: roundTo(p, v.re), im: roundTo(p, v.im) };
    return { re: convertScalar(v, p) as number, im: 0 };
  }
  if (typeof v === 'object') return convertScalar(v.re, to);
  if (to.kind === 'pred') {
    if (typeof v === 'boolean') return v;
    return typeof v === 'bigint' ? v !== 0n : v !== 0; // NaN !== 0 → true
  }
  if (to.kind === 'float') {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'bigint') return roundIntTo(to, v);
    return roundTo(to, v);
  }
  // integer target
  const [lo, hi] = intRange(to);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return to.kind === 'sint' ? BigInt.asIntN(to.bits, v) : BigInt.asUintN(to.bits, v);
  if (Number.isNaN(v)) return 0n;
  if (v === Infinity) return hi;
  if (v === -Infinity) return lo;
  const t = BigInt(Math.trunc(v));
  return t < lo ? lo : t > hi ? hi : t;
}

export function convert(t: Tensor, to: DtypeRow): Tensor {
  const out = new Tensor(to, t.dims);
  for (let i = 0; i < t.size; i++) out.set(i, convertScalar(t.get(i), to));
  return out;
}

/** bitcast_convert: same width reinterprets; narrower result adds a trailing dim; wider consumes one. */
export function bitcastConvert(t: Tensor, to: DtypeRow): Tensor {
  // host bytes hold one sub-byte integer each, the device packs them: a byte copy would not be the bitcast
  if (isSubByteInt(t.dtype) || isSubByteInt(to)) throw new Error('bitcast_convert of sub-byte integers is not modelled');
  const wi = byteWidth(t.dtype);
  const wo = byteWidth(to);
  let dims: number[];
  if (wi === wo) dims = [...t.dims];
  else if (wi > wo) dims = [...t.dims, wi / wo];
  else {
    if (t.dims[t.dims.length - 1] !== wo / wi) throw new Error(`bitcast_convert: last dim must be ${wo / wi}`);
    dims = t.dims.slice(0, -1);
  }
  // row-major little-endian layout makes every case a plain byte copy
  return new Tensor(to, dims, Uint8Array.from(t.bytes));
}

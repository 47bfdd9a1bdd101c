// Dense row-major tensors stored as little-endian bytes, so data movement keeps bit patterns (NaN payloads)
// exactly. Elements read as: pred → boolean, integers → bigint, floats → number.
import { DTYPES, dtype as dtypeByName, hostElementBytes, isSmallFloat, readHostBits, writeHostBits, type DtypeRow } from '../abi/dtypes.js';
import { bitsToFloat, canonicalNanBits, floatToBits, roundTo } from './floats.js';

/** A complex element: its real and imaginary parts (values of the part type, f32 for c64 and f64 for c128). */
export interface Complex {
  re: number;
  im: number;
}
export type Scalar = number | bigint | boolean | Complex;

const ORACLE_KINDS = new Set(['pred', 'sint', 'uint', 'float']);
/** The element types the oracle computes in: the core table rows that are not complex, c64 / c128, the small floats
 * and the sub-byte integers s4/u4/s2/u2. */
export const ORACLE_DTYPES: readonly DtypeRow[] = DTYPES.filter(
  (d) => (d.core && ORACLE_KINDS.has(d.kind)) || d.kind === 'complex' || isSmallFloat(d) || isSubByteInt(d),
);

/** The float type of a complex type's parts (f32 for c64, f64 for c128). */
export function partDtype(d: DtypeRow): DtypeRow {
  if (d.kind !== 'complex') throw new Error(`${d.name} is not complex`);
  return dtypeByName(d.bits === 64 ? 'f32' : 'f64');
}

/** Whether `d` is a sub-byte integer the oracle computes in (s4, u4, s2, u2): one byte per element, the value in
 * the low bits, arithmetic wrapping to the type's width. s1/u1 are left out (their MLIR spelling i1 is pred's). */
export function isSubByteInt(d: DtypeRow): boolean {
  return (d.kind === 'sint' || d.kind === 'uint') && d.bits < 8 && d.bits > 1;
}

/** Bytes per element in host form: sub-byte types (s4/u4/s2/u2, f4E2M1FN, f6*) take one byte each, the value in the
 * low bits. */
export function byteWidth(d: DtypeRow): number {
  if (d.bits % 8 !== 0 && !isSmallFloat(d) && !isSubByteInt(d)) throw new Error(`sub-byte dtype ${d.name} is not supported by the oracle`);
  return hostElementBytes(d);
}

export function numElements(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

export function stridesOf(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= dims[i]!;
  }
  return s;
}

/** Multi-index of flat position `flat`. */
export function unravel(flat: number, dims: readonly number[]): number[] {
  const idx = new Array<number>(dims.length);
  for (let i = dims.length - 1; i >= 0; i--) {
    idx[i] = flat % dims[i]!;
    flat = Math.floor(flat / dims[i]!);
  }
  return idx;
}

export function ravel(idx: readonly number[], dims: readonly number[]): number {
  let flat = 0;
  for (let i = 0; i < dims.length; i++) flat = flat * dims[i]! + idx[i]!;
  return flat;
}

function readBits(d: DtypeRow, bytes: Uint8Array, i: number): bigint {
  byteWidth(d); // the oracle's own types only
  return readHostBits(d, bytes, i);
}

function writeBits(d: DtypeRow, bytes: Uint8Array, i: number, bits: bigint): void {
  byteWidth(d);
  writeHostBits(d, bytes, i, bits);
}

function scalarToBits(d: DtypeRow, v: Scalar): bigint {
  switch (d.kind) {
    case 'pred':
      return v === true || v === 1n || v === 1 ? 1n : 0n;
    case 'sint':
    case 'uint':
      if (typeof v !== 'bigint') throw new Error(`${d.name} element must be a bigint, got ${typeof v}`);
      return BigInt.asUintN(d.bits, v);
    case 'float':
      if (typeof v !== 'number') throw new Error(`${d.name} element must be a number, got ${typeof v}`);
      // NaNs computed by the host carry its sign/payload; the oracle's results use the canonical NaN
      return Number.isNaN(v) ? canonicalNanBits(d) : floatToBits(d, roundTo(d, v));
    case 'complex': {
      if (typeof v !== 'object') throw new Error(`${d.name} element must be { re, im }, got ${typeof v}`);
      const p = partDtype(d);
      return scalarToBits(p, v.re) | (scalarToBits(p, v.im) << BigInt(p.bits));
    }
    default:
      throw new Error(`oracle does not handle ${d.name}`);
  }
}

function bitsToScalar(d: DtypeRow, bits: bigint): Scalar {
  switch (d.kind) {
    case 'pred':
      return bits !== 0n;
    case 'sint':
      return BigInt.asIntN(d.bits, bits);
    case 'uint':
      return BigInt.asUintN(d.bits, bits);
    case 'float':
      return bitsToFloat(d, bits);
    case 'complex': {
      const p = partDtype(d);
      const w = BigInt(p.bits);
      return { re: bitsToFloat(p, BigInt.asUintN(p.bits, bits)), im: bitsToFloat(p, bits >> w) };
    }
    default:
      throw new Error(`oracle does not handle ${d.name}`);
  }
}

export class Tensor {
  readonly bytes: Uint8Array;
  constructor(
    readonly dtype: DtypeRow,
    readonly dims: readonly number[],
    bytes?: Uint8Array,
  ) {
    const n = numElements(dims) * byteWidth(dtype);
    if (bytes && bytes.length !== n) throw new Error(`tensor ${dtype.name}[${dims.join(',')}] needs ${n} bytes, got ${bytes.length}`);
    this.bytes = bytes ?? new Uint8Array(n);
  }

  static of(dt: DtypeRow | string, dims: readonly number[], values: readonly Scalar[]): Tensor {
    const d = typeof dt === 'string' ? dtypeByName(dt) : dt;
    const t = new Tensor(d, dims);
    if (values.length !== t.size) throw new Error(`tensor ${d.name}[${dims.join(',')}] needs ${t.size} values, got ${values.length}`);
    values.forEach((v, i) => t.set(i, v));
    return t;
  }

  static fromBits(dt: DtypeRow, dims: readonly number[], bits: readonly bigint[]): Tensor {
    const t = new Tensor(dt, dims);
    bits.forEach((b, i) => writeBits(dt, t.bytes, i, b));
    return t;
  }

  get size(): number {
    return numElements(this.dims);
  }

  get(i: number): Scalar {
    return bitsToScalar(this.dtype, this.bits(i));
  }

  set(i: number, v: Scalar): void {
    writeBits(this.dtype, this.bytes, i, scalarToBits(this.dtype, v));
  }

  bits(i: number): bigint {
    return readBits(this.dtype, this.bytes, i);
  }

  setBits(i: number, b: bigint): void {
    writeBits(this.dtype, this.bytes, i, b);
  }

  values(): Scalar[] {
    return Array.from({ length: this.size }, (_, i) => this.get(i));
  }

  /** A tensor of the same dtype whose element i is this tensor's element map(i) (bit copy). */
  gather(dims: readonly number[], source: (outFlat: number) => number): Tensor {
    const t = new Tensor(this.dtype, dims);
    for (let i = 0; i < t.size; i++) t.setBits(i, this.bits(source(i)));
    return t;
  }
}

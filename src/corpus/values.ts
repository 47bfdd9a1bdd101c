// Lossless JSON encoding of tensor elements, and packing into little-endian bytes.
//   pred: true/false · integers: numbers, 64-bit ones as decimal strings · floats: numbers (the nearest value
//   of the dtype; the writer emits the shortest decimal that round-trips), "nan", "inf", "-inf", "-0", or an
//   exact bit pattern "0x7fc00001" (any dtype).
// Every element type of the dtype table is a corpus type. Host bytes are the default host layout of XLA's clients:
// one element per byte for the sub-byte types (the value in the low bits).
import { DTYPES, dtype as dtypeByName, hostElementBytes, readHostBits, writeHostBits, type DtypeRow } from '../abi/dtypes.js';
import { canonicalNanBits, floatToBits, hasNan, roundTo, bitsToFloat } from '../oracle/floats.js';
import { Tensor, numElements, partDtype } from '../oracle/tensor.js';

/** The element types a sidecar may name: every row of the dtype table that holds values. */
export const CORPUS_DTYPES: readonly DtypeRow[] = DTYPES.filter((d) => d.kind !== 'token');

/** Whether `d` is a float format whose elements are numbers (compared with ULP/abs/rel tolerance), not bit patterns
 * only: every float format the oracle encodes (IEEE-like and the finite-only, unsigned-zero and exponent-only small
 * floats declared in FLOAT_FORMATS). */
export function numericFloat(d: DtypeRow): boolean {
  return d.kind === 'float';
}

export { readHostBits, writeHostBits };

/** A float element's spelling; a complex element is the pair [real, imaginary] of its parts' spellings. */
type JsonFloat = number | string;
type JsonElement = number | string | boolean | [JsonFloat, JsonFloat];

export interface ValueSpec {
  dtype: string;
  dims: number[];
  data: JsonElement[];
}

export class ValueError extends Error {}

function intRange(d: DtypeRow): [bigint, bigint] {
  const w = BigInt(d.bits);
  return d.kind === 'sint' ? [-(1n << (w - 1n)), (1n << (w - 1n)) - 1n] : [0n, (1n << w) - 1n];
}

const HEX = /^0x[0-9a-fA-F]+$/;
const INT = /^-?[0-9]+$/;

/** Bit pattern of one JSON element of dtype `d`; throws ValueError with a reason. */
export function decodeElement(d: DtypeRow, v: JsonElement): bigint {
  if (d.kind === 'complex') {
    if (!Array.isArray(v) || v.length !== 2) throw new ValueError(`${d.name} element must be [real, imaginary], got ${JSON.stringify(v)}`);
    const p = partDtype(d);
    return decodeElement(p, v[0]) | (decodeElement(p, v[1]) << BigInt(p.bits));
  }
  if (Array.isArray(v)) throw new ValueError(`${d.name} element must not be a pair, got ${JSON.stringify(v)}`);
  if (typeof v === 'string' && HEX.test(v)) {
    const b = BigInt(v);
    if (b >> BigInt(d.bits) !== 0n) throw new ValueError(`bit pattern ${v} is wider than ${d.name} (${d.bits} bits)`);
    return b;
  }
  switch (d.kind) {
    case 'pred':
      if (typeof v === 'boolean') return v ? 1n : 0n;
      if (v === 0 || v === 1) return BigInt(v);
      throw new ValueError(`pred element must be true or false, got ${JSON.stringify(v)}`);
    case 'sint':
    case 'uint': {
      let b: bigint;
      if (typeof v === 'number') {
        if (!Number.isSafeInteger(v)) throw new ValueError(`${d.name} element ${v} is not a safe integer (use a decimal string)`);
        b = BigInt(v);
      } else if (typeof v === 'string' && INT.test(v)) b = BigInt(v);
      else throw new ValueError(`${d.name} element must be an integer, got ${JSON.stringify(v)}`);
      const [lo, hi] = intRange(d);
      if (b < lo || b > hi) throw new ValueError(`${d.name} element ${b} is out of range [${lo}, ${hi}]`);
      return BigInt.asUintN(d.bits, b);
    }
    case 'float': {
      if (!numericFloat(d)) throw new ValueError(`${d.name} element must be a bit pattern "0x…" (the corpus does not encode this format's numbers), got ${JSON.stringify(v)}`);
      let x: number;
      if (typeof v === 'number') x = v;
      else if (v === 'nan') {
        if (!hasNan(d)) throw new ValueError(`${d.name} has no NaN`);
        return canonicalNanBits(d);
      }
      else if (v === 'inf') x = Infinity;
      else if (v === '-inf') x = -Infinity;
      else if (v === '-0') x = -0;
      else if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) x = Number(v);
      else throw new ValueError(`${d.name} element must be a number, "nan", "inf", "-inf", "-0" or "0x…", got ${JSON.stringify(v)}`);
      return floatToBits(d, roundTo(d, x));
    }
    default:
      throw new ValueError(`dtype ${d.name} is not supported in the corpus`);
  }
}

function hex(d: DtypeRow, bits: bigint): string {
  return '0x' + bits.toString(16).padStart(Math.ceil(d.bits / 4), '0');
}

/** Shortest decimal that rounds back to `x` in dtype `d`. */
function shortest(d: DtypeRow, x: number): number {
  if (d.bits === 64) return x;
  for (let p = 1; p <= 17; p++) {
    const y = Number(x.toPrecision(p));
    if (roundTo(d, y) === x) return y;
  }
  return x;
}

/** JSON element for a bit pattern of dtype `d` (inverse of decodeElement). */
export function encodeElement(d: DtypeRow, bits: bigint): JsonElement {
  switch (d.kind) {
    case 'pred':
      return bits !== 0n;
    case 'sint':
    case 'uint': {
      const v = d.kind === 'sint' ? BigInt.asIntN(d.bits, bits) : BigInt.asUintN(d.bits, bits);
      return d.bits > 32 ? v.toString() : Number(v);
    }
    case 'float': {
      if (!numericFloat(d)) return hex(d, bits);
      const x = bitsToFloat(d, bits);
      if (Number.isNaN(x)) return bits === canonicalNanBits(d) ? 'nan' : hex(d, bits);
      if (x === Infinity) return 'inf';
      if (x === -Infinity) return '-inf';
      if (Object.is(x, -0)) return '-0';
      return shortest(d, x);
    }
    case 'complex': {
      const p = partDtype(d);
      return [encodeElement(p, BigInt.asUintN(p.bits, bits)) as JsonFloat, encodeElement(p, bits >> BigInt(p.bits)) as JsonFloat];
    }
    default:
      throw new ValueError(`dtype ${d.name} is not supported in the corpus`);
  }
}


/** Pack a value spec into its little-endian host bytes. */
export function packValue(spec: ValueSpec): Uint8Array {
  const d = dtypeByName(spec.dtype);
  const n = numElements(spec.dims);
  if (spec.data.length !== n) throw new ValueError(`data has ${spec.data.length} elements, dims [${spec.dims.join(', ')}] need ${n}`);
  const bytes = new Uint8Array(n * hostElementBytes(d));
  spec.data.forEach((v, i) => writeHostBits(d, bytes, i, decodeElement(d, v)));
  return bytes;
}

/** Decode host bytes back into a value spec. */
export function unpackValue(dtype: string, dims: readonly number[], bytes: Uint8Array): ValueSpec {
  const d = dtypeByName(dtype);
  const n = numElements(dims);
  const data = Array.from({ length: n }, (_, i) => encodeElement(d, readHostBits(d, bytes, i)));
  return { dtype, dims: [...dims], data };
}


export function tensorToValue(t: Tensor): ValueSpec {
  return unpackValue(t.dtype.name, t.dims, t.bytes);
}

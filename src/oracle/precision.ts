// reduce_precision: a float rounded to a narrower (exponentBits, mantissaBits) format and back, computed on the
// operand's bit pattern as the StableHLO spec describes it: the mantissa rounded to nearest even, then an exponent
// outside the reduced range overflows to a signed infinity or underflows to a signed zero (so results below the
// reduced format's smallest normal become zero, as in the spec's example); NaN is kept, except with no mantissa
// bits, where it becomes +inf (a format without mantissa bits has no NaN: the spec's interpreter and XLA's emitter
// agree).
import type { DtypeRow } from '../abi/dtypes.js';
import { Tensor } from './tensor.js';

export interface PrecisionFormat {
  exponentBits: number;
  mantissaBits: number;
}

function reduceBits(d: DtypeRow, x: bigint, f: PrecisionFormat): bigint {
  const E = d.exponentBits!;
  const M = d.mantissaBits!;
  const expMask = ((1n << BigInt(E)) - 1n) << BigInt(M);
  const mantMask = (1n << BigInt(M)) - 1n;
  const sign = x & (1n << BigInt(E + M));
  if ((x & expMask) === expMask && (x & mantMask) !== 0n) return f.mantissaBits > 0 ? x : expMask;
  let r = x;
  if (f.mantissaBits < M) {
    const shift = BigInt(M - f.mantissaBits);
    const last = 1n << shift;
    const kept = r >> shift;
    const dropped = r & (last - 1n);
    const half = last >> 1n;
    const up = dropped > half || (dropped === half && (kept & 1n) === 1n);
    r = (kept + (up ? 1n : 0n)) << shift; // a carry into the exponent is the next binade (or infinity)
  }
  if (f.exponentBits < E) {
    const srcBias = (1n << BigInt(E - 1)) - 1n;
    const reducedBias = (1n << BigInt(f.exponentBits - 1)) - 1n;
    const exp = (r & expMask) >> BigInt(M);
    if (exp > srcBias + reducedBias) return sign | expMask;
    if (exp <= srcBias - reducedBias) return sign;
  }
  return r;
}

export function reducePrecision(t: Tensor, f: PrecisionFormat): Tensor {
  const d = t.dtype;
  if (d.kind !== 'float') throw new Error(`reduce_precision is not defined for ${d.name}`);
  if (f.exponentBits < 1 || f.mantissaBits < 0) throw new Error(`reduce_precision: bad format e${f.exponentBits}m${f.mantissaBits}`);
  const r = new Tensor(d, t.dims);
  for (let i = 0; i < t.size; i++) r.setBits(i, reduceBits(d, t.bits(i), f));
  return r;
}

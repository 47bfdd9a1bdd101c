// Comparison of a plugin's output bytes with an expected value: bit-exact for integers and pred, ULP /
// relative / absolute tolerance for floats, any NaN matches any NaN, zero signs checked unless disabled.
import { dtype as dtypeByName, type DtypeRow } from '../abi/dtypes.js';
import { bitsToFloat, orderedBits } from '../oracle/floats.js';
import { byteWidth, readBits, unravel } from '../oracle/tensor.js';
import type { Tolerance } from './schema.js';
import { encodeElement, packValue, type ValueSpec } from './values.js';

function show(d: DtypeRow, bits: bigint): string {
  const e = JSON.stringify(encodeElement(d, bits));
  return d.kind === 'float' ? `${e} (0x${bits.toString(16).padStart(d.bits / 4, '0')})` : e;
}

/** Why one element mismatches, or null when it matches. */
export function elementMismatch(d: DtypeRow, exp: bigint, act: bigint, tol: Tolerance): string | null {
  if (exp === act) return null;
  if (d.kind !== 'float') return 'not equal';
  const e = bitsToFloat(d, exp);
  const a = bitsToFloat(d, act);
  if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(e) && Number.isNaN(a) ? null : 'NaN mismatch';
  if (!Number.isFinite(e) || !Number.isFinite(a)) return e === a ? null : 'infinity mismatch';
  if (e === 0 && a === 0) return tol.signedZeros === false || Object.is(e, a) ? null : 'sign of zero differs';
  const ulps = orderedBits(d, exp) - orderedBits(d, act);
  const dist = ulps < 0n ? -ulps : ulps;
  if (dist <= BigInt(tol.ulp ?? 0)) return null;
  const diff = Math.abs(a - e);
  if (tol.abs !== undefined && diff <= tol.abs) return null;
  if (tol.rel !== undefined && diff <= tol.rel * Math.abs(e)) return null;
  return `${dist} ulp apart (tolerance ${JSON.stringify(tol)})`;
}

/** Null if `actual` matches `expected`, else a message naming the first mismatching element. */
export function compareValue(expected: ValueSpec, actual: Uint8Array, tol: Tolerance, label = 'output'): string | null {
  const d = dtypeByName(expected.dtype);
  const want = packValue(expected);
  if (actual.length !== want.length) {
    return `${label} (${d.name}[${expected.dims.join(',')}]): expected ${want.length} bytes, got ${actual.length}`;
  }
  const n = want.length / byteWidth(d);
  let bad = 0;
  let first: string | null = null;
  for (let i = 0; i < n; i++) {
    const e = readBits(d, want, i);
    const a = readBits(d, actual, i);
    const why = elementMismatch(d, e, a, tol);
    if (why === null) continue;
    bad++;
    first ??= `element ${i} [${unravel(i, expected.dims).join(',')}]: expected ${show(d, e)}, got ${show(d, a)}: ${why}`;
  }
  return first === null ? null : `${label} (${d.name}[${expected.dims.join(',')}]): ${bad} of ${n} elements differ; first at ${first}`;
}

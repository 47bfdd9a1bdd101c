// Comparison of a plugin's output bytes with an expected value: bit-exact for integers and pred, ULP /
// relative / absolute tolerance for floats, any NaN matches any NaN, zero signs checked unless disabled, an
// expected subnormal may be a zero where the tolerance allows flushing; an output also matches when it matches
// one of its listed alternatives (answers the StableHLO spec leaves open or XLA's compiler gives).
import { dtype as dtypeByName, type DtypeRow } from '../abi/dtypes.js';
import { bitsToFloat, orderedBits, smallestNormal } from '../oracle/floats.js';
import { byteWidth, partDtype, readBits, unravel } from '../oracle/tensor.js';
import type { Tolerance } from './schema.js';
import type { HostValue } from './load.js';
import { encodeElement, packValue, type ValueSpec } from './values.js';

function show(d: DtypeRow, bits: bigint): string {
  const e = JSON.stringify(encodeElement(d, bits));
  return d.kind === 'float' || d.kind === 'complex' ? `${e} (0x${bits.toString(16).padStart(d.bits / 4, '0')})` : e;
}

/** Why one element mismatches, or null when it matches. */
export function elementMismatch(d: DtypeRow, exp: bigint, act: bigint, tol: Tolerance): string | null {
  if (exp === act) return null;
  if (d.kind === 'complex') { // each part as a float of the part type
    const p = partDtype(d);
    const w = BigInt(p.bits);
    const re = elementMismatch(p, BigInt.asUintN(p.bits, exp), BigInt.asUintN(p.bits, act), tol);
    const im = elementMismatch(p, exp >> w, act >> w, tol);
    return re === null && im === null ? null : `${re !== null ? `real part: ${re}` : ''}${re !== null && im !== null ? '; ' : ''}${im !== null ? `imaginary part: ${im}` : ''}`;
  }
  if (d.kind !== 'float') return 'not equal';
  const e = bitsToFloat(d, exp);
  const a = bitsToFloat(d, act);
  if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(e) && Number.isNaN(a) ? null : 'NaN mismatch';
  if (!Number.isFinite(e) || !Number.isFinite(a)) return e === a ? null : 'infinity mismatch';
  if (e === 0 && a === 0) return tol.signedZeros === false || Object.is(e, a) ? null : 'sign of zero differs';
  if (tol.subnormalsMayFlush && a === 0 && isSubnormal(d, e)) return null;
  const ulps = orderedBits(d, exp) - orderedBits(d, act);
  const dist = ulps < 0n ? -ulps : ulps;
  if (dist <= BigInt(tol.ulp ?? 0)) return null;
  const diff = Math.abs(a - e);
  if (tol.abs !== undefined && diff <= tol.abs) return null;
  if (tol.rel !== undefined && diff <= tol.rel * Math.abs(e)) return null;
  return `${dist} ulp apart (tolerance ${JSON.stringify(tol)})`;
}

/** Nonzero and smaller in magnitude than the dtype's smallest normal number. */
export function isSubnormal(d: DtypeRow, x: number): boolean {
  return x !== 0 && Number.isFinite(x) && Math.abs(x) < smallestNormal(d);
}

/** Null if `actual` matches `expected`, else a message naming the first mismatching element. */
export function compareValue(expected: ValueSpec, actual: Uint8Array, tol: Tolerance, label = 'output', open: ReadonlySet<number> = new Set()): string | null {
  const d = dtypeByName(expected.dtype);
  const want = packValue(expected);
  if (actual.length !== want.length) {
    return `${label} (${d.name}[${expected.dims.join(',')}]): expected ${want.length} bytes, got ${actual.length}`;
  }
  const n = want.length / byteWidth(d);
  let bad = 0;
  let first: string | null = null;
  for (let i = 0; i < n; i++) {
    if (open.has(i)) continue; // implementation-defined: any value
    const e = readBits(d, want, i);
    const a = readBits(d, actual, i);
    const why = elementMismatch(d, e, a, tol);
    if (why === null) continue;
    bad++;
    first ??= `element ${i} [${unravel(i, expected.dims).join(',')}]: expected ${show(d, e)}, got ${show(d, a)}: ${why}`;
  }
  return first === null ? null : `${label} (${d.name}[${expected.dims.join(',')}]): ${bad} of ${n} elements differ; first at ${first}`;
}

/** An expected output as the loader gives it: the value, its tolerance and its accepted alternatives. */
export type ExpectedOutput = Pick<HostValue, 'spec' | 'tolerance' | 'alternatives'> & Partial<Pick<HostValue, 'implementationDefined'>>;

/**
 * Null if `actual` matches the expected value or one of its alternatives (each under the output's tolerance; the
 * implementation-defined elements are not compared), else a message naming the first mismatch against the expected
 * value and against every alternative.
 */
export function compareOutput(want: ExpectedOutput, actual: Uint8Array, label = 'output'): string | null {
  const open = new Set((want.implementationDefined ?? []).flatMap((u) => u.elements));
  const first = compareValue(want.spec, actual, want.tolerance, label, open);
  if (first === null) return null;
  const alts = want.alternatives ?? [];
  const why: string[] = [];
  for (const a of alts) {
    const m = compareValue({ ...want.spec, data: a.data }, actual, want.tolerance, label, open);
    if (m === null) return null;
    why.push(`the alternative accepted because ${a.reason}: ${m.slice(m.indexOf(':') + 2)}`);
  }
  return why.length ? `${first}; nor does it match ${why.join('; nor ')}` : first;
}

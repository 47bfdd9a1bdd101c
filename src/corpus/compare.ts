// Comparison of a plugin's output bytes with an expected value: bit-exact for integers and pred, ULP /
// relative / absolute tolerance for floats, any NaN matches any NaN, zero signs checked unless disabled, an
// expected subnormal may be a zero where the tolerance allows flushing; an output also matches when it matches
// one of its listed alternatives (answers the StableHLO spec leaves open or XLA's compiler gives).
// A mismatch names how many elements differ and lists the first few (multi-index, expected, got, bits); a match of
// a float output reports the largest error it observed, so a vendor sees how close to the bound its kernels are.
import { dtype as dtypeByName, hostElementBytes, type DtypeRow } from '../abi/dtypes.js';
import { bitsToFloat, orderedBits, smallestNormal } from '../oracle/floats.js';
import { partDtype, unravel } from '../oracle/tensor.js';
import type { Tolerance } from './schema.js';
import type { HostValue } from './load.js';
import { encodeElement, numericFloat, packValue, readHostBits, type ValueSpec } from './values.js';

/** How many mismatching elements a message lists (the count covers all of them). */
export const MISMATCHES_LISTED = 10;

function show(d: DtypeRow, bits: bigint): string {
  const e = JSON.stringify(encodeElement(d, bits));
  return numericFloat(d) || d.kind === 'complex' ? `${e} (0x${bits.toString(16).padStart(Math.ceil(d.bits / 4), '0')})` : e;
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
  if (!numericFloat(d)) return 'not equal';
  const e = bitsToFloat(d, exp);
  const a = bitsToFloat(d, act);
  if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(e) && Number.isNaN(a) ? null : 'NaN mismatch';
  if (!Number.isFinite(e) || !Number.isFinite(a)) return e === a ? null : 'infinity mismatch';
  if (e === 0 && a === 0) return tol.signedZeros === false || Object.is(e, a) ? null : 'sign of zero differs';
  if (tol.subnormalsMayFlush && a === 0 && isSubnormal(d, e)) return null;
  const dist = ulpDistance(d, exp, act);
  if (dist <= BigInt(tol.ulp ?? 0)) return null;
  const diff = Math.abs(a - e);
  if (tol.abs !== undefined && diff <= tol.abs) return null;
  if (tol.rel !== undefined && diff <= tol.rel * Math.abs(e)) return null;
  return `${dist} ulp apart`;
}

function ulpDistance(d: DtypeRow, exp: bigint, act: bigint): bigint {
  const ulps = orderedBits(d, exp) - orderedBits(d, act);
  return ulps < 0n ? -ulps : ulps;
}

/** Nonzero and smaller in magnitude than the dtype's smallest normal number. */
export function isSubnormal(d: DtypeRow, x: number): boolean {
  return x !== 0 && Number.isFinite(x) && Math.abs(x) < smallestNormal(d);
}

/**
 * The largest error a float output showed, each maximum taken on its own: ULPs (of its own type), |actual − expected|,
 * and that over |expected| (over the elements whose expected value is nonzero).
 */
export interface ObservedError {
  ulp: number;
  abs: number;
  rel: number;
}

/**
 * The error of one element pair, or undefined where no distance applies: NaN, infinities, two zeros, and an expected
 * subnormal flushed to zero where the tolerance allows it (those are matched by rule, not by distance).
 */
function elementError(d: DtypeRow, exp: bigint, act: bigint, tol: Tolerance): ObservedError | undefined {
  if (d.kind === 'complex') {
    const p = partDtype(d);
    const w = BigInt(p.bits);
    return maxError(elementError(p, BigInt.asUintN(p.bits, exp), BigInt.asUintN(p.bits, act), tol), elementError(p, exp >> w, act >> w, tol));
  }
  if (!numericFloat(d)) return undefined;
  const e = bitsToFloat(d, exp);
  const a = bitsToFloat(d, act);
  if (!Number.isFinite(e) || !Number.isFinite(a) || (e === 0 && a === 0)) return undefined;
  if (tol.subnormalsMayFlush && a === 0 && isSubnormal(d, e)) return undefined;
  const abs = Math.abs(a - e);
  return { ulp: Number(ulpDistance(d, exp, act)), abs, rel: e === 0 ? 0 : abs / Math.abs(e) };
}

function maxError(x: ObservedError | undefined, y: ObservedError | undefined): ObservedError | undefined {
  if (!x || !y) return x ?? y;
  return { ulp: Math.max(x.ulp, y.ulp), abs: Math.max(x.abs, y.abs), rel: Math.max(x.rel, y.rel) };
}

/** What comparing one value found. */
interface ValueReport {
  /** null: every compared element matches */
  mismatch: string | null;
  /** float and complex values: the largest error over the compared elements (zeros when all are bit-identical) */
  observed?: ObservedError;
}

/**
 * Compares every element (the implementation-defined ones in `open` excepted). A mismatch message names the value,
 * how many elements differ, and the first `listed` of them: flat index, multi-index, expected and actual values
 * (with bit patterns for floats) and why.
 */
function inspectValue(expected: ValueSpec, actual: Uint8Array, tol: Tolerance, label = 'output', open: ReadonlySet<number> = new Set(), listed = MISMATCHES_LISTED): ValueReport {
  return inspectBytes(expected.dtype, expected.dims, packValue(expected), actual, tol, label, open, listed);
}

function inspectBytes(dtype: string, dims: readonly number[], want: Uint8Array, actual: Uint8Array, tol: Tolerance, label: string, open: ReadonlySet<number>, listed: number): ValueReport {
  const d = dtypeByName(dtype);
  const head = `${label} (${d.name}[${dims.join(',')}])`;
  if (actual.length !== want.length) return { mismatch: `${head}: expected ${want.length} bytes, got ${actual.length}` };
  const n = want.length / hostElementBytes(d);
  const measured = numericFloat(d) || d.kind === 'complex';
  let observed: ObservedError | undefined = measured ? { ulp: 0, abs: 0, rel: 0 } : undefined;
  let bad = 0;
  const shown: string[] = [];
  for (let i = 0; i < n; i++) {
    if (open.has(i)) continue; // implementation-defined: any value
    const e = readHostBits(d, want, i);
    const a = readHostBits(d, actual, i);
    const why = elementMismatch(d, e, a, tol);
    if (why === null) {
      if (measured && e !== a) observed = maxError(observed, elementError(d, e, a, tol));
      continue;
    }
    bad++;
    if (shown.length < listed) shown.push(`element ${i} [${unravel(i, dims).join(',')}]: expected ${show(d, e)}, got ${show(d, a)}: ${why}`);
  }
  if (bad === 0) return observed ? { mismatch: null, observed } : { mismatch: null };
  const notes = [...(measured && Object.keys(tol).length ? [`tolerance ${JSON.stringify(tol)}`] : []), ...(bad > shown.length ? [`the first ${shown.length} listed`] : [])];
  return { mismatch: `${head}: ${bad} of ${n} elements differ${notes.length ? ` (${notes.join('; ')})` : ''}: ${shown.join('; ')}` };
}

/** compareValue of an expected value given as its host bytes. */
export function compareBytes(dtype: string, dims: readonly number[], want: Uint8Array, actual: Uint8Array, tol: Tolerance, label = 'output', open: ReadonlySet<number> = new Set()): string | null {
  return inspectBytes(dtype, dims, want, actual, tol, label, open, MISMATCHES_LISTED).mismatch;
}

/** Null if `actual` matches `expected`, else a message naming the mismatching elements (see inspectValue). */
export function compareValue(expected: ValueSpec, actual: Uint8Array, tol: Tolerance, label = 'output', open: ReadonlySet<number> = new Set(), listed = MISMATCHES_LISTED): string | null {
  return inspectValue(expected, actual, tol, label, open, listed).mismatch;
}

/** An expected output as the loader gives it: the value, its tolerance and its accepted alternatives. */
type ExpectedOutput = Pick<HostValue, 'spec' | 'tolerance' | 'alternatives'> & Partial<Pick<HostValue, 'implementationDefined'>>;

/**
 * Checks `actual` against the expected value, then each alternative (each under the output's tolerance; the
 * implementation-defined elements are not compared). On a match, `observed` is the error against the value it
 * matched; otherwise the message lists the mismatches against the expected value and against every alternative.
 */
export function inspectOutput(want: ExpectedOutput, actual: Uint8Array, label = 'output', listed = MISMATCHES_LISTED): ValueReport {
  const open = new Set((want.implementationDefined ?? []).flatMap((u) => u.elements));
  const first = inspectValue(want.spec, actual, want.tolerance, label, open, listed);
  if (first.mismatch === null) return first;
  const why: string[] = [];
  for (const a of want.alternatives ?? []) {
    const r = inspectValue({ ...want.spec, data: a.data }, actual, want.tolerance, label, open, listed);
    if (r.mismatch === null) return r;
    why.push(`the alternative accepted because ${a.reason}: ${r.mismatch.slice(r.mismatch.indexOf(':') + 2)}`);
  }
  return { mismatch: why.length ? `${first.mismatch}; nor does it match ${why.join('; nor ')}` : first.mismatch };
}

/** Null if `actual` matches the expected value or one of its alternatives, else the message of inspectOutput. */
export function compareOutput(want: ExpectedOutput, actual: Uint8Array, label = 'output', listed = MISMATCHES_LISTED): string | null {
  return inspectOutput(want, actual, label, listed).mismatch;
}

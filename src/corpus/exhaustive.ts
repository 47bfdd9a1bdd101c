// Exhaustive numerics for small float types: every representable input of a unary op (one program per op and
// type), a dense grid of operand pairs for a binary op, each result checked against the oracle within XLA's
// accuracy bound for the op (src/oracle/accuracy.ts) under the corpus' comparison rules (compare.ts), and the
// largest errors measured so a vendor sees how close it runs to the bound.
import { hostElementBytes, type DtypeRow } from '../abi/dtypes.js';
import { boundOf, skipped, type Bound } from '../oracle/accuracy.js';
import { BINARY, UNARY } from '../oracle/elementwise.js';
import { bitsToFloat, floatToBits, roundTo, smallestNormal } from '../oracle/floats.js';
import { ORACLE_DTYPES } from '../oracle/tensor.js';
import { elementMismatch } from './compare.js';
import type { Tolerance } from './schema.js';

/** Float types narrow enough to enumerate: every one the oracle rounds and encodes, up to 16 bits. */
export function smallFloatTypes(): DtypeRow[] {
  return ORACLE_DTYPES.filter((d) => d.kind === 'float' && d.bits <= 16);
}

/** Unary float ops whose result has the operand's type (is_finite gives pred: not a numerics question). */
export const EXHAUSTIVE_UNARY: readonly string[] = Object.entries(UNARY).filter(([, u]) => u.kinds.includes('float') && !u.result).map(([op]) => op);
export const EXHAUSTIVE_BINARY: readonly string[] = Object.entries(BINARY).filter(([, b]) => b.kinds.includes('float')).map(([op]) => op);

/** What the reference plugin's faults (faults.json) show in an op's exhaustive cases. */
interface OpFaults {
  /** per type: the faults its inputs expose within the op's bound */
  catches?: Readonly<Record<string, readonly string[]>>;
  /**
   * the types where op_off_by_one (one more on every result) stays inside the bound: our bounds for types XLA never
   * tests follow its type-independent rules, which there allow a relative error the +1 on small results stays under.
   * Those cases claim the execute crash instead (the fault matrix checks both).
   */
  offByOneWithinBound?: readonly string[];
}

/** bf16 results truncated and f16 subnormal results flushed show where the bound is exact: the arithmetic ops. */
const ARITHMETIC: OpFaults = { catches: { bf16: ['bf16_truncates'], f16: ['f16_flush_subnormals'] } };

/**
 * Per op, declared with the op: an f16 exp from a cheap polynomial in half precision; log1p as log(1 + x) with
 * 1 + x rounded to the type; sine/cosine with the argument reduced by a float 2π; the arithmetic ops' rounding;
 * negate, the witness of an execute that refuses the element type.
 */
const OP_FAULTS: Readonly<Record<string, OpFaults>> = {
  // a run-time refusal of a type the compiler and the upload accepted is a failure, core type or not (suites/_lib/declined.ts)
  negate: { catches: { f16: ['execute_refuses_dtype=f16'], f8e4m3fn: ['execute_refuses_dtype=f8e4m3fn'] } },
  exponential: { catches: { f16: ['exp_f16_approx_in_half'] } },
  log_plus_one: { catches: { f16: ['log1p_as_log_of_sum'], bf16: ['log1p_as_log_of_sum'] } },
  sine: { catches: { f16: ['sine_cosine_float_pi_reduction'], bf16: ['sine_cosine_float_pi_reduction'] } },
  cosine: { catches: { f16: ['sine_cosine_float_pi_reduction'], bf16: ['sine_cosine_float_pi_reduction'] } },
  add: ARITHMETIC,
  subtract: ARITHMETIC,
  multiply: ARITHMETIC,
  divide: ARITHMETIC,
  atan2: { offByOneWithinBound: ['f8e4m3', 'f8e3m4', 'f4e2m1fn', 'f6e2m3fn', 'f6e3m2fn'] },
  cbrt: { offByOneWithinBound: ['f4e2m1fn', 'f6e2m3fn', 'f6e3m2fn'] },
};

/** The faults the exhaustive case of `op` on type `dt` claims: the op's declared ones, and its +1 where that shows. */
export function exhaustiveCatches(op: string, dt: string): string[] {
  const f = OP_FAULTS[op] ?? {};
  return [...(f.catches?.[dt] ?? []), f.offByOneWithinBound?.includes(dt) ? 'crash_in=PJRT_LoadedExecutable_Execute' : `op_off_by_one=${op}`];
}

/** The operand values of a binary op's grid, per side. */
export const GRID_SIDE = 256;

/** Every bit pattern of a type, decoded once: value and the index in total order (for ulp distances). */
interface Format {
  d: DtypeRow;
  count: number;
  values: Float64Array;
  /** ordered integer image of each pattern: −0 and +0 both 0, negatives below */
  ordered: Int32Array;
  /** value → bit pattern (finite non-zero values and infinities) */
  byValue: Map<number, number>;
  /** the same, indexed by valueKey (encode's hot path) for the 16-bit types; absent if two values share a key */
  byKey: Int32Array | undefined;
  posZero: number;
  negZero: number | undefined;
  /** the canonical quiet NaN (a signalling NaN may make pow(NaN, 0) NaN) */
  nan: number;
  /** the smallest normal magnitude */
  minNormal: number;
}

const formats = new Map<string, Format>();

const keyF32 = new Float32Array(1);
const keyBits = new Uint32Array(keyF32.buffer);
/** Bits of a table index: a value of a type of ≤ 16 bits is an f32 with at most 10 fraction bits, so the low 13 are 0. */
const KEY_BITS = 19;
/** The top bits of `v` as an f32: distinct for the distinct values of a small float type (checked when built). */
function valueKey(v: number): number {
  keyF32[0] = v;
  return keyBits[0]! >>> (32 - KEY_BITS);
}

function keyTable(byValue: Map<number, number>): Int32Array | undefined {
  const t = new Int32Array(2 ** KEY_BITS).fill(-1);
  for (const [v, b] of byValue) {
    const k = valueKey(v);
    if (t[k] !== -1 || Math.fround(v) !== v) return undefined;
    t[k] = b;
  }
  return t;
}

/** `nan` of a type without NaN (f4e2m1fn, the f6 types): a NaN result there is not compared. */
const NO_NAN = -1;

function format(d: DtypeRow): Format {
  let f = formats.get(d.name);
  if (f) return f;
  const count = 2 ** d.bits;
  const values = new Float64Array(count);
  const ordered = new Int32Array(count);
  const byValue = new Map<number, number>();
  const sign = count / 2;
  let negZero: number | undefined;
  for (let b = 0; b < count; b++) {
    const v = bitsToFloat(d, BigInt(b));
    values[b] = v;
    ordered[b] = b >= sign ? -(b - sign) : b;
    if (Number.isNaN(v)) continue;
    if (v === 0) { if (b !== 0) negZero = b; continue; }
    if (!byValue.has(v)) byValue.set(v, b);
  }
  const hasNan = values.some((v) => Number.isNaN(v));
  f = { d, count, values, ordered, byValue, posZero: 0, negZero, nan: hasNan ? Number(floatToBits(d, NaN)) : NO_NAN, minNormal: smallestNormal(d), byKey: count > GRID_SIDE ? keyTable(byValue) : undefined };
  formats.set(d.name, f);
  return f;
}

/** The bit pattern of `x` rounded to the type. */
function encode(f: Format, x: number): number {
  const v = roundTo(f.d, x);
  if (Number.isNaN(v)) return f.nan;
  if (v === 0) return Object.is(v, -0) && f.negZero !== undefined ? f.negZero : f.posZero;
  const b = f.byKey ? f.byKey[valueKey(v)]! : -1;
  return b !== -1 && f.values[b] === v ? b : (f.byValue.get(v) ?? Number(floatToBits(f.d, v)));
}

function isSub(f: Format, x: number): boolean {
  return x !== 0 && Number.isFinite(x) && Math.abs(x) < f.minNormal;
}

const F32_SMALLEST_NORMAL = 2 ** -126;

/**
 * XLA computes the small float types in f32 and flushes f32's subnormals there: an input or an exact result below
 * 2^-126 may be read as zero. Only f8e8m0fnu reaches that range (its smallest value is 2^-127, and as it has no zero
 * a flushed result is stored as NaN); bf16's own subnormals are the same values.
 */
function flushesInF32(x: number): boolean {
  return x !== 0 && Number.isFinite(x) && Math.abs(x) < F32_SMALLEST_NORMAL;
}

/** Every bit pattern of the type, in order. */
function everyInput(d: DtypeRow): number[] {
  const out = new Array<number>(2 ** d.bits);
  for (let b = 0; b < out.length; b++) out[b] = b;
  return out;
}

/**
 * GRID_SIDE bit patterns per operand (all of them for types with no more patterns than that): both zeros, NaN, the
 * infinities, the smallest and largest subnormals and one between, the smallest normal and its neighbours, one and its
 * neighbours, two, one half, the largest finite value — each with both signs — then evenly spaced patterns up to the
 * largest finite value, with both signs.
 */
export function gridSide(d: DtypeRow): number[] {
  const f = format(d);
  if (f.count <= GRID_SIDE) return everyInput(d);
  const pos: number[] = [];
  for (let b = 0; b < f.count / 2; b++) if (Number.isFinite(f.values[b]!) && f.values[b]! > 0) pos.push(b);
  const minNormal = pos.find((b) => !isSub(f, f.values[b]!))!;
  const one = f.byValue.get(1)!;
  const two = f.byValue.get(2)!;
  const half = f.byValue.get(0.5)!;
  const subs = pos.filter((b) => isSub(f, f.values[b]!));
  const special = [pos[0]!, subs[subs.length >> 1] ?? pos[0]!, subs.at(-1) ?? pos[0]!, minNormal, minNormal + 1, minNormal + 2, one - 1, one, one + 1, half, two, pos.at(-1)!];
  const out = new Set<number>([f.posZero, ...(f.negZero !== undefined ? [f.negZero] : []), ...(f.nan !== NO_NAN ? [f.nan] : [])]);
  for (let b = 0; b < f.count; b++) if (Math.abs(f.values[b]!) === Infinity) out.add(b);
  const withSign = (b: number) => [b, b + f.count / 2];
  for (const b of special) withSign(b).forEach((x) => out.add(x));
  const room = GRID_SIDE - out.size;
  const step = pos.length / Math.ceil(room / 2);
  for (let k = 0; out.size < GRID_SIDE && k * step < pos.length; k++) {
    for (const x of withSign(pos[Math.floor(k * step)]!)) if (out.size < GRID_SIDE) out.add(x);
  }
  for (let k = pos.length - 1; out.size < GRID_SIDE && k >= 0; k--) for (const x of withSign(pos[k]!)) if (out.size < GRID_SIDE) out.add(x);
  return [...out].sort((a, b) => a - b);
}

/** The operands of a program: one list per argument (bit patterns). */
export interface ExhaustiveInputs {
  args: number[][];
}

export function inputsOf(op: string, d: DtypeRow): ExhaustiveInputs {
  if (UNARY[op]) return { args: [everyInput(d)] };
  const side = gridSide(d);
  const a = new Array<number>(side.length * side.length);
  const b = new Array<number>(side.length * side.length);
  for (let i = 0; i < side.length; i++) for (let j = 0; j < side.length; j++) { a[i * side.length + j] = side[i]!; b[i * side.length + j] = side[j]!; }
  return { args: [a, b] };
}

/** Little-endian host bytes of bit patterns (one element per byte for sub-byte types). */
export function hostBytes(d: DtypeRow, bits: readonly number[]): Uint8Array {
  const w = hostElementBytes(d);
  const out = new Uint8Array(bits.length * w);
  for (let i = 0; i < bits.length; i++) for (let k = 0; k < w; k++) out[i * w + k] = (bits[i]! >> (8 * k)) & 0xff;
  return out;
}

function readPattern(d: DtypeRow, bytes: Uint8Array, i: number): number {
  const w = hostElementBytes(d);
  let b = 0;
  for (let k = 0; k < w; k++) b |= bytes[i * w + k]! << (8 * k);
  return d.bits < 8 ? b & ((1 << d.bits) - 1) : b;
}

/** The one-op program `main(args) -> op(args)` over `n` elements. */
export function programText(op: string, d: DtypeRow, n: number): string {
  const t = `tensor<${n}x${d.mlir}>`;
  const args = (UNARY[op] ? [0] : [0, 1]).map((k) => `%arg${k}`);
  return `module @exhaustive_${op}_${d.name} attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(${args.map((a) => `${a}: ${t}`).join(', ')}) -> ${t} {
    %0 = stablehlo.${op} ${args.join(', ')} : ${t}
    return %0 : ${t}
  }
}
`;
}

/** The corpus tolerance of a bound (the rules compare.ts applies). */
function toleranceOf(b: Bound | undefined): Tolerance {
  if (!b) return {};
  return {
    ...(b.ulp ? { ulp: b.ulp } : {}),
    ...(b.rel ? { rel: b.rel } : {}),
    ...(b.abs ? { abs: b.abs } : {}),
    ...(b.strictZeros ? {} : { signedZeros: false }),
    ...(b.subnormalResultMayFlush ? { subnormalsMayFlush: true } : {}),
  };
}

interface Mismatch {
  /** input bit patterns, per argument */
  inputs: number[];
  expected: number;
  got: number;
  why: string;
}

interface ExhaustiveReport {
  op: string;
  dtype: string;
  inputs: number;
  mismatches: number;
  /** pairs XLA's tests leave uncompared (the bound's skip rules), and NaN results of a type without NaN */
  skipped: number;
  /** elements accepted only as the result of subnormal inputs read as ±0 or ±smallest normal */
  substituted: number;
  /**
   * elements accepted only as a zero where the exact result lies below the smallest normal (the bound lets subnormal
   * results flush; XLA's test judges the unrounded result, so this includes results that round up to the smallest normal)
   */
  flushed: number;
  /** the first mismatches, in input order */
  first: Mismatch[];
  /** largest distance, absolute and relative error among the elements accepted or not (finite, non-NaN pairs) */
  maxUlp: number;
  maxAbs: number;
  maxRel: number;
  /** where the largest ulp distance is */
  worst?: Mismatch;
  bound: Bound | undefined;
  tolerance: Tolerance;
}

/** How many mismatches a report lists. */
export const FIRST_MISMATCHES = 8;

function compute(op: string, d: DtypeRow, xs: readonly number[]): number {
  const u = UNARY[op];
  if (u) return u.float!(xs[0]!);
  return BINARY[op]!.float!(xs[0]!, xs[1]!);
}

/**
 * XLA's harness reads a subnormal input as a zero of either sign or the smallest normal of its sign: every
 * combination of those readings for the subnormal operands (the unsubstituted one excluded).
 */
function substitutions(f: Format, xs: readonly number[]): number[][] {
  if (!xs.some((x) => isSub(f, x) || flushesInF32(x))) return []; // the only reading is the unsubstituted one
  const mn = smallestNormal(f.d);
  let out: number[][] = [[]];
  for (const x of xs) {
    const choices = isSub(f, x) ? [0, -0, Math.sign(x) * mn] : flushesInF32(x) ? [0, -0] : [x];
    out = out.flatMap((pre) => choices.map((c) => [...pre, c]));
  }
  return out.filter((c) => c.some((v, k) => !Object.is(v, xs[k])));
}

/** How one element's result is judged (elementJudge). */
type Judged = { how: 'tolerance' | 'substituted'; against: number } | { how: 'flushed' } | { how: 'mismatch'; why: string };

/** What the CTS accepts of each element of `op` on `d` over `inputs`: one judge for checkResults and acceptedSets. */
function elementJudge(op: string, d: DtypeRow, inputs: ExhaustiveInputs) {
  const f = format(d);
  const bound = boundOf(op, d);
  const tol = toleranceOf(bound);
  const [first, second] = inputs.args as [number[], number[] | undefined];
  const why = (e: number, a: number): string | null => {
    if (e === a) return null;
    if (Number.isNaN(f.values[e]!) && Number.isNaN(f.values[a]!)) return null;
    const m = elementMismatch(d, BigInt(e), BigInt(a), tol);
    if (m !== null) return m;
    if (bound?.unitRange && Math.abs(f.values[a]!) > 1) return 'outside [-1, 1]';
    return null;
  };
  const skips = bound?.skip ?? [];
  const readAsZero = (v: number) => isSub(f, v) || flushesInF32(v);
  const unary = UNARY[op]?.float;
  const binary = BINARY[op]?.float;
  const zeros = [encode(f, 0), encode(f, -0)];
  const exactOf = (i: number): number => {
    const x0 = f.values[first[i]!]!;
    return unary ? unary(x0) : binary!(x0, f.values[second![i]!]!);
  };
  /** how element i's result may be a flushed one: a zero where the exact result is subnormal, or any of `zeros` where f32 flushes it */
  const flushes = (i: number): { subnormal: boolean; inF32: boolean } => {
    const exact = exactOf(i);
    return { subnormal: !!bound?.subnormalResultMayFlush && isSub(f, exact), inF32: flushesInF32(exact) };
  };
  return {
    f, bound, tol, first, second,
    /** the oracle's pattern of element i, or 'skip' where the CTS compares nothing (XLA's skip rules, NaN of a type without NaN) */
    expected(i: number): number | 'skip' {
      if (skips.length && skips.some((s) => skipped(s, f.values[first[i]!]!, second === undefined ? undefined : f.values[second[i]!]!, readAsZero))) return 'skip';
      const e = encode(f, exactOf(i));
      return e === NO_NAN ? 'skip' : e;
    },
    flushes,
    zeros,
    /** how `a` (≠ e, the oracle's pattern of element i) is accepted, or why not */
    judge(i: number, e: number, a: number): Judged {
      const m0 = why(e, a);
      if (m0 === null) return { how: 'tolerance', against: e };
      const flush = flushes(i);
      if (flush.subnormal && f.values[a] === 0) return { how: 'flushed' };
      if (flush.inF32 && zeros.includes(a)) return { how: 'flushed' };
      const xs = (second === undefined ? [first[i]!] : [first[i]!, second[i]!]).map((b) => f.values[b]!);
      const alt = substitutions(f, xs).map((ys) => encode(f, compute(op, d, ys))).find((e2) => why(e2, a) === null);
      if (alt !== undefined) return { how: 'substituted', against: alt };
      return { how: 'mismatch', why: m0 };
    },
    /** the patterns a substituted input reading makes the oracle give (NO_NAN included: judge compares with it too) */
    alternatives(i: number): number[] {
      const xs = (second === undefined ? [first[i]!] : [first[i]!, second[i]!]).map((b) => f.values[b]!);
      return substitutions(f, xs).map((ys) => encode(f, compute(op, d, ys)));
    },
    /** whether `a` is within the bound of the centre `c` (the oracle's pattern or an alternative's) */
    within: (c: number, a: number): boolean => why(c, a) === null,
  };
}

/**
 * Checks a plugin's result bytes for `op` on `d` over `inputs`. The loop is the exhaustive area's hot path (up to
 * 65,536 elements per case): nothing is allocated for an element whose result is the oracle's.
 */
export function checkResults(op: string, d: DtypeRow, inputs: ExhaustiveInputs, actual: Uint8Array): ExhaustiveReport {
  const j = elementJudge(op, d, inputs);
  const f = j.f;
  const n = j.first.length;
  const r: ExhaustiveReport = { op, dtype: d.name, inputs: n, mismatches: 0, skipped: 0, substituted: 0, flushed: 0, first: [], maxUlp: 0, maxAbs: 0, maxRel: 0, bound: j.bound, tolerance: j.tol };
  const measure = (e: number, a: number, m: Mismatch) => {
    const ev = f.values[e]!;
    const av = f.values[a]!;
    if (e === a || !Number.isFinite(ev) || !Number.isFinite(av)) return;
    const ulp = Math.abs(f.ordered[e]! - f.ordered[a]!);
    const abs = Math.abs(av - ev);
    if (ulp > r.maxUlp) { r.maxUlp = ulp; r.worst = m; }
    r.maxAbs = Math.max(r.maxAbs, abs);
    if (ev !== 0) r.maxRel = Math.max(r.maxRel, abs / Math.abs(ev));
  };
  for (let i = 0; i < n; i++) {
    const e = j.expected(i);
    if (e === 'skip') { r.skipped++; continue; }
    const a = readPattern(d, actual, i);
    if (e === a) continue;
    const bits = j.second === undefined ? [j.first[i]!] : [j.first[i]!, j.second[i]!];
    const v = j.judge(i, e, a);
    if (v.how === 'flushed') { r.flushed++; continue; }
    if (v.how === 'substituted') r.substituted++;
    if (v.how !== 'mismatch') { measure(v.against, a, { inputs: bits, expected: v.against, got: a, why: '' }); continue; }
    const mm: Mismatch = { inputs: bits, expected: e, got: a, why: v.why };
    measure(e, a, mm);
    r.mismatches++;
    if (r.first.length < FIRST_MISMATCHES) r.first.push(mm);
  }
  return r;
}

/**
 * Every result pattern the CTS accepts for each element, as intervals of bit patterns: element i accepts the patterns
 * of lo[k]..hi[k] for k in offsets[i] ≤ k < offsets[i + 1]. An element the CTS does not compare accepts every pattern.
 * Built from checkResults' own judge: a result other than a zero or a NaN is accepted only within the bound of the
 * oracle's pattern or of a substituted reading's (judge), and within one sign each bound is one run in value order
 * (ulp distance, |a − c| and the [-1, 1] range all grow away from the centre), found by galloping and bisection; the
 * zeros and NaNs are put to the judge one by one.
 */
export interface AcceptedSets {
  offsets: Uint32Array;
  lo: Uint32Array;
  hi: Uint32Array;
  /** the oracle's pattern per element (0 where nothing is compared) */
  expected: Uint32Array;
  /** elements the CTS does not compare (XLA's skip rules; a NaN of a type without NaN) */
  notCompared: number;
}

export function acceptedSets(op: string, d: DtypeRow, inputs: ExhaustiveInputs): AcceptedSets {
  const j = elementJudge(op, d, inputs);
  const f = j.f;
  const n = j.first.length;
  const { negatives, positives, zeros, nans, where } = signOrder(f);
  const offsets = new Uint32Array(n + 1);
  const lo: number[] = [];
  const hi: number[] = [];
  const expected = new Uint32Array(n);
  let notCompared = 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = lo.length;
    const e = j.expected(i);
    if (e === 'skip') {
      notCompared++;
      lo.push(0);
      hi.push(f.count - 1);
      continue;
    }
    expected[i] = e;
    const accepted: number[] = [e];
    const runs: [number, number][] = [];
    for (const c of [e, ...j.alternatives(i)]) {
      const within = (a: number) => j.within(c, a);
      // a pattern outside the type (NO_NAN) is compared as its bits modulo the width, as elementMismatch reads it
      const at = where(c < 0 ? c & (f.count - 1) : c);
      for (const seg of [negatives, positives]) {
        if (at && at.seg === seg) {
          if (within(seg[at.k]!)) runs.push([gallop(seg, at.k, -1, within), gallop(seg, at.k, 1, within)].map((k) => seg[k]!) as [number, number]);
        } else {
          const near = seg === negatives ? seg.length - 1 : 0; // the end nearest zero
          if (seg.length && within(seg[near]!)) runs.push([seg[near]!, seg[gallop(seg, near, seg === negatives ? -1 : 1, within)]!]);
        }
      }
    }
    for (const z of [...zeros, ...nans.slice(0, 1)]) if (z === e || j.judge(i, e, z).how !== 'mismatch') accepted.push(z);
    if (nans.length && accepted.includes(nans[0]!)) accepted.push(...nans.slice(1));
    for (const [a, b] of runs) for (const x of [a, b]) accepted.push(x);
    for (const [a, b] of mergeRuns([...runs.map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number]), ...accepted.map((x) => [x, x] as [number, number])])) {
      lo.push(a);
      hi.push(b);
    }
  }
  offsets[n] = lo.length;
  return { offsets, lo: Uint32Array.from(lo), hi: Uint32Array.from(hi), expected, notCompared };
}

/**
 * What checkResults' judge needs besides the accepted patterns, for a script that reports as the CTS does (which
 * accepted results count as flushed or as read from substituted inputs, against which centre each is measured, why a
 * result is refused): the tolerance and range of the bound, the zeros of the type, per element whether it is compared
 * (`FLAG_SKIP`) and may be flushed (`FLAG_FLUSH_SUBNORMAL`: a zero; `FLAG_FLUSH_IN_F32`: one of `zeros`), and the
 * oracle's patterns for the substituted readings of its inputs, in the order the judge tries them (-1: a NaN of a type
 * without one). Element i's are alt[altOffsets[i]] … alt[altOffsets[i + 1] - 1].
 */
export interface JudgeTables {
  tolerance: Tolerance;
  unitRange: boolean;
  zeros: number[];
  flags: Uint8Array;
  altOffsets: Uint32Array;
  alt: Int32Array;
}
export const FLAG_SKIP = 1;
export const FLAG_FLUSH_SUBNORMAL = 2;
export const FLAG_FLUSH_IN_F32 = 4;

export function judgeTables(op: string, d: DtypeRow, inputs: ExhaustiveInputs): JudgeTables {
  const j = elementJudge(op, d, inputs);
  const n = j.first.length;
  const flags = new Uint8Array(n);
  const altOffsets = new Uint32Array(n + 1);
  const alt: number[] = [];
  for (let i = 0; i < n; i++) {
    altOffsets[i] = alt.length;
    if (j.expected(i) === 'skip') { flags[i] = FLAG_SKIP; continue; }
    const flush = j.flushes(i);
    flags[i] = (flush.subnormal ? FLAG_FLUSH_SUBNORMAL : 0) | (flush.inF32 ? FLAG_FLUSH_IN_F32 : 0);
    alt.push(...j.alternatives(i));
  }
  altOffsets[n] = alt.length;
  return { tolerance: j.tol, unitRange: !!j.bound?.unitRange, zeros: [...new Set(j.zeros)], flags, altOffsets, alt: Int32Array.from(alt) };
}

/**
 * The finite-or-infinite patterns of each sign in value order (each a contiguous run of bit patterns: sign and
 * magnitude), the zeros, the NaNs, and where a pattern is among the signed ones.
 */
function signOrder(f: Format): { negatives: number[]; positives: number[]; zeros: number[]; nans: number[]; where(b: number): { seg: number[]; k: number } | undefined } {
  const negatives: number[] = [];
  const positives: number[] = [];
  const zeros: number[] = [];
  const nans: number[] = [];
  for (let b = 0; b < f.count; b++) {
    const v = f.values[b]!;
    (Number.isNaN(v) ? nans : v === 0 ? zeros : v < 0 ? negatives : positives).push(b);
  }
  negatives.sort((x, y) => f.values[x]! - f.values[y]!);
  positives.sort((x, y) => f.values[x]! - f.values[y]!);
  for (const seg of [negatives, positives]) {
    const span = Math.abs(seg.at(-1)! - seg[0]!) + 1;
    if (seg.length && span !== seg.length) throw new Error(`${f.d.name}: the patterns of one sign are no contiguous run in value order`);
  }
  const index = new Map<number, { seg: number[]; k: number }>();
  negatives.forEach((b, k) => index.set(b, { seg: negatives, k }));
  positives.forEach((b, k) => index.set(b, { seg: positives, k }));
  return { negatives, positives, zeros, nans, where: (b) => index.get(b) };
}

/** From `seg[k]` (accepted) in direction `dir`, the last index whose pattern `ok` accepts before the first it refuses. */
function gallop(seg: readonly number[], k: number, dir: 1 | -1, ok: (b: number) => boolean): number {
  let good = k;
  let step = 1;
  let bad = -1;
  for (;;) {
    const next = good + dir * step;
    if (next < 0 || next >= seg.length) {
      const end = dir === 1 ? seg.length - 1 : 0;
      if (ok(seg[end]!)) return end;
      bad = end;
      break;
    }
    if (!ok(seg[next]!)) { bad = next; break; }
    good = next;
    step *= 2;
  }
  while (Math.abs(bad - good) > 1) {
    const mid = (good + bad) >> 1;
    if (ok(seg[mid]!)) good = mid;
    else bad = mid;
  }
  return good;
}

/** Closed integer ranges merged where they overlap or touch, in order. */
function mergeRuns(rs: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...rs].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

const hex = (d: DtypeRow, b: number) => `0x${b.toString(16).padStart(Math.ceil(d.bits / 4), '0')}`;
const num = (x: number) => (Number.isNaN(x) ? 'nan' : Object.is(x, -0) ? '-0' : String(x));

function showMismatch(d: DtypeRow, m: Mismatch): string {
  const f = format(d);
  const ins = m.inputs.map((b) => `${num(f.values[b]!)} (${hex(d, b)})`).join(', ');
  return `${ins} → expected ${num(f.values[m.expected]!)} (${hex(d, m.expected)}), got ${num(f.values[m.got]!)} (${hex(d, m.got)})${m.why ? `: ${m.why}` : ''}`;
}

/** The rule an exhaustive case checks, and what it expected, in its failure message. */
export const exhaustiveRule = (op: string, d: DtypeRow): { key: string; text: string } => ({
  key: 'PJRT_LoadedExecutable_Execute:within-accuracy-bound',
  text: `${op} on every ${d.name} input must stay within the op's accuracy bound`,
});
export const EXHAUSTIVE_EXPECTED = 'no mismatch';

/** The bound of `op` on `d` as a report ends with it. */
export function boundWords(op: string, d: DtypeRow): string {
  const b = boundOf(op, d);
  return b
    ? `bound ${[b.ulp ? `${b.ulp} ulp` : '', b.rel ? `rel ${b.rel.toPrecision(3)}` : '', b.abs ? `abs ${b.abs.toPrecision(3)}` : ''].filter(Boolean).join(' or ') || 'exact'}` +
      `${b.strictZeros ? ', signed zeros strict' : ''}${b.subnormalResultMayFlush ? ', subnormal results may flush' : ''} (${b.source})`
    : 'bound exact (StableHLO defines the result exactly)';
}

/** One paragraph: counts, the largest errors against the bound, the first mismatches. */
export function describeReport(r: ExhaustiveReport, d: DtypeRow): string {
  const limit = boundWords(r.op, d);
  const worst = r.worst ? ` at ${showMismatch(d, { ...r.worst, why: '' })}` : '';
  const head =
    `${r.op} on ${r.dtype}: ${r.inputs} inputs, ${r.mismatches} mismatches, ${r.skipped} not compared (XLA's skip rules), ${r.substituted} accepted as subnormal inputs read as ±0/±smallest normal, ${r.flushed} as subnormal results flushed; ` +
    `largest error ${r.maxUlp} ulp${worst}, abs ${r.maxAbs.toPrecision(3)}, rel ${r.maxRel.toPrecision(3)}; ${limit}`;
  return r.first.length ? `${head}; first mismatches: ${r.first.map((m) => showMismatch(d, m)).join('; ')}` : head;
}

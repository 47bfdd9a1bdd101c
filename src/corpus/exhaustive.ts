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
 * 1 + x rounded to the type; sine/cosine with the argument reduced by a float 2π; the arithmetic ops' rounding.
 */
const OP_FAULTS: Readonly<Record<string, OpFaults>> = {
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

const FIRST = 8;

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
  const mn = smallestNormal(f.d);
  let out: number[][] = [[]];
  for (const x of xs) {
    const choices = isSub(f, x) ? [0, -0, Math.sign(x) * mn] : flushesInF32(x) ? [0, -0] : [x];
    out = out.flatMap((pre) => choices.map((c) => [...pre, c]));
  }
  return out.filter((c) => c.some((v, k) => !Object.is(v, xs[k])));
}

/**
 * Checks a plugin's result bytes for `op` on `d` over `inputs`. The loop is the exhaustive area's hot path (up to
 * 65,536 elements per case): nothing is allocated for an element whose result is the oracle's.
 */
export function checkResults(op: string, d: DtypeRow, inputs: ExhaustiveInputs, actual: Uint8Array): ExhaustiveReport {
  const f = format(d);
  const bound = boundOf(op, d);
  const tol = toleranceOf(bound);
  const [first, second] = inputs.args as [number[], number[] | undefined];
  const n = first.length;
  const r: ExhaustiveReport = { op, dtype: d.name, inputs: n, mismatches: 0, skipped: 0, substituted: 0, flushed: 0, first: [], maxUlp: 0, maxAbs: 0, maxRel: 0, bound, tolerance: tol };
  const why = (e: number, a: number): string | null => {
    if (e === a) return null;
    if (Number.isNaN(f.values[e]!) && Number.isNaN(f.values[a]!)) return null;
    const m = elementMismatch(d, BigInt(e), BigInt(a), tol);
    if (m !== null) return m;
    if (bound?.unitRange && Math.abs(f.values[a]!) > 1) return 'outside [-1, 1]';
    return null;
  };
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
  const skips = bound?.skip ?? [];
  const readAsZero = (v: number) => isSub(f, v) || flushesInF32(v);
  const unary = UNARY[op]?.float;
  const binary = BINARY[op]?.float;
  const zeros = [encode(f, 0), encode(f, -0)];
  for (let i = 0; i < n; i++) {
    const b0 = first[i]!;
    const x0 = f.values[b0]!;
    const b1 = second?.[i];
    const x1 = b1 === undefined ? undefined : f.values[b1]!;
    if (skips.length && skips.some((s) => skipped(s, x0, x1, readAsZero))) { r.skipped++; continue; }
    const exact = unary ? unary(x0) : binary!(x0, x1!);
    const e = encode(f, exact);
    if (e === NO_NAN) { r.skipped++; continue; }
    const a = readPattern(d, actual, i);
    if (e === a) continue;
    const bits = b1 === undefined ? [b0] : [b0, b1];
    const m0 = why(e, a);
    if (m0 === null) { measure(e, a, { inputs: bits, expected: e, got: a, why: '' }); continue; }
    if (bound?.subnormalResultMayFlush && f.values[a] === 0 && isSub(f, exact)) { r.flushed++; continue; }
    if (flushesInF32(exact) && zeros.includes(a)) { r.flushed++; continue; }
    const xs = bits.map((b) => f.values[b]!);
    const alt = substitutions(f, xs).map((ys) => encode(f, compute(op, d, ys))).find((e2) => why(e2, a) === null);
    if (alt !== undefined) { r.substituted++; measure(alt, a, { inputs: bits, expected: alt, got: a, why: '' }); continue; }
    const mm: Mismatch = { inputs: bits, expected: e, got: a, why: m0 };
    measure(e, a, mm);
    r.mismatches++;
    if (r.first.length < FIRST) r.first.push(mm);
  }
  return r;
}

const hex = (d: DtypeRow, b: number) => `0x${b.toString(16).padStart(Math.ceil(d.bits / 4), '0')}`;
const num = (x: number) => (Number.isNaN(x) ? 'nan' : Object.is(x, -0) ? '-0' : String(x));

function showMismatch(d: DtypeRow, m: Mismatch): string {
  const f = format(d);
  const ins = m.inputs.map((b) => `${num(f.values[b]!)} (${hex(d, b)})`).join(', ');
  return `${ins} → expected ${num(f.values[m.expected]!)} (${hex(d, m.expected)}), got ${num(f.values[m.got]!)} (${hex(d, m.got)})${m.why ? `: ${m.why}` : ''}`;
}

/** One paragraph: counts, the largest errors against the bound, the first mismatches. */
export function describeReport(r: ExhaustiveReport, d: DtypeRow): string {
  const b = r.bound;
  const limit = b
    ? `bound ${[b.ulp ? `${b.ulp} ulp` : '', b.rel ? `rel ${b.rel.toPrecision(3)}` : '', b.abs ? `abs ${b.abs.toPrecision(3)}` : ''].filter(Boolean).join(' or ') || 'exact'}` +
      `${b.strictZeros ? ', signed zeros strict' : ''}${b.subnormalResultMayFlush ? ', subnormal results may flush' : ''} (${b.source})`
    : 'bound exact (StableHLO defines the result exactly)';
  const worst = r.worst ? ` at ${showMismatch(d, { ...r.worst, why: '' })}` : '';
  const head =
    `${r.op} on ${r.dtype}: ${r.inputs} inputs, ${r.mismatches} mismatches, ${r.skipped} not compared (XLA's skip rules), ${r.substituted} accepted as subnormal inputs read as ±0/±smallest normal, ${r.flushed} as subnormal results flushed; ` +
    `largest error ${r.maxUlp} ulp${worst}, abs ${r.maxAbs.toPrecision(3)}, rel ${r.maxRel.toPrecision(3)}; ${limit}`;
  return r.first.length ? `${head}; first mismatches: ${r.first.map((m) => showMismatch(d, m)).join('; ')}` : head;
}

// How far a plugin's float result may be from the oracle's, per op and element type: the bounds of XLA's own
// exhaustive tests (xla/tests/exhaustive/, openxla/xla main), restated here as data. XLA accepts an element when
// any bound holds (|actual − expected| ≤ abs, or ≤ rel·|expected|, or at most `ulp` representable values apart),
// after NaN = NaN, with the sign of zero checked only under "strict signed zeros". Where XLA gives a bound per
// backend (CpuError / GpuError / CpuArmError), the entry is the union: each bound the largest any backend gets,
// strictness only where every backend is strict — a plugin for any device passes whatever XLA's own backends pass.
// Ops XLA's exhaustive tests do not cover keep our own bound, and say so.
import type { DtypeRow } from '../abi/dtypes.js';
import { epsilon, smallestNormal, smallestSubnormal } from './floats.js';

const DIR = 'xla/tests/exhaustive/';
const UNARY_FILE = `${DIR}exhaustive_unary_test_functions.cc`;
const BINARY_FILE = `${DIR}exhaustive_binary_test_functions.cc`;
const DEFAULT_SPEC = `DefaultSpecGenerator in ${DIR}exhaustive_op_test_utils.h`;

/** Absolute bound, in terms of the type: a multiple of its smallest normal, or the cube root of its smallest subnormal. */
type AbsRule = { minNormals: number } | { cbrtOfSmallestSubnormal: true };

/** Input pairs XLA's tests do not compare (ErrorSpec::skip_comparison), by what they have in common. */
type SkipRule =
  | 'both-subnormal' // atan2 on bf16/f32 CPU: flushed, 0/0 gives NaN where the exact ratio gives a number
  | 'subnormal-times-infinity' // multiply on bf16 CPU: the flushed subnormal makes 0·inf = NaN
  | 'subnormal-base' // power on bf16/f32 CPU: "allows an arbitrary absolute error for subnormal values"
  | 'nan-to-zero-or-one-to-nan' // power: hardware gives 1 for pow(NaN, 0) and pow(1, NaN) (C pow agrees)
  | 'zero-inf-or-subnormal-base-subnormal-exponent'; // power on f64 CPU: 0 or inf whatever the exact value

interface BoundRule {
  ulp?: number;
  /** multiple of the type's epsilon (2^-mantissaBits) */
  relEps?: number;
  abs?: AbsRule;
  /** XLA's strict_signed_zeros: −0 and +0 differ */
  strictZeros?: boolean;
  /**
   * where the exact result is subnormal, an absolute slack of the type's smallest normal: XLA's CPU backend flushes
   * it (the tests' `*CpuAbsErr` helpers); in the corpus this is `subnormalsMayFlush`
   */
  subnormalResultMayFlush?: boolean;
  skip?: readonly SkipRule[];
  /** results must lie in [-1, 1] (XLA's OutputRangeCheck) */
  unitRange?: boolean;
}

interface OpBounds {
  /** the test (or the reason there is none) the numbers come from */
  source: string;
  /** XLA has a bound (false: ours) */
  xla: boolean;
  /** the rule for every type not listed in `types` */
  all: BoundRule;
  /** per-type overrides (dtype table names) */
  types?: Readonly<Record<string, BoundRule>>;
}

/** XLA's default generator: relative slack per type, in epsilons; f8 types exact. Absolute slack 2 smallest normals. */
const DEFAULT_REL_EPS: Readonly<Record<string, number>> = { f16: 5, bf16: 2, f32: 20, f64: 20 };
const EXACT_F8 = ['f8e4m3fn', 'f8e5m2'];
/** The types XLA's exhaustive tests instantiate (…_instantiation.inc). */
const XLA_TYPES: ReadonlySet<string> = new Set([...Object.keys(DEFAULT_REL_EPS), ...EXACT_F8]);

function defaultRule(extra: Readonly<Record<string, BoundRule>> = {}): Pick<OpBounds, 'all' | 'types'> {
  const types: Record<string, BoundRule> = {};
  for (const [t, rel] of Object.entries(DEFAULT_REL_EPS)) types[t] = { relEps: rel, abs: { minNormals: 2 } };
  for (const t of EXACT_F8) types[t] = { strictZeros: true };
  return { all: SMALL_FLOAT_FALLBACK, types: { ...types, ...extra } };
}

/**
 * Types XLA's exhaustive tests do not instantiate (f8e4m3b11fnuz, the fnuz types, f8e4m3, f8e3m4, f6, f4, …): ours —
 * one representable value either way, the most XLA allows any f8 type for a transcendental.
 */
const SMALL_FLOAT_FALLBACK: BoundRule = { ulp: 1, strictZeros: true };

const EXACT_STRICT: BoundRule = { strictZeros: true };

/** Per-type rule helper: the same rule for several types. */
function each(names: readonly string[], rule: BoundRule): Record<string, BoundRule> {
  return Object.fromEntries(names.map((n) => [n, rule]));
}

const FLUSHING_CPU = ['bf16', 'f32', 'f64'];

export const BOUNDS: Readonly<Record<string, OpBounds>> = {
  // ---- unary ----
  log: { source: `${UNARY_FILE} UNARY_TEST(Log): ${DEFAULT_SPEC}`, xla: true, ...defaultRule() },
  log_plus_one: { source: `${UNARY_FILE} UNARY_TEST(Log1p): ${DEFAULT_SPEC}, f8e5m2 1 ulp`, xla: true, ...defaultRule({ f8e5m2: { ulp: 1 } }) },
  exponential: { source: `${UNARY_FILE} UNARY_TEST(Exp): ${DEFAULT_SPEC}, f8e5m2 1 ulp`, xla: true, ...defaultRule({ f8e5m2: { ulp: 1 } }) },
  exponential_minus_one: { source: `${UNARY_FILE} UNARY_TEST(Expm1): ${DEFAULT_SPEC}`, xla: true, ...defaultRule() },
  logistic: {
    source: `${UNARY_FILE} UNARY_TEST(Logistic): ${DEFAULT_SPEC}, f8e4m3fn 1 ulp, results within [-1, 1]`,
    xla: true,
    ...withEach(defaultRule({ f8e4m3fn: { ulp: 1 } }), { unitRange: true }),
  },
  tanh: { source: `${UNARY_FILE} UNARY_TEST(Tanh): ${DEFAULT_SPEC}, results within [-1, 1]`, xla: true, ...withEach(defaultRule(), { unitRange: true }) },
  sqrt: { source: `${UNARY_FILE} UNARY_TEST(Sqrt): 2 epsilons relative, strict signed zeros`, xla: true, all: { relEps: 2, strictZeros: true } },
  rsqrt: { source: `${UNARY_FILE} UNARY_TEST(Rsqrt): 2 epsilons relative, strict signed zeros`, xla: true, all: { relEps: 2, strictZeros: true } },
  cbrt: {
    source: `${UNARY_FILE} UNARY_TEST(Cbrt): 16 epsilons relative (GPU), on CPU 10 (f64: 70) epsilons or the cube root of the smallest subnormal absolute; strict signed zeros`,
    xla: true,
    all: { relEps: 16, abs: { cbrtOfSmallestSubnormal: true }, strictZeros: true },
    types: { f64: { relEps: 70, abs: { cbrtOfSmallestSubnormal: true }, strictZeros: true } },
  },
  sine: {
    source: `${UNARY_FILE} UNARY_TEST(Sin): 2 epsilons relative; on ARM CPUs a subnormal or smallest-normal result may be off by the smallest normal; results within [-1, 1]`,
    xla: true,
    all: { relEps: 2, subnormalResultMayFlush: true, unitRange: true },
  },
  cosine: { source: `${UNARY_FILE} UNARY_TEST(Cos): 2 epsilons relative, results within [-1, 1]`, xla: true, all: { relEps: 2, unitRange: true } },
  tan: {
    source: `${UNARY_FILE} UNARY_TEST(Tan): 4 epsilons relative; on ARM CPUs a subnormal or smallest-normal result may be off by the smallest normal`,
    xla: true,
    all: { relEps: 4, subnormalResultMayFlush: true },
  },
  round_nearest_even: { source: `${UNARY_FILE} UNARY_TEST(RoundNearestEven): no error spec (exact)`, xla: true, all: EXACT_STRICT },
  round_nearest_afz: {
    source: `ours: exact (the result is an integer the type represents); XLA's ${UNARY_FILE} UNARY_TEST(Round) allows its default spec`,
    xla: false,
    all: EXACT_STRICT,
  },
  // ---- binary ----
  add: {
    source: `${BINARY_FILE} BINARY_TEST(Add): exact, strict signed zeros; on CPU a subnormal bf16/f32/f64 result may flush`,
    xla: true,
    all: EXACT_STRICT,
    types: each(FLUSHING_CPU, { strictZeros: true, subnormalResultMayFlush: true }),
  },
  subtract: {
    source: `${BINARY_FILE} BINARY_TEST(Sub): exact, strict signed zeros; on CPU a subnormal bf16/f32/f64 result may flush`,
    xla: true,
    all: EXACT_STRICT,
    types: each(FLUSHING_CPU, { strictZeros: true, subnormalResultMayFlush: true }),
  },
  multiply: {
    source: `${BINARY_FILE} BINARY_TEST(Mul): exact, strict signed zeros; on CPU a subnormal bf16/f32 result may flush, bf16 subnormal × infinity not compared`,
    xla: true,
    all: EXACT_STRICT,
    types: {
      bf16: { strictZeros: true, subnormalResultMayFlush: true, skip: ['subnormal-times-infinity'] },
      f32: { strictZeros: true, subnormalResultMayFlush: true },
    },
  },
  divide: {
    source: `${BINARY_FILE} BINARY_TEST(Div): strict signed zeros; GPU f16 1 ulp, f32 2 ulp; on CPU a subnormal bf16/f32/f64 result may flush`,
    xla: true,
    all: EXACT_STRICT,
    types: {
      f16: { ulp: 1, strictZeros: true },
      bf16: { strictZeros: true, subnormalResultMayFlush: true },
      f32: { ulp: 2, strictZeros: true, subnormalResultMayFlush: true },
      f64: { strictZeros: true, subnormalResultMayFlush: true },
    },
  },
  maximum: {
    source: `${BINARY_FILE} BINARY_TEST(Max): exact; signed zeros strict on CPU, not on GPU ("A100 and H100 return -0 for max(-0,0)")`,
    xla: true,
    all: {},
  },
  minimum: {
    source: `${BINARY_FILE} BINARY_TEST(Min): exact; signed zeros strict on CPU, not on GPU ("A100 and H100 return 0 for min(0,-0)")`,
    xla: true,
    all: {},
  },
  power: {
    source:
      `${BINARY_FILE} BINARY_TEST(Pow): 1 ulp (GPU; f8 on CPU), strict signed zeros; pow(NaN, 0) and pow(1, NaN) not compared; ` +
      'on CPU a subnormal bf16/f32 result may flush and a subnormal bf16/f32 base is not compared (b/359325328), f64 0/inf/subnormal bases with a subnormal exponent not compared',
    xla: true,
    all: { ulp: 1, strictZeros: true, skip: ['nan-to-zero-or-one-to-nan'] },
    types: {
      bf16: { ulp: 1, strictZeros: true, subnormalResultMayFlush: true, skip: ['nan-to-zero-or-one-to-nan', 'subnormal-base'] },
      f32: { ulp: 1, strictZeros: true, subnormalResultMayFlush: true, skip: ['nan-to-zero-or-one-to-nan', 'subnormal-base'] },
      f64: { ulp: 1, strictZeros: true, skip: ['nan-to-zero-or-one-to-nan', 'zero-inf-or-subnormal-base-subnormal-exponent'] },
      // ours: XLA computes f8e8m0fnu in f32, where its smallest value 2^-127 is a subnormal base (the f32 skip above)
      f8e8m0fnu: { ulp: 1, strictZeros: true, skip: ['nan-to-zero-or-one-to-nan', 'subnormal-base'] },
    },
  },
  atan2: {
    source:
      `${BINARY_FILE} BINARY_TEST(Atan2): the larger of the CPU and GPU distance_err (f16/bf16 1, f32 3, f64 2; f8 1), strict signed zeros; ` +
      'on CPU a subnormal bf16/f32/f64 result may flush and bf16/f32 pairs of subnormals are not compared',
    xla: true,
    all: { ulp: 1, strictZeros: true },
    types: {
      bf16: { ulp: 1, strictZeros: true, subnormalResultMayFlush: true, skip: ['both-subnormal'] },
      f32: { ulp: 3, strictZeros: true, subnormalResultMayFlush: true, skip: ['both-subnormal'] },
      f64: { ulp: 2, strictZeros: true, subnormalResultMayFlush: true },
    },
  },
  remainder: {
    source: "ours: exact, strict signed zeros (fmod's result is exact; XLA's exhaustive tests have no remainder)",
    xla: false,
    all: EXACT_STRICT,
  },
};

function withEach(b: Pick<OpBounds, 'all' | 'types'>, extra: BoundRule): Pick<OpBounds, 'all' | 'types'> {
  const types = Object.fromEntries(Object.entries(b.types ?? {}).map(([k, r]) => [k, { ...r, ...extra }]));
  return { all: { ...b.all, ...extra }, types };
}

/** A bound in numbers for one element type. */
export interface Bound {
  ulp: number;
  rel: number;
  abs: number;
  strictZeros: boolean;
  subnormalResultMayFlush: boolean;
  skip: readonly SkipRule[];
  unitRange: boolean;
  source: string;
  xla: boolean;
}

/** The bound of `op` on `d`, or undefined when the op has no entry (exact ops: abs, negate, floor, …). */
export function boundOf(op: string, d: DtypeRow): Bound | undefined {
  const b = BOUNDS[op];
  if (!b) return undefined;
  const r = b.types?.[d.name] ?? b.all;
  const fromXla = b.xla && XLA_TYPES.has(d.name);
  const abs = r.abs === undefined ? 0 : 'minNormals' in r.abs ? r.abs.minNormals * smallestNormal(d) : Math.cbrt(smallestSubnormal(d));
  return {
    ulp: r.ulp ?? 0,
    rel: (r.relEps ?? 0) * epsilon(d),
    abs,
    strictZeros: r.strictZeros ?? false,
    subnormalResultMayFlush: r.subnormalResultMayFlush ?? false,
    skip: r.skip ?? [],
    unitRange: r.unitRange ?? false,
    source: fromXla || !b.xla ? b.source : `ours: XLA's exhaustive tests do not instantiate ${d.name}; ${r === SMALL_FLOAT_FALLBACK ? 'one ulp, strict signed zeros' : 'the rule XLA applies to every type it tests'} (${b.source})`,
    xla: fromXla,
  };
}

/** Whether XLA's tests leave the pair (x, y) (y undefined for unary ops) uncompared under `rule`. */
export function skipped(rule: SkipRule, x: number, y: number | undefined, sub: (v: number) => boolean): boolean {
  const isInf = (v: number | undefined) => v !== undefined && !Number.isNaN(v) && !Number.isFinite(v);
  switch (rule) {
    case 'both-subnormal': return y !== undefined && sub(x) && sub(y);
    case 'subnormal-times-infinity': return (sub(x) && isInf(y)) || (isInf(x) && y !== undefined && sub(y));
    case 'subnormal-base': return sub(x);
    case 'nan-to-zero-or-one-to-nan': return (Number.isNaN(x) && y === 0) || (x === 1 && y !== undefined && Number.isNaN(y));
    case 'zero-inf-or-subnormal-base-subnormal-exponent': return y !== undefined && sub(y) && (sub(x) || isInf(x) || x === 0);
  }
}

// The small floats end to end (f8*, f4E2M1FN): convert from f32/f16/bf16 at every edge of each format (ties,
// overflow, subnormals, NaN, ±0), every bit pattern back to f32/f16/bf16 and to a neighbouring small type, and
// arithmetic and compare on a handful of values. Formats are the dtype table's FLOAT_FORMATS; every answer here was
// checked against XLA's CPU compiler (xla-check), which rounds each result once to the type (it widens to f32).
//
// Not here: f6E2M3FN / f6E3M2FN (XLA's CPU compiler rejects them: "Invalid XLA PrimitiveType" for a convert to
// them, an LLVM error for one from them), so no referee can vouch for a program; they go through tier1.transfer.
// Where a result depends on a choice XLA makes and the spec does not (a NaN converted to f4E2M1FN, which has no
// NaN: XLA gives -0, ml_dtypes +0), no program asks for it.
import { dtype as dtypeByName, floatFormat, isSmallFloat, DTYPES, type DtypeRow } from '../../abi/dtypes.js';
import { compare, DIRECTIONS } from '../../oracle/compare.js';
import { convert } from '../../oracle/convert.js';
import { binary, unary } from '../../oracle/elementwise.js';
import { bitsToFloat, hasNan } from '../../oracle/floats.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { fanOut, floatConsts, PRED, program, singleOp, vec, type Program } from './program.js';

/** The small floats XLA's CPU compiler computes in (f6 types excluded, see above). */
const SMALL_FLOATS: readonly DtypeRow[] = DTYPES.filter((d) => isSmallFloat(d) && !d.name.startsWith('f6'));
const WIDE = ['f32', 'f16', 'bf16'].map(dtypeByName);
const F32 = dtypeByName('f32');

/** Every bit pattern of `d` (its NaNs left out when `finiteOnly`). */
function allPatterns(d: DtypeRow, numbersOnly = false): Tensor {
  const bits: bigint[] = [];
  for (let b = 0n; b < 1n << BigInt(d.bits); b++) if (!numbersOnly || !Number.isNaN(bitsToFloat(d, b))) bits.push(b);
  return Tensor.fromBits(d, [bits.length], bits);
}

/**
 * Values that probe rounding into `d` (given as f64 and rounded to the source type by `vec`): the largest finite
 * value and the ties and near-ties around it and around 1 and the smallest subnormal, overflow, ±inf, NaN, ±0.
 */
function edgeValues(d: DtypeRow): number[] {
  const f = floatFormat(d);
  const { max, sub, norm, eps } = floatConsts(d);
  if (f.nan === 'e8m0') {
    // powers of two: ties are at 1.5·2^k (they round up); 0, negatives, inf and NaN give NaN; no zero to flush to
    return [1, 1.4, 1.5, 3, 0.75, 2 ** -127, 2 ** -126 * 0.75, 2 ** 126, max, max * 1.4, max * 1.5, 0, -1, Infinity, NaN, 6e-39];
  }
  const ulpMax = 2 ** Math.floor(Math.log2(max)) * eps; // the spacing of the values just below max
  const vals = [
    0, -0, 1, -1, max, -max,
    max - ulpMax / 4, // just under the largest finite value: rounds to it
    max + ulpMax / 2, // the tie above it: RNE picks max (even mantissa) or the next, which overflows
    max + ulpMax * 0.51, -(max + ulpMax * 0.51), 1e30, -1e30, Infinity, -Infinity,
    1 + eps / 2, 1 + eps * 1.5, 1 + eps * 0.25, 1 + eps * 0.75, -(1 + eps * 0.75), // ties to even, below, above
    sub, sub / 2, sub * 0.75, sub * 1.5, -sub * 0.25, norm - sub / 2, norm * (1 - eps / 8),
  ];
  if (hasNan(d)) vals.push(NaN);
  return vals;
}

function convertProgram(name: string, from: Tensor, to: DtypeRow, description: string, catches: readonly string[] = []): Program {
  return singleOp(name, 'convert', [from], convert(from, to), description, undefined, [], { catches });
}

/** Operand pairs for arithmetic on `d`: ties, overflow, signed zeros, NaN and infinities where the type has them. */
function arithmeticOperands(d: DtypeRow): [number[], number[]] {
  const f = floatFormat(d);
  const { max, sub, norm, eps } = floatConsts(d);
  if (f.nan === 'e8m0') {
    // XLA computes in f32 with subnormals flushed: keep operands and results normal f32 numbers (2^-126 and up)
    return [
      [1, 2, 1, 4, 2 ** 100, 2 ** 120, 0.5, 8, NaN, 1, 2 ** -60, 16],
      [0.5, 1, 2, 4, 2 ** 20, 2 ** 10, 0.25, 8, 1, NaN, 2 ** -60, 2 ** -3],
    ];
  }
  const a = [1, 1 + eps, 1, max, -max, max, sub, norm, 3, 1.5, -2, 1];
  const b = [eps / 2, eps / 2, -1, max, -max, -max / 2, sub, -sub, 0.5, 1.5, 0.75, 3];
  // ±0 with ±0 (0/0 is NaN, which f4E2M1FN lacks: XLA gives -0 there, ml_dtypes +0; the spec does not say)
  if (f.nan !== 'none') a.push(0, -0), b.push(-0, -0);
  if (f.nan !== 'none') a.push(NaN, 1), b.push(1, NaN);
  if (f.nan === 'ieee') a.push(Infinity, Infinity, -Infinity), b.push(-Infinity, 1, 2);
  return [a, b];
}

const BINARY_OPS = ['add', 'subtract', 'multiply', 'divide', 'maximum', 'minimum'] as const;
const UNARY_OPS = ['negate', 'abs'] as const;

/**
 * The reference plugin's faults a convert from f32 to `d` shows: its edge values have ties (a truncating convert
 * differs), overflow (where `d` overflows to inf or NaN, a saturating one differs) and, for f4e2m1fn, subnormals.
 */
function narrowingCatches(d: DtypeRow): string[] {
  const f = floatFormat(d);
  return ['f8_convert_truncates', ...(f.overflow !== 'saturate' ? ['f8_overflow_saturates'] : []), ...(d.name === 'f4e2m1fn' ? ['f4_subnormal_flushed'] : [])];
}

export function smallFloatPrograms(): Program[] {
  const out: Program[] = [];
  SMALL_FLOATS.forEach((d, k) => {
    const f = floatFormat(d);
    const kind = `${f.nan} format, bias ${f.bias}, overflow to ${f.overflow === 'saturate' ? 'the largest finite value' : f.overflow}`;
    out.push(convertProgram(`convert_f32_to_${d.name}`, vec(F32, edgeValues(d)), d, `convert f32 → ${d.name} (${kind}): ties to even, overflow, subnormals, ±0${hasNan(d) ? ', NaN' : ''}`, narrowingCatches(d)));
    for (const w of WIDE.slice(1)) {
      const src = vec(w, edgeValues(d).filter((x) => Number.isNaN(x) || w.name !== 'f16' || Math.abs(x) < 65504));
      out.push(convertProgram(`convert_${w.name}_to_${d.name}`, src, d, `convert ${w.name} → ${d.name}: the f32 edge values as far as ${w.name} holds them`));
    }
    out.push(fanOut(`convert_${d.name}_to_wide`, allPatterns(d), WIDE, `convert every bit pattern of ${d.name} (${kind}) to f32, f16 and bf16; three results`,
      f.nan === 'fnuz' ? ['fnuz_nan_as_negative_zero'] : []));
    const next = SMALL_FLOATS[(k + 1) % SMALL_FLOATS.length]!;
    out.push(convertProgram(`convert_${d.name}_to_${next.name}`, allPatterns(d, !hasNan(next)), next,
      `convert every ${hasNan(next) ? '' : 'non-NaN '}bit pattern of ${d.name} to ${next.name} (one rounding, per ${next.name}'s overflow rule)`));
    const [xa, xb] = arithmeticOperands(d);
    const a = vec(d, xa);
    const b = vec(d, xb);
    for (const op of BINARY_OPS) out.push(singleOp(`${op}_${d.name}`, op, [a, b], binary(op, a, b), `${op} on ${d.name}: computed exactly, rounded once to the type (ties, overflow, ±0${hasNan(d) ? ', NaN' : ''})`));
    for (const op of UNARY_OPS) out.push(singleOp(`${op}_${d.name}`, op, [a], unary(op, a), `${op} on every operand of the arithmetic programs of ${d.name}`));
    const cf = new FuncBuilder('main');
    const x = cf.arg(typeOf(a));
    const y = cf.arg(typeOf(b));
    const predT = tensorType(PRED, a.dims);
    const results = DIRECTIONS.map((dir) => ({ value: cf.op(`stablehlo.compare  ${dir}, ${x}, ${y},  FLOAT : (${typeOf(a)}, ${typeOf(b)}) -> ${predT}`), type: predT }));
    const cname = `compare_float_${d.name}`;
    out.push(program({
      name: cname,
      description: `compare ${DIRECTIONS.join('/')} (FLOAT) on ${d.name}; six results`,
      ops: ['compare'],
      text: moduleText(cname, [cf.text(results)]),
      inputs: [a, b],
      outputs: DIRECTIONS.map((dir) => compare(dir, a, b, 'FLOAT')),
    }));
  });
  return out;
}

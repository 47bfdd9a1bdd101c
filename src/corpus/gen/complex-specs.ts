// complex64 / complex128: complex, real, imag, negate, add, subtract, multiply, divide, abs, compare EQ/NE and
// convert between real and complex types. Parts avoid subnormals (XLA's CPU compiler may flush them); multiply,
// divide and abs use operands whose results are exact, so every answer is exact whatever formula a compiler uses.
import type { DtypeRow } from '../../abi/dtypes.js';
import { complexAbs, complexBinary, complexCompare, complexNegate, complexOf, complexPart } from '../../oracle/complex.js';
import { convert } from '../../oracle/convert.js';
import { largestFinite } from '../../oracle/floats.js';
import { partDtype, Tensor, type Complex } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, PRED, program, singleOp, vec, type Program } from './program.js';

const INF = Infinity;
const COMPLEX = [dt('c64'), dt('c128')];
const c = (re: number, im: number): Complex => ({ re, im });
const cvec = (d: DtypeRow, zs: readonly Complex[]) => vec(d, zs);

function partsProgram(d: DtypeRow): Program {
  const p = partDtype(d);
  const max = largestFinite(p);
  const re = vec(p, [0, -0, 1.5, -2, INF, -INF, NaN, max, 0.1, 1]);
  const im = vec(p, [-0, 0, -3, INF, 2, NaN, -INF, -max, 1e-3, 0]);
  const z = complexOf(re, im);
  const f = new FuncBuilder('main');
  const [a, b] = [f.arg(typeOf(re)), f.arg(typeOf(im))];
  const zc = f.op(`stablehlo.complex ${a}, ${b} : ${typeOf(z)}`);
  const r = f.op(`stablehlo.real ${zc} : (${typeOf(z)}) -> ${typeOf(re)}`);
  const i = f.op(`stablehlo.imag ${zc} : (${typeOf(z)}) -> ${typeOf(im)}`);
  const name = `complex_real_imag_${d.name}`;
  return program({
    name,
    description: `complex of two ${p.name} tensors (zeros of both signs, infinities, NaN, extremes) and its real and imag parts; ${d.name} result`,
    ops: ['complex', 'real', 'imag'],
    text: moduleText(name, [f.text([{ value: zc, type: typeOf(z) }, { value: r, type: typeOf(re) }, { value: i, type: typeOf(im) }])]),
    inputs: [re, im],
    outputs: [z, complexPart(z, 're'), complexPart(z, 'im')],
    catches: ['imag_returns_real_part'], // every element has an imaginary part other than its real part
  });
}

/** Operand pairs per binary op; multiply and divide have exact results (divisors whose part ratio is a power of two). */
function pairs(op: string, d: DtypeRow): [Complex[], Complex[]] {
  const max = largestFinite(partDtype(d));
  switch (op) {
    case 'multiply':
      return [[c(1, 2), c(0, 1), c(-3, 0.5), c(2, -2), c(-0, 0), c(1.5, 4), c(max, 0)], [c(3, -4), c(0, 1), c(2, 8), c(2, 2), c(1, 1), c(-2, 0.25), c(0.5, 0)]];
    case 'divide':
      return [[c(5, 0), c(10, 5), c(-6, 8), c(0, 1), c(7, -7), c(12, 3)], [c(2, 1), c(1, 2), c(4, -2), c(1, 1), c(-1, 1), c(3, 0)]];
    default: // add, subtract: componentwise IEEE edge cases
      return [[c(1, 2), c(-0, 0), c(INF, 1), c(NaN, 0), c(max, -max), c(0.5, -0), c(INF, -INF)], [c(3, -4), c(-0, -0), c(-INF, 1), c(1, NaN), c(max, -max), c(-0.25, -0), c(1, INF)]];
  }
}

function arithmeticPrograms(d: DtypeRow): Program[] {
  const out: Program[] = [];
  for (const op of ['add', 'subtract', 'multiply', 'divide']) {
    const [x, y] = pairs(op, d);
    const [a, b] = [cvec(d, x), cvec(d, y)];
    const what = op === 'multiply' || op === 'divide' ? 'operands with exact results' : 'IEEE edge cases in either part';
    // a zero part of a quotient takes its sign from the division formula (Smith's algorithm, which XLA uses, gives
    // (7 − 7i) / (−1 + i) = −7 − 0i where (bc − ad) / |y|² gives +0); the spec names no formula
    const tol: Tolerance | undefined = op === 'divide' ? { signedZeros: false, source: 'StableHLO spec divide names no complex division formula; the sign of a zero part depends on it' } : undefined;
    // the multiply pairs have b·d ≠ 0 (the reference plugin's complex_multiply_sign_wrong shows)
    const catches = op === 'multiply' ? ['complex_multiply_sign_wrong'] : [];
    out.push(singleOp(`${op}_${d.name}`, op, [a, b], complexBinary(op, a, b), `${op} on ${d.name}: ${what}`, tol, [], { catches }));
  }
  const max = largestFinite(partDtype(d));
  const n = cvec(d, [c(1, -2), c(0, -0), c(INF, NaN), c(-max, 0.5)]);
  out.push(singleOp(`negate_${d.name}`, 'negate', [n], complexNegate(n), `negate on ${d.name}: both parts, zeros of either sign, infinities and NaN`));
  const m = cvec(d, [c(3, 4), c(-0.75, 1), c(0, -2), c(1.5, -2), c(INF, 1), c(-1, -INF), c(0, 0), c(6, -8)]);
  out.push(singleOp(`abs_${d.name}`, 'abs', [m], complexAbs(m), `abs on ${d.name}: the modulus (exact: parts in ratios with an exact hypotenuse), infinities`));
  return out;
}

function comparePrograms(d: DtypeRow): Program {
  const a = cvec(d, [c(1, 2), c(1, 2), c(1, 2), c(-0, 0), c(NaN, 0), c(INF, -1), c(0, 1)]);
  const b = cvec(d, [c(1, 2), c(1, -2), c(2, 2), c(0, -0), c(NaN, 0), c(INF, -1), c(1, 0)]);
  const f = new FuncBuilder('main');
  const [x, y] = [f.arg(typeOf(a)), f.arg(typeOf(b))];
  const predT = tensorType(PRED, a.dims);
  const dirs = ['EQ', 'NE'] as const;
  const results = dirs.map((dir) => ({ value: f.op(`stablehlo.compare  ${dir}, ${x}, ${y},  FLOAT : (${typeOf(a)}, ${typeOf(b)}) -> ${predT}`), type: predT }));
  const name = `compare_float_${d.name}`;
  return program({
    name,
    description: `compare EQ and NE on ${d.name}: equal only when both parts are (NaN never, −0 = +0); two results`,
    ops: ['compare'],
    text: moduleText(name, [f.text(results)]),
    inputs: [a, b],
    outputs: dirs.map((dir) => complexCompare(dir, a, b)),
  });
}

function convertPrograms(): Program[] {
  const [c64, c128, f32, f64, s32] = ['c64', 'c128', 'f32', 'f64', 's32'].map(dt) as [DtypeRow, DtypeRow, DtypeRow, DtypeRow, DtypeRow];
  const cases: { from: Tensor; to: DtypeRow; what: string }[] = [
    { from: vec(f32, [1.5, -0, INF, NaN, -3]), to: c64, what: 'the real part converts, the imaginary part is +0' },
    { from: vec(f64, [0.1, -2.5, 1e300, -0]), to: c64, what: 'the real part rounds to nearest even (1e300 overflows to inf), the imaginary part is +0' },
    { from: vec(s32, [0n, -7n, 16777217n, 2147483647n]), to: c64, what: 'integers round to the nearest f32 real part' },
    { from: cvec(c64, [c(0.1, -0.2), c(INF, -0), c(NaN, 3)]), to: c128, what: 'both parts widen exactly' },
    { from: cvec(c128, [c(0.1, -0.2), c(1e300, -1e-3), c(-0, NaN)]), to: c64, what: 'both parts round to nearest even' },
    { from: cvec(c64, [c(1.5, -2), c(-0, 7), c(INF, NaN)]), to: f32, what: 'the imaginary part is dropped' },
  ];
  return cases.map(({ from, to, what }) => {
    const name = `convert_${from.dtype.name}_to_${to.name}`;
    return singleOp(name, 'convert', [from], convert(from, to), `convert ${from.dtype.name} → ${to.name}: ${what}`);
  });
}

export function complexPrograms(): Program[] {
  return COMPLEX.flatMap((d) => [partsProgram(d), ...arithmeticPrograms(d), comparePrograms(d)]).concat(convertPrograms());
}

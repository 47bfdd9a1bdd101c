// cholesky and triangular_solve on f32 / f64 batches of matrices. Each program factors (solves) one input both
// ways — cholesky lower and upper, triangular_solve NO_TRANSPOSE and TRANSPOSE/ADJOINT — so every program shows a
// kernel that ignores `lower` or `transpose_a`. Inputs are only those the spec defines results for: symmetric
// positive-definite matrices for cholesky (identity, 1x1, the spec's example, an ill-conditioned Hilbert matrix),
// nonsingular triangles for triangular_solve (with values in the triangle it must not read).
import type { DtypeRow } from '../../abi/dtypes.js';
import { epsilon } from '../../oracle/floats.js';
import { cholesky, oppositeTriangle, spdConditionNumber, triangularSolve, triangularSolveConditioning, type Transpose, type TriangularSolveOptions } from '../../oracle/linalg.js';
import { Tensor } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

const unitRoundoff = (d: DtypeRow) => epsilon(d) / 2;
const gamma = (n: number, u: number) => (n * u) / (1 - n * u);

function frobenius(t: Tensor): number {
  let s = 0;
  for (let i = 0; i < t.size; i++) s += (t.get(i) as number) ** 2;
  return Math.sqrt(s);
}

/** Per-output tolerance with its reasoning; zeros of either sign compare equal (a bound, not a bit pattern). */
function bound(abs: number, source: string): Tolerance {
  return { abs, signedZeros: false, source };
}

// ---------------- cholesky

/** inputs: each factored both ways (a 1x1 matrix shows no `lower` mix-up alone, so it comes with a larger one) */
interface CholeskyCase { id: string; description: string; inputs: Tensor[] }

/**
 * The factor's forward error: A + ΔA = L̂·L̂ᵀ with |ΔA| ≤ γ_{n+1}|L̂||L̂ᵀ| (Higham, Accuracy and Stability of
 * Numerical Algorithms, Thm 10.3), and ‖ΔL‖_F ≲ κ₂(A)·‖ΔA‖/‖A‖·‖L‖ (Sun's perturbation bound, ibid. Thm 10.8);
 * doubled for the f64 reference's own rounding. Only positive-definite inputs: the spec leaves others undefined.
 */
function choleskyTolerance(a: Tensor, l: Tensor): Tolerance {
  const n = a.dims[a.dims.length - 1]!;
  const kappa = spdConditionNumber(a);
  const abs = 2 * gamma(n + 1, unitRoundoff(a.dtype)) * kappa * frobenius(l);
  return bound(abs, `forward error of a Cholesky factor: 2·γ_{n+1}·κ₂(A)·‖L‖_F with n = ${n}, κ₂(A) = ${kappa.toPrecision(3)} (Higham, Accuracy and Stability of Numerical Algorithms, Thms 10.3 and 10.8)`);
}

function choleskyProgram(c: CholeskyCase): Program {
  const f = new FuncBuilder('main');
  const args = c.inputs.map((t) => f.arg(typeOf(t)));
  const results: { value: string; type: string }[] = [];
  const outputs: Tensor[] = [];
  const open: { reason: string; elements: number[] }[][] = [];
  const tols: Tolerance[] = [];
  c.inputs.forEach((a, k) => {
    const t = typeOf(a);
    for (const lower of [true, false]) {
      results.push({ value: f.op(`"stablehlo.cholesky"(${args[k]}) <{lower = ${lower}}> : (${t}) -> ${t}`), type: t });
      outputs.push(cholesky(a, lower));
      open.push([{ reason: `the spec leaves the strict ${lower ? 'upper' : 'lower'} triangle of a${lower ? ' lower' : 'n upper'} Cholesky factor implementation-defined`, elements: oppositeTriangle(a.dims, lower) }]);
      tols.push(choleskyTolerance(a, outputs[outputs.length - 1]!));
    }
  });
  const name = `cholesky_${c.id}`;
  return program({
    name,
    description: `${c.description}; each factored lower (L, A = L·Lᵀ) and upper (U, A = Uᵀ·U)`,
    ops: ['cholesky'],
    text: moduleText(name, [f.text(results)]),
    inputs: c.inputs,
    outputs,
    open,
    outputTolerances: tols,
  });
}

function hilbert(d: DtypeRow, n: number): Tensor {
  return Tensor.of(d, [n, n], Array.from({ length: n * n }, (_, k) => 1 / (Math.floor(k / n) + (k % n) + 1)));
}

function eye(n: number): number[] {
  return Array.from({ length: n * n }, (_, k) => (Math.floor(k / n) === k % n ? 1 : 0));
}

// ---------------- triangular_solve

interface SolveCase {
  id: string;
  description: string;
  a: Tensor;
  b: Tensor;
  options: Omit<TriangularSolveOptions, 'transposeA'>;
  /** the second solve's transpose_a (the first is NO_TRANSPOSE) */
  transposed: Exclude<Transpose, 'NO_TRANSPOSE'>;
}

/** Higham Thm 8.5 (see triangularSolveConditioning), doubled for the f64 reference's rounding and the denominator. */
function solveTolerance(a: Tensor, b: Tensor, o: TriangularSolveOptions): Tolerance {
  const n = a.dims[a.dims.length - 1]!;
  const cond = triangularSolveConditioning(a, b, o);
  return bound(2 * gamma(n, unitRoundoff(a.dtype)) * cond, `forward error of substitution: 2·γ_n·max(|T⁻¹|·|T|·|x|) with n = ${n} (Higham, Accuracy and Stability of Numerical Algorithms, Thm 8.5)`);
}

function solveText(a: string, b: string, at: string, bt: string, o: TriangularSolveOptions): string {
  return `"stablehlo.triangular_solve"(${a}, ${b}) <{left_side = ${o.leftSide}, lower = ${o.lower}, transpose_a = #stablehlo<transpose ${o.transposeA}>, unit_diagonal = ${o.unitDiagonal}}> : (${at}, ${bt}) -> ${bt}`;
}

function solveProgram(c: SolveCase): Program {
  const f = new FuncBuilder('main');
  const [a, b] = [f.arg(typeOf(c.a)), f.arg(typeOf(c.b))];
  const plain: TriangularSolveOptions = { ...c.options, transposeA: 'NO_TRANSPOSE' };
  const trans: TriangularSolveOptions = { ...c.options, transposeA: c.transposed };
  const r0 = f.op(solveText(a, b, typeOf(c.a), typeOf(c.b), plain));
  const r1 = f.op(solveText(a, b, typeOf(c.a), typeOf(c.b), trans));
  const name = `triangular_solve_${c.id}`;
  return program({
    name,
    description: `${c.description}; solved with transpose_a = NO_TRANSPOSE and ${c.transposed}`,
    ops: ['triangular_solve'],
    text: moduleText(name, [f.text([{ value: r0, type: typeOf(c.b) }, { value: r1, type: typeOf(c.b) }])]),
    inputs: [c.a, c.b],
    outputs: [triangularSolve(c.a, c.b, plain), triangularSolve(c.a, c.b, trans)],
    outputTolerances: [solveTolerance(c.a, c.b, plain), solveTolerance(c.a, c.b, trans)],
  });
}

/** Deterministic test values in multiples of 1/8 (exact in every float type), from −1 to 1. */
function eighths(k: number, salt: number): number {
  return (((k * 37 + salt * 11 + 5) % 17) - 8) / 8;
}

/**
 * A batch of n×n matrices whose `lower` triangle is well conditioned (diagonal 2 + |·|, off-diagonal in [−1, 1]) and
 * whose other triangle holds values the solver must not read (large, so reading them shows). unit: diagonal 1.
 */
function triangle(d: DtypeRow, batch: number[], n: number, lower: boolean, unit: boolean, salt: number): Tensor {
  const dims = [...batch, n, n];
  const total = dims.reduce((x, y) => x * y, 1);
  return Tensor.of(d, dims, Array.from({ length: total }, (_, k) => {
    const [i, j] = [Math.floor(k / n) % n, k % n];
    if (i === j) return unit ? 1 : 2 + Math.abs(eighths(k, salt));
    return (lower ? j < i : j > i) ? eighths(k, salt) : 64 + i + j;
  }));
}

function values(d: DtypeRow, dims: number[], salt: number): Tensor {
  const total = dims.reduce((x, y) => x * y, 1);
  return Tensor.of(d, dims, Array.from({ length: total }, (_, k) => eighths(k, salt) * 4));
}

export function linalgPrograms(): Program[] {
  const [f32, f64] = [dt('f32'), dt('f64')];
  const specExample = Tensor.of(f32, [3, 3], [1, 2, 3, 2, 20, 26, 3, 26, 70]);
  const batch = Tensor.of(f64, [3, 4, 4], [...eye(4), ...hilbert(f64, 4).values().map(Number), 4, 1, 0, 0, 1, 5, 2, 0, 0, 2, 6, 3, 0, 0, 3, 7]);
  const cholesky: CholeskyCase[] = [
    { id: 'spec_example_f32', description: "cholesky of the spec's 3x3 f32 example (factors with integer entries)", inputs: [specExample] },
    { id: 'batch_f64', description: 'cholesky of a batch of three 4x4 f64 matrices: the identity, the Hilbert matrix (κ₂ ≈ 1.6e4) and a tridiagonal one', inputs: [batch] },
    { id: 'one_by_one_f32', description: 'cholesky of a batch of two 1x1 f32 matrices (square roots) and of a 2x2 f32 matrix', inputs: [Tensor.of(f32, [2, 1, 1], [9, 2]), Tensor.of(f32, [2, 2], [4, -2, -2, 10])] },
    { id: 'hilbert_f32', description: 'cholesky of the 4x4 f32 Hilbert matrix (κ₂ ≈ 1.6e4: ill-conditioned, still positive definite in f32)', inputs: [hilbert(f32, 4)] },
  ];
  const solves: SolveCase[] = [
    { id: 'left_lower_f32', description: 'triangular_solve left side, lower, 3x3 f32 a (values above the diagonal it must not read), 3x2 b', a: triangle(f32, [], 3, true, false, 1), b: values(f32, [3, 2], 2), options: { leftSide: true, lower: true, unitDiagonal: false }, transposed: 'TRANSPOSE' },
    { id: 'left_upper_batch_f32', description: 'triangular_solve left side, upper, a batch of two 4x4 f32 a, 4x3 b', a: triangle(f32, [2], 4, false, false, 3), b: values(f32, [2, 4, 3], 4), options: { leftSide: true, lower: false, unitDiagonal: false }, transposed: 'ADJOINT' },
    { id: 'right_lower_unit_f64', description: 'triangular_solve right side (x·op(a) = b), lower, unit diagonal, 3x3 f64 a, 2x3 b', a: triangle(f64, [], 3, true, true, 5), b: values(f64, [2, 3], 6), options: { leftSide: false, lower: true, unitDiagonal: true }, transposed: 'TRANSPOSE' },
    { id: 'right_upper_batch_f64', description: 'triangular_solve right side, upper, a batch of two 3x3 f64 a, 1x3 b', a: triangle(f64, [2], 3, false, false, 7), b: values(f64, [2, 1, 3], 8), options: { leftSide: false, lower: false, unitDiagonal: false }, transposed: 'TRANSPOSE' },
  ];
  return [...cholesky.map(choleskyProgram), ...solves.map(solveProgram)];
}

// cholesky and triangular_solve on f32 / f64 / c64 / c128 batches of matrices. Each program factors (solves) one
// input both ways — cholesky lower and upper, triangular_solve NO_TRANSPOSE and TRANSPOSE/ADJOINT (complex: both) —
// so every program shows a kernel that ignores `lower` or `transpose_a` (complex ones: one that does not conjugate
// for ADJOINT). Inputs are only those the spec defines results for: Hermitian positive-definite matrices for
// cholesky (identity, 1x1, the spec's example, an ill-conditioned Hilbert matrix, a complex one), nonsingular
// triangles for triangular_solve (with values in the triangle it must not read).
import type { DtypeRow } from '../../abi/dtypes.js';
import { epsilon } from '../../oracle/floats.js';
import { cholesky, frobenius, oppositeTriangle, spdConditionNumber, triangularSolve, triangularSolveConditioning, type Transpose, type TriangularSolveOptions } from '../../oracle/linalg.js';
import { partDtype, Tensor, type Complex } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

const unitRoundoff = (d: DtypeRow) => epsilon(d.kind === 'complex' ? partDtype(d) : d) / 2;
/**
 * γ_k = k·u/(1 − k·u) for real arithmetic; complex operations err by up to √2·γ₄ (division; Higham, Accuracy and
 * Stability of Numerical Algorithms, Lemma 3.5), so complex bounds take γ_{4k}·√2.
 */
const gamma = (k: number, d: DtypeRow) => {
  const u = unitRoundoff(d);
  const m = d.kind === 'complex' ? 4 * k : k;
  return ((m * u) / (1 - m * u)) * (d.kind === 'complex' ? Math.SQRT2 : 1);
};

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
  const abs = 2 * gamma(n + 1, a.dtype) * kappa * frobenius(l);
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
    catches: ['cholesky_ignores_lower'], // each input factored both lower and upper
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
  /** the other solves' transpose_a (the first is NO_TRANSPOSE) */
  transposed: Exclude<Transpose, 'NO_TRANSPOSE'>[];
}

/** Higham Thm 8.5 (see triangularSolveConditioning), doubled for the f64 reference's rounding and the denominator. */
function solveTolerance(a: Tensor, b: Tensor, o: TriangularSolveOptions): Tolerance {
  const n = a.dims[a.dims.length - 1]!;
  const cond = triangularSolveConditioning(a, b, o);
  return bound(2 * gamma(n, a.dtype) * cond, `forward error of substitution: 2·γ_n·max(|T⁻¹|·|T|·|x|) with n = ${n} (Higham, Accuracy and Stability of Numerical Algorithms, Thm 8.5)`);
}

function solveText(a: string, b: string, at: string, bt: string, o: TriangularSolveOptions): string {
  return `"stablehlo.triangular_solve"(${a}, ${b}) <{left_side = ${o.leftSide}, lower = ${o.lower}, transpose_a = #stablehlo<transpose ${o.transposeA}>, unit_diagonal = ${o.unitDiagonal}}> : (${at}, ${bt}) -> ${bt}`;
}

function solveProgram(c: SolveCase): Program {
  const f = new FuncBuilder('main');
  const [a, b] = [f.arg(typeOf(c.a)), f.arg(typeOf(c.b))];
  const solves: TriangularSolveOptions[] = (['NO_TRANSPOSE', ...c.transposed] as Transpose[]).map((transposeA) => ({ ...c.options, transposeA }));
  const results = solves.map((o) => ({ value: f.op(solveText(a, b, typeOf(c.a), typeOf(c.b), o)), type: typeOf(c.b) }));
  const name = `triangular_solve_${c.id}`;
  return program({
    name,
    description: `${c.description}; solved with transpose_a = ${solves.map((o) => o.transposeA).join(', ')}`,
    ops: ['triangular_solve'],
    text: moduleText(name, [f.text(results)]),
    inputs: [c.a, c.b],
    outputs: solves.map((o) => triangularSolve(c.a, c.b, o)),
    outputTolerances: solves.map((o) => solveTolerance(c.a, c.b, o)),
    // a NO_TRANSPOSE and a transposed solve of each system; an ADJOINT solve differs from TRANSPOSE on complex types only
    catches: ['triangular_solve_ignores_transpose', ...(c.a.dtype.kind === 'complex' && c.transposed.includes('ADJOINT') ? ['triangular_solve_adjoint_not_conjugated'] : [])],
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
  const complex = d.kind === 'complex';
  return Tensor.of(d, dims, Array.from({ length: total }, (_, k) => {
    const [i, j] = [Math.floor(k / n) % n, k % n];
    const z = (re: number, im: number): number | Complex => (complex ? { re, im } : re);
    if (i === j) return unit ? z(1, 0) : z(2 + Math.abs(eighths(k, salt)), eighths(k, salt + 1));
    return (lower ? j < i : j > i) ? z(eighths(k, salt), eighths(k, salt + 2)) : z(64 + i + j, -64);
  }));
}

function values(d: DtypeRow, dims: number[], salt: number): Tensor {
  const total = dims.reduce((x, y) => x * y, 1);
  const complex = d.kind === 'complex';
  return Tensor.of(d, dims, Array.from({ length: total }, (_, k) => (complex ? { re: eighths(k, salt) * 4, im: eighths(k, salt + 3) * 4 } : eighths(k, salt) * 4)));
}

export function linalgPrograms(): Program[] {
  const [f32, f64, c64, c128] = [dt('f32'), dt('f64'), dt('c64'), dt('c128')];
  // Hermitian positive definite: diagonally dominant with a real diagonal
  const hermitian = Tensor.of(c64, [3, 3], [{ re: 4, im: 0 }, { re: 1, im: -2 }, { re: 0, im: 0 }, { re: 1, im: 2 }, { re: 10, im: 0 }, { re: 0, im: 3 }, { re: 0, im: 0 }, { re: 0, im: -3 }, { re: 9, im: 0 }]);
  const specExample = Tensor.of(f32, [3, 3], [1, 2, 3, 2, 20, 26, 3, 26, 70]);
  const batch = Tensor.of(f64, [3, 4, 4], [...eye(4), ...hilbert(f64, 4).values().map(Number), 4, 1, 0, 0, 1, 5, 2, 0, 0, 2, 6, 3, 0, 0, 3, 7]);
  const cholesky: CholeskyCase[] = [
    { id: 'spec_example_f32', description: "cholesky of the spec's 3x3 f32 example (factors with integer entries)", inputs: [specExample] },
    { id: 'batch_f64', description: 'cholesky of a batch of three 4x4 f64 matrices: the identity, the Hilbert matrix (κ₂ ≈ 1.6e4) and a tridiagonal one', inputs: [batch] },
    { id: 'one_by_one_f32', description: 'cholesky of a batch of two 1x1 f32 matrices (square roots) and of a 2x2 f32 matrix', inputs: [Tensor.of(f32, [2, 1, 1], [9, 2]), Tensor.of(f32, [2, 2], [4, -2, -2, 10])] },
    { id: 'hilbert_f32', description: 'cholesky of the 4x4 f32 Hilbert matrix (κ₂ ≈ 1.6e4: ill-conditioned, still positive definite in f32)', inputs: [hilbert(f32, 4)] },
    { id: 'hermitian_c64', description: 'cholesky of a 3x3 c64 Hermitian positive-definite matrix (A = L·Lᴴ, U = Lᴴ)', inputs: [hermitian] },
  ];
  const solves: SolveCase[] = [
    { id: 'left_lower_f32', description: 'triangular_solve left side, lower, 3x3 f32 a (values above the diagonal it must not read), 3x2 b', a: triangle(f32, [], 3, true, false, 1), b: values(f32, [3, 2], 2), options: { leftSide: true, lower: true, unitDiagonal: false }, transposed: ['TRANSPOSE'] },
    { id: 'left_upper_batch_f32', description: 'triangular_solve left side, upper, a batch of two 4x4 f32 a, 4x3 b', a: triangle(f32, [2], 4, false, false, 3), b: values(f32, [2, 4, 3], 4), options: { leftSide: true, lower: false, unitDiagonal: false }, transposed: ['ADJOINT'] },
    { id: 'right_lower_unit_f64', description: 'triangular_solve right side (x·op(a) = b), lower, unit diagonal, 3x3 f64 a, 2x3 b', a: triangle(f64, [], 3, true, true, 5), b: values(f64, [2, 3], 6), options: { leftSide: false, lower: true, unitDiagonal: true }, transposed: ['TRANSPOSE'] },
    { id: 'left_lower_c128', description: 'triangular_solve left side, lower, 3x3 c128 a, 3x2 b (complex: TRANSPOSE and ADJOINT differ)', a: triangle(c128, [], 3, true, false, 10), b: values(c128, [3, 2], 11), options: { leftSide: true, lower: true, unitDiagonal: false }, transposed: ['TRANSPOSE', 'ADJOINT'] },
    { id: 'right_upper_batch_c64', description: 'triangular_solve right side, upper, a batch of two 3x3 c64 a, 2x3 b', a: triangle(c64, [2], 3, false, false, 12), b: values(c64, [2, 2, 3], 13), options: { leftSide: false, lower: false, unitDiagonal: false }, transposed: ['ADJOINT', 'TRANSPOSE'] },
    { id: 'right_upper_batch_f64', description: 'triangular_solve right side, upper, a batch of two 3x3 f64 a, 1x3 b', a: triangle(f64, [2], 3, false, false, 7), b: values(f64, [2, 1, 3], 8), options: { leftSide: false, lower: false, unitDiagonal: false }, transposed: ['TRANSPOSE'] },
  ];
  return [...cholesky.map(choleskyProgram), ...solves.map(solveProgram)];
}

// cholesky and triangular_solve on batches of float or complex matrices (the last two dimensions), computed in f64
// complex arithmetic from the exact inputs and rounded once to the result type; plus the conditioning figures
// their tolerances derive from.
import { Tensor, type Complex } from './tensor.js';

type Matrix = Complex[][];

const c = (re: number, im = 0): Complex => ({ re, im });
const sub = (x: Complex, y: Complex): Complex => c(x.re - y.re, x.im - y.im);
const mul = (x: Complex, y: Complex): Complex => c(x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re);
const div = (x: Complex, y: Complex): Complex => {
  if (y.im === 0) return c(x.re / y.re, x.im / y.re); // real divisors: one rounding, as real arithmetic
  const d = y.re * y.re + y.im * y.im;
  return c((x.re * y.re + x.im * y.im) / d, (x.im * y.re - x.re * y.im) / d);
};
const conj = (x: Complex): Complex => c(x.re, -x.im);
const abs = (x: Complex): number => Math.hypot(x.re, x.im);
const isZero = (x: Complex): boolean => x.re === 0 && x.im === 0;

/** The batch count and the matrix size n of a [..., n, n] tensor. */
function square(t: Tensor): { batches: number; n: number } {
  const r = t.dims.length;
  const n = t.dims[r - 1]!;
  if (r < 2 || t.dims[r - 2] !== n) throw new Error(`linalg: [${t.dims.join(',')}] is not a batch of square matrices`);
  return { batches: n === 0 ? 0 : t.size / (n * n), n };
}

function element(t: Tensor, i: number): Complex {
  const v = t.get(i);
  return typeof v === 'number' ? c(v) : (v as Complex);
}

function matrixAt(t: Tensor, batch: number, rows: number, cols: number): Matrix {
  const base = batch * rows * cols;
  return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => element(t, base + i * cols + j)));
}

function store(out: Tensor, batch: number, m: Matrix): void {
  const cols = m[0]?.length ?? 0;
  const base = batch * m.length * cols;
  const complex = out.dtype.kind === 'complex';
  m.forEach((row, i) => row.forEach((v, j) => out.set(base + i * cols + j, complex ? v : v.re)));
}

const transposed = (m: Matrix): Matrix => (m[0] ?? []).map((_, j) => m.map((row) => row[j]!));
const adjoint = (m: Matrix): Matrix => transposed(m).map((row) => row.map(conj));

/** The lower Cholesky factor L (A = L·Lᴴ) of a Hermitian positive-definite A, read from A's lower triangle. */
function choleskyLower(a: Matrix): Matrix {
  const n = a.length;
  const l: Matrix = Array.from({ length: n }, () => Array.from({ length: n }, () => c(0)));
  for (let j = 0; j < n; j++) {
    let d = a[j]![j]!.re;
    for (let k = 0; k < j; k++) d -= abs(l[j]![k]!) ** 2;
    if (!(d > 0)) throw new Error('cholesky: the matrix is not positive definite (the spec leaves the result undefined)');
    l[j]![j] = c(Math.sqrt(d));
    for (let i = j + 1; i < n; i++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s = sub(s, mul(l[i]![k]!, conj(l[j]![k]!)));
      l[i]![j] = div(s, l[j]![j]!);
    }
  }
  return l;
}

/**
 * stablehlo.cholesky: per matrix, L (lower) or U = Lᴴ (upper) with A = L·Lᴴ = Uᴴ·U. Inputs must be Hermitian
 * positive definite (the spec leaves other inputs undefined); the opposite triangle comes back as zeros here, and is
 * implementation-defined by the spec (see `oppositeTriangle`).
 */
export function cholesky(a: Tensor, lower: boolean): Tensor {
  const { batches, n } = square(a);
  const out = new Tensor(a.dtype, a.dims);
  for (let b = 0; b < batches; b++) {
    const m = matrixAt(a, b, n, n);
    for (let i = 0; i < n; i++) {
      if (m[i]![i]!.im !== 0) throw new Error('cholesky: the matrix is not Hermitian');
      for (let j = 0; j < i; j++) if (m[i]![j]!.re !== m[j]![i]!.re || m[i]![j]!.im !== -m[j]![i]!.im) throw new Error('cholesky: the matrix is not Hermitian');
    }
    const l = choleskyLower(m);
    store(out, b, lower ? l : adjoint(l));
  }
  return out;
}

/** Flat indices of the strict upper (lower = true) or strict lower (lower = false) triangle of every matrix. */
export function oppositeTriangle(dims: readonly number[], lower: boolean): number[] {
  const n = dims[dims.length - 1]!;
  const batches = n === 0 ? 0 : dims.reduce((x, y) => x * y, 1) / (n * n);
  const out: number[] = [];
  for (let b = 0; b < batches; b++)
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (lower ? j > i : j < i) out.push(b * n * n + i * n + j);
  return out;
}

export type Transpose = 'NO_TRANSPOSE' | 'TRANSPOSE' | 'ADJOINT';
export interface TriangularSolveOptions {
  leftSide: boolean;
  lower: boolean;
  unitDiagonal: boolean;
  transposeA: Transpose;
}

/** op(a) as the solver sees it: a's chosen triangle (the other read as zeros), unit diagonal if asked, transposed. */
function effective(a: Matrix, o: TriangularSolveOptions): Matrix {
  const t = a.map((row, i) => row.map((v, j) => (i === j ? (o.unitDiagonal ? c(1) : v) : (o.lower ? j < i : j > i) ? v : c(0))));
  return o.transposeA === 'NO_TRANSPOSE' ? t : o.transposeA === 'TRANSPOSE' ? transposed(t) : adjoint(t);
}

/** Solves the triangular system m·x = b (m triangular, either way) for every column of b, by substitution. */
function substitute(m: Matrix, b: Matrix): Matrix {
  const n = m.length;
  const lowerShape = m.every((row, i) => row.every((v, j) => j <= i || isZero(v)));
  const x: Matrix = b.map((row) => row.map(() => c(0)));
  const order = Array.from({ length: n }, (_, k) => (lowerShape ? k : n - 1 - k));
  for (let col = 0; col < (b[0]?.length ?? 0); col++) {
    for (const i of order) {
      let s = b[i]![col]!;
      for (let j = 0; j < n; j++) if (j !== i) s = sub(s, mul(m[i]![j]!, x[j]![col]!));
      x[i]![col] = div(s, m[i]![i]!);
    }
  }
  return x;
}

/** Per batch, op(a) and the right-hand side as a system op(a)·X = B (right side: op(a)ᵀ·Xᵀ = Bᵀ). */
function systems(a: Tensor, b: Tensor, o: TriangularSolveOptions): { m: Matrix; rhs: Matrix }[] {
  const { batches, n } = square(a);
  const r = b.dims.length;
  const [rows, cols] = [b.dims[r - 2]!, b.dims[r - 1]!];
  return Array.from({ length: batches }, (_, k) => {
    const m = effective(matrixAt(a, k, n, n), o);
    const rhs = matrixAt(b, k, rows, cols);
    return o.leftSide ? { m, rhs } : { m: transposed(m), rhs: transposed(rhs) };
  });
}

/**
 * stablehlo.triangular_solve: x with op(a)·x = b (left side) or x·op(a) = b (right side), per batch; a read only
 * from its `lower` triangle, its diagonal taken as ones when unit_diagonal.
 */
export function triangularSolve(a: Tensor, b: Tensor, o: TriangularSolveOptions): Tensor {
  const out = new Tensor(b.dtype, b.dims);
  systems(a, b, o).forEach(({ m, rhs }, k) => {
    const x = substitute(m, rhs);
    store(out, k, o.leftSide ? x : transposed(x));
  });
  return out;
}

/**
 * Higham, Accuracy and Stability of Numerical Algorithms (2nd ed.), Theorem 8.5: substitution computes x̂ with
 * |x − x̂| ≤ γ_n · |T⁻¹|·|T|·|x| / (1 − γ_n·cond(T)), γ_n = n·u/(1 − n·u), whatever order of operations. The largest
 * entry of |T⁻¹|·|T|·|x| over all systems and columns, so the bound is per output element.
 */
export function triangularSolveConditioning(a: Tensor, b: Tensor, o: TriangularSolveOptions): number {
  let worst = 0;
  for (const { m, rhs } of systems(a, b, o)) {
    const n = m.length;
    const inv = substitute(m, m.map((_, i) => m.map((__, j) => c(i === j ? 1 : 0))));
    const x = substitute(m, rhs);
    const absM = m.map((row) => row.map(abs));
    const absInv = inv.map((row) => row.map(abs));
    for (let col = 0; col < (rhs[0]?.length ?? 0); col++) {
      const mx = absM.map((row) => row.reduce((s, v, j) => s + v * abs(x[j]![col]!), 0));
      for (let i = 0; i < n; i++) worst = Math.max(worst, absInv[i]!.reduce((s, v, j) => s + v * mx[j]!, 0));
    }
  }
  return worst;
}

/**
 * κ₂(A) = λmax/λmin of each Hermitian positive-definite matrix (the largest over the batch): the eigenvalues of
 * the real symmetric 2n×2n embedding [[Re A, −Im A], [Im A, Re A]] (each twice), by Jacobi rotations.
 */
export function spdConditionNumber(a: Tensor): number {
  const { batches, n } = square(a);
  let worst = 1;
  for (let b = 0; b < batches; b++) {
    const h = matrixAt(a, b, n, n);
    const N = 2 * n;
    const m = Array.from({ length: N }, (_, i) => Array.from({ length: N }, (_, j) => {
      const z = h[i % n]![j % n]!;
      return (i < n) === (j < n) ? z.re : i < n ? -z.im : z.im;
    }));
    for (let sweep = 0; sweep < 64; sweep++) {
      let off = 0;
      for (let p = 0; p < N; p++) for (let q = p + 1; q < N; q++) off += m[p]![q]! ** 2;
      if (off < 1e-30) break;
      for (let p = 0; p < N; p++) {
        for (let q = p + 1; q < N; q++) {
          if (m[p]![q] === 0) continue;
          const theta = (m[q]![q]! - m[p]![p]!) / (2 * m[p]![q]!);
          const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
          const cs = 1 / Math.sqrt(t * t + 1);
          const sn = t * cs;
          for (let k = 0; k < N; k++) { // columns p, q
            const [mkp, mkq] = [m[k]![p]!, m[k]![q]!];
            m[k]![p] = cs * mkp - sn * mkq;
            m[k]![q] = sn * mkp + cs * mkq;
          }
          for (let k = 0; k < N; k++) { // rows p, q
            const [mpk, mqk] = [m[p]![k]!, m[q]![k]!];
            m[p]![k] = cs * mpk - sn * mqk;
            m[q]![k] = sn * mpk + cs * mqk;
          }
        }
      }
    }
    const eig = m.map((row, i) => row[i]!);
    worst = Math.max(worst, Math.max(...eig) / Math.min(...eig));
  }
  return worst;
}

/** √(Σ |x|²) of a real or complex tensor (the Frobenius norm of a batch of matrices). */
export function frobenius(t: Tensor): number {
  let s = 0;
  for (let i = 0; i < t.size; i++) s += abs(element(t, i)) ** 2;
  return Math.sqrt(s);
}

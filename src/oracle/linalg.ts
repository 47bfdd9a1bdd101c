// cholesky and triangular_solve on batches of real matrices (the last two dimensions), computed in f64 from the
// exact inputs and rounded once to the result type; plus the conditioning figures their tolerances derive from.
import { Tensor } from './tensor.js';

type Matrix = number[][];

/** The batch count and the matrix size n of a [..., n, n] tensor. */
function square(t: Tensor): { batches: number; n: number } {
  const r = t.dims.length;
  const n = t.dims[r - 1]!;
  if (r < 2 || t.dims[r - 2] !== n) throw new Error(`linalg: [${t.dims.join(',')}] is not a batch of square matrices`);
  return { batches: n === 0 ? 0 : t.size / (n * n), n };
}

function matrixAt(t: Tensor, batch: number, rows: number, cols: number): Matrix {
  const base = batch * rows * cols;
  return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => t.get(base + i * cols + j) as number));
}

function store(out: Tensor, batch: number, m: Matrix): void {
  const cols = m[0]?.length ?? 0;
  const base = batch * m.length * cols;
  m.forEach((row, i) => row.forEach((v, j) => out.set(base + i * cols + j, v)));
}

/** The lower Cholesky factor L (A = L·Lᵀ) of a symmetric positive-definite A, read from A's lower triangle. */
function choleskyLower(a: Matrix): Matrix {
  const n = a.length;
  const l: Matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    let d = a[j]![j]!;
    for (let k = 0; k < j; k++) d -= l[j]![k]! ** 2;
    if (!(d > 0)) throw new Error('cholesky: the matrix is not positive definite (the spec leaves the result undefined)');
    l[j]![j] = Math.sqrt(d);
    for (let i = j + 1; i < n; i++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      l[i]![j] = s / l[j]![j]!;
    }
  }
  return l;
}

const transposed = (m: Matrix): Matrix => (m[0] ?? []).map((_, j) => m.map((row) => row[j]!));

/**
 * stablehlo.cholesky: per matrix, L (lower) or U = Lᵀ (upper) with A = L·Lᵀ = Uᵀ·U. Inputs must be symmetric
 * positive definite (the spec leaves other inputs undefined); the opposite triangle comes back as zeros here, and
 * is implementation-defined by the spec (see `oppositeTriangle`).
 */
export function cholesky(a: Tensor, lower: boolean): Tensor {
  const { batches, n } = square(a);
  const out = new Tensor(a.dtype, a.dims);
  for (let b = 0; b < batches; b++) {
    const m = matrixAt(a, b, n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (m[i]![j] !== m[j]![i]) throw new Error('cholesky: the matrix is not symmetric');
    const l = choleskyLower(m);
    store(out, b, lower ? l : transposed(l));
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
  const t = a.map((row, i) => row.map((v, j) => (i === j ? (o.unitDiagonal ? 1 : v) : (o.lower ? j < i : j > i) ? v : 0)));
  return o.transposeA === 'NO_TRANSPOSE' ? t : transposed(t); // real matrices: ADJOINT is TRANSPOSE
}

/** Solves the triangular system m·x = b (m triangular, either way) for every column of b, by substitution. */
function substitute(m: Matrix, b: Matrix): Matrix {
  const n = m.length;
  const lowerShape = m.every((row, i) => row.every((v, j) => j <= i || v === 0));
  const x: Matrix = b.map((row) => row.map(() => 0));
  const order = Array.from({ length: n }, (_, k) => (lowerShape ? k : n - 1 - k));
  for (let c = 0; c < (b[0]?.length ?? 0); c++) {
    for (const i of order) {
      let s = b[i]![c]!;
      for (let j = 0; j < n; j++) if (j !== i) s -= m[i]![j]! * x[j]![c]!;
      x[i]![c] = s / m[i]![i]!;
    }
  }
  return x;
}

function batchOf(a: Tensor, b: Tensor): { batches: number; n: number; rows: number; cols: number } {
  const { batches, n } = square(a);
  const r = b.dims.length;
  return { batches, n, rows: b.dims[r - 2]!, cols: b.dims[r - 1]! };
}

/** Per batch, op(a) in f64 and the right-hand side as a system op(a)·X = B (right side: op(a)ᵀ·Xᵀ = Bᵀ). */
function systems(a: Tensor, b: Tensor, o: TriangularSolveOptions): { m: Matrix; rhs: Matrix }[] {
  const { batches, n, rows, cols } = batchOf(a, b);
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
 * entry of |T⁻¹|·|T|·|x| over all systems and columns, so the bound is per output element (doubled below for the
 * f64 reference's own error and for the denominator).
 */
export function triangularSolveConditioning(a: Tensor, b: Tensor, o: TriangularSolveOptions): number {
  let worst = 0;
  for (const { m, rhs } of systems(a, b, o)) {
    const n = m.length;
    const inv = substitute(m, m.map((_, i) => m.map((__, j) => (i === j ? 1 : 0))));
    const x = substitute(m, rhs);
    const absM = m.map((row) => row.map(Math.abs));
    const absInv = inv.map((row) => row.map(Math.abs));
    for (let c = 0; c < (rhs[0]?.length ?? 0); c++) {
      const mx = absM.map((row) => row.reduce((s, v, j) => s + v * Math.abs(x[j]![c]!), 0));
      for (let i = 0; i < n; i++) worst = Math.max(worst, absInv[i]!.reduce((s, v, j) => s + v * mx[j]!, 0));
    }
  }
  return worst;
}

/** κ₂(A) = λmax/λmin of each symmetric positive-definite matrix (the largest over the batch), by Jacobi rotations. */
export function spdConditionNumber(a: Tensor): number {
  const { batches, n } = square(a);
  let worst = 1;
  for (let b = 0; b < batches; b++) {
    const m = matrixAt(a, b, n, n);
    for (let sweep = 0; sweep < 64; sweep++) {
      let off = 0;
      for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p]![q]! ** 2;
      if (off < 1e-30) break;
      for (let p = 0; p < n; p++) {
        for (let q = p + 1; q < n; q++) {
          if (m[p]![q] === 0) continue;
          const theta = (m[q]![q]! - m[p]![p]!) / (2 * m[p]![q]!);
          const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
          const c = 1 / Math.sqrt(t * t + 1);
          const s = t * c;
          for (let k = 0; k < n; k++) { // columns p, q
            const [mkp, mkq] = [m[k]![p]!, m[k]![q]!];
            m[k]![p] = c * mkp - s * mkq;
            m[k]![q] = s * mkp + c * mkq;
          }
          for (let k = 0; k < n; k++) { // rows p, q
            const [mpk, mqk] = [m[p]![k]!, m[q]![k]!];
            m[p]![k] = c * mpk - s * mqk;
            m[q]![k] = s * mpk + c * mqk;
          }
        }
      }
    }
    const eig = m.map((row, i) => row[i]!);
    worst = Math.max(worst, Math.max(...eig) / Math.min(...eig));
  }
  return worst;
}

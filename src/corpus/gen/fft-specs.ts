// fft over 1–3 dimensions, f32 / c64 and f64 / c128. Each program runs all four fft_types on one shape — FFT and
// IFFT of a complex operand, RFFT of a real one, IRFFT of the spectrum of a real signal — so every program shows
// an inverse that forgets its 1/n and an RFFT that drops its last bin. Lengths: powers of two, odd and even
// non-powers of two, and a length-1 dimension inside a 3-d transform.
import type { DtypeRow } from '../../abi/dtypes.js';
import { dtype as dtypeByName } from '../../abi/dtypes.js';
import { epsilon } from '../../oracle/floats.js';
import { fft, norm2, type FftType } from '../../oracle/fft.js';
import { numElements, ravel, Tensor, unravel, type Complex } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface FftCase { id: string; part: DtypeRow; dims: number[]; lengths: number[] }

const complexOf = (p: DtypeRow) => dtypeByName(p.name === 'f32' ? 'c64' : 'c128');

/** Deterministic values in multiples of 1/16 in [−1, 1) (exact in f32). */
const sixteenths = (k: number, salt: number) => (((k * 29 + salt * 13 + 3) % 32) - 16) / 16;

function realSignal(p: DtypeRow, dims: number[], salt: number): Tensor {
  return Tensor.of(p, dims, Array.from({ length: numElements(dims) }, (_, k) => sixteenths(k, salt)));
}

function complexSignal(p: DtypeRow, dims: number[], salt: number): Tensor {
  return Tensor.of(complexOf(p), dims, Array.from({ length: numElements(dims) }, (_, k): Complex => ({ re: sixteenths(k, salt), im: sixteenths(k, salt + 1) })));
}

/**
 * The RFFT of a real signal, made exactly Hermitian-consistent where rounding may have broken it: along the leading
 * fft dimensions, in the planes of the last dimension's bin 0 and (even n) bin n/2, X[−k] = conj X[k]. IRFFT of
 * such an operand is the same under every convention (the spec defines IRFFT only as the inverse of RFFT).
 */
function hermitianSpectrum(p: DtypeRow, dims: number[], lengths: number[]): Tensor {
  const x = fft(realSignal(p, dims, 7), 'RFFT', lengths);
  const r = x.dims.length;
  const n = lengths[lengths.length - 1]!;
  const lead = lengths.length - 1;
  for (let i = 0; i < x.size; i++) {
    const idx = unravel(i, x.dims);
    const last = idx[r - 1]!;
    if (!(last === 0 || 2 * last === n)) continue;
    const mirror = idx.map((v, k) => (k >= r - 1 - lead && k < r - 1 ? (x.dims[k]! - v) % x.dims[k]! : v));
    const j = ravel(mirror, x.dims);
    const z = x.get(i) as Complex;
    if (j === i) x.set(i, { re: z.re, im: 0 });
    else if (j > i) x.set(j, { re: z.re, im: -z.im });
  }
  return x;
}

/**
 * Higham, Accuracy and Stability of Numerical Algorithms (2nd ed.), Thm 24.2: a radix-2 FFT gives ŷ with
 * ‖ŷ − y‖₂ ≤ log₂N·η/(1 − log₂N·η)·‖y‖₂, η = μ + γ₄(√2 + μ) ≈ 7u for twiddle factors accurate to μ ≈ u. Mixed-radix
 * and Bluestein transforms (non-powers of two) have error bounds of the same O(u·log N) form with larger constants:
 * 16·u·(⌈log₂N⌉ + 1)·‖y‖₂ per element (‖y‖₂ of the whole result, a bound on every element's error).
 */
function fftTolerance(y: Tensor, p: DtypeRow, lengths: readonly number[]): Tolerance {
  const n = lengths.reduce((a, b) => a * b, 1);
  const logN = Math.ceil(Math.log2(Math.max(n, 1)));
  const u = epsilon(p) / 2;
  return {
    abs: 16 * u * (logN + 1) * norm2(y),
    signedZeros: false,
    source: `FFT error bound 16·u·(⌈log₂N⌉ + 1)·‖y‖₂ with N = ${n} (Higham, Accuracy and Stability of Numerical Algorithms, Thm 24.2, with a margin for mixed-radix and Bluestein transforms)`,
  };
}

function fftProgram(c: FftCase): Program {
  const f = new FuncBuilder('main');
  const x = complexSignal(c.part, c.dims, 1);
  const r = realSignal(c.part, c.dims, 3);
  const y = hermitianSpectrum(c.part, c.dims, c.lengths);
  const inputs = [x, r, y];
  const args = inputs.map((t) => f.arg(typeOf(t)));
  const runs: [FftType, number][] = [['FFT', 0], ['IFFT', 0], ['RFFT', 1], ['IRFFT', 2]];
  const outputs = runs.map(([type, k]) => fft(inputs[k]!, type, c.lengths));
  const results = runs.map(([type, k], i) => ({
    value: f.op(`stablehlo.fft ${args[k]}, type = ${type}, length = [${c.lengths.join(', ')}] : (${typeOf(inputs[k]!)}) -> ${typeOf(outputs[i]!)}`),
    type: typeOf(outputs[i]!),
  }));
  const name = `fft_${c.id}`;
  return program({
    name,
    description: `fft of ${c.part.name}/${complexOf(c.part).name} operands of shape [${c.dims.join(', ')}] over fft_length [${c.lengths.join(', ')}]: FFT and IFFT of a complex signal, RFFT of a real signal, IRFFT of a real signal's spectrum`,
    ops: ['fft'],
    text: moduleText(name, [f.text(results)]),
    inputs,
    outputs,
    outputTolerances: outputs.map((y) => fftTolerance(y, c.part, c.lengths)),
    catches: ['fft_inverse_unscaled', 'rfft_last_bin_dropped'], // all four fft_types on each shape
  });
}

export function fftPrograms(): Program[] {
  const [f32, f64] = [dt('f32'), dt('f64')];
  const cases: FftCase[] = [
    { id: '1d_8_f32', part: f32, dims: [8], lengths: [8] },
    { id: '1d_batch_6_f64', part: f64, dims: [2, 6], lengths: [6] },
    { id: '1d_7_f32', part: f32, dims: [7], lengths: [7] },
    { id: '2d_3x5_f32', part: f32, dims: [3, 5], lengths: [3, 5] },
    { id: '3d_2x1x4_f64', part: f64, dims: [2, 2, 1, 4], lengths: [2, 1, 4] },
    { id: '1d_2_batch_f32', part: f32, dims: [3, 2], lengths: [2] },
  ];
  return cases.map(fftProgram);
}

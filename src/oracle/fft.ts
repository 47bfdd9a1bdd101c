// fft: FFT / IFFT (complex → complex), RFFT (real → complex, last dimension n/2 + 1), IRFFT (complex → real) over
// the last 1–3 dimensions, as direct discrete Fourier transforms in f64 from the exact inputs, rounded once.
import { dtype as dtypeByName, type DtypeRow } from '../abi/dtypes.js';
import { numElements, partDtype, stridesOf, Tensor, type Complex } from './tensor.js';

export type FftType = 'FFT' | 'IFFT' | 'RFFT' | 'IRFFT';

/** Parts in f64: re[i], im[i] over a row-major shape. */
interface Field {
  dims: number[];
  re: Float64Array;
  im: Float64Array;
}

function fieldOf(t: Tensor): Field {
  const f: Field = { dims: [...t.dims], re: new Float64Array(t.size), im: new Float64Array(t.size) };
  for (let i = 0; i < t.size; i++) {
    const v = t.get(i);
    if (typeof v === 'number') f.re[i] = v;
    else { f.re[i] = (v as Complex).re; f.im[i] = (v as Complex).im; }
  }
  return f;
}

/** One-dimensional DFT along `axis`, in place: X[k] = Σ x[j]·e^(∓2πi·jk/n), scaled by 1/n when inverse. */
function dftAxis(f: Field, axis: number, inverse: boolean): void {
  const n = f.dims[axis]!;
  const stride = stridesOf(f.dims)[axis]!;
  const outer = n === 0 ? 0 : f.re.length / (n * stride);
  const sign = inverse ? 1 : -1;
  const xr = new Float64Array(n), xi = new Float64Array(n);
  for (let o = 0; o < outer; o++) {
    for (let s = 0; s < stride; s++) {
      const at = (k: number) => o * n * stride + s + k * stride;
      for (let j = 0; j < n; j++) { xr[j] = f.re[at(j)]!; xi[j] = f.im[at(j)]!; }
      for (let k = 0; k < n; k++) {
        let sr = 0, si = 0;
        for (let j = 0; j < n; j++) {
          const ang = (sign * 2 * Math.PI * ((j * k) % n)) / n;
          const [c, sn] = [Math.cos(ang), Math.sin(ang)];
          sr += xr[j]! * c - xi[j]! * sn;
          si += xr[j]! * sn + xi[j]! * c;
        }
        f.re[at(k)] = inverse ? sr / n : sr;
        f.im[at(k)] = inverse ? si / n : si;
      }
    }
  }
}

/** The field with its last dimension resized to `m`: truncated, or extended Hermitian (x[n − k] = conj x[k]). */
function lastDim(f: Field, m: number, hermitian: boolean): Field {
  const r = f.dims.length;
  const n = f.dims[r - 1]!;
  const dims = [...f.dims.slice(0, -1), m];
  const g: Field = { dims, re: new Float64Array(numElements(dims)), im: new Float64Array(numElements(dims)) };
  const rows = n === 0 ? 0 : f.re.length / n;
  for (let row = 0; row < rows; row++) {
    for (let k = 0; k < m; k++) {
      const mirrored = hermitian && k >= n;
      const src = row * n + (mirrored ? m - k : k);
      if (k >= n && !mirrored) continue;
      g.re[row * m + k] = f.re[src]!;
      // irfft reads the DC and Nyquist terms as real (their imaginary parts are zero for any real signal)
      const realTerm = hermitian && (k === 0 || 2 * k === m);
      g.im[row * m + k] = realTerm ? 0 : mirrored ? -f.im[src]! : f.im[src]!;
    }
  }
  return g;
}

function complexOfPart(p: DtypeRow): DtypeRow {
  return dtypeByName(p.name === 'f32' ? 'c64' : 'c128');
}

/**
 * stablehlo.fft with fft_length = `lengths` (the last lengths.length dimensions). IRFFT's operand must be the
 * spectrum of a real signal along the leading fft dimensions (Hermitian-consistent) for its result to be defined
 * by every convention; along the last dimension the terms past n/2 are implied and the DC / Nyquist imaginary parts
 * ignored, as every real-output inverse FFT does.
 */
export function fft(operand: Tensor, type: FftType, lengths: readonly number[]): Tensor {
  const r = operand.dims.length;
  const axes = lengths.map((_, k) => r - lengths.length + k);
  let f = fieldOf(operand);
  const inverse = type === 'IFFT' || type === 'IRFFT';
  if (type === 'IRFFT') {
    for (const ax of axes.slice(0, -1)) dftAxis(f, ax, true);
    f = lastDim(f, lengths[lengths.length - 1]!, true);
    dftAxis(f, r - 1, true);
  } else {
    for (const ax of [...axes].reverse()) dftAxis(f, ax, inverse);
    if (type === 'RFFT') {
      const n = lengths[lengths.length - 1]!;
      f = lastDim(f, n === 0 ? 0 : Math.floor(n / 2) + 1, false);
    }
  }
  const outType = type === 'IRFFT' ? partDtype(operand.dtype) : type === 'RFFT' ? complexOfPart(operand.dtype) : operand.dtype;
  const out = new Tensor(outType, f.dims);
  for (let i = 0; i < out.size; i++) out.set(i, outType.kind === 'complex' ? { re: f.re[i]!, im: f.im[i]! } : f.re[i]!);
  return out;
}

/** √(Σ |x|²) over all elements (real or complex), in f64. */
export function norm2(t: Tensor): number {
  let s = 0;
  for (let i = 0; i < t.size; i++) {
    const v = t.get(i);
    s += typeof v === 'number' ? v * v : (v as Complex).re ** 2 + (v as Complex).im ** 2;
  }
  return Math.sqrt(s);
}

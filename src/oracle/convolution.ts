// convolution, as the StableHLO spec defines it: lhs padded (edges from `padding`, lhsDilation − 1 zeros between
// elements), each output position a dot product of an rhs-dilated lhs window (optionally reversed) with the kernel;
// feature groups split lhs features and kernel output features, batch groups split the lhs batch and kernel output
// features. Operands are converted to the result type (a wider `preferred_element_type`); products are summed
// exactly (f64 / BigInt) and rounded or wrapped once; XLA's order differs, so the corpus keeps sums exact.
import type { DtypeRow } from '../abi/dtypes.js';
import { convertScalar } from './convert.js';
import { roundTo } from './floats.js';
import { Tensor, ravel, unravel } from './tensor.js';

export interface ConvDims {
  inputBatch: number;
  inputFeature: number;
  inputSpatial: readonly number[];
  kernelInputFeature: number;
  kernelOutputFeature: number;
  kernelSpatial: readonly number[];
  outputBatch: number;
  outputFeature: number;
  outputSpatial: readonly number[];
}

export interface ConvSpec {
  dims: ConvDims;
  strides: readonly number[];
  padding: readonly (readonly [number, number])[];
  lhsDilation: readonly number[];
  rhsDilation: readonly number[];
  reversal: readonly boolean[];
  featureGroups: number;
  batchGroups: number;
}

/** A spec with every window attribute at its default (strides 1, no padding or dilation) for `spatial` dims. */
export function convDefaults(dims: ConvDims, over: Partial<ConvSpec> = {}): ConvSpec {
  const n = dims.inputSpatial.length;
  const ones = Array<number>(n).fill(1);
  return {
    dims, strides: ones, padding: Array.from({ length: n }, () => [0, 0] as const), lhsDilation: ones, rhsDilation: ones,
    reversal: Array<boolean>(n).fill(false), featureGroups: 1, batchGroups: 1, ...over,
  };
}

function convResultDims(lhs: readonly number[], rhs: readonly number[], c: ConvSpec): number[] {
  const d = c.dims;
  const out = new Array<number>(lhs.length).fill(0);
  out[d.outputBatch] = lhs[d.inputBatch]! / c.batchGroups;
  out[d.outputFeature] = rhs[d.kernelOutputFeature]!;
  d.outputSpatial.forEach((od, s) => {
    const n = lhs[d.inputSpatial[s]!]!;
    const k = rhs[d.kernelSpatial[s]!]!;
    const padded = (n === 0 ? 0 : (n - 1) * c.lhsDilation[s]! + 1) + c.padding[s]![0] + c.padding[s]![1];
    const window = k === 0 ? 0 : (k - 1) * c.rhsDilation[s]! + 1;
    out[od] = padded <= 0 || window > padded ? 0 : Math.floor((padded - window) / c.strides[s]!) + 1;
  });
  return out;
}

export function convolution(lhs: Tensor, rhs: Tensor, c: ConvSpec, out: DtypeRow = lhs.dtype): Tensor {
  const d = c.dims;
  const dt = out;
  const rdims = convResultDims(lhs.dims, rhs.dims, c);
  const r = new Tensor(dt, rdims);
  const ns = d.inputSpatial.length;
  const kin = rhs.dims[d.kernelInputFeature]!;
  const kspatial = d.kernelSpatial.map((k) => rhs.dims[k]!);
  const kcount = kspatial.reduce((a, b) => a * b, 1);
  const groups = Math.max(c.featureGroups, c.batchGroups);
  const perGroupOut = rhs.dims[d.kernelOutputFeature]! / groups;
  const batchPerGroup = lhs.dims[d.inputBatch]! / c.batchGroups;
  for (let o = 0; o < r.size; o++) {
    const oi = unravel(o, rdims);
    const of = oi[d.outputFeature]!;
    const g = Math.floor(of / perGroupOut);
    const li = new Array<number>(lhs.dims.length).fill(0);
    const ri = new Array<number>(rhs.dims.length).fill(0);
    li[d.inputBatch] = c.batchGroups > 1 ? g * batchPerGroup + oi[d.outputBatch]! : oi[d.outputBatch]!;
    ri[d.kernelOutputFeature] = of;
    let fsum = 0;
    let isum = 0n;
    for (let kf = 0; kf < kcount; kf++) {
      const k = unravel(kf, kspatial);
      let inside = true;
      for (let s = 0; s < ns && inside; s++) {
        const kk = c.reversal[s] ? kspatial[s]! - 1 - k[s]! : k[s]!;
        const p = oi[d.outputSpatial[s]!]! * c.strides[s]! + kk * c.rhsDilation[s]! - c.padding[s]![0];
        if (p < 0 || p % c.lhsDilation[s]! !== 0 || p / c.lhsDilation[s]! >= lhs.dims[d.inputSpatial[s]!]!) inside = false;
        li[d.inputSpatial[s]!] = p / c.lhsDilation[s]!;
        ri[d.kernelSpatial[s]!] = k[s]!;
      }
      if (!inside) continue;
      for (let ci = 0; ci < kin; ci++) {
        li[d.inputFeature] = c.featureGroups > 1 ? g * kin + ci : ci;
        ri[d.kernelInputFeature] = ci;
        const a = convertScalar(lhs.get(ravel(li, lhs.dims)), dt);
        const b = convertScalar(rhs.get(ravel(ri, rhs.dims)), dt);
        if (typeof a === 'number') fsum += a * (b as number);
        else if (typeof a === 'bigint') isum += a * (b as bigint);
        else throw new Error('convolution oracle: unsupported element type');
      }
    }
    r.set(o, dt.kind === 'float' ? roundTo(dt, fsum) : isum);
  }
  return r;
}

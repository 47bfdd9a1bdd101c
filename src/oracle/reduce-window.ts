// reduce_window (one input), as the StableHLO spec defines it: the input is padded with the init value (edges from
// `padding`, base_dilations − 1 between elements), and each result element reduces init and the window's elements
// (window_dimensions, window_dilations) at result index × window_strides.
import type { Scalar } from './tensor.js';
import { ravel, Tensor, unravel } from './tensor.js';

export interface WindowSpec {
  dimensions: readonly number[];
  strides: readonly number[];
  baseDilations: readonly number[];
  windowDilations: readonly number[];
  padding: readonly (readonly [number, number])[];
}

export function reduceWindowDims(dims: readonly number[], w: WindowSpec): number[] {
  return dims.map((n, d) => {
    const padded = (n === 0 ? 0 : (n - 1) * w.baseDilations[d]! + 1) + w.padding[d]![0] + w.padding[d]![1];
    const window = (w.dimensions[d]! - 1) * w.windowDilations[d]! + 1;
    return padded < window ? 0 : Math.floor((padded - window) / w.strides[d]!) + 1;
  });
}

export function reduceWindow(x: Tensor, init: Tensor, w: WindowSpec, combine: (acc: Scalar, v: Scalar) => Scalar): Tensor {
  const dims = reduceWindowDims(x.dims, w);
  const out = new Tensor(x.dtype, dims);
  const offsets = unravelAll(w.dimensions);
  for (let i = 0; i < out.size; i++) {
    const ri = unravel(i, dims);
    let acc = init.get(0);
    for (const k of offsets) {
      // position in the padded, base-dilated input
      const src: number[] = [];
      let inside = true;
      for (let d = 0; d < dims.length; d++) {
        const p = ri[d]! * w.strides[d]! + k[d]! * w.windowDilations[d]! - w.padding[d]![0];
        if (p < 0 || p % w.baseDilations[d]! !== 0 || p / w.baseDilations[d]! >= x.dims[d]!) inside = false;
        src.push(p / w.baseDilations[d]!);
      }
      acc = combine(acc, inside ? x.get(ravel(src, x.dims)) : init.get(0));
    }
    out.set(i, acc);
  }
  return out;
}

function unravelAll(dims: readonly number[]): number[][] {
  const n = dims.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, i) => unravel(i, dims));
}

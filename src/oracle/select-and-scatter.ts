// select_and_scatter, as the StableHLO spec defines it: each window of the operand (window_dimensions, strides,
// padding; padded positions hold no operand element) selects one element by folding `select` over the window in
// iteration order (select(current, next) true keeps the current one, so with GE the first maximum wins); the result
// starts at the init value everywhere and each source element is combined into its selected position with `scatter`,
// in source order. A window without operand elements selects nothing (the spec leaves it open; XLA drops the source).
import type { Scalar } from './tensor.js';
import { ravel, Tensor, unravel } from './tensor.js';

export interface SelectWindow {
  dimensions: readonly number[];
  strides: readonly number[];
  padding: readonly (readonly [number, number])[];
}

export function selectAndScatterSourceDims(dims: readonly number[], w: SelectWindow): number[] {
  return dims.map((n, d) => {
    const padded = n + w.padding[d]![0] + w.padding[d]![1];
    return padded <= 0 || w.dimensions[d]! > padded ? 0 : Math.floor((padded - w.dimensions[d]!) / w.strides[d]!) + 1;
  });
}

/** The flat operand index each source element's window selects (−1: an empty window). */
function selectedIndices(x: Tensor, w: SelectWindow, select: (a: Scalar, b: Scalar) => boolean): number[] {
  const sdims = selectAndScatterSourceDims(x.dims, w);
  const wcount = w.dimensions.reduce((a, b) => a * b, 1);
  const n = sdims.reduce((a, b) => a * b, 1);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const si = unravel(i, sdims);
    let best = -1;
    for (let k = 0; k < wcount; k++) {
      const ki = unravel(k, w.dimensions);
      const p = si.map((s, d) => s * w.strides[d]! + ki[d]! - w.padding[d]![0]);
      if (p.some((v, d) => v < 0 || v >= x.dims[d]!)) continue;
      const flat = ravel(p, x.dims);
      if (best < 0 || !select(x.get(best), x.get(flat))) best = flat;
    }
    out.push(best);
  }
  return out;
}

export function selectAndScatter(
  x: Tensor, source: Tensor, init: Tensor, w: SelectWindow,
  select: (a: Scalar, b: Scalar) => boolean, scatter: (acc: Scalar, v: Scalar) => Scalar,
): Tensor {
  const r = new Tensor(x.dtype, x.dims);
  for (let i = 0; i < r.size; i++) r.set(i, init.get(0));
  selectedIndices(x, w, select).forEach((at, i) => {
    if (at >= 0) r.set(at, scatter(r.get(at), source.get(i)));
  });
  return r;
}

// scatter, as the StableHLO spec defines it (one input, or several through scatterMany): each update element goes to start (from
// scatter_indices through scatter_dims_to_operand_dims, not clamped) + its window index (0 at inserted_window_dims
// and input_batching_dims) and is combined there with `combine(current, update)`, in update order; an input
// batching dim takes the update's scatter position along its paired scatter_indices_batching_dim; updates whose
// result index is out of bounds are skipped.
import { ravel, stridesOf, unravel, type Scalar, Tensor } from './tensor.js';

export interface ScatterDims {
  updateWindowDims: readonly number[];
  insertedWindowDims: readonly number[];
  scatterDimsToOperandDims: readonly number[];
  indexVectorDim: number;
  inputBatchingDims?: readonly number[];
  scatterIndicesBatchingDims?: readonly number[];
}

export function scatter(input: Tensor, indices: Tensor, updates: Tensor, s: ScatterDims, combine: (current: Scalar, update: Scalar) => Scalar): Tensor {
  return scatterMany([input], indices, [updates], s, ([c], [u]) => [combine(c!, u!)])[0]!;
}

/** Variadic scatter: N inputs of one shape, N updates of one shape; `combine` takes the N current values and the N
 *  updates at one position and returns the N new values. */
export function scatterMany(inputs: readonly Tensor[], indices: Tensor, updates: readonly Tensor[], s: ScatterDims, combine: (current: Scalar[], update: Scalar[]) => Scalar[]): Tensor[] {
  const input = inputs[0]!;
  const outs = inputs.map((x) => new Tensor(x.dtype, x.dims, Uint8Array.from(x.bytes)));
  const istr = stridesOf(indices.dims);
  const ir = indices.dims.length;
  for (let flat = 0; flat < updates[0]!.size; flat++) {
    const ui = unravel(flat, updates[0]!.dims);
    const window: number[] = [];
    const scatterIndex: number[] = [];
    let base = 0;
    for (let d = 0, k = 0; d < ui.length; d++) {
      if (s.updateWindowDims.includes(d)) { window.push(ui[d]!); continue; }
      scatterIndex.push(ui[d]!);
      if (k === s.indexVectorDim) k++;
      base += ui[d]! * istr[k++]!;
    }
    let w = 0;
    const at = input.dims.map((_, d) => {
      const b = (s.inputBatchingDims ?? []).indexOf(d);
      if (b >= 0) {
        const k = s.scatterIndicesBatchingDims![b]!;
        return scatterIndex[k < s.indexVectorDim ? k : k - 1]!;
      }
      const j = s.scatterDimsToOperandDims.indexOf(d);
      const start = j < 0 ? 0 : Number(indices.get(base + (s.indexVectorDim < ir ? j * istr[s.indexVectorDim]! : 0)) as bigint);
      return start + (s.insertedWindowDims.includes(d) ? 0 : window[w++]!);
    });
    if (at.some((x, d) => x < 0 || x >= input.dims[d]!)) continue;
    const dst = ravel(at, input.dims);
    const next = combine(outs.map((o) => o.get(dst)), updates.map((u) => u.get(flat)));
    outs.forEach((o, k) => o.set(dst, next[k]!));
  }
  return outs;
}

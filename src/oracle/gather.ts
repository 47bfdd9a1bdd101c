// gather, as the StableHLO spec defines it: each result element's batch position picks an index vector from
// start_indices, start_index_map spreads it over operand dims, each start is clamped to [0, dim − slice_size],
// and the offset dims walk the slice (collapsed and operand batching dims have size 1 and no offset dim). An
// operand batching dim takes, unclamped, the batch position along its paired start_indices_batching_dim.
import { ravel, stridesOf, unravel, type Tensor } from './tensor.js';

export interface GatherDims {
  offsetDims: readonly number[];
  collapsedSliceDims: readonly number[];
  startIndexMap: readonly number[];
  indexVectorDim: number;
  sliceSizes: readonly number[];
  operandBatchingDims?: readonly number[];
  startIndicesBatchingDims?: readonly number[];
}

const noOffset = (g: GatherDims, d: number) => g.collapsedSliceDims.includes(d) || (g.operandBatchingDims ?? []).includes(d);

export function gatherResultDims(operand: Tensor, indices: Tensor, g: GatherDims): number[] {
  const batch = indices.dims.filter((_, d) => d !== g.indexVectorDim);
  const offsets = g.sliceSizes.filter((_, d) => !noOffset(g, d));
  const rank = batch.length + offsets.length;
  let [b, o] = [0, 0];
  return Array.from({ length: rank }, (_, d) => (g.offsetDims.includes(d) ? offsets[o++]! : batch[b++]!));
}

export function gather(operand: Tensor, indices: Tensor, g: GatherDims): Tensor {
  const dims = gatherResultDims(operand, indices, g);
  const batchDims = dims.map((_, d) => d).filter((d) => !g.offsetDims.includes(d));
  const istr = stridesOf(indices.dims);
  const ir = indices.dims.length;
  return operand.gather(dims, (flat) => {
    const ri = unravel(flat, dims);
    const bi = batchDims.map((d) => ri[d]!);
    let base = 0;
    for (let d = 0, b = 0; d < ir; d++) if (d !== g.indexVectorDim) base += bi[b++]! * istr[d]!;
    let o = 0;
    const src = operand.dims.map((size, d) => {
      const k = g.startIndexMap.indexOf(d);
      const j = (g.operandBatchingDims ?? []).indexOf(d);
      let start = 0;
      if (j >= 0) {
        const s = g.startIndicesBatchingDims![j]!;
        start = bi[s < g.indexVectorDim ? s : s - 1]!;
      } else if (k >= 0) {
        const at = base + (g.indexVectorDim < ir ? k * istr[g.indexVectorDim]! : 0);
        const v = Number(indices.get(at) as bigint);
        start = Math.min(Math.max(v, 0), size - g.sliceSizes[d]!);
      }
      const offset = noOffset(g, d) ? 0 : ri[g.offsetDims[o++]!]!;
      return start + offset;
    });
    return ravel(src, operand.dims);
  });
}

// reduce with a single binary-op body, folded in row-major order from the init value.
import { binaryScalar } from './elementwise.js';
import { Tensor, ravel, unravel } from './tensor.js';

export function reduce(t: Tensor, init: Tensor, dims: readonly number[], op: string): Tensor {
  const keep = t.dims.map((_, i) => i).filter((i) => !dims.includes(i));
  const outDims = keep.map((i) => t.dims[i]!);
  const acc = Array.from({ length: outDims.reduce((a, b) => a * b, 1) }, () => init.get(0));
  for (let i = 0; i < t.size; i++) {
    const o = ravel(keep.map((k) => unravel(i, t.dims)[k]!), outDims);
    acc[o] = binaryScalar(op, t.dtype, acc[o]!, t.get(i));
  }
  return Tensor.of(t.dtype, outDims, acc);
}

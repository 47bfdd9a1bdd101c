// gather with the dimension numbers JAX's indexing produces: rows by index (x[idx]), points (x[i, j]), windows
// (dynamic slices per index) and columns with index_vector_dim 0; and with batching dims, as jax.vmap of x[i]
// emits them (gather_batched_*: leading, not leading, two of them paired crosswise; a batch of size 1). Every
// program has an out-of-range start index (clamped) and a negative one (clamped to 0).
import { gather, gatherResultDims, type GatherDims } from '../../oracle/gather.js';
import { numElements, Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface GatherCase { id: string; description: string; operand: Tensor; indices: Tensor; dims: GatherDims }

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;

function gatherProgram(c: GatherCase): Program {
  const g = c.dims;
  const out = gather(c.operand, c.indices, g);
  const f = new FuncBuilder('main');
  const [a, i] = [f.arg(typeOf(c.operand)), f.arg(typeOf(c.indices))];
  const rt = tensorType(c.operand.dtype, gatherResultDims(c.operand, c.indices, g));
  const fields = [
    ...(g.offsetDims.length ? [`offset_dims = ${list(g.offsetDims)}`] : []),
    ...(g.collapsedSliceDims.length ? [`collapsed_slice_dims = ${list(g.collapsedSliceDims)}`] : []),
    ...(g.operandBatchingDims?.length ? [`operand_batching_dims = ${list(g.operandBatchingDims)}`] : []),
    ...(g.startIndicesBatchingDims?.length ? [`start_indices_batching_dims = ${list(g.startIndicesBatchingDims)}`] : []),
    `start_index_map = ${list(g.startIndexMap)}`,
    `index_vector_dim = ${g.indexVectorDim}`,
  ];
  const r = f.op(`"stablehlo.gather"(${a}, ${i}) <{dimension_numbers = #stablehlo.gather<${fields.join(', ')}>, indices_are_sorted = false, slice_sizes = array<i64: ${g.sliceSizes.join(', ')}>}> : (${typeOf(c.operand)}, ${typeOf(c.indices)}) -> ${rt}`);
  const name = `gather_${c.id}`;
  // every program has a negative start index; batching dims show where a batch has more than one member
  const batches = (g.operandBatchingDims ?? []).some((d) => c.operand.dims[d]! > 1);
  const catches = ['gather_negative_index_as_unsigned', ...(batches ? ['gather_ignores_batching_dims'] : [])];
  return program({ name, description: c.description, ops: ['gather'], text: moduleText(name, [f.text([{ value: r, type: rt }])]), inputs: [c.operand, c.indices], outputs: [out], catches });
}

const counting = (d: string, dims: number[]) => {
  const row = dt(d);
  return Tensor.of(row, dims, Array.from({ length: numElements(dims) }, (_, k) => (row.kind === 'float' ? k + 0.5 : BigInt(k))));
};
const s32 = (dims: number[], xs: number[]) => Tensor.of(dt('s32'), dims, xs.map(BigInt));

export function gatherPrograms(): Program[] {
  const cases: GatherCase[] = [
    {
      id: 'rows', description: 'gather rows of a 5x3 f32 by index (x[idx]): indices 2, 0, −1 (clamps to 0), 7 (clamps to 4)',
      operand: counting('f32', [5, 3]), indices: s32([4, 1], [2, 0, -1, 7]),
      dims: { offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1, 3] },
    },
    {
      id: 'points', description: 'gather single elements of a 4x4 s32 by (row, column) pairs (x[i, j]): (1, 2), (3, −1), (9, 9) clamp per dim',
      operand: counting('s32', [4, 4]), indices: s32([3, 2], [1, 2, 3, -1, 9, 9]),
      dims: { offsetDims: [], collapsedSliceDims: [0, 1], startIndexMap: [0, 1], indexVectorDim: 1, sliceSizes: [1, 1] },
    },
    {
      id: 'windows', description: 'gather windows of 3 from a 6-element u8 at scalar starts (index_vector_dim = rank): 1, −2 (clamps to 0), 5 (clamps to 3)',
      operand: counting('u8', [6]), indices: s32([3], [1, -2, 5]),
      dims: { offsetDims: [1], collapsedSliceDims: [], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [3] },
    },
    {
      id: 'columns', description: 'gather columns of a 3x4 f64 (index_vector_dim 0, offset dim first): columns 3, −5 (clamps to 0)',
      operand: counting('f64', [3, 4]), indices: s32([1, 2], [3, -5]),
      dims: { offsetDims: [0], collapsedSliceDims: [1], startIndexMap: [1], indexVectorDim: 0, sliceSizes: [3, 1] },
    },
    {
      id: 'batched_rows', description: 'vmapped x[i] on a 3x5 f32 (operand and start_indices batching dim 0): batch b reads row b at 4, 1 / −1 (clamps to 0), 2 / 6 (clamps to 4), 0',
      operand: counting('f32', [3, 5]), indices: s32([3, 2, 1], [4, 1, -1, 2, 6, 0]),
      dims: { offsetDims: [], collapsedSliceDims: [1], operandBatchingDims: [0], startIndicesBatchingDims: [0], startIndexMap: [1], indexVectorDim: 2, sliceSizes: [1, 1] },
    },
    {
      id: 'batched_middle', description: 'gather pairs along dim 0 of a 4x3x2 s32 batched along its dim 1 (start_indices dim 1, not leading), scalar starts 3, −2 (clamps to 0), 1 / 0, 8 (clamps to 3), 2',
      operand: counting('s32', [4, 3, 2]), indices: s32([2, 3], [3, -2, 1, 0, 8, 2]),
      dims: { offsetDims: [1], collapsedSliceDims: [0], operandBatchingDims: [1], startIndicesBatchingDims: [1], startIndexMap: [0], indexVectorDim: 2, sliceSizes: [1, 1, 2] },
    },
    {
      id: 'batched_crossed', description: 'gather from a 2x3x4 f64 with two batching dims paired crosswise (operand dims 0, 1 with start_indices dims 1, 0): starts 3, −1 (clamps to 0), 5 (clamps to 3), 0, 2, 1',
      operand: counting('f64', [2, 3, 4]), indices: s32([3, 2, 1], [3, -1, 5, 0, 2, 1]),
      dims: { offsetDims: [], collapsedSliceDims: [2], operandBatchingDims: [0, 1], startIndicesBatchingDims: [1, 0], startIndexMap: [2], indexVectorDim: 2, sliceSizes: [1, 1, 1] },
    },
    {
      id: 'batch_size_one', description: 'gather windows of 2 from a 6x1 u8 batched along its dim 1 of size 1 (start_indices dim 1): starts −1 (clamps to 0), 2, 9 (clamps to 4)',
      operand: counting('u8', [6, 1]), indices: s32([3, 1], [-1, 2, 9]),
      dims: { offsetDims: [2], collapsedSliceDims: [], operandBatchingDims: [1], startIndicesBatchingDims: [1], startIndexMap: [0], indexVectorDim: 2, sliceSizes: [2, 1] },
    },
  ];
  return cases.map(gatherProgram);
}

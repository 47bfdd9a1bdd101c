// gather with the dimension numbers JAX's indexing produces: rows by index (x[idx]), points (x[i, j]), windows
// (dynamic slices per index) and columns with index_vector_dim 0. Every program has an out-of-range start index
// (clamped) and a negative one (clamped to 0).
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
    `start_index_map = ${list(g.startIndexMap)}`,
    `index_vector_dim = ${g.indexVectorDim}`,
  ];
  const r = f.op(`"stablehlo.gather"(${a}, ${i}) <{dimension_numbers = #stablehlo.gather<${fields.join(', ')}>, indices_are_sorted = false, slice_sizes = array<i64: ${g.sliceSizes.join(', ')}>}> : (${typeOf(c.operand)}, ${typeOf(c.indices)}) -> ${rt}`);
  const name = `gather_${c.id}`;
  return program({ name, description: c.description, ops: ['gather'], text: moduleText(name, [f.text([{ value: r, type: rt }])]), inputs: [c.operand, c.indices], outputs: [out] });
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
  ];
  return cases.map(gatherProgram);
}

// scatter with the dimension numbers JAX's .at[...] updates produce: add into rows with a duplicate index
// (.at[idx].add), add into points with duplicates, and a replacing combiner writing windows (.at[...].set); and
// with batching dims, as jax.vmap of x.at[i].add(u) emits them (scatter_batched_*: leading, not leading, with
// duplicates and out-of-range single-element updates, which both the spec and XLA skip; a batch of size 1).
// Values are small integers, so the sums are exact in any order; no update window of more than one element is out
// of bounds (the spec skips out-of-bounds elements, XLA whole windows).
import { binaryScalar } from '../../oracle/elementwise.js';
import { scatter, scatterMany, type ScatterDims } from '../../oracle/scatter.js';
import { numElements, Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface ScatterCase { id: string; description: string; input: Tensor; indices: Tensor; updates: Tensor; dims: ScatterDims; combiner: 'add' | 'replace' }

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;

/** The fields of `#stablehlo.scatter<…>` (empty lists left out, as the printer does). */
function scatterFields(s: ScatterDims): string[] {
  return [
    ...(s.updateWindowDims.length ? [`update_window_dims = ${list(s.updateWindowDims)}`] : []),
    ...(s.insertedWindowDims.length ? [`inserted_window_dims = ${list(s.insertedWindowDims)}`] : []),
    ...(s.inputBatchingDims?.length ? [`input_batching_dims = ${list(s.inputBatchingDims)}`] : []),
    ...(s.scatterIndicesBatchingDims?.length ? [`scatter_indices_batching_dims = ${list(s.scatterIndicesBatchingDims)}`] : []),
    `scatter_dims_to_operand_dims = ${list(s.scatterDimsToOperandDims)}`,
    `index_vector_dim = ${s.indexVectorDim}`,
  ];
}

/**
 * The reference plugin's faults a scatter program shows: every input has untouched elements that are not zero;
 * batching dims show where a batch has more than one member; a variadic scatter shows a dropped second result.
 */
function catchesOf(input: Tensor, s: ScatterDims, variadic: boolean): string[] {
  const batches = (s.inputBatchingDims ?? []).some((d) => input.dims[d]! > 1);
  return ['scatter_starts_from_zeros', ...(batches ? ['scatter_ignores_batching_dims'] : []), ...(variadic ? ['scatter_variadic_second_dropped'] : [])];
}

function scatterProgram(c: ScatterCase): Program {
  const s = c.dims;
  const d = c.input.dtype;
  const out = scatter(c.input, c.indices, c.updates, s, c.combiner === 'add' ? (x, y) => binaryScalar('add', d, x, y) : (_x, y) => y);
  const f = new FuncBuilder('main');
  const [a, i, u] = [f.arg(typeOf(c.input)), f.arg(typeOf(c.indices)), f.arg(typeOf(c.updates))];
  const st = tensorType(d, []);
  const r = f.fresh();
  const [p, q] = [`%arg3`, `%arg4`];
  const body = c.combiner === 'add' ? (() => { const v = f.fresh(); return [`  ${v} = stablehlo.add ${p}, ${q} : ${st}`, `  stablehlo.return ${v} : ${st}`]; })() : [`  stablehlo.return ${q} : ${st}`];
  const fields = scatterFields(s);
  f.raw([
    `${r} = "stablehlo.scatter"(${a}, ${i}, ${u}) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<${fields.join(', ')}>, unique_indices = false}> ({`,
    `^bb0(${p}: ${st}, ${q}: ${st}):`,
    ...body,
    `}) : (${typeOf(c.input)}, ${typeOf(c.indices)}, ${typeOf(c.updates)}) -> ${typeOf(c.input)}`,
  ].join('\n'));
  const name = `scatter_${c.id}`;
  return program({ name, description: c.description, ops: ['scatter', ...(c.combiner === 'add' ? ['add'] : [])], text: moduleText(name, [f.text([{ value: r, type: typeOf(c.input) }])]), inputs: [c.input, c.indices, c.updates], outputs: [out], catches: catchesOf(c.input, s, false) });
}

/** A variadic scatter of two inputs (f32 and s32) whose region adds the f32 updates and keeps the s32 maximum:
 *  both combiners are commutative, so duplicate indices give one answer in any order. */
interface VariadicCase { id: string; description: string; inputs: [Tensor, Tensor]; indices: Tensor; updates: [Tensor, Tensor]; dims: ScatterDims }

function variadicScatterProgram(c: VariadicCase): Program {
  const s = c.dims;
  const [d0, d1] = [c.inputs[0].dtype, c.inputs[1].dtype];
  const outs = scatterMany(c.inputs, c.indices, c.updates, s, ([x0, x1], [u0, u1]) => [binaryScalar('add', d0, x0!, u0!), binaryScalar('maximum', d1, x1!, u1!)]);
  const f = new FuncBuilder('main');
  const args = [...c.inputs, c.indices, ...c.updates].map((t) => f.arg(typeOf(t)));
  const [t0, t1] = [tensorType(d0, []), tensorType(d1, [])];
  const n = args.length;
  const [x0, x1, u0, u1] = [0, 1, 2, 3].map((k) => `%arg${n + k}`);
  const r = f.fresh();
  const [sum, max] = [f.fresh(), f.fresh()];
  const fields = scatterFields(s);
  const types = [...c.inputs, c.indices, ...c.updates].map(typeOf);
  const results = c.inputs.map(typeOf);
  f.raw([
    `${r}:2 = "stablehlo.scatter"(${args.join(', ')}) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<${fields.join(', ')}>, unique_indices = false}> ({`,
    `^bb0(${x0}: ${t0}, ${x1}: ${t1}, ${u0}: ${t0}, ${u1}: ${t1}):`,
    `  ${sum} = stablehlo.add ${x0}, ${u0} : ${t0}`,
    `  ${max} = stablehlo.maximum ${x1}, ${u1} : ${t1}`,
    `  stablehlo.return ${sum}, ${max} : ${t0}, ${t1}`,
    `}) : (${types.join(', ')}) -> (${results.join(', ')})`,
  ].join('\n'));
  const name = `scatter_${c.id}`;
  return program({
    name, description: c.description, ops: ['scatter', 'add', 'maximum'],
    text: moduleText(name, [f.text(results.map((type, k) => ({ value: `${r}#${k}`, type })))]),
    inputs: [...c.inputs, c.indices, ...c.updates], outputs: outs, catches: catchesOf(c.inputs[0], s, true),
  });
}

const counting = (d: string, dims: number[], from = 1) => {
  const row = dt(d);
  return Tensor.of(row, dims, Array.from({ length: numElements(dims) }, (_, k) => (row.kind === 'float' ? k + from : BigInt(k + from))));
};
const s32 = (dims: number[], xs: number[]) => Tensor.of(dt('s32'), dims, xs.map(BigInt));

export function scatterPrograms(): Program[] {
  const cases: ScatterCase[] = [
    {
      id: 'add_rows', description: 'scatter-add rows into a 5x3 f32 (x.at[idx].add(u)) at rows 1, 3, 1 (a duplicate: both add), 0',
      input: counting('f32', [5, 3]), indices: s32([4, 1], [1, 3, 1, 0]), updates: counting('f32', [4, 3], 100), combiner: 'add',
      dims: { updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1 },
    },
    {
      id: 'add_points', description: 'scatter-add single elements into a 4x4 s32 at (0, 0), (2, 3), (0, 0), (3, 3), (2, 3) (duplicates add up)',
      input: counting('s32', [4, 4]), indices: s32([5, 2], [0, 0, 2, 3, 0, 0, 3, 3, 2, 3]), updates: s32([5], [10, -20, 30, 40, -50]), combiner: 'add',
      dims: { updateWindowDims: [], insertedWindowDims: [0, 1], scatterDimsToOperandDims: [0, 1], indexVectorDim: 1 },
    },
    {
      id: 'set_windows', description: 'scatter with a replacing combiner (x.at[...].set) of 2-element windows into a 6-element u8 at 4 and 1 (scalar starts)',
      input: counting('u8', [6]), indices: s32([2], [4, 1]), updates: Tensor.of(dt('u8'), [2, 2], [200n, 201n, 100n, 101n]), combiner: 'replace',
      dims: { updateWindowDims: [1], insertedWindowDims: [], scatterDimsToOperandDims: [0], indexVectorDim: 1 },
    },
    {
      id: 'batched_add', description: 'vmapped x.at[i].add(u) on a 3x5 f32 (input and scatter_indices batching dim 0): batch b adds at 4, 4 (a duplicate) / 0, 5 (out of range: skipped) / −1 (skipped), 2',
      input: counting('f32', [3, 5]), indices: s32([3, 2, 1], [4, 4, 0, 5, -1, 2]), updates: counting('f32', [3, 2], 10), combiner: 'add',
      dims: { updateWindowDims: [], insertedWindowDims: [1], inputBatchingDims: [0], scatterIndicesBatchingDims: [0], scatterDimsToOperandDims: [1], indexVectorDim: 2 },
    },
    {
      id: 'batched_middle_add', description: 'scatter-add into dim 0 of a 4x3 s32 batched along its dim 1 (scatter_indices dim 1, not leading), scalar starts 3, 0, 3 / 3, 4 (skipped), 1 (batch 0 adds twice at 3)',
      input: counting('s32', [4, 3]), indices: s32([2, 3], [3, 0, 3, 3, 4, 1]), updates: s32([2, 3], [10, -20, 30, 40, -50, 60]), combiner: 'add',
      dims: { updateWindowDims: [], insertedWindowDims: [0], inputBatchingDims: [1], scatterIndicesBatchingDims: [1], scatterDimsToOperandDims: [0], indexVectorDim: 2 },
    },
    {
      id: 'batch_size_one_set', description: 'scatter with a replacing combiner of 2-element windows into a 6x1 u8 batched along its dim 1 of size 1 (scatter_indices dim 1), starts 4 and 1',
      input: counting('u8', [6, 1]), indices: s32([2, 1], [4, 1]), updates: Tensor.of(dt('u8'), [2, 1, 2], [200n, 201n, 100n, 101n]), combiner: 'replace',
      dims: { updateWindowDims: [2], insertedWindowDims: [], inputBatchingDims: [1], scatterIndicesBatchingDims: [1], scatterDimsToOperandDims: [0], indexVectorDim: 2 },
    },
  ];
  const variadic: VariadicCase[] = [
    {
      id: 'variadic_add_max', description: 'variadic scatter of rows into a 4x3 f32 and a 4x3 s32 at rows 2, 0, 2 (a duplicate) with one region: f32 sum, s32 maximum (updates above and below the inputs)',
      inputs: [counting('f32', [4, 3]), counting('s32', [4, 3])], indices: s32([3, 1], [2, 0, 2]),
      updates: [counting('f32', [3, 3], 100), s32([3, 3], [20, 0, 5, -1, 9, 2, 8, 30, -4])],
      dims: { updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1 },
    },
    {
      id: 'variadic_batched', description: 'vmapped variadic scatter into a 2x4 f32 and a 2x4 s32 (input and scatter_indices batching dim 0), f32 sum and s32 maximum at 3, 3 (a duplicate) / 1, 4 (out of range: skipped)',
      inputs: [counting('f32', [2, 4]), counting('s32', [2, 4])], indices: s32([2, 2, 1], [3, 3, 1, 4]),
      updates: [counting('f32', [2, 2], 10), s32([2, 2], [50, 60, -5, 70])],
      dims: { updateWindowDims: [], insertedWindowDims: [1], inputBatchingDims: [0], scatterIndicesBatchingDims: [0], scatterDimsToOperandDims: [1], indexVectorDim: 2 },
    },
  ];
  return [...cases.map(scatterProgram), ...variadic.map(variadicScatterProgram)];
}

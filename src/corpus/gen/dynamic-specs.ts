// The dynamic-shape ops with static operands (their shape, sizes or padding given as a constant operand, the result
// type static), get_dimension_size, map and composite: ops XLA's CPU compiler runs. (CHLO ops: chlo-specs.ts.)
import { binary } from '../../oracle/elementwise.js';
import { gather, type GatherDims } from '../../oracle/gather.js';
import { broadcastInDim, iota, pad, reshape } from '../../oracle/shape.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, program, vec, type Program } from './program.js';

const s64 = dt('s64');
const f32 = dt('f32');
const shapeOf = (dims: readonly number[]) => Tensor.of(s64, [dims.length], dims.map(BigInt));
const x23 = vec(f32, [1.5, -2, 0.25, 8, -0, 3]).gather([2, 3], (i) => i);

function one(name: string, description: string, ops: readonly string[], f: FuncBuilder, result: string, inputs: readonly Tensor[], out: Tensor): Program {
  // The subject op's result is the program's (its shape operands are constants): +1 on it shows.
  return program({ name, description, ops, text: moduleText(name, [f.text([{ value: result, type: typeOf(out) }])]), inputs, outputs: [out], catches: [`op_off_by_one=${ops[0]}`] });
}

function dynamicShapePrograms(): Program[] {
  const out: Program[] = [];
  {
    const f = new FuncBuilder('main');
    const s = f.constant(shapeOf([3, 4]));
    const r = iota(f32, [3, 4], 1);
    const v = f.op(`stablehlo.dynamic_iota ${s}, dim = 1 : (tensor<2xi64>) -> ${typeOf(r)}`);
    out.push(one('dynamic_iota_f32', 'dynamic_iota along dim 1 of a 3x4 f32 shape given as a constant operand', ['dynamic_iota', 'constant'], f, v, [], r));
  }
  {
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(x23));
    const s = f.constant(shapeOf([3, 2]));
    const r = reshape(x23, [3, 2]);
    const v = f.op(`stablehlo.dynamic_reshape ${a}, ${s} : (${typeOf(x23)}, tensor<2xi64>) -> ${typeOf(r)}`);
    out.push(one('dynamic_reshape_f32', 'dynamic_reshape of 2x3 f32 to 3x2, the shape a constant operand', ['dynamic_reshape', 'constant'], f, v, [x23], r));
  }
  {
    const x = vec(f32, [1, -2, 3.5]).gather([3, 1], (i) => i);
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(x));
    const s = f.constant(shapeOf([3, 2, 2]));
    const r = broadcastInDim(x, [3, 2, 2], [0, 2]);
    const v = f.op(`"stablehlo.dynamic_broadcast_in_dim"(${a}, ${s}) <{broadcast_dimensions = array<i64: 0, 2>}> : (${typeOf(x)}, tensor<3xi64>) -> ${typeOf(r)}`);
    out.push(one('dynamic_broadcast_in_dim_f32', 'dynamic_broadcast_in_dim of 3x1 f32 to 3x2x2 (dims [0, 2], the size-1 dim expands), the shape a constant operand', ['dynamic_broadcast_in_dim', 'constant'], f, v, [x], r));
  }
  {
    const pv = Tensor.of(f32, [], [-1]);
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(x23));
    const p = f.arg(typeOf(pv));
    const [low, high, interior] = [[1, -1], [0, 2], [1, 1]];
    const lo = f.constant(shapeOf(low!));
    const hi = f.constant(shapeOf(high!));
    const ir = f.constant(shapeOf(interior!));
    const r = pad(x23, pv, low!, high!, interior!);
    const v = f.op(`stablehlo.dynamic_pad ${a}, ${p}, ${lo}, ${hi}, ${ir} : (${typeOf(x23)}, ${typeOf(pv)}, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> ${typeOf(r)}`);
    out.push(one('dynamic_pad_f32', 'dynamic_pad of 2x3 f32 with low [1, -1], high [0, 2], interior [1, 1] as constant operands (a negative edge drops a column)', ['dynamic_pad', 'constant'], f, v, [x23, pv], r));
  }
  {
    const operand = vec(f32, Array.from({ length: 12 }, (_, i) => i * 1.5 - 4)).gather([3, 4], (i) => i);
    const indices = Tensor.of(s64, [2, 2], [0n, 1n, 2n, -1n]);
    const g: GatherDims = { offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0, 1], indexVectorDim: 1, sliceSizes: [1, 3] };
    const r = gather(operand, indices, g);
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(operand));
    const i = f.arg(typeOf(indices));
    const sz = f.constant(shapeOf(g.sliceSizes));
    const v = f.op(`"stablehlo.dynamic_gather"(${a}, ${i}, ${sz}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>}> : (${typeOf(operand)}, ${typeOf(indices)}, tensor<2xi64>) -> ${typeOf(r)}`);
    out.push(one('dynamic_gather_f32', 'dynamic_gather of rows of 3 from a 3x4 f32, slice sizes a constant operand; a negative start clamps to 0', ['dynamic_gather', 'constant'], f, v, [operand, indices], r));
  }
  {
    const x = new Tensor(f32, [2, 3, 5]);
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(x));
    const r = Tensor.of(dt('s32'), [], [3n]);
    const v = f.op(`stablehlo.get_dimension_size ${a}, dim = 1 : (${typeOf(x)}) -> tensor<i32>`);
    out.push(one('get_dimension_size_f32', 'get_dimension_size of dim 1 of a 2x3x5 f32 (3, as tensor<i32>)', ['get_dimension_size'], f, v, [x], r));
  }
  return out;
}

/** map with a multiply-add region over all dimensions; composite whose decomposition adds its operand to itself. */
function regionPrograms(): Program[] {
  const out: Program[] = [];
  {
    const y = vec(f32, [2, 0.5, -1, 4, 10, -0]).gather([2, 3], (i) => i);
    const f = new FuncBuilder('main');
    const a = f.arg(typeOf(x23));
    const b = f.arg(typeOf(y));
    const v = f.fresh();
    f.raw([
      `${v} = "stablehlo.map"(${a}, ${b}) <{dimensions = array<i64: 0, 1>}> ({`,
      '^bb0(%e0: tensor<f32>, %e1: tensor<f32>):',
      '  %p = stablehlo.multiply %e0, %e1 : tensor<f32>',
      '  %s = stablehlo.add %p, %e0 : tensor<f32>',
      '  stablehlo.return %s : tensor<f32>',
      `}) : (${typeOf(x23)}, ${typeOf(y)}) -> ${typeOf(x23)}`,
    ].join('\n'));
    const r = binary('add', binary('multiply', x23, y), x23);
    out.push(one('map_f32', 'map over both dims of 2x3 f32 with the region x·y + x', ['map', 'multiply', 'add'], f, v, [x23, y], r));
  }
  {
    const name = 'composite_f32';
    const t = typeOf(x23);
    const text = moduleText(name, [
      [
        `  func.func public @main(%arg0: ${t}) -> (${t} {jax.result_info = "result"}) {`,
        `    %0 = stablehlo.composite "cts.double" %arg0 {composite_attributes = {factor = 2 : i64}, decomposition = @cts.double.impl} : (${t}) -> ${t}`,
        `    return %0 : ${t}`,
        '  }',
      ].join('\n'),
      [
        `  func.func private @cts.double.impl(%arg0: ${t}) -> ${t} {`,
        `    %0 = stablehlo.add %arg0, %arg0 : ${t}`,
        `    return %0 : ${t}`,
        '  }',
      ].join('\n'),
    ]);
    out.push(program({ name, description: 'composite whose decomposition (a private function) adds its f32 operand to itself: the composite runs its decomposition', ops: ['composite', 'add'], text, inputs: [x23], outputs: [binary('add', x23, x23)], catches: ['op_off_by_one=composite'] }));
  }
  return out;
}

export function dynamicPrograms(): Program[] {
  return [...dynamicShapePrograms(), ...regionPrograms()];
}

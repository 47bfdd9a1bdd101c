// reduce_window: max pooling with padding, a prefix sum (the window JAX's cumsum lowers to on CPU) and a window
// with base and window dilations. Small integers keep every sum exact in any order. Every init value is the
// identity of its body: the spec leaves how often the init enters a reduction open (body and init must form a
// monoid; XLA skips padding where the spec's padded input would add the init once per padded element).
import { binaryScalar } from '../../oracle/elementwise.js';
import { reduceWindow, reduceWindowDims, type WindowSpec } from '../../oracle/reduce-window.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface WindowCase { id: string; description: string; x: Tensor; init: Tensor; op: 'add' | 'maximum'; w: WindowSpec }

function windowProgram(c: WindowCase): Program {
  const d = c.x.dtype;
  const out = reduceWindow(c.x, c.init, c.w, (a, v) => binaryScalar(c.op, d, a, v));
  const f = new FuncBuilder('main');
  const x = f.arg(typeOf(c.x));
  const init = f.constant(c.init);
  const st = tensorType(d, []);
  const rt = tensorType(d, reduceWindowDims(c.x.dims, c.w));
  const r = f.fresh();
  const v = f.fresh();
  const n = c.x.dims.length;
  const arr = (xs: readonly number[]) => `array<i64: ${xs.join(', ')}>`;
  const attrs = [
    `base_dilations = ${arr(c.w.baseDilations)}`,
    `padding = dense<[${c.w.padding.map(([lo, hi]) => `[${lo}, ${hi}]`).join(', ')}]> : tensor<${n}x2xi64>`,
    `window_dilations = ${arr(c.w.windowDilations)}`,
    `window_dimensions = ${arr(c.w.dimensions)}`,
    `window_strides = ${arr(c.w.strides)}`,
  ];
  f.raw([
    `${r} = "stablehlo.reduce_window"(${x}, ${init}) <{${attrs.join(', ')}}> ({`,
    `^bb0(%arg1: ${st}, %arg2: ${st}):`,
    `  ${v} = stablehlo.${c.op} %arg1, %arg2 : ${st}`,
    `  stablehlo.return ${v} : ${st}`,
    `}) : (${typeOf(c.x)}, ${st}) -> ${rt}`,
  ].join('\n'));
  const name = `reduce_window_${c.id}`;
  return program({ name, description: c.description, ops: ['reduce_window', c.op, 'constant'], text: moduleText(name, [f.text([{ value: r, type: rt }])]), inputs: [c.x], outputs: [out], catches: ['reduce_window_last_dropped'] }); // every program has a nonzero last result row
}

export function reduceWindowPrograms(): Program[] {
  const f32 = dt('f32');
  const cases: WindowCase[] = [
    {
      id: 'max_pool', description: 'max pooling of a 4x5 f32 (a NaN, ±0, negatives), window 2x2, strides 2x2, padding 1 on the right of dim 1; init −inf',
      x: Tensor.of(f32, [4, 5], [1, -2, 3, -0, 5, 0, 7, NaN, -9, -1, -3, -4, -5, -6, -7, 2, 8, -1, 6, -8]), init: Tensor.of(f32, [], [-Infinity]), op: 'maximum',
      w: { dimensions: [2, 2], strides: [2, 2], baseDilations: [1, 1], windowDilations: [1, 1], padding: [[0, 0], [0, 1]] },
    },
    {
      id: 'prefix_sum', description: 'prefix sums of 6 s32 (a window of 6 with 5 init-padded elements before: how cumsum lowers)',
      x: Tensor.of(dt('s32'), [6], [3n, -1n, 4n, 1n, -5n, 9n]), init: Tensor.of(dt('s32'), [], [0n]), op: 'add',
      w: { dimensions: [6], strides: [1], baseDilations: [1], windowDilations: [1], padding: [[5, 0]] },
    },
    {
      id: 'dilated', description: 'sums over a 5-element f32 with base dilation 2 (holes hold the init), window 2 with window dilation 2, padding 1 before; init 0',
      x: Tensor.of(f32, [5], [1, 2, 3, 4, 5]), init: Tensor.of(f32, [], [0]), op: 'add',
      w: { dimensions: [2], strides: [1], baseDilations: [2], windowDilations: [2], padding: [[1, 0]] },
    },
  ];
  return cases.map(windowProgram);
}

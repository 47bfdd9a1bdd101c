// select_and_scatter: the max-pool gradient (GE select, add scatter) with disjoint and overlapping windows, padding
// and ties; a min-pool gradient (LE); a maximum scatter; the spec's own example. Ties: the spec folds `select` over the
// window in iteration order keeping the current element while select(current, next) holds, so GE/LE keep the first
// of equal elements (XLA's CPU compiler agrees: `xla-check`). Windows always hold an operand element (the spec leaves
// an all-padding window open).
import type { DtypeRow } from '../../abi/dtypes.js';
import { binaryScalar } from '../../oracle/elementwise.js';
import { selectAndScatter, selectAndScatterSourceDims, type SelectWindow } from '../../oracle/select-and-scatter.js';
import { Tensor, type Scalar } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface SasCase {
  id: string;
  description: string;
  x: Tensor;
  /** source values in order (its shape follows from the window) */
  source: readonly Scalar[];
  init: Scalar;
  select: 'GE' | 'LE';
  scatter: 'add' | 'maximum';
  w: SelectWindow;
  /** the reference plugin's faults the case's values show (faults.json names) */
  catches?: readonly string[];
}

function selects(dir: 'GE' | 'LE'): (a: Scalar, b: Scalar) => boolean {
  return dir === 'GE' ? (a, b) => a >= b : (a, b) => a <= b;
}

function sasProgram(c: SasCase): Program {
  const d: DtypeRow = c.x.dtype;
  const source = Tensor.of(d, selectAndScatterSourceDims(c.x.dims, c.w), [...c.source]);
  const init = Tensor.of(d, [], [c.init]);
  const out = selectAndScatter(c.x, source, init, c.w, selects(c.select), (a, v) => binaryScalar(c.scatter, d, a, v));
  const f = new FuncBuilder('main');
  const [x, s] = [f.arg(typeOf(c.x)), f.arg(typeOf(source))];
  const iv = f.constant(init);
  const st = tensorType(d, []);
  const bt = tensorType(dt('pred'), []);
  const r = f.fresh();
  const [a1, a2, p, b1, b2, v] = [f.fresh(), f.fresh(), f.fresh(), f.fresh(), f.fresh(), f.fresh()];
  const n = c.x.dims.length;
  const arr = (xs: readonly number[]) => `array<i64: ${xs.join(', ')}>`;
  const cmpType = d.kind === 'float' ? 'FLOAT' : d.kind === 'uint' ? 'UNSIGNED' : 'SIGNED';
  const attrs = [
    `padding = dense<[${c.w.padding.map(([lo, hi]) => `[${lo}, ${hi}]`).join(', ')}]> : tensor<${n}x2xi64>`,
    `window_dimensions = ${arr(c.w.dimensions)}`,
    `window_strides = ${arr(c.w.strides)}`,
  ];
  f.raw([
    `${r} = "stablehlo.select_and_scatter"(${x}, ${s}, ${iv}) <{${attrs.join(', ')}}> ({`,
    `^bb0(${a1}: ${st}, ${a2}: ${st}):`,
    `  ${p} = stablehlo.compare ${c.select}, ${a1}, ${a2}, ${cmpType} : (${st}, ${st}) -> ${bt}`,
    `  stablehlo.return ${p} : ${bt}`,
    '}, {',
    `^bb0(${b1}: ${st}, ${b2}: ${st}):`,
    `  ${v} = stablehlo.${c.scatter} ${b1}, ${b2} : ${st}`,
    `  stablehlo.return ${v} : ${st}`,
    `}) : (${typeOf(c.x)}, ${typeOf(source)}, ${st}) -> ${typeOf(c.x)}`,
  ].join('\n'));
  const name = `select_and_scatter_${c.id}`;
  return program({ name, description: c.description, ops: ['select_and_scatter', 'compare', c.scatter, 'constant'], text: moduleText(name, [f.text([{ value: r, type: typeOf(c.x) }])]), inputs: [c.x, source], outputs: [out], catches: c.catches ?? [] });
}

const seq = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

export function selectAndScatterPrograms(): Program[] {
  const [f32, s32, bf16] = [dt('f32'), dt('s32'), dt('bf16')];
  const big = (xs: readonly number[]) => xs.map(BigInt);
  const none = (n: number): (readonly [number, number])[] => Array.from({ length: n }, () => [0, 0] as const);
  const cases: SasCase[] = [
    {
      id: 'max_pool_grad_f32', catches: ['select_and_scatter_last_tie_wins'], description: 'max-pool gradient (GE, add): 4x6 f32, 2x2 windows, stride 2 (disjoint), a tie inside one window',
      x: Tensor.of(f32, [4, 6], [1, 5, 2, 0, 3, 3, 4, -1, 8, 1, 3, 3, -2, 0, 6, 7, 9, 9, 3, 1, 2, 7, 9, 9]),
      source: [1, 2, 3, 4, 5, 6], init: 0, select: 'GE', scatter: 'add',
      w: { dimensions: [2, 2], strides: [2, 2], padding: none(2) },
    },
    {
      id: 'overlapping_f32', catches: ['select_and_scatter_overwrites'], description: 'GE/add with 3x3 windows at stride 1 (overlapping): one element selected by several windows sums their sources',
      x: Tensor.of(f32, [4, 5], [0, 1, 2, 1, 0, 1, 9, 3, 2, 1, 0, 2, 1, 8, 0, 3, 1, 0, 2, 4]),
      source: seq(6, (i) => i + 1), init: 0, select: 'GE', scatter: 'add',
      w: { dimensions: [3, 3], strides: [1, 1], padding: none(2) },
    },
    {
      id: 'padded_s32', catches: ['select_and_scatter_overwrites'], description: 'GE/add on s32 with padding 1 on both sides, window 3 stride 2 (1-D), init 100',
      x: Tensor.of(s32, [7], big([4, -3, 4, 0, 2, 7, -1])), source: big([10, 20, 30, 40]), init: 100n, select: 'GE', scatter: 'add',
      w: { dimensions: [3], strides: [2], padding: [[1, 1]] },
    },
    {
      id: 'ties_f32', catches: ['select_and_scatter_last_tie_wins'], description: 'GE/add where every window is a run of equal values: the first element of each window (iteration order) is selected',
      x: Tensor.of(f32, [3, 4], seq(12, () => 2)), source: seq(6, (i) => 10 * (i + 1)), init: 0, select: 'GE', scatter: 'add',
      w: { dimensions: [2, 2], strides: [1, 1], padding: none(2) },
    },
    {
      id: 'min_pool_grad_s32', catches: ['select_and_scatter_last_tie_wins', 'select_and_scatter_overwrites'], description: 'min-pool gradient (LE, add) on s32: 2x2 windows, stride 1, ties (the first minimum wins), asymmetric padding',
      x: Tensor.of(s32, [3, 4], big([3, 1, 1, 5, 2, 1, 4, 1, 0, 6, 0, 2])), source: big(seq(12, (i) => i + 1)), init: 0n, select: 'LE', scatter: 'add',
      w: { dimensions: [2, 2], strides: [1, 1], padding: [[0, 1], [1, 0]] },
    },
    {
      id: 'scatter_maximum_bf16', catches: ['select_and_scatter_overwrites'], description: 'GE select with a maximum scatter on bf16 (overlapping windows, init −8): positions keep the largest source',
      x: Tensor.of(bf16, [6], [1, 3, 2, 3, 0, 1]), source: [5, -2, 7, 4], init: -8, select: 'GE', scatter: 'maximum',
      w: { dimensions: [3], strides: [1], padding: none(1) },
    },
    {
      id: 'spec_example_s32', catches: ['select_and_scatter_overwrites'], description: "the spec's example: 4x2 operand, windows 3x1, strides 2x1, padding 1 below dimension 0",
      x: Tensor.of(s32, [4, 2], big([1, 5, 2, 5, 3, 6, 4, 4])), source: big([5, 6, 7, 8]), init: 0n, select: 'GE', scatter: 'add',
      w: { dimensions: [3, 1], strides: [2, 1], padding: [[0, 1], [0, 0]] },
    },
  ];
  return cases.map(sasProgram);
}

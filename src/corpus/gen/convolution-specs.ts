// convolution: 1-D/2-D/3-D, the usual layouts (NHWC/HWIO, NCHW/OIHW) and an unusual one, strides, padding (asymmetric
// and negative), lhs dilation (transposed convolution), rhs dilation (atrous), window reversal, feature groups
// (grouped and depthwise), batch groups, size-1 and empty dimensions, on f32/f16/bf16/s32. Operands are small
// integers so that every sum is exact in any order and at any accumulation precision. Written in the pretty form
// JAX prints (dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {...}); one program in the generic form.
import type { DtypeRow } from '../../abi/dtypes.js';
import { convDefaults, convolution, type ConvDims, type ConvSpec } from '../../oracle/convolution.js';
import { numElements, Tensor, type Scalar } from '../../oracle/tensor.js';
import type { Tolerance } from '../schema.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface ConvCase {
  id: string;
  description: string;
  dtype: string;
  /** the result's element type when it differs from the operands' (preferred_element_type) */
  result?: string;
  lhs: number[];
  rhs: number[];
  /** layout letters: input, kernel, output, e.g. ['b01f', '01io', 'b01f'] */
  layout: [string, string, string];
  window?: Partial<Omit<ConvSpec, 'dims'>>;
  /** largest magnitude of an operand element (keeps bf16/f16 sums exact) */
  range?: number;
  generic?: boolean;
  /** the reference plugin's faults the case's values show (faults.json names) */
  catches?: readonly string[];
}

/** Dimension numbers from layout letters (b/f batch and feature, i/o kernel features, digits spatial). */
function dimsOf([input, kernel, output]: [string, string, string]): ConvDims {
  const spatial = (s: string) => [...s].map((ch, i) => [ch, i] as const).filter(([ch]) => /\d/.test(ch)).sort((a, b) => Number(a[0]) - Number(b[0])).map(([, i]) => i);
  return {
    inputBatch: input.indexOf('b'), inputFeature: input.indexOf('f'), inputSpatial: spatial(input),
    kernelInputFeature: kernel.indexOf('i'), kernelOutputFeature: kernel.indexOf('o'), kernelSpatial: spatial(kernel),
    outputBatch: output.indexOf('b'), outputFeature: output.indexOf('f'), outputSpatial: spatial(output),
  };
}

function operand(d: DtypeRow, dims: readonly number[], seed: number, range: number): Tensor {
  // the quadratic term keeps the pattern from repeating with any dimension's stride (batches and groups differ)
  const v = (i: number): number => (((i * 7 + seed * 5 + ((i * i) % 13)) % (2 * range + 1)) - range);
  return Tensor.of(d, dims, Array.from({ length: numElements(dims) }, (_, i): Scalar => (d.kind === 'float' ? v(i) : BigInt(v(i)))));
}

const list = (xs: readonly (number | boolean)[]) => `[${xs.join(', ')}]`;
const PRECISION = 'precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]';

function convText(name: string, c: ConvCase, s: ConvSpec, a: Tensor, b: Tensor, out: Tensor): string {
  const f = new FuncBuilder('main');
  const [x, w] = [f.arg(typeOf(a)), f.arg(typeOf(b))];
  const sig = `(${typeOf(a)}, ${typeOf(b)}) -> ${typeOf(out)}`;
  const groups = `batch_group_count = ${s.batchGroups} : i64, feature_group_count = ${s.featureGroups} : i64`;
  const layout = (l: string) => `[${[...l].join(', ')}]`;
  const dn = `${layout(c.layout[0])}x${layout(c.layout[1])}->${layout(c.layout[2])}`;
  let r: string;
  if (c.generic) {
    const n = s.strides.length;
    const arr = (t: string, xs: readonly (number | boolean)[]) => `array<${t}: ${xs.join(', ')}>`;
    r = f.op(`"stablehlo.convolution"(${x}, ${w}) <{${groups}, dimension_numbers = #stablehlo.conv<${dn}>, lhs_dilation = ${arr('i64', s.lhsDilation)}, ` +
      `padding = dense<[${s.padding.map((p) => list(p)).join(', ')}]> : tensor<${n}x2xi64>, ${PRECISION}, ` +
      `rhs_dilation = ${arr('i64', s.rhsDilation)}, window_reversal = ${arr('i1', s.reversal)}, window_strides = ${arr('i64', s.strides)}}> : ${sig}`);
  } else {
    const window = `stride = ${list(s.strides)}, pad = [${s.padding.map((p) => list(p)).join(', ')}], lhs_dilate = ${list(s.lhsDilation)}, rhs_dilate = ${list(s.rhsDilation)}, reverse = ${list(s.reversal)}`;
    r = f.op(`stablehlo.convolution(${x}, ${w}) dim_numbers = ${dn}, window = {${window}} {${groups}, ${PRECISION}} : ${sig}`);
  }
  return moduleText(name, [f.text([{ value: r, type: typeOf(out) }])]);
}

const CASES: ConvCase[] = [
  { id: '2d_nhwc_hwio_same', dtype: 'f32', lhs: [1, 4, 4, 2], rhs: [3, 3, 2, 3], layout: ['b01f', '01io', 'b01f'], window: { padding: [[1, 1], [1, 1]] }, description: "2-D NHWC × HWIO, 3x3 kernel, 'SAME' padding" },
  { id: '2d_nchw_oihw_stride', dtype: 'f32', lhs: [2, 2, 5, 5], rhs: [3, 2, 2, 2], layout: ['bf01', 'oi01', 'bf01'], window: { strides: [2, 2], padding: [[0, 1], [1, 0]] }, catches: ['conv_padding_low_high_swapped'], description: '2-D NCHW × OIHW, stride 2x2, asymmetric padding' },
  { id: '1d_negative_padding', dtype: 's32', lhs: [2, 7, 2], rhs: [3, 2, 2], layout: ['b0f', '0io', 'b0f'], window: { strides: [2], padding: [[-2, 1]] }, catches: ['conv_padding_low_high_swapped'], description: '1-D NWC × WIO, stride 2, negative low padding (crops the input) and positive high padding' },
  { id: '2d_transposed', dtype: 'f32', lhs: [1, 3, 3, 1], rhs: [3, 3, 1, 2], layout: ['b01f', '01io', 'b01f'], window: { lhsDilation: [2, 2], padding: [[2, 2], [1, 2]] }, catches: ['conv_padding_low_high_swapped'], description: '2-D lhs dilation 2x2 (a transposed convolution), padding 2 and 1/2' },
  { id: '2d_atrous', dtype: 'bf16', lhs: [1, 6, 6, 2], rhs: [2, 2, 2, 2], layout: ['b01f', '01io', 'b01f'], window: { rhsDilation: [2, 3] }, range: 2, catches: ['conv_ignores_rhs_dilation'], description: '2-D rhs dilation 2x3 (atrous), bf16' },
  { id: '2d_depthwise', dtype: 'f16', lhs: [1, 4, 4, 3], rhs: [3, 3, 1, 6], layout: ['b01f', '01io', 'b01f'], window: { featureGroups: 3, padding: [[1, 1], [1, 1]] }, range: 3, catches: ['conv_feature_groups_ignored'], description: '2-D depthwise (feature_group_count 3 = input features, depth multiplier 2), f16' },
  { id: '2d_feature_groups', dtype: 's32', lhs: [2, 3, 3, 4], rhs: [2, 2, 2, 4], layout: ['b01f', '01io', 'b01f'], window: { featureGroups: 2 }, catches: ['conv_feature_groups_ignored'], description: '2-D grouped convolution, feature_group_count 2 (4 input features, 2 per group, 4 output features)' },
  { id: '2d_batch_groups', dtype: 'f32', lhs: [4, 3, 3, 2], rhs: [2, 2, 2, 4], layout: ['b01f', '01io', 'b01f'], window: { batchGroups: 2 }, catches: ['conv_batch_groups_ignored'], description: '2-D batch_group_count 2 (lhs batch 4 split in 2 groups, 4 output features; the weight-gradient form)' },
  { id: '3d_ndhwc', dtype: 'f32', lhs: [1, 3, 4, 4, 2], rhs: [2, 2, 2, 2, 3], layout: ['b012f', '012io', 'b012f'], window: { strides: [1, 2, 1], padding: [[0, 0], [1, 0], [0, 1]] }, catches: ['conv_padding_low_high_swapped'], description: '3-D NDHWC × DHWIO, strides 1/2/1, some padding' },
  { id: '2d_unusual_layout', dtype: 's32', lhs: [3, 4, 2, 5], rhs: [2, 3, 2, 3], layout: ['f0b1', 'o10i', '1f0b'], window: { strides: [1, 2] }, description: 'unusual layouts: input [f, 0, b, 1], kernel [o, 1, 0, i], output [1, f, 0, b]' },
  { id: '2d_window_reversal', dtype: 'f32', lhs: [1, 4, 5, 1], rhs: [2, 3, 1, 2], layout: ['b01f', '01io', 'b01f'], window: { reversal: [true, false], padding: [[0, 1], [0, 0]] }, catches: ['conv_padding_low_high_swapped'], description: 'window_reversal [true, false]: the lhs window is reversed along spatial dimension 0', generic: true },
  { id: '1d_mixed', dtype: 'bf16', lhs: [2, 4, 5], rhs: [4, 2, 3], layout: ['bf0', 'oi0', 'bf0'], window: { strides: [2], lhsDilation: [2], rhsDilation: [2], padding: [[2, -1]], featureGroups: 2 }, range: 2, catches: ['conv_ignores_rhs_dilation', 'conv_feature_groups_ignored'], description: '1-D with stride 2, lhs dilation 2, rhs dilation 2, padding 2/−1 and feature_group_count 2, bf16' },
  { id: '2d_bf16_to_f32', dtype: 'bf16', result: 'f32', lhs: [1, 4, 4, 2], rhs: [3, 3, 2, 2], layout: ['b01f', '01io', 'b01f'], window: { padding: [[1, 1], [1, 1]] }, description: 'bf16 operands, f32 result (preferred_element_type)' },
  { id: '1d_s8_to_s32', dtype: 's8', result: 's32', lhs: [1, 6, 3], rhs: [3, 3, 2], layout: ['b0f', '0io', 'b0f'], range: 100, description: 's8 operands with large products, s32 result (preferred_element_type): the sums overflow s8' },
  { id: 'no_spatial', dtype: 'f32', lhs: [2, 4], rhs: [3, 4], layout: ['bf', 'oi', 'bf'], description: 'no spatial dimensions ([b, f]x[o, i]->[b, f]: a matrix product)' },
  { id: '2d_pointwise_size1', dtype: 'f32', lhs: [1, 1, 1, 4], rhs: [1, 1, 4, 2], layout: ['b01f', '01io', 'b01f'], description: 'size-1 dimensions: a 1x1 kernel on a 1x1 image (a pointwise product)' },
  { id: '2d_empty_window', dtype: 'f32', lhs: [1, 2, 2, 1], rhs: [3, 3, 1, 1], layout: ['b01f', '01io', 'b01f'], description: 'a kernel larger than the input: empty result (0x0 spatial)' },
  { id: '2d_zero_features', dtype: 's32', lhs: [1, 3, 3, 0], rhs: [2, 2, 0, 2], layout: ['b01f', '01io', 'b01f'], description: 'zero input features: every result element is an empty sum (0)' },
];

export function convolutionPrograms(): Program[] {
  return CASES.map((c) => {
    const d = dt(c.dtype);
    const s = convDefaults(dimsOf(c.layout), c.window);
    const [a, b] = [operand(d, c.lhs, 1, c.range ?? 4), operand(d, c.rhs, 2, c.range ?? 4)];
    const out = convolution(a, b, s, c.result ? dt(c.result) : d);
    const name = c.result ? `convolution_${c.id}` : `convolution_${c.id}_${c.dtype}`;
    // the sign of a zero sum is not fixed (the oracle's +0 accumulator against an implementation's products order)
    const tolerance: Tolerance | undefined = d.kind === 'float' ? { signedZeros: false } : undefined;
    return program({
      name, description: `convolution ${c.description} (small integers: exact in any order)`, ops: ['convolution'],
      text: convText(name, c, s, a, b, out), inputs: [a, b], outputs: [out], ...(tolerance ? { tolerance } : {}), catches: c.catches ?? [],
    });
  });
}

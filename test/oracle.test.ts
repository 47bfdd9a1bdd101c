import assert from 'node:assert/strict';
import { dtype } from '../src/abi/dtypes.js';
import {
  binary, bitcastConvert, clamp, compare, convert, dotGeneral, floatToBits, reduce, roundIntTo, roundTo, smallestSubnormal, Tensor, unary,
  allGather, allReduce, allToAll, collectivePermute, reduceScatter, pad, dynamicSlice, broadcastInDim, transpose, reducePrecision,
  complexOf, complexPart, complexBinary, complexAbs, complexCompare, gather, sort, instancePairs, processGroups,
  convDefaults, convolution, selectAndScatter,
  cholesky, triangularSolve, fft,
} from '../src/oracle/index.js';

const t = (name: string, values: (number | bigint | boolean)[], dims = [values.length]) => Tensor.of(name, dims, values);
const bin = (op: string, name: string, a: (number | bigint | boolean)[], b: (number | bigint | boolean)[]) => binary(op, t(name, a), t(name, b)).values();
const un = (op: string, name: string, a: (number | bigint | boolean)[]) => unary(op, t(name, a)).values();

describe('oracle: float formats', () => {
  it('rounds bf16 to nearest even', () => {
    assert.equal(roundTo(dtype('bf16'), 1.00390625), 1); // exactly half an ulp above 1: ties to even
    assert.equal(roundTo(dtype('bf16'), 1.01171875), 1.015625); // tie between 1.0078125 (odd) and 1.015625
    assert.equal(roundTo(dtype('bf16'), 3.39e38), 3.3895313892515355e38);
    assert.equal(roundTo(dtype('bf16'), 3.4e38), Infinity); // above the midpoint to 2^128
    assert.equal(roundTo(dtype('bf16'), 3.4e39), Infinity);
  });
  it('handles f16 subnormals and overflow', () => {
    assert.equal(smallestSubnormal(dtype('f16')), 5.960464477539063e-8);
    assert.equal(roundTo(dtype('f16'), 5.96e-8), 5.960464477539063e-8);
    assert.equal(roundTo(dtype('f16'), 2.9e-8), 0); // below half the smallest subnormal
    assert.equal(roundTo(dtype('f16'), 65519), 65504);
    assert.equal(roundTo(dtype('f16'), 65520), Infinity); // the tie rounds up to the (even) next binade: overflow
    assert.equal(floatToBits(dtype('f16'), -0), 0x8000n);
    assert.equal(floatToBits(dtype('f16'), 1), 0x3c00n);
    assert.equal(floatToBits(dtype('bf16'), 1), 0x3f80n);
    assert.equal(floatToBits(dtype('f16'), 5.960464477539063e-8), 1n);
  });
  it('rounds integers to float once (no double rounding)', () => {
    assert.equal(roundIntTo(dtype('f32'), 16777217n), 16777216);
    assert.equal(roundIntTo(dtype('f32'), (1n << 64n) - 1n), 18446744073709551616);
    // 2^53+1 → f32 directly; via f64 the value would first collapse to 2^53
    assert.equal(roundIntTo(dtype('f32'), (1n << 60n) + (1n << 36n) + 1n), Math.fround(2 ** 60 + 2 ** 37));
  });
});

describe('oracle: integer semantics', () => {
  it('wraps', () => {
    assert.deepEqual(bin('add', 's32', [2147483647n], [1n]), [-2147483648n]);
    assert.deepEqual(bin('multiply', 's64', [9223372036854775807n], [2n]), [-2n]);
    assert.deepEqual(bin('subtract', 'u8', [0n], [1n]), [255n]);
    assert.deepEqual(un('abs', 's8', [-128n]), [-128n]);
    assert.deepEqual(un('negate', 's32', [-2147483648n]), [-2147483648n]);
  });
  it('follows XLA for division and remainder by zero and INT_MIN / -1', () => {
    assert.deepEqual(bin('divide', 's32', [7n, -7n, 5n, -2147483648n], [2n, 2n, 0n, -1n]), [3n, -3n, -1n, -2147483648n]);
    assert.deepEqual(bin('divide', 'u16', [5n], [0n]), [65535n]);
    assert.deepEqual(bin('remainder', 's32', [-7n, 7n, 5n, -2147483648n], [2n, -2n, 0n, -1n]), [-1n, 1n, 5n, 0n]);
  });
  it('shifts by ≥ width give 0 or the sign fill', () => {
    assert.deepEqual(bin('shift_left', 's32', [1n, 1n, 1n], [31n, 32n, -1n]), [-2147483648n, 0n, 0n]);
    assert.deepEqual(bin('shift_right_logical', 's64', [-1n, -1n], [1n, 64n]), [9223372036854775807n, 0n]);
    assert.deepEqual(bin('shift_right_arithmetic', 's8', [-128n, -128n, 64n], [7n, 8n, 9n]), [-1n, -1n, 0n]);
  });
  it('counts bits and powers', () => {
    assert.deepEqual(un('popcnt', 's8', [-1n, 0n, 0x5an]), [8n, 0n, 4n]);
    assert.deepEqual(un('not', 's32', [1n]), [-2n]);
    assert.deepEqual(bin('power', 's32', [2n, 0n, -1n, 2n, 2n], [10n, 0n, -3n, -1n, 31n]), [1024n, 1n, -1n, 0n, -2147483648n]);
  });
  it('computes in the sub-byte integers, one byte per element, wrapping to their width', () => {
    assert.deepEqual(bin('add', 's4', [7n, -8n], [1n, -1n]), [-8n, 7n]);
    assert.deepEqual(bin('multiply', 'u4', [15n], [15n]), [1n]);
    assert.deepEqual(un('negate', 's2', [-2n, 1n]), [-2n, -1n]);
    assert.deepEqual(bin('shift_right_arithmetic', 'u4', [8n, 8n], [1n, 4n]), [12n, 15n]);
    assert.deepEqual(convert(t('s32', [8n, -9n, 19n]), dtype('s4')).values(), [-8n, 7n, 3n]);
    assert.deepEqual(convert(t('s32', [4n, -1n]), dtype('u2')).values(), [0n, 3n]);
    assert.deepEqual([...t('s4', [-2n, 7n]).bytes], [0x0e, 0x07]);
    assert.deepEqual(compare('LT', t('u4', [15n]), t('u4', [1n]), 'UNSIGNED').values(), [false]);
  });
  it('counts leading zeros in the element width (the width for 0)', () => {
    assert.deepEqual(un('count_leading_zeros', 's64', [0n, 1n, 128n, -1n]), [64n, 63n, 56n, 0n]); // the spec's example
    assert.deepEqual(un('count_leading_zeros', 'u8', [0n, 1n, 0x10n, 0xffn]), [8n, 7n, 3n, 0n]);
  });
});

describe('oracle: float semantics', () => {
  it('rounds to integral values', () => {
    assert.deepEqual(un('round_nearest_afz', 'f32', [2.5, -2.5, 0.5, -0.4]), [3, -3, 1, -0]);
    assert.deepEqual(un('round_nearest_even', 'f32', [2.5, -2.5, 0.5, 1.5, -0.5]), [2, -2, 0, 2, -0]);
    assert.deepEqual(un('ceil', 'f32', [-0.5]), [-0]);
  });
  it('propagates NaN through maximum and orders −0 < +0', () => {
    const r = bin('maximum', 'f32', [NaN, 1, -0, 0], [1, NaN, 0, -0]);
    assert.ok(Number.isNaN(r[0]) && Number.isNaN(r[1]));
    assert.ok(Object.is(r[2], 0) && Object.is(r[3], 0));
    assert.ok(Object.is(bin('minimum', 'f32', [0], [-0])[0], -0));
  });
  it('atan2 takes (y, x) and keeps the signs of zeros', () => {
    const r = bin('atan2', 'f64', [1, 0, -0, 0, -0], [0, -1, -1, 0, 0]);
    assert.deepEqual(r, [Math.PI / 2, Math.PI, -Math.PI, 0, -0]);
    assert.ok(Object.is(r[4], -0));
  });
  it('reduce_precision rounds to nearest even, overflows to inf, underflows to zero and keeps NaN (the spec example)', () => {
    const x = Tensor.of('f64', [6], [Infinity, NaN, 5e-324, 0, 65519, 65520]);
    const r = reducePrecision(x, { exponentBits: 5, mantissaBits: 10 }).values();
    assert.deepEqual(r.slice(2), [0, 0, 65504, Infinity]);
    assert.ok(r[0] === Infinity && Number.isNaN(r[1]));
    const ties = reducePrecision(Tensor.of('f32', [3], [1 + 2 ** -8, 1 + 3 * 2 ** -8, -(2 ** -20)]), { exponentBits: 5, mantissaBits: 7 }).values();
    assert.deepEqual(ties.slice(0, 2), [1, 1 + 2 ** -6]);
    assert.ok(Object.is(ties[2], -0)); // below e5's smallest normal (2^-14): a zero of the operand's sign
  });
  it('reduce_precision to no mantissa bits turns every NaN into +inf (the spec interpreter and XLA agree)', () => {
    const x = Tensor.fromBits(dtype('f32'), [3], [0x7fc00000n, 0xffc00000n, 0x7f800001n]);
    const r = reducePrecision(x, { exponentBits: 5, mantissaBits: 0 });
    assert.deepEqual([0, 1, 2].map((i) => r.bits(i)), [0x7f800000n, 0x7f800000n, 0x7f800000n]);
    assert.ok(Number.isNaN(reducePrecision(x, { exponentBits: 5, mantissaBits: 1 }).get(0) as number));
  });
  it('complex: parts, arithmetic on both parts, modulus, EQ on both parts, convert drops or zeroes the imaginary part', () => {
    const z = complexOf(t('f32', [1, -0]), t('f32', [2, 3]));
    assert.deepEqual(z.values(), [{ re: 1, im: 2 }, { re: -0, im: 3 }]);
    assert.deepEqual(complexPart(z, 'im').values(), [2, 3]);
    assert.deepEqual(complexPart(t('f32', [5]), 'im').values(), [0]);
    const w = Tensor.of('c64', [2], [{ re: 3, im: -4 }, { re: 0, im: 1 }]);
    assert.deepEqual(complexBinary('multiply', z, w).values(), [{ re: 11, im: 2 }, { re: -3, im: 0 }]);
    assert.deepEqual(complexBinary('divide', Tensor.of('c64', [1], [{ re: 10, im: 5 }]), Tensor.of('c64', [1], [{ re: 1, im: 2 }])).values(), [{ re: 4, im: -3 }]);
    assert.deepEqual(complexAbs(w).values(), [5, 1]);
    assert.deepEqual(complexCompare('EQ', w, Tensor.of('c64', [2], [{ re: 3, im: -4 }, { re: NaN, im: 1 }])).values(), [true, false]);
    assert.deepEqual(convert(w, dtype('f32')).values(), [3, 0]);
    assert.deepEqual(convert(t('s32', [7n]), dtype('c128')).values(), [{ re: 7, im: 0 }]);
  });
  it('sort is stable under the comparator; gather clamps start indices', () => {
    const keys = t('f32', [2, 1, 2, 1]);
    const [k, p] = sort([keys, t('s32', [0n, 1n, 2n, 3n])], 0, ([x], [y]) => (x!.get(0) as number) < (y!.get(0) as number));
    assert.deepEqual(k!.values(), [1, 1, 2, 2]);
    assert.deepEqual(p!.values(), [1n, 3n, 0n, 2n]);
    const rows = gather(t('s32', [0n, 1n, 2n, 3n, 4n, 5n], [3, 2]), t('s32', [-1n, 2n, 9n], [3, 1]), { offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1, 2] });
    assert.deepEqual(rows.dims, [3, 2]);
    assert.deepEqual(rows.values(), [0n, 1n, 4n, 5n, 4n, 5n]);
  });
  it('fmod keeps the dividend sign and rsqrt/sqrt keep zero signs', () => {
    assert.ok(Object.is(bin('remainder', 'f32', [-4], [2])[0], -0));
    assert.ok(Number.isNaN(bin('remainder', 'f32', [1], [0])[0] as number));
    assert.deepEqual(un('rsqrt', 'f32', [0, -0]), [Infinity, -Infinity]);
    assert.ok(Object.is(un('sqrt', 'f32', [-0])[0], -0));
    assert.deepEqual(bin('power', 'f32', [NaN, 1], [0, NaN]), [1, 1]);
  });
  it('computes f32 with single rounding', () => {
    assert.deepEqual(bin('add', 'f32', [1], [2 ** -24]), [1]); // tie to even
    assert.deepEqual(bin('add', 'f32', [1 + 2 ** -23], [2 ** -24]), [1 + 2 ** -22]);
    assert.deepEqual(bin('divide', 'bf16', [1], [3]), [0.333984375]);
  });
});

describe('oracle: compare, clamp, convert', () => {
  const f = (xs: number[]) => t('f32', xs);
  it('FLOAT compares are IEEE quiet compares', () => {
    assert.deepEqual(compare('EQ', f([-0, NaN]), f([0, NaN]), 'FLOAT').values(), [true, false]);
    assert.deepEqual(compare('NE', f([NaN]), f([NaN]), 'FLOAT').values(), [true]);
  });
  it('TOTALORDER puts −0 before +0 and NaN after +inf', () => {
    assert.deepEqual(compare('LT', f([-0, Infinity, -Infinity]), f([0, NaN, 1]), 'TOTALORDER').values(), [true, true, true]);
    assert.deepEqual(compare('EQ', f([-0, NaN]), f([0, NaN]), 'TOTALORDER').values(), [false, true]);
    const negNan = Tensor.fromBits(dtype('f32'), [1], [0xffc00000n]);
    assert.deepEqual(compare('LT', negNan, f([-Infinity]), 'TOTALORDER').values(), [true]);
  });
  it('SIGNED and UNSIGNED read the bits accordingly', () => {
    assert.deepEqual(compare('LT', t('u32', [1n]), t('u32', [4294967295n]), 'UNSIGNED').values(), [true]);
    assert.deepEqual(compare('LT', t('s32', [-1n]), t('s32', [1n]), 'SIGNED').values(), [true]);
  });
  it('clamp propagates NaN and yields hi when lo > hi', () => {
    const r = clamp(f([0, 5]), f([NaN, 1]), f([1, 3])).values();
    assert.ok(Number.isNaN(r[0] as number));
    assert.equal(r[1], 3);
  });
  it('convert saturates float → int and maps NaN to 0', () => {
    assert.deepEqual(convert(f([NaN, 3e9, -3e9, -1.9, Infinity]), dtype('s32')).values(), [0n, 2147483647n, -2147483648n, -1n, 2147483647n]);
    assert.deepEqual(convert(f([-1, 300, 255.9]), dtype('u8')).values(), [0n, 255n, 255n]);
    assert.deepEqual(convert(t('s32', [16777217n, 300n]), dtype('f32')).values(), [16777216, 300]);
    assert.deepEqual(convert(t('s32', [300n, -1n]), dtype('u8')).values(), [44n, 255n]);
    assert.deepEqual(convert(f([NaN, -0, 0.5]), dtype('pred')).values(), [true, false, true]);
    assert.deepEqual(convert(t('f32', [1.00390625]), dtype('bf16')).values(), [1]);
  });
  it('bitcast_convert reinterprets bits, splitting low half first', () => {
    assert.deepEqual(bitcastConvert(f([1]), dtype('s32')).values(), [0x3f800000n]);
    assert.deepEqual(bitcastConvert(f([1]), dtype('u16')).values(), [0n, 0x3f80n]);
  });
});

describe('oracle: structure ops', () => {
  it('pads with interior and negative edges', () => {
    assert.deepEqual(pad(t('s32', [1n, 2n, 3n]), t('s32', [0n], []), [1], [-1], [1]).values(), [0n, 1n, 0n, 2n, 0n]);
  });
  it('clamps dynamic_slice starts', () => {
    assert.deepEqual(dynamicSlice(t('s32', [1n, 2n, 3n, 4n]), [7n], [2]).values(), [3n, 4n]);
    assert.deepEqual(dynamicSlice(t('s32', [1n, 2n, 3n, 4n]), [-7n], [2]).values(), [1n, 2n]);
  });
  it('broadcasts and transposes', () => {
    assert.deepEqual(broadcastInDim(t('s32', [1n, 2n]), [2, 2], [0]).values(), [1n, 1n, 2n, 2n]);
    assert.deepEqual(transpose(t('s32', [1n, 2n, 3n, 4n, 5n, 6n], [2, 3]), [1, 0]).values(), [1n, 4n, 2n, 5n, 3n, 6n]);
  });
  it('dot_general orders batch, lhs free, rhs free', () => {
    const a = t('f32', [1, 2, 3, 4, 5, 6], [2, 3]);
    const b = t('f32', [1, 0, 0, 1, 1, 1], [3, 2]);
    assert.deepEqual(dotGeneral(a, b, { lhsBatch: [], rhsBatch: [], lhsContract: [1], rhsContract: [0] }, dtype('f32')).values(), [4, 5, 10, 11]);
  });
  it('reduces from the init value', () => {
    assert.deepEqual(reduce(t('s32', [1n, 2n, 3n, 4n], [2, 2]), t('s32', [10n], []), [1], 'add').values(), [13n, 17n]);
  });
  it("convolution: the spec's example (lhs dilation 2, stride 4)", () => {
    const lhs = t('s64', [1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17].map(BigInt), [1, 4, 4, 1]);
    const rhs = t('s64', Array<bigint>(9).fill(1n), [3, 3, 1, 1]);
    const dims = { inputBatch: 0, inputFeature: 3, inputSpatial: [1, 2], kernelInputFeature: 2, kernelOutputFeature: 3, kernelSpatial: [0, 1], outputBatch: 0, outputFeature: 3, outputSpatial: [1, 2] };
    assert.deepEqual(convolution(lhs, rhs, convDefaults(dims, { strides: [4, 4], lhsDilation: [2, 2] })).values(), [10n, 26n, 46n, 62n]);
  });
  it('convolution: feature groups pair each lhs feature group with its kernel output features', () => {
    // 1-D, two features, two groups, a 1-wide kernel: output feature g scales input feature g
    const dims = { inputBatch: 0, inputFeature: 2, inputSpatial: [1], kernelInputFeature: 1, kernelOutputFeature: 2, kernelSpatial: [0], outputBatch: 0, outputFeature: 2, outputSpatial: [1] };
    const r = convolution(t('s32', [1n, 10n, 2n, 20n], [1, 2, 2]), t('s32', [3n, 5n], [1, 1, 2]), convDefaults(dims, { featureGroups: 2 }));
    assert.deepEqual(r.values(), [3n, 50n, 6n, 100n]);
  });
  it("select_and_scatter: the spec's example; ties select the first element", () => {
    const w = { dimensions: [3, 1], strides: [2, 1], padding: [[0, 1], [0, 0]] as const };
    const ge = (a: unknown, b: unknown) => (a as bigint) >= (b as bigint);
    const add = (a: unknown, b: unknown) => (a as bigint) + (b as bigint);
    const src = t('s64', [5n, 6n, 7n, 8n], [2, 2]);
    const zero = t('s64', [0n], []);
    assert.deepEqual(selectAndScatter(t('s64', [1n, 5n, 2n, 5n, 3n, 6n, 4n, 4n], [4, 2]), src, zero, w, ge, add).values(), [0n, 0n, 0n, 0n, 5n, 14n, 7n, 0n]);
    assert.deepEqual(selectAndScatter(t('s64', [1n, 5n, 3n, 5n, 3n, 5n, 4n, 4n], [4, 2]), src, zero, w, ge, add).values(), [0n, 6n, 5n, 0n, 0n, 8n, 7n, 0n]);
  });
});

describe('oracle: collectives', () => {
  const xs = [t('s32', [1n, 2n]), t('s32', [10n, 20n])];
  const g = [[0, 1]];
  it('all_reduce, all_gather, reduce_scatter', () => {
    assert.deepEqual(allReduce(xs, g, 'add').map((x) => x.values()), [[11n, 22n], [11n, 22n]]);
    assert.deepEqual(allGather(xs, g, 0)[1]!.values(), [1n, 2n, 10n, 20n]);
    assert.deepEqual(reduceScatter(xs, g, 'add', 0).map((x) => x.values()), [[11n], [22n]]);
  });
  it('all_to_all and collective_permute (non-targets get zeros)', () => {
    assert.deepEqual(allToAll(xs, g, 0, 0).map((x) => x.values()), [[1n, 10n], [2n, 20n]]);
    assert.deepEqual(collectivePermute(xs, [[0, 1]]).map((x) => x.values()), [[0n, 0n], [1n, 2n]]);
  });
  it('process groups as instance indices (the spec examples; instance = replica · partitions + partition)', () => {
    const at = (ps: [number, number][][], P: number) => ps.map((g) => g.map(([r, p]) => r * P + p));
    assert.deepEqual(processGroups('cross_replica', [[0, 1], [2, 3]], { replicas: 4, partitions: 2 }), at([[[0, 0], [1, 0]], [[0, 1], [1, 1]], [[2, 0], [3, 0]], [[2, 1], [3, 1]]], 2));
    assert.deepEqual(processGroups('cross_partition', [[0, 1]], { replicas: 4, partitions: 2 }), at([[[0, 0], [0, 1]], [[1, 0], [1, 1]], [[2, 0], [2, 1]], [[3, 0], [3, 1]]], 2));
    assert.deepEqual(processGroups('cross_replica_and_partition', [[0, 1], [2, 3]], { replicas: 4, partitions: 2 }), at([[[0, 0], [1, 0], [0, 1], [1, 1]], [[2, 0], [3, 0], [2, 1], [3, 1]]], 2));
    assert.deepEqual(processGroups('flattened_ids', [[0, 1, 2, 3], [4, 5, 6, 7]], { replicas: 4, partitions: 2 }), [[0, 1, 2, 3], [4, 5, 6, 7]]);
    assert.deepEqual(processGroups('cross_replica', [[0, 1, 2], [3, -1, -1]], { replicas: 4, partitions: 1 }), [[0, 1, 2], [3]]);
    assert.deepEqual(instancePairs('cross_partition', [[0, 1]], { replicas: 2, partitions: 2 }), [[0, 1], [2, 3]]);
    assert.deepEqual(instancePairs('cross_replica', [[0, 1]], { replicas: 2, partitions: 2 }), [[0, 2], [1, 3]]);
  });
});

describe('oracle: linear algebra and fft', () => {
  it("cholesky gives the spec example's factors, lower and upper", () => {
    const a = t('f32', [1, 2, 3, 2, 20, 26, 3, 26, 70], [3, 3]);
    assert.deepEqual(cholesky(a, true).values(), [1, 0, 0, 2, 4, 0, 3, 5, 6]);
    assert.deepEqual(cholesky(a, false).values(), [1, 2, 3, 0, 4, 5, 0, 0, 6]);
    assert.throws(() => cholesky(t('f32', [1, 2, 2, 1], [2, 2]), true), /not positive definite/);
  });
  it('triangular_solve reads one triangle, transposes, and solves from the right', () => {
    const a = t('f64', [2, 99, 1, 4], [2, 2]); // L = [[2, 0], [1, 4]]
    const b = t('f64', [6, 8], [2, 1]);
    const o = { leftSide: true, lower: true, unitDiagonal: false } as const;
    assert.deepEqual(triangularSolve(a, b, { ...o, transposeA: 'NO_TRANSPOSE' }).values(), [3, 1.25]);
    assert.deepEqual(triangularSolve(a, b, { ...o, transposeA: 'TRANSPOSE' }).values(), [2, 2]);
    // x·L = [6, 8]: x = [(6 − 8/4)/2, 8/4]
    assert.deepEqual(triangularSolve(a, t('f64', [6, 8], [1, 2]), { ...o, leftSide: false, transposeA: 'NO_TRANSPOSE' }).values(), [2, 2]);
  });
  it('fft of a delta is flat; IFFT scales by 1/n; RFFT keeps n/2 + 1 bins; IRFFT inverts RFFT', () => {
    const delta = Tensor.of('c64', [4], [{ re: 1, im: 0 }, { re: 0, im: 0 }, { re: 0, im: 0 }, { re: 0, im: 0 }]);
    assert.deepEqual(fft(delta, 'FFT', [4]).values(), Array(4).fill({ re: 1, im: 0 }));
    assert.deepEqual(fft(delta, 'IFFT', [4]).values(), Array(4).fill({ re: 0.25, im: 0 }));
    const r = t('f64', [1, 2, 3, 4, 5, 6]);
    const spectrum = fft(r, 'RFFT', [6]);
    assert.deepEqual(spectrum.dims, [4]);
    fft(spectrum, 'IRFFT', [6]).values().forEach((v, i) => assert.ok(Math.abs((v as number) - (i + 1)) < 1e-12));
  });
});

describe('oracle: CHLO special functions', () => {
  it('erf, erfc, erf_inv, lgamma, digamma, zeta, polygamma and bessel_i1e at known values', async () => {
    const { erf, erfc, erfInv, lgamma, digamma } = await import('../src/oracle/special.js');
    const near = (a: number, b: number, rel = 1e-12) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${a} vs ${b}`);
    near(erf(0.5), 0.5204998778130465);
    near(erf(-2.5), -0.9995930479825550);
    near(erfc(3), 2.209049699858544e-5);
    near(erfc(-0.5), 1.5204998778130465);
    near(erfInv(erf(0.7)), 0.7);
    near(lgamma(0.5), Math.log(Math.sqrt(Math.PI)));
    near(lgamma(-2.5), -0.05624371649767405);
    near(digamma(1), -0.5772156649015329);
    near(digamma(-0.5), 0.03648997397857652);
    const { zeta, polygamma, besselI1e } = await import('../src/oracle/special.js');
    near(zeta(2, 1), Math.PI ** 2 / 6);
    near(zeta(3, 2), 0.2020569031595942);
    near(polygamma(1, 1), Math.PI ** 2 / 6);
    near(polygamma(0, 1), -0.5772156649015329);
    near(besselI1e(1), 0.5651591039924851 * Math.exp(-1));
    near(besselI1e(-1), -0.5651591039924851 * Math.exp(-1));
    assert.equal(lgamma(0), Infinity);
    assert.ok(Number.isNaN(digamma(-2)));
  });
  it('next_after steps one representable value on the type (zeros, towards and away from zero, NaN)', async () => {
    const { nextAfter } = await import('../src/oracle/special.js');
    const f32 = dtype('f32');
    assert.equal(nextAfter(f32, 0, -1), -1.401298464324817e-45);
    assert.equal(nextAfter(f32, 1, 2), 1 + 2 ** -23);
    assert.equal(nextAfter(f32, 1, 0), 1 - 2 ** -24);
    assert.equal(nextAfter(f32, Infinity, 0), 3.4028234663852886e38);
    assert.equal(nextAfter(f32, 2, 2), 2);
    assert.ok(Number.isNaN(nextAfter(f32, 1, NaN)));
  });
});

// The sub-byte integers end to end (s4, u4, s2, u2; host form one element per byte, the value in the low bits):
// convert to and from s32 and f32 at the edges (narrowing wraps to the low bits, as XLA does), every operand pair
// of the wrapping arithmetic, bitwise and shift ops, compare and select, every pattern of the unary ops, data movement
// over a 2x3x4 tensor (reshape, transpose, concatenate) to catch packing bugs, and an add whose wrapped result feeds
// a convert in the same program (a result must not keep bits above the type's width). XLA's CPU compiler agrees
// with every answer here (xla-check, text and artifact form).
//
// Not here: s1/u1 (their MLIR spelling i1 is pred's, so no program text can name them), bitcast_convert (the
// device packs sub-byte elements, the host form does not), popcnt/count_leading_zeros, divide/remainder/power,
// and concatenate of s2/u2 (XLA's CPU compiler aborts on it: ir_array.cc "Check failed: bit_offset != nullptr").
import { dtype as dtypeByName, type DtypeRow } from '../../abi/dtypes.js';
import { compare, defaultCompareType, DIRECTIONS, select } from '../../oracle/compare.js';
import { convert } from '../../oracle/convert.js';
import { binary, unary } from '../../oracle/elementwise.js';
import { concatenate, reshape, transpose } from '../../oracle/shape.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { fanOut, intRange, ints, PRED, program, singleOp, vec, type Program } from './program.js';

/** The sub-byte integers with programs (s1/u1 excluded, see above). */
const SUB_BYTE_INTS: readonly DtypeRow[] = ['s4', 'u4', 's2', 'u2'].map(dtypeByName);
const S32 = dtypeByName('s32');
const F32 = dtypeByName('f32');

/** Every value of `d`, in bit-pattern order. */
function allValues(d: DtypeRow): bigint[] {
  return Array.from({ length: 1 << d.bits }, (_, b) => (d.kind === 'sint' ? BigInt.asIntN(d.bits, BigInt(b)) : BigInt(b)));
}

/** Every ordered pair of values of `d`, as two operand vectors. */
function allPairs(d: DtypeRow): [Tensor, Tensor] {
  const v = allValues(d);
  const xs = v.flatMap((x) => v.map(() => x));
  const ys = v.flatMap(() => v);
  return [vec(d, xs), vec(d, ys)];
}

/** s32 values for a narrowing convert: the type's edges, ±1 around them, and values far out of range. */
function narrowingSources(d: DtypeRow): bigint[] {
  const { min, max } = intRange(d);
  const span = 1n << BigInt(d.bits);
  return [0n, 1n, -1n, min, max, min - 1n, max + 1n, max + span, min - span, 100n, -100n, 2147483647n, -2147483648n, 0x12345679n];
}

/** f32 values for convert to `d`: the edges and fractions (truncated toward zero) inside the range. */
function floatSources(d: DtypeRow): number[] {
  const { min, max } = intRange(d);
  return [0, -0, 1, Number(max), Number(min), 0.75, -0.75, Number(max) + 0.5, Number(min) - 0.5, Number(max) - 0.25];
}

const BINARY_OPS = ['add', 'subtract', 'multiply', 'maximum', 'minimum', 'and', 'or', 'xor', 'shift_left', 'shift_right_logical', 'shift_right_arithmetic'] as const;

export function subBytePrograms(): Program[] {
  const out: Program[] = [];
  for (const d of SUB_BYTE_INTS) {
    const { min, max } = intRange(d);
    const range = `[${min}, ${max}]`;
    // the reference plugin's s4_no_sign_extend shows where negative s4 values are widened or ordered
    const signExtend = d.name === 's4' ? ['s4_no_sign_extend'] : [];
    const wide = ints(S32, narrowingSources(d));
    out.push(singleOp(`convert_s32_to_${d.name}`, 'convert', [wide], convert(wide, d), `convert s32 → ${d.name} ${range}: in range, at the edges and far outside (wraps to the low ${d.bits} bits)`));
    const fl = vec(F32, floatSources(d));
    out.push(singleOp(`convert_f32_to_${d.name}`, 'convert', [fl], convert(fl, d), `convert f32 → ${d.name} ${range}: the edges, fractions truncated toward zero`));
    const every = vec(d, allValues(d));
    out.push(fanOut(`convert_${d.name}_to_wide`, every, [S32, F32, dtypeByName('s8'), dtypeByName('u8')], `convert every value of ${d.name} to s32, f32, s8 and u8; four results`, signExtend));
    const [a, b] = allPairs(d);
    for (const op of BINARY_OPS) {
      out.push(singleOp(`${op}_${d.name}`, op, [a, b], binary(op, a, b), `${op} on every pair of ${d.name} values (wrapping to ${d.bits} bits; shifts of ${d.bits} or more give 0 or the sign)`, undefined, [], { catches: op === 'maximum' ? signExtend : [] }));
    }
    for (const op of d.kind === 'sint' ? ['negate', 'abs', 'not'] : ['negate', 'not']) {
      out.push(singleOp(`${op}_${d.name}`, op, [every], unary(op, every), `${op} on every value of ${d.name}${op === 'not' ? '' : ` (${min} wraps to itself)`}`));
    }
    const ctype = defaultCompareType(d.kind);
    const cf = new FuncBuilder('main');
    const x = cf.arg(typeOf(a));
    const y = cf.arg(typeOf(b));
    const predT = tensorType(PRED, a.dims);
    const results = DIRECTIONS.map((dir) => ({ value: cf.op(`stablehlo.compare  ${dir}, ${x}, ${y},  ${ctype} : (${typeOf(a)}, ${typeOf(b)}) -> ${predT}`), type: predT }));
    const cname = `compare_${d.name}`;
    out.push(program({ name: cname, description: `compare ${DIRECTIONS.join('/')} (${ctype}) on every pair of ${d.name} values; six results`, ops: ['compare'], text: moduleText(cname, [cf.text(results)]), inputs: [a, b], outputs: DIRECTIONS.map((dir) => compare(dir, a, b, ctype)), catches: signExtend }));
    const pick = vec(PRED, a.values().map((_, i) => i % 3 === 1));
    out.push(singleOp(`select_${d.name}`, 'select', [pick, a, b], select(pick, a, b), `select between every pair of ${d.name} values`));
    out.push(...movePrograms(d));
    out.push(addThenConvert(d));
  }
  return out;
}

/** reshape, transpose and concatenate of a 2x3x4 tensor cycling through every value of `d`. */
function movePrograms(d: DtypeRow): Program[] {
  const v = allValues(d);
  const t = Tensor.of(d, [2, 3, 4], Array.from({ length: 24 }, (_, i) => v[(i * 5 + 1) % v.length]!));
  const r = reshape(t, [4, 6]);
  const tr = transpose(t, [2, 0, 1]);
  const tail = Tensor.of(d, [2, 1, 4], Array.from({ length: 8 }, (_, i) => v[(i * 3 + 2) % v.length]!));
  const cat = concatenate([t, tail], 1);
  const move = (name: string, op: string, args: Tensor[], res: Tensor, body: (vs: string[]) => string, description: string): Program => {
    const f = new FuncBuilder('main');
    const vs = args.map((x) => f.arg(typeOf(x)));
    return program({ name, description, ops: [op], text: moduleText(name, [f.text([{ value: f.op(body(vs)), type: typeOf(res) }])]), inputs: args, outputs: [res] });
  };
  const programs = [
    move(`reshape_${d.name}`, 'reshape', [t], r, ([x]) => `stablehlo.reshape ${x} : (${typeOf(t)}) -> ${typeOf(r)}`, `reshape ${d.name} 2x3x4 → 4x6 (one element per host byte)`),
    move(`transpose_${d.name}`, 'transpose', [t], tr, ([x]) => `stablehlo.transpose ${x}, dims = [2, 0, 1] : (${typeOf(t)}) -> ${typeOf(tr)}`, `transpose ${d.name} 2x3x4 with dims = [2, 0, 1]`),
    move(`concatenate_${d.name}`, 'concatenate', [t, tail], cat, (vs) => `stablehlo.concatenate ${vs.join(', ')}, dim = 1 : (${typeOf(t)}, ${typeOf(tail)}) -> ${typeOf(cat)}`, `concatenate ${d.name} 2x3x4 and 2x1x4 along dim 1`),
  ];
  // XLA's CPU compiler aborts on a 2-bit concatenate (ir_array.cc "Check failed: bit_offset != nullptr")
  return d.bits === 2 ? programs.filter((p) => !p.name.startsWith('concatenate_')) : programs;
}

/** add on every pair, its wrapped sum converted to s32 in the same program: the sum must hold only `d`'s bits. */
function addThenConvert(d: DtypeRow): Program {
  const [a, b] = allPairs(d);
  const sum = binary('add', a, b);
  const name = `add_then_convert_${d.name}`;
  const f = new FuncBuilder('main');
  const x = f.arg(typeOf(a));
  const y = f.arg(typeOf(b));
  const s = f.op(`stablehlo.add ${x}, ${y} : ${typeOf(a)}`);
  const wideT = tensorType(S32, a.dims);
  const c = f.op(`stablehlo.convert ${s} : (${typeOf(a)}) -> ${wideT}`);
  return program({
    name,
    description: `add on every pair of ${d.name} values, the wrapped sum then converted to s32 (no bit above the low ${d.bits} may survive the add)`,
    ops: ['add', 'convert'],
    text: moduleText(name, [f.text([{ value: c, type: wideT }])]),
    inputs: [a, b],
    outputs: [convert(sum, S32)],
    catches: d.name === 'u4' ? ['u4_high_bits_kept'] : [], // the reference plugin's fault keeps a u4 sum's carry bit
  });
}

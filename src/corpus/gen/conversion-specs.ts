// compare (every direction in one program, per comparison type), select, clamp, convert, bitcast_convert.
import type { DtypeRow } from '../../abi/dtypes.js';
import { canonicalNanBits } from '../../oracle/floats.js';
import { clamp, compare, DIRECTIONS, defaultCompareType, select, type CompareType } from '../../oracle/compare.js';
import { bitcastConvert, convert } from '../../oracle/convert.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { floatConsts, FLOATS, INTS, intRange, ints, PRED, program, singleOp, vec, type OpenElements, type Program } from './program.js';

const INF = Infinity;

function compareOperands(d: DtypeRow, type: CompareType): [Tensor, Tensor] {
  if (d.kind === 'pred') return [vec(d, [false, false, true, true]), vec(d, [false, true, false, true])];
  if (d.kind === 'float') {
    const c = floatConsts(d);
    const a = vec(d, [1, 1, 2, -0, 0, NaN, NaN, 1, INF, -INF, -INF, c.sub, -1, c.max, NaN]);
    const b = vec(d, [1, 2, 1, 0, -0, 1, NaN, NaN, INF, INF, -INF, 0, -2, INF, -INF]);
    if (type === 'TOTALORDER') {
      // a negative NaN sorts below −inf; the same NaN bits are equal
      const negNan = canonicalNanBits(d) | (1n << BigInt(d.bits - 1));
      a.setBits(14, negNan);
    }
    return [a, b];
  }
  const { min, max } = intRange(d);
  return [ints(d, [1n, 1n, 2n, min, max, -1n, 0n, min, 5n]), ints(d, [1n, 2n, 1n, max, min, 0n, -1n, min, -5n])];
}

function comparePrograms(): Program[] {
  const out: Program[] = [];
  for (const d of [PRED, ...INTS, ...FLOATS]) {
    const types: CompareType[] = d.kind === 'float' ? ['FLOAT', 'TOTALORDER'] : [defaultCompareType(d.kind)];
    for (const type of types) {
      const [a, b] = compareOperands(d, type);
      const f = new FuncBuilder('main');
      const x = f.arg(typeOf(a));
      const y = f.arg(typeOf(b));
      const predT = tensorType(PRED, a.dims);
      const results = DIRECTIONS.map((dir) => ({
        value: f.op(`stablehlo.compare  ${dir}, ${x}, ${y},  ${type} : (${typeOf(a)}, ${typeOf(b)}) -> ${predT}`),
        type: predT,
      }));
      const name = `compare_${type.toLowerCase()}_${d.name}`;
      out.push(program({
        name,
        description: `compare ${DIRECTIONS.join('/')} with comparison type ${type} on ${d.name}${d.kind === 'float' ? ' (NaN, ±0, ±inf)' : ''}; six results`,
        ops: ['compare'],
        text: moduleText(name, [f.text(results)]),
        inputs: [a, b],
        outputs: DIRECTIONS.map((dir) => compare(dir, a, b, type)),
        // FLOAT comparisons are arithmetic (subnormal inputs may be flushed); TOTALORDER compares bit patterns
        ...(type === 'FLOAT' ? { recompute: ([x2, y2]: readonly Tensor[]) => DIRECTIONS.map((dir) => compare(dir, x2!, y2!, type)) } : {}),
      }));
    }
  }
  return out;
}

function sampleValues(d: DtypeRow): Tensor {
  if (d.kind === 'pred') return vec(d, [true, false, true, false, false, true]);
  if (d.kind === 'float') return vec(d, [1.5, -0, NaN, -INF, 3, 0.25]);
  const { min, max } = intRange(d);
  return ints(d, [1n, min, max, 0n, -1n, 42n]);
}

function selectClampPrograms(): Program[] {
  const out: Program[] = [];
  for (const d of [PRED, ...INTS, ...FLOATS]) {
    const a = sampleValues(d);
    const b = vec(d, a.values().reverse());
    const p = vec(PRED, [true, true, false, false, true, false]);
    const f = new FuncBuilder('main');
    const [vp, va, vb] = [f.arg(typeOf(p)), f.arg(typeOf(a)), f.arg(typeOf(b))];
    const r = f.op(`stablehlo.select ${vp}, ${va}, ${vb} : ${typeOf(p)}, ${typeOf(a)}`);
    out.push(program({
      name: `select_${d.name}`,
      description: `select on ${d.name} (bit-exact copies, NaN kept)`,
      ops: ['select'],
      text: moduleText(`select_${d.name}`, [f.text([{ value: r, type: typeOf(a) }])]),
      inputs: [p, a, b],
      outputs: [select(p, a, b)],
    }));
    if (d.kind === 'pred') continue;
    // scalar bounds, as jnp.clip emits
    const x = d.kind === 'float' ? vec(d, [-5, -1, 0, -0, 0.5, 2, 7, NaN, INF, -INF]) : ints(d, [...intRange(d).min === 0n ? [0n, 1n, 2n] : [-5n, -1n, 0n], 2n, 3n, 7n, 9n, intRange(d).max]);
    const lo = Tensor.of(d, [], [d.kind === 'float' ? -1 : 1n]);
    const hi = Tensor.of(d, [], [d.kind === 'float' ? 3 : 7n]);
    const g = new FuncBuilder('main');
    const [gl, gx, gh] = [g.arg(typeOf(lo)), g.arg(typeOf(x)), g.arg(typeOf(hi))];
    const rc = g.op(`stablehlo.clamp ${gl}, ${gx}, ${gh} : (${typeOf(lo)}, ${typeOf(x)}, ${typeOf(hi)}) -> ${typeOf(x)}`);
    out.push(program({
      name: `clamp_${d.name}`,
      description: `clamp on ${d.name} with rank-0 bounds${d.kind === 'float' ? ' (NaN propagates)' : ''}`,
      ops: ['clamp'],
      text: moduleText(`clamp_${d.name}`, [g.text([{ value: rc, type: typeOf(x) }])]),
      inputs: [lo, x, hi],
      outputs: [clamp(lo, x, hi)],
    }));
  }
  // elementwise bounds with lo > hi somewhere: the result is hi
  const d = FLOATS.find((x) => x.name === 'f32')!;
  const lo = vec(d, [0, 5, -1, 2]);
  const x = vec(d, [1, 1, -3, 10]);
  const hi = vec(d, [2, 3, 1, 1]);
  out.push(singleOp('clamp_f32_inverted_bounds', 'clamp', [lo, x, hi], clamp(lo, x, hi), 'clamp on f32 with per-element bounds, some lo > hi (result is hi)'));
  return out;
}

function convertSources(d: DtypeRow): Tensor {
  if (d.kind === 'pred') return vec(d, [false, true]);
  if (d.kind === 'float') {
    const c = floatConsts(d);
    return vec(d, [0, -0, 1, -1, 1.5, -2.5, 100.75, -128.5, 255.5, 300, -300, 65504, 1e6, -1e6, 3e9, -3e9, 1e19, 1e20, -1e20, c.max, c.sub, INF, -INF, NaN]);
  }
  const { min, max } = intRange(d);
  return ints(d, [0n, 1n, -1n, 100n, -128n, 127n, 255n, 256n, 65535n, 65536n, 16777217n, 2147483647n, -2147483648n, (1n << 53n) + 1n, min, max]);
}

/**
 * Elements of a float → integer convert whose truncated value the integer type cannot represent (NaN and ±inf
 * included): "the behavior is TBD" in the StableHLO spec (convert; openxla/stablehlo#180). XLA saturates, NaN → 0.
 */
export function outOfRange(x: Tensor, to: DtypeRow): OpenElements {
  const { min, max } = intRange(to);
  const elements = x.values().flatMap((v, i) => {
    const f = v as number;
    if (!Number.isFinite(f)) return [i];
    const t = BigInt(Math.trunc(f));
    return t < min || t > max ? [i] : [];
  });
  return { reason: 'the StableHLO spec leaves float → integer conversion of a value the integer type cannot hold (NaN, ±inf, out of range) TBD (openxla/stablehlo#180; XLA saturates and gives 0 for NaN)', elements };
}

function convertPrograms(): Program[] {
  const out: Program[] = [];
  const all = [PRED, ...INTS, ...FLOATS];
  for (const from of all) {
    for (const to of all) {
      if (from === to) continue;
      const x = convertSources(from);
      const name = `convert_${from.name}_to_${to.name}`;
      const rule = to.kind === 'pred' ? 'x != 0' : from.kind === 'float' && to.kind !== 'float' ? 'truncation, saturation, NaN → 0' : 'rounding / wrap-around';
      const recompute = from.kind === 'float' ? ([y]: readonly Tensor[]) => [convert(y!, to)] : undefined;
      const open = from.kind === 'float' && (to.kind === 'sint' || to.kind === 'uint') ? [[outOfRange(x, to)]] : undefined;
      out.push(singleOp(name, 'convert', [x], convert(x, to), `convert ${from.name} → ${to.name} (${rule})`, undefined, [], { recompute, ...(open ? { open } : {}) }));
    }
  }
  return out;
}

function bitcastPrograms(): Program[] {
  const out: Program[] = [];
  const all = [...INTS, ...FLOATS];
  for (const from of all) {
    for (const to of all) {
      if (from === to || from.bits !== to.bits) continue;
      const x = convertSources(from);
      if (from.kind === 'float') x.setBits(x.size - 1, canonicalNanBits(from) | 1n); // a NaN with a payload
      out.push(singleOp(`bitcast_convert_${from.name}_to_${to.name}`, 'bitcast_convert', [x], bitcastConvert(x, to), `bitcast_convert ${from.name} → ${to.name}: bit patterns unchanged (NaN payload included)`));
    }
  }
  const f32 = FLOATS.find((x) => x.name === 'f32')!;
  const u16 = INTS.find((x) => x.name === 'u16')!;
  const x = vec(f32, [1, -2.5, INF, NaN]);
  out.push(singleOp('bitcast_convert_f32_to_u16x2', 'bitcast_convert', [x], bitcastConvert(x, u16), 'bitcast_convert f32 → ui16 with an extra minor dim of 2 (low half first)'));
  const y = bitcastConvert(x, u16);
  out.push(singleOp('bitcast_convert_u16x2_to_f32', 'bitcast_convert', [y], bitcastConvert(y, f32), 'bitcast_convert ui16[4,2] → f32[4] (the minor dim is consumed)'));
  return out;
}

export function conversionPrograms(): Program[] {
  return [...comparePrograms(), ...selectClampPrograms(), ...convertPrograms(), ...bitcastPrograms()];
}

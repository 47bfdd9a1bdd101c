// Data-movement ops over a few representative dtypes, plus iota over every numeric dtype.
import type { DtypeRow } from '../../abi/dtypes.js';
import { canonicalNanBits } from '../../oracle/floats.js';
import { broadcastInDim, concatenate, dynamicSlice, dynamicUpdateSlice, iota, pad, reshape, reverse, slice, transpose } from '../../oracle/shape.js';
import { Tensor, numElements } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, FLOATS, INTS, program, type Program } from './program.js';

/** Dtypes the data-movement programs run on: one per width and kind. */
const MOVE_DTYPES = ['f32', 's32', 'bf16', 'u8', 's64', 'f64', 'pred'].map(dt);

/** Distinct, recognisable elements 1, 2, 3, … (pred alternates; one float NaN with a payload is kept bit-exact). */
function pattern(d: DtypeRow, dims: readonly number[], offset = 0): Tensor {
  const n = numElements(dims);
  const t = Tensor.of(d, dims, Array.from({ length: n }, (_, i) => (d.kind === 'pred' ? (i + offset) % 3 === 0 : d.kind === 'float' ? i + 1 + offset : BigInt(i + 1 + offset))));
  if (d.kind === 'float' && n > 2) t.setBits(1, canonicalNanBits(d) | 1n);
  return t;
}

interface MoveCase {
  id: string;
  op: string;
  description: string;
  /** the reference plugin's faults the case's values show (faults.json names) */
  catches?: readonly string[];
  build(d: DtypeRow): { args: Tensor[]; out: Tensor; body(f: FuncBuilder, vs: string[]): string };
}

const i32 = dt('s32');
const scalarIdx = (v: number) => Tensor.of(i32, [], [BigInt(v)]);

const CASES: MoveCase[] = [
  {
    id: 'broadcast_in_dim_scalar', op: 'broadcast_in_dim', description: 'broadcast_in_dim of a scalar to 2x3',
    build: (d) => {
      const x = pattern(d, []);
      const out = broadcastInDim(x, [2, 3], []);
      return { args: [x], out, body: (f, [v]) => f.op(`stablehlo.broadcast_in_dim ${v}, dims = [] : (${typeOf(x)}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'broadcast_in_dim_stretch', op: 'broadcast_in_dim', description: 'broadcast_in_dim 3x1 → 2x3x4 with dims = [1, 0] (size-1 dim stretched, dims not increasing)',
    build: (d) => {
      const x = pattern(d, [3, 1]);
      const out = broadcastInDim(x, [2, 3, 4], [1, 0]);
      return { args: [x], out, body: (f, [v]) => f.op(`stablehlo.broadcast_in_dim ${v}, dims = [1, 0] : (${typeOf(x)}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'reshape', op: 'reshape', description: 'reshape 2x3 → 3x1x2',
    build: (d) => {
      const x = pattern(d, [2, 3]);
      const out = reshape(x, [3, 1, 2]);
      return { args: [x], out, body: (f, [v]) => f.op(`stablehlo.reshape ${v} : (${typeOf(x)}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'transpose', op: 'transpose', description: 'transpose 2x3x4 with dims = [2, 0, 1]',
    build: (d) => {
      const x = pattern(d, [2, 3, 4]);
      const out = transpose(x, [2, 0, 1]);
      return { args: [x], out, body: (f, [v]) => f.op(`stablehlo.transpose ${v}, dims = [2, 0, 1] : (${typeOf(x)}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'slice', op: 'slice', description: 'slice 4x5 [1:3, 0:5:2]',
    build: (d) => {
      const x = pattern(d, [4, 5]);
      const out = slice(x, [1, 0], [3, 5], [1, 2]);
      return { args: [x], out, body: (f, [v]) => f.op(`stablehlo.slice ${v} [1:3, 0:5:2] : (${typeOf(x)}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'dynamic_slice', op: 'dynamic_slice', description: 'dynamic_slice 4x4 sizes [2, 2] at (1, 2)',
    build: (d) => dynSlice(d, 1, 2),
  },
  {
    id: 'dynamic_slice_clamped', op: 'dynamic_slice', description: 'dynamic_slice 4x4 sizes [2, 2] at (-3, 9): starts clamp to (0, 2)', catches: ['dynamic_slice_clamps_to_dim'],
    build: (d) => dynSlice(d, -3, 9),
  },
  {
    id: 'dynamic_update_slice', op: 'dynamic_update_slice', description: 'dynamic_update_slice of a 2x2 update into 4x4 at (2, 1)',
    build: (d) => dus(d, 2, 1),
  },
  {
    id: 'dynamic_update_slice_clamped', op: 'dynamic_update_slice', description: 'dynamic_update_slice 2x2 into 4x4 at (7, -1): starts clamp to (2, 0)', catches: ['dynamic_slice_clamps_to_dim'],
    build: (d) => dus(d, 7, -1),
  },
  {
    id: 'concatenate', op: 'concatenate', description: 'concatenate 2x1, 2x3 and 2x2 along dim 1',
    build: (d) => {
      const xs = [pattern(d, [2, 1]), pattern(d, [2, 3], 10), pattern(d, [2, 2], 20)];
      const out = concatenate(xs, 1);
      return { args: xs, out, body: (f, vs) => f.op(`stablehlo.concatenate ${vs.join(', ')}, dim = 1 : (${xs.map(typeOf).join(', ')}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'pad', op: 'pad', description: 'pad 2x3 with low [1, -1], high [0, 2], interior [1, 1] (negative edge removes)',
    build: (d) => {
      const x = pattern(d, [2, 3]);
      const v = pattern(d, [], 90);
      const out = pad(x, v, [1, -1], [0, 2], [1, 1]);
      return { args: [x, v], out, body: (f, [a, b]) => f.op(`stablehlo.pad ${a}, ${b}, low = [1, -1], high = [0, 2], interior = [1, 1] : (${typeOf(x)}, ${typeOf(v)}) -> ${typeOf(out)}`) };
    },
  },
  {
    id: 'reverse', op: 'reverse', description: 'reverse 3x4 along dims [0, 1]',
    build: (d) => {
      const x = pattern(d, [3, 4]);
      const out = reverse(x, [0, 1]);
      return { args: [x], out, body: (f, [v]) => f.op(`stablehlo.reverse ${v}, dims = [0, 1] : ${typeOf(x)}`) };
    },
  },
];

function dynSlice(d: DtypeRow, i: number, j: number): ReturnType<MoveCase['build']> {
  const x = pattern(d, [4, 4]);
  const [a, b] = [scalarIdx(i), scalarIdx(j)];
  const out = dynamicSlice(x, [BigInt(i), BigInt(j)], [2, 2]);
  return {
    args: [x, a, b], out,
    body: (f, [v, p, q]) => f.op(`stablehlo.dynamic_slice ${v}, ${p}, ${q}, sizes = [2, 2] : (${typeOf(x)}, ${typeOf(a)}, ${typeOf(b)}) -> ${typeOf(out)}`),
  };
}

function dus(d: DtypeRow, i: number, j: number): ReturnType<MoveCase['build']> {
  const x = pattern(d, [4, 4]);
  const u = pattern(d, [2, 2], 50);
  const [a, b] = [scalarIdx(i), scalarIdx(j)];
  const out = dynamicUpdateSlice(x, u, [BigInt(i), BigInt(j)]);
  return {
    args: [x, u, a, b], out,
    body: (f, [v, w, p, q]) => f.op(`stablehlo.dynamic_update_slice ${v}, ${w}, ${p}, ${q} : (${typeOf(x)}, ${typeOf(u)}, ${typeOf(a)}, ${typeOf(b)}) -> ${typeOf(out)}`),
  };
}

export function shapePrograms(): Program[] {
  const out: Program[] = [];
  for (const c of CASES) {
    for (const d of MOVE_DTYPES) {
      const { args, out: r, body } = c.build(d);
      const f = new FuncBuilder('main');
      const vs = args.map((a) => f.arg(typeOf(a)));
      const v = body(f, vs);
      const name = `${c.id}_${d.name}`;
      out.push(program({ name, description: `${c.description} on ${d.name}`, ops: [c.op], text: moduleText(name, [f.text([{ value: v, type: typeOf(r) }])]), inputs: args, outputs: [r], catches: c.catches ?? [] }));
    }
  }
  for (const d of [...INTS, ...FLOATS]) {
    const dims = [3, 4];
    const r0 = iota(d, dims, 0);
    const r1 = iota(d, dims, 1);
    const f = new FuncBuilder('main');
    const a = f.op(`stablehlo.iota dim = 0 : ${tensorType(d, dims)}`);
    const b = f.op(`stablehlo.iota dim = 1 : ${tensorType(d, dims)}`);
    const name = `iota_${d.name}`;
    out.push(program({
      name, description: `iota along dim 0 and dim 1 of 3x4 ${d.name}; no arguments, two results`, ops: ['iota'],
      text: moduleText(name, [f.text([{ value: a, type: typeOf(r0) }, { value: b, type: typeOf(r1) }])]), inputs: [], outputs: [r0, r1],
    }));
  }
  return out;
}

// sort: several operands sorted together by a comparator region, stable, with ties the payload operands expose.
import type { DtypeRow } from '../../abi/dtypes.js';
import { compare, type CompareType, type Direction } from '../../oracle/compare.js';
import { canonicalNanBits } from '../../oracle/floats.js';
import { sort, type SortComparator } from '../../oracle/sort.js';
import { numElements, Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

interface KeyCompare { operand: number; dir: Direction; type: CompareType }

const holds = (dir: Direction, x: Tensor, y: Tensor, type: CompareType) => compare(dir, x, y, type).get(0) === true;

/**
 * The comparator of one or more keys, lexicographic: key 0 decides unless it ties (EQ under its type), then key 1 …
 * As a region: per key k, lt_k = compare dir_k and eq_k = compare EQ; before = lt_0 or (eq_0 and (lt_1 or …)).
 */
type Region = (arg: (operand: number, side: 0 | 1) => string, scalarType: (operand: number) => string, fresh: () => string) => string[];

function comparator(keys: readonly KeyCompare[]): { oracle: SortComparator; region: Region } {
  const oracle: SortComparator = (x, y) => {
    for (const k of keys) {
      if (holds(k.dir, x[k.operand]!, y[k.operand]!, k.type)) return true;
      if (!holds('EQ', x[k.operand]!, y[k.operand]!, k.type)) return false;
    }
    return false;
  };
  const region: Region = (arg, scalarType, fresh) => {
    const lines: string[] = [];
    const cmp = (k: KeyCompare, dir: Direction) => {
      const r = fresh();
      const t = scalarType(k.operand);
      lines.push(`${r} = stablehlo.compare  ${dir}, ${arg(k.operand, 0)}, ${arg(k.operand, 1)},  ${k.type} : (${t}, ${t}) -> tensor<i1>`);
      return r;
    };
    // build from the last key outwards: acc = lt_k or (eq_k and acc)
    let acc = cmp(keys[keys.length - 1]!, keys[keys.length - 1]!.dir);
    for (let i = keys.length - 2; i >= 0; i--) {
      const lt = cmp(keys[i]!, keys[i]!.dir);
      const eq = cmp(keys[i]!, 'EQ');
      const and = fresh();
      lines.push(`${and} = stablehlo.and ${eq}, ${acc} : tensor<i1>`);
      const or = fresh();
      lines.push(`${or} = stablehlo.or ${lt}, ${and} : tensor<i1>`);
      acc = or;
    }
    lines.push(`stablehlo.return ${acc} : tensor<i1>`);
    return lines;
  };
  return { oracle, region };
}

interface SortCase { id: string; description: string; operands: Tensor[]; dimension: number; keys: KeyCompare[] }

function sortProgram(c: SortCase): Program {
  const { oracle, region } = comparator(c.keys);
  const outs = sort(c.operands, c.dimension, oracle);
  const f = new FuncBuilder('main');
  const args = c.operands.map((t) => f.arg(typeOf(t)));
  const r = f.fresh();
  const scalarType = (k: number) => tensorType(c.operands[k]!.dtype, []);
  const blockArgs = c.operands.flatMap((_, k) => [0, 1].map((side) => `%arg${c.operands.length + 2 * k + side}: ${scalarType(k)}`));
  const arg = (k: number, side: 0 | 1) => `%arg${c.operands.length + 2 * k + side}`;
  const types = c.operands.map(typeOf);
  const results = c.operands.length > 1 ? `(${types.join(', ')})` : types[0]!;
  f.raw([
    `${r}${c.operands.length > 1 ? `:${c.operands.length}` : ''} = "stablehlo.sort"(${args.join(', ')}) <{dimension = ${c.dimension} : i64, is_stable = true}> ({`,
    `^bb0(${blockArgs.join(', ')}):`,
    ...region(arg, scalarType, () => f.fresh()).map((l) => `  ${l}`),
    `}) : (${types.join(', ')}) -> ${results}`,
  ].join('\n'));
  const name = `sort_${c.id}`;
  const value = (k: number) => (c.operands.length > 1 ? `${r}#${k}` : r);
  return program({
    name,
    description: c.description,
    ops: ['sort', 'compare', ...(c.keys.length > 1 ? ['and', 'or'] : [])],
    text: moduleText(name, [f.text(c.operands.map((t, k) => ({ value: value(k), type: typeOf(t) })))]),
    inputs: c.operands,
    outputs: outs,
    catches: ['sort_ties_reversed'], // keys the comparator ties, with payloads that tell them apart, in every sort
  });
}

const iota = (d: DtypeRow, dims: number[]) => Tensor.of(d, dims, Array.from({ length: numElements(dims) }, (_, i) => (d.kind === 'float' ? i : BigInt(i))));

export function sortPrograms(): Program[] {
  const f32 = dt('f32');
  const keys = Tensor.of(f32, [12], [3, NaN, -0, 1, 0, -Infinity, 1, Infinity, NaN, 3, 0, -2.5]);
  keys.setBits(8, canonicalNanBits(f32) | (1n << 31n)); // −NaN sorts first under TOTALORDER
  const rows = Tensor.of(dt('s32'), [3, 4], [5n, -1n, 5n, 2n, 0n, 0n, 0n, -7n, 2147483647n, -2147483648n, 9n, 9n]);
  const primary = Tensor.of(dt('u8'), [6, 2], [2n, 1n, 0n, 255n, 2n, 1n, 0n, 255n, 2n, 0n, 1n, 1n]);
  const secondary = Tensor.of(dt('s16'), [6, 2], [-3n, 4n, 7n, 0n, -3n, 4n, 7n, 1n, -4n, 0n, 5n, 4n]);
  const cases: SortCase[] = [
    { id: 'f32_totalorder', description: 'stable sort of f32 keys by compare LT TOTALORDER (−NaN < −inf < … < −0 < +0 < … < +inf < NaN) with an s32 payload; ties keep their order', operands: [keys, iota(dt('s32'), [12])], dimension: 0, keys: [{ operand: 0, dir: 'LT', type: 'TOTALORDER' }] },
    { id: 's32_rows_descending', description: 'stable sort of each row of 3x4 s32 keys, descending (GT SIGNED, INT_MIN and INT_MAX), with an f32 payload; ties keep their order', operands: [rows, iota(f32, [3, 4])], dimension: 1, keys: [{ operand: 0, dir: 'GT', type: 'SIGNED' }] },
    { id: 'two_keys_dim0', description: 'stable sort along dimension 0 of 6x2 tensors by a u8 key then an s16 key (a multi-op comparator), with an f32 payload; full ties keep their order', operands: [primary, secondary, iota(f32, [6, 2])], dimension: 0, keys: [{ operand: 0, dir: 'LT', type: 'UNSIGNED' }, { operand: 1, dir: 'LT', type: 'SIGNED' }] },
  ];
  return cases.map(sortProgram);
}

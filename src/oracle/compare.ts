// compare, select, clamp.
import { dtype as dtypeByName } from '../abi/dtypes.js';
import { fmax, fmin } from './elementwise.js';
import { roundTo } from './floats.js';
import { Tensor, type Scalar } from './tensor.js';

export const DIRECTIONS = ['EQ', 'NE', 'LT', 'LE', 'GT', 'GE'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const COMPARE_TYPES = ['SIGNED', 'UNSIGNED', 'FLOAT', 'TOTALORDER'] as const;
export type CompareType = (typeof COMPARE_TYPES)[number];

/** The comparison type JAX prints for an element kind. */
export function defaultCompareType(kind: string): CompareType {
  if (kind === 'float') return 'FLOAT';
  if (kind === 'sint') return 'SIGNED';
  return 'UNSIGNED';
}

function ordered(c: number, dir: Direction): boolean {
  switch (dir) {
    case 'EQ': return c === 0;
    case 'NE': return c !== 0;
    case 'LT': return c < 0;
    case 'LE': return c <= 0;
    case 'GT': return c > 0;
    case 'GE': return c >= 0;
  }
}

function cmp<T extends number | bigint>(x: T, y: T): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

export function compare(dir: Direction, a: Tensor, b: Tensor, type: CompareType): Tensor {
  const d = a.dtype;
  const out = new Tensor(dtypeByName('pred'), a.dims);
  for (let i = 0; i < a.size; i++) {
    let r: boolean;
    if (type === 'TOTALORDER') {
      if (d.kind !== 'float') throw new Error('TOTALORDER needs a float type');
      const w = d.bits;
      const key = (bits: bigint): bigint => {
        const s = BigInt.asIntN(w, bits);
        return s < 0n ? s ^ ((1n << BigInt(w - 1)) - 1n) : s;
      };
      r = ordered(cmp(key(a.bits(i)), key(b.bits(i))), dir);
    } else if (d.kind === 'float') {
      const x = a.get(i) as number;
      const y = b.get(i) as number;
      r = Number.isNaN(x) || Number.isNaN(y) ? dir === 'NE' : ordered(cmp(x, y), dir);
    } else if (d.kind === 'pred') {
      r = ordered(cmp(Number(a.get(i)), Number(b.get(i))), dir);
    } else {
      // SIGNED/UNSIGNED reinterpret the bits whatever the declared signedness
      const w = d.bits;
      const conv = (bits: bigint): bigint => (type === 'SIGNED' ? BigInt.asIntN(w, bits) : BigInt.asUintN(w, bits));
      r = ordered(cmp(conv(a.bits(i)), conv(b.bits(i))), dir);
    }
    out.set(i, r);
  }
  return out;
}

export function select(pred: Tensor, onTrue: Tensor, onFalse: Tensor): Tensor {
  const out = new Tensor(onTrue.dtype, onTrue.dims);
  for (let i = 0; i < out.size; i++) {
    const p = pred.get(pred.size === 1 ? 0 : i) as boolean;
    out.setBits(i, p ? onTrue.bits(i) : onFalse.bits(i));
  }
  return out;
}

function scalarMax(x: Scalar, y: Scalar): Scalar {
  if (typeof x === 'number') return fmax(x, y as number);
  return x > y ? x : y;
}

function scalarMin(x: Scalar, y: Scalar): Scalar {
  if (typeof x === 'number') return fmin(x, y as number);
  return x < y ? x : y;
}

/** min(max(x, lo), hi); lo/hi may be rank-0. */
export function clamp(lo: Tensor, x: Tensor, hi: Tensor): Tensor {
  const out = new Tensor(x.dtype, x.dims);
  for (let i = 0; i < x.size; i++) {
    const l = lo.get(lo.size === 1 && x.size !== 1 ? 0 : i);
    const h = hi.get(hi.size === 1 && x.size !== 1 ? 0 : i);
    const v = scalarMin(scalarMax(x.get(i), l), h);
    out.set(i, typeof v === 'number' ? roundTo(x.dtype, v) : v);
  }
  return out;
}


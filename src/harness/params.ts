// Parameter helpers: rows are objects with an `id`; cross() joins ids with '.'.
import type { ParamRow } from './types.js';

type Merge<A, B> = Omit<A, 'id'> & Omit<B, 'id'> & ParamRow;

export function cross<A extends ParamRow, B extends ParamRow>(a: readonly A[], b: readonly B[]): Merge<A, B>[] {
  const out: Merge<A, B>[] = [];
  for (const x of a) for (const y of b) out.push({ ...x, ...y, id: `${x.id}.${y.id}` } as Merge<A, B>);
  return out;
}

/** Rows from plain values: rows(['f32', 'bf16'], (v) => ({ dtype: v })) → [{ id: 'f32', dtype: 'f32' }, …]. */
export function rows<V extends string | number, R extends object>(values: readonly V[], f: (v: V) => R): (R & ParamRow)[] {
  return values.map((v) => ({ ...f(v), id: String(v) }));
}

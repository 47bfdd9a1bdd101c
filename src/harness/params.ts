// The parameter builder: a case's rows as a product of named values instead of a hand-built list.
//   params().combine('dt', ['f32', 'bf16']).combine('shape', SHAPES).filter((p) => …).rows()
// Each combined or expanded value adds one segment to the row id (the value itself, or its `id`), in the order
// the calls are made, so ids read `<dt>.<shape>`; `derive` adds a field computed from the others without a segment.
import type { ParamRow } from './types.js';

/** A value that names its own id segment: a string, number, bigint or boolean (its text) or an object with an `id`. */
export type SegmentValue = string | number | bigint | boolean | { readonly id: string };

/** `K` when it names no field yet (nor `id`), else never: a key is combined once. */
type NewKey<K extends string, T> = K extends keyof T | 'id' ? never : K;
type With<T, K extends string, V> = T & { readonly [k in K]: V };

interface Built<T> { readonly p: T; readonly ids: readonly string[] }

function segmentOf(v: SegmentValue): string {
  return typeof v === 'object' ? v.id : String(v);
}

export class ParamBuilder<T extends object> {
  private constructor(private readonly built: readonly Built<T>[]) {}

  /** The builder of a single empty row (start of every chain). */
  static start(): ParamBuilder<object> {
    return new ParamBuilder<object>([{ p: {}, ids: [] }]);
  }

  /** Every row times every value: `key` holds the value; the value (or its `id`) is the next id segment. */
  combine<K extends string, V extends SegmentValue>(key: K & NewKey<K, T>, values: readonly V[]): ParamBuilder<With<T, K, V>> {
    return this.expand<K, V>(key, () => values);
  }

  /** Like combine, but the values depend on the row so far (e.g. the shapes worth trying for a dtype). */
  expand<K extends string, V extends SegmentValue>(key: K & NewKey<K, T>, values: (p: T) => readonly V[]): ParamBuilder<With<T, K, V>> {
    return new ParamBuilder(this.built.flatMap((b) => values(b.p).map((v) => ({ p: { ...b.p, [key]: v } as With<T, K, V>, ids: [...b.ids, segmentOf(v)] }))));
  }

  /** Every row times every given row: its fields (all but `id`) join the row, its `id` is the next segment. */
  combineWithParams<R extends ParamRow>(rows: readonly R[]): ParamBuilder<T & Omit<R, 'id'>> {
    return new ParamBuilder(this.built.flatMap((b) => rows.map(({ id, ...rest }) => ({ p: { ...b.p, ...rest } as T & Omit<R, 'id'>, ids: [...b.ids, id] }))));
  }

  /** A field computed from the row; it adds no id segment. */
  derive<K extends string, V>(key: K & NewKey<K, T>, f: (p: T) => V): ParamBuilder<With<T, K, V>> {
    return new ParamBuilder(this.built.map((b) => ({ p: { ...b.p, [key]: f(b.p) } as With<T, K, V>, ids: b.ids })));
  }

  /** Keeps the rows for which `keep` is true. */
  filter(keep: (p: T) => boolean): ParamBuilder<T> {
    return new ParamBuilder(this.built.filter((b) => keep(b.p)));
  }

  /** Drops the rows for which `drop` is true. */
  unless(drop: (p: T) => boolean): ParamBuilder<T> {
    return this.filter((p) => !drop(p));
  }

  /** The rows, each with its id (the segments joined by '.'). */
  rows(): (T & ParamRow)[] {
    return this.built.map((b) => {
      if (!b.ids.length) throw new Error('pjrt-cts: params(): a row without an id segment (combine or expand at least once)');
      return { ...b.p, id: b.ids.join('.') };
    });
  }
}

/** Starts a parameter builder. */
export function params(): ParamBuilder<object> {
  return ParamBuilder.start();
}

// Shape classes for transfers and metadata tests. The id is the param id segment: '2x3', 'scalar', '0', '3x0x2'.
export interface Shape {
  readonly id: string;
  readonly dims: readonly number[];
}

const shapeId = (dims: readonly number[]): string => (dims.length === 0 ? 'scalar' : dims.join('x'));
export const shape = (...dims: number[]): Shape => ({ id: shapeId(dims), dims });

/** Non-empty shapes of every rank 0..6, with odd extents so a dropped or misplaced element shows. */
export const NONEMPTY_SHAPES: readonly Shape[] = [
  shape(), // scalar
  shape(1),
  shape(7),
  shape(2, 3),
  shape(17, 13),
  shape(2, 3, 5),
  shape(3, 1, 4, 2),
  shape(2, 3, 1, 2, 3),
  shape(2, 1, 3, 1, 2, 2),
];

export const ZERO_SIZE_SHAPES: readonly Shape[] = [shape(0), shape(3, 0), shape(2, 0, 5)];

/** A few shapes for the long tail of dtypes (keeps the matrix small). */
export const SMALL_SHAPES: readonly Shape[] = [shape(), shape(7), shape(3, 5)];

/** Dense row-major byte strides of `dims` for an element of `elemBytes`. */
export function denseStrides(dims: readonly number[], elemBytes: number): number[] {
  const s = new Array<number>(dims.length);
  let acc = elemBytes;
  for (let i = dims.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= dims[i]!;
  }
  return s;
}

/** Cartesian product of parameter lists; ids joined with '.'. */
export function cross<A extends { id: string }, B extends { id: string }>(
  as: readonly A[],
  bs: readonly B[],
): (Omit<A, 'id'> & Omit<B, 'id'> & { id: string; a: A; b: B })[] {
  const out: (Omit<A, 'id'> & Omit<B, 'id'> & { id: string; a: A; b: B })[] = [];
  for (const a of as) for (const b of bs) out.push({ ...a, ...b, id: `${a.id}.${b.id}`, a, b });
  return out;
}

// sort: operands of one shape sorted together along one dimension by a comparator ("x goes before y") over the
// operands' elements at two positions. Stable: elements the comparator ties keep their order.
import { stridesOf, type Tensor } from './tensor.js';

/** The comparator sees, per operand, the 0-d tensor of its element at each of the two positions. */
export type SortComparator = (x: readonly Tensor[], y: readonly Tensor[]) => boolean;

export function sort(operands: readonly Tensor[], dimension: number, before: SortComparator): Tensor[] {
  const first = operands[0];
  if (!first) throw new Error('sort needs an operand');
  const dims = first.dims;
  const n = dims[dimension]!;
  const stride = stridesOf(dims)[dimension]!;
  const outer = n === 0 ? 0 : first.size / (n * stride);
  const perm = new Array<number>(first.size);
  for (let o = 0; o < outer; o++) {
    for (let s = 0; s < stride; s++) {
      const base = o * n * stride + s;
      const at = (k: number) => operands.map((t) => t.gather([], () => base + k * stride));
      const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => (before(at(a), at(b)) ? -1 : before(at(b), at(a)) ? 1 : 0));
      order.forEach((k, i) => { perm[base + i * stride] = base + k * stride; });
    }
  }
  return operands.map((t) => t.gather(dims, (i) => perm[i]!));
}

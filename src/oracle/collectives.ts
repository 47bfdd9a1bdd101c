// Cross-replica collectives over one tensor per replica (num_partitions = 1, so process id = replica id).
import { binaryScalar } from './elementwise.js';
import { concatenate, slice } from './shape.js';
import { Tensor } from './tensor.js';

function groupOf(groups: readonly (readonly number[])[], r: number): readonly number[] {
  const g = groups.find((x) => x.includes(r));
  if (!g) throw new Error(`replica ${r} is in no replica group`);
  return g;
}

/** Every member gets the elementwise fold of all members' operands, in group order. */
export function allReduce(xs: readonly Tensor[], groups: readonly (readonly number[])[], op: string): Tensor[] {
  return xs.map((_, r) => {
    const g = groupOf(groups, r);
    const out = new Tensor(xs[r]!.dtype, xs[r]!.dims);
    for (let i = 0; i < out.size; i++) {
      let acc = xs[g[0]!]!.get(i);
      for (const m of g.slice(1)) acc = binaryScalar(op, out.dtype, acc, xs[m]!.get(i));
      out.set(i, acc);
    }
    return out;
  });
}

export function allGather(xs: readonly Tensor[], groups: readonly (readonly number[])[], dim: number): Tensor[] {
  return xs.map((_, r) => concatenate(groupOf(groups, r).map((m) => xs[m]!), dim));
}

function part(t: Tensor, dim: number, k: number, n: number): Tensor {
  const size = t.dims[dim]! / n;
  const start = t.dims.map((_, d) => (d === dim ? k * size : 0));
  const limit = t.dims.map((s, d) => (d === dim ? (k + 1) * size : s));
  return slice(t, start, limit);
}

export function reduceScatter(xs: readonly Tensor[], groups: readonly (readonly number[])[], op: string, dim: number): Tensor[] {
  const reduced = allReduce(xs, groups, op);
  return reduced.map((t, r) => {
    const g = groupOf(groups, r);
    return part(t, dim, g.indexOf(r), g.length);
  });
}

export function allToAll(xs: readonly Tensor[], groups: readonly (readonly number[])[], splitDim: number, concatDim: number): Tensor[] {
  return xs.map((_, r) => {
    const g = groupOf(groups, r);
    const k = g.indexOf(r);
    return concatenate(g.map((s) => part(xs[s]!, splitDim, k, g.length)), concatDim);
  });
}

/** A replica that is no one's target receives zeros. */
export function collectivePermute(xs: readonly Tensor[], pairs: readonly (readonly [number, number])[]): Tensor[] {
  return xs.map((x, r) => {
    const p = pairs.find(([, t]) => t === r);
    return p ? new Tensor(x.dtype, x.dims, Uint8Array.from(xs[p[0]]!.bytes)) : new Tensor(x.dtype, x.dims);
  });
}

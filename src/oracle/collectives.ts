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

/** The program instances of one Execute: `replicas` × `partitions`, instance i = replica · partitions + partition. */
export interface Grid {
  replicas: number;
  partitions: number;
}

/** How a collective reads its groups (StableHLO spec, "Collective ops": cross_replica … flattened_ids). */
export type GroupMode = 'cross_replica' | 'cross_partition' | 'cross_replica_and_partition' | 'flattened_ids';

/**
 * The process groups of a collective as lists of instance indices, in the spec's order (which is the order all_gather
 * concatenates and reduce_scatter hands out in). `-1` entries are the padding of non-uniform groups (skipped).
 */
export function processGroups(mode: GroupMode, groups: readonly (readonly number[])[], grid: Grid): number[][] {
  const { replicas: R, partitions: P } = grid;
  const gs = groups.map((g) => g.filter((id) => id !== -1));
  const at = (r: number, p: number) => r * P + p;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  switch (mode) {
    case 'cross_replica':
      return gs.flatMap((g) => range(P).map((p) => g.map((r) => at(r, p))));
    case 'cross_partition':
      return gs.flatMap((g) => range(R).map((r) => g.map((p) => at(r, p))));
    case 'cross_replica_and_partition':
      return gs.map((g) => range(P).flatMap((p) => g.map((r) => at(r, p))));
    case 'flattened_ids':
      return gs.map((g) => [...g]);
  }
}

/** collective_permute's pairs as instance pairs: ids are replicas (cross_replica) or partitions (cross_partition). */
export function instancePairs(mode: 'cross_replica' | 'cross_partition', pairs: readonly (readonly [number, number])[], grid: Grid): [number, number][] {
  const { replicas: R, partitions: P } = grid;
  const out: [number, number][] = [];
  if (mode === 'cross_replica') for (let p = 0; p < P; p++) for (const [s, t] of pairs) out.push([s * P + p, t * P + p]);
  else for (let r = 0; r < R; r++) for (const [s, t] of pairs) out.push([r * P + s, r * P + t]);
  return out;
}

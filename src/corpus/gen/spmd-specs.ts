// Collectives beyond one operand per replica: variadic operands, replica_groups padded with -1, and SPMD programs
// (mhlo.num_partitions > 1, one argument list per replica × partition) with partition_id, channel_handle and
// use_global_device_ids. Partitioned programs are written as JAX's shard_map lowers them: arguments, results and
// partition_id carry `mhlo.sharding = "{manual}"` (XLA's SPMD partitioner rejects an unannotated partition_id).
import type { DtypeRow } from '../../abi/dtypes.js';
import { allGather, allReduce, allToAll, collectivePermute, instancePairs, processGroups, reduceScatter, type Grid, type GroupMode } from '../../oracle/collectives.js';
import { Tensor } from '../../oracle/tensor.js';
import type { Value } from '../schema.js';
import { tensorToValue } from '../values.js';
import { tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

const MANUAL = '{mhlo.sharding = "{manual}"}';

function matrix(rows: readonly (readonly number[])[]): string {
  return `dense<${JSON.stringify(rows).replace(/,/g, ', ')}> : tensor<${rows.length}x${rows[0]!.length}xi64>`;
}
const CHANNEL = 'channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>';

/** Instance i's operand k: distinct small integers (sums exact in every order), different per operand. */
function perInstance(d: DtypeRow, dims: readonly number[], n: number, k = 0): Tensor[] {
  const size = dims.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, i) => Tensor.of(d, dims, Array.from({ length: size }, (_, e) => {
    const v = (i + 1) * 10 + e - (i % 2 ? 3 : 0) + 100 * k;
    return d.kind === 'float' ? v : BigInt(v);
  })));
}

const transpose = <T>(xs: readonly (readonly T[])[]): T[][] => (xs[0] ?? []).map((_, k) => xs.map((row) => row[k]!));

function reducer(op: string, d: DtypeRow): string {
  const s = tensorType(d, []);
  return `({\n    ^bb0(%a: ${s}, %b: ${s}):\n      %t = stablehlo.${op} %a, %b : ${s}\n      stablehlo.return %t : ${s}\n    })`;
}

interface Body {
  /** per instance, per argument */
  inputs: Tensor[][];
  /** per instance, per result */
  outputs: Tensor[][];
  /** the op lines, over %arg0… ; results named in `results` */
  lines: string[];
  results: string[];
}

/** The module: arguments and results annotated manual when the program has partitions. */
function moduleOf(name: string, grid: Grid, b: Body): string {
  const note = grid.partitions > 1 ? ` ${MANUAL}` : '';
  const args = (b.inputs[0] ?? []).map((t, k) => `%arg${k}: ${typeOf(t)}${note}`);
  const types = (b.outputs[0] ?? []).map(typeOf);
  const sig = note || types.length !== 1 ? `(${types.map((t) => t + note).join(', ')})` : types[0]!;
  return [
    `module @jit_${name} attributes {mhlo.num_partitions = ${grid.partitions} : i32, mhlo.num_replicas = ${grid.replicas} : i32} {`,
    `  func.func public @main(${args.join(', ')}) -> ${sig} {`,
    ...b.lines.map((l) => `    ${l}`),
    `    return ${b.results.join(', ')} : ${types.join(', ')}`,
    '  }',
    '}',
    '',
  ].join('\n');
}

/** `%0:k = "stablehlo.<op>"(%arg0, …) <{attrs}> region : (types) -> (types)` over every argument. */
function collectiveLine(op: string, ins: readonly Tensor[], outs: readonly Tensor[], attrs: string, region = ''): { line: string; results: string[] } {
  const k = outs.length;
  const args = ins.map((_, i) => `%arg${i}`).join(', ');
  const it = ins.map(typeOf).join(', ');
  const ot = outs.map(typeOf).join(', ');
  const sig = k === 1 ? `(${it}) -> ${ot}` : `(${it}) -> (${ot})`;
  const line = `%0${k > 1 ? `:${k}` : ''} = "stablehlo.${op}"(${args}) <{${attrs}}> ${region ? region + ' ' : ''}: ${sig}`;
  return { line, results: k > 1 ? outs.map((_, i) => `%0#${i}`) : ['%0'] };
}

/** The mode a reduction-style collective (all_reduce, all_gather, reduce_scatter) reads its groups in. */
function reduceMode(channel: boolean, global: boolean): GroupMode {
  return !channel ? 'cross_replica' : global ? 'flattened_ids' : 'cross_replica_and_partition';
}
function modeAttrs(channel: boolean, global: boolean): string[] {
  return [...(channel ? [CHANNEL] : []), ...(global ? ['use_global_device_ids'] : [])];
}

const XLA_REPLICA_MAJOR =
  "XLA orders a cross_replica_and_partition group replica-major ((r0,p0), (r0,p1), (r1,p0), (r1,p1); GetParticipatingDevices, " +
  'xla/service/collective_ops_utils_test.cc); the spec orders it partition-major';

/** Adds `outputs` (per instance, per result) as an accepted alternative wherever they differ from the expected ones. */
function accept(p: Program, outputs: readonly (readonly Tensor[])[], reason: string): void {
  const per = p.sidecar.outputs as Value[][];
  per.forEach((vs, i) =>
    vs.forEach((v, k) => {
      const data = tensorToValue(outputs[i]![k]!).data;
      if (JSON.stringify(data) !== JSON.stringify(v.data)) vs[k] = { ...v, alternatives: [{ reason, data }] };
    }),
  );
}

export function spmdPrograms(): Program[] {
  const out: Program[] = [];
  /** `catches`: the reference plugin's faults the program shows (a mode, group or pair its values tell apart) */
  const add = (name: string, description: string, ops: string[], grid: Grid, b: Body, catches: readonly string[] = []) =>
    out.push(program({ name, description, ops, text: moduleOf(name, grid, b), inputs: b.inputs, outputs: b.outputs, replicas: grid.replicas, partitions: grid.partitions, catches }));
  /** every program with use_global_device_ids (flattened ids) */
  const GLOBAL_IDS = ['global_device_ids_ignored'];
  const f32 = dt('f32');
  const s32 = dt('s32');

  /** all_reduce(add) over `operands` (dims per operand) with `groups` read in the mode the flags give. */
  const allReduceBody = (grid: Grid, d: DtypeRow, dims: readonly (readonly number[])[], groups: number[][], channel: boolean, global: boolean): Body => {
    const n = grid.replicas * grid.partitions;
    const ops = dims.map((ds, k) => perInstance(d, ds, n, k));
    const pg = processGroups(reduceMode(channel, global), groups, grid);
    const results = transpose(ops.map((xs) => allReduce(xs, pg, 'add')));
    const inputs = transpose(ops);
    const { line, results: rs } = collectiveLine('all_reduce', inputs[0]!, results[0]!, [...modeAttrs(channel, global), `replica_groups = ${matrix(groups)}`].join(', '), reducer('add', d));
    return { inputs, outputs: results, lines: [line], results: rs };
  };

  // ---- variadic operands (replicated) ----
  for (const n of [2, 4]) {
    const grid = { replicas: n, partitions: 1 };
    const all = [Array.from({ length: n }, (_, i) => i)];
    add(`all_reduce_variadic_f32_r${n}`, `all_reduce (add) of two operands, f32[3] and f32[2,2], in one call over ${n} replicas`, ['all_reduce', 'add'], grid,
      allReduceBody(grid, f32, [[3], [2, 2]], all, false, false), ['variadic_all_reduce_first_only']);
    {
      const a = perInstance(f32, [2, 2], n, 0);
      const b = perInstance(s32, [1, 3], n, 1);
      const outs = transpose([allGather(a, all, 0), allGather(b, all, 0)]);
      const inputs = transpose([a, b]);
      const { line, results } = collectiveLine('all_gather', inputs[0]!, outs[0]!, `all_gather_dim = 0 : i64, replica_groups = ${matrix(all)}`);
      add(`all_gather_variadic_r${n}`, `all_gather of two operands, f32[2,2] and s32[1,3], along dim 0 over ${n} replicas`, ['all_gather'], grid, { inputs, outputs: outs, lines: [line], results });
    }
  }
  // No variadic all_to_all: XLA lowers one with several operands to HLO's tuple all-to-all, which sends operand k to
  // participant k (it needs operand count = split_count and equal shapes) instead of splitting each operand.

  // ---- replica_groups padded with -1 (non-uniform groups; StableHLO stores the missing ids as -1) ----
  {
    const grid = { replicas: 4, partitions: 1 };
    for (const [id, groups] of [['a', [[0, 1, 2], [3, -1, -1]]], ['b', [[1, 3], [0, -1], [2, -1]]]] as const) {
      const gs = groups.map((g) => [...g]);
      add(`all_reduce_padded_groups_${id}_r4`, `all_reduce add over 4 replicas with non-uniform replica_groups ${JSON.stringify(gs)} (-1 is padding)`, ['all_reduce', 'add'], grid,
        allReduceBody(grid, f32, [[3]], gs, false, false), ['replica_groups_padding_included']);
    }
  }

  // ---- partition_id and replica_id ----
  {
    const u32 = dt('u32');
    const scalar = (v: number) => Tensor.of(u32, [], [BigInt(v)]);
    const grid = { replicas: 1, partitions: 4 };
    add('partition_id_p4', 'partition_id on each of 4 partitions (one replica)', ['partition_id'], grid, {
      inputs: [[], [], [], []],
      outputs: [0, 1, 2, 3].map((p) => [scalar(p)]),
      lines: [`%0 = stablehlo.partition_id ${MANUAL} : tensor<ui32>`],
      results: ['%0'],
    }, ['partition_id_returns_replica_id']);
    const g2 = { replicas: 2, partitions: 2 };
    add('replica_and_partition_id_r2p2', 'replica_id and partition_id on each instance of 2 replicas × 2 partitions', ['replica_id', 'partition_id'], g2, {
      inputs: [[], [], [], []],
      outputs: [0, 1, 2, 3].map((i) => [scalar(Math.floor(i / 2)), scalar(i % 2)]),
      lines: [`%0 = stablehlo.replica_id ${MANUAL} : tensor<ui32>`, `%1 = stablehlo.partition_id ${MANUAL} : tensor<ui32>`],
      results: ['%0', '%1'],
    }, ['partition_id_returns_replica_id']);
  }

  // ---- collective_permute across partitions (channel_handle) and across replicas ----
  {
    const permute = (name: string, description: string, grid: Grid, pairs: [number, number][], channel: boolean, catches: readonly string[] = []) => {
      const n = grid.replicas * grid.partitions;
      const xs = perInstance(f32, [3], n);
      const outs = collectivePermute(xs, instancePairs(channel ? 'cross_partition' : 'cross_replica', pairs, grid));
      const inputs = xs.map((x) => [x]);
      const { line, results } = collectiveLine('collective_permute', [xs[0]!], [outs[0]!], [...(channel ? [CHANNEL] : []), `source_target_pairs = ${matrix(pairs)}`].join(', '));
      add(name, description, ['collective_permute'], grid, { inputs, outputs: outs.map((o) => [o]), lines: [line], results }, catches);
    };
    const p4 = { replicas: 1, partitions: 4 };
    const ring = (step: number): [number, number][] => [0, 1, 2, 3].map((i) => [i, (i + step + 4) % 4]);
    const wraps = ['collective_permute_drops_wraparound']; // 3 → 0 and 0 → 3 are not neighbouring ids
    permute('collective_permute_forward_ring_p4', 'collective_permute over 4 partitions (channel_handle): the ring i → i+1, 3 → 0 wrapping around', p4, ring(1), true, wraps);
    permute('collective_permute_backward_ring_p4', 'collective_permute over 4 partitions (channel_handle): the ring i → i-1, 0 → 3 wrapping around', p4, ring(-1), true, wraps);
    const g2 = { replicas: 2, partitions: 2 };
    permute('collective_permute_partitions_r2p2', 'collective_permute between the 2 partitions of each of 2 replicas (channel_handle: pairs name partitions)', g2, [[0, 1], [1, 0]], true);
    permute('collective_permute_replicas_r2p2', 'collective_permute replica 0 → 1 in each of 2 partitions (no channel_handle: pairs name replicas; replica 0 receives zeros)', g2, [[0, 1]], false);
  }

  // ---- all_reduce: the three ways of reading replica_groups ----
  {
    const g2 = { replicas: 2, partitions: 2 };
    add('all_reduce_cross_replica_r2p2', 'all_reduce add, no channel_handle (cross_replica): replicas 0 and 1 of the same partition reduce together', ['all_reduce', 'add'], g2,
      allReduceBody(g2, f32, [[3]], [[0, 1]], false, false));
    add('all_reduce_cross_replica_and_partition_r2p2', 'all_reduce add, channel_handle without use_global_device_ids (cross_replica_and_partition): groups [[0], [1]] of replicas, each with every partition', ['all_reduce', 'add'], g2,
      allReduceBody(g2, f32, [[3]], [[0], [1]], true, false));
    add('all_reduce_flattened_ids_r2p2', 'all_reduce add with use_global_device_ids (flattened_ids): groups [[0, 3], [1, 2]] of replica·2 + partition', ['all_reduce', 'add'], g2,
      allReduceBody(g2, s32, [[4]], [[0, 3], [1, 2]], true, true), GLOBAL_IDS);
    const p4 = { replicas: 1, partitions: 4 };
    add('all_reduce_partitions_p4', 'all_reduce add over partitions {0, 1} and {2, 3} of 4 (use_global_device_ids)', ['all_reduce', 'add'], p4,
      allReduceBody(p4, f32, [[2, 2]], [[0, 1], [2, 3]], true, true), GLOBAL_IDS);
  }

  // ---- reduce_scatter along each dim, all_gather and all_to_all across partitions ----
  {
    const p4 = { replicas: 1, partitions: 4 };
    for (const [dim, group] of [[0, [0, 1, 2, 3]], [1, [1, 0, 3, 2]]] as const) {
      const xs = perInstance(f32, [4, 4], 4);
      const pg = processGroups('flattened_ids', [[...group]], p4);
      const outs = reduceScatter(xs, pg, 'add', dim);
      const { line, results } = collectiveLine('reduce_scatter', [xs[0]!], [outs[0]!],
        [...modeAttrs(true, true), `replica_groups = ${matrix([[...group]])}`, `scatter_dimension = ${dim} : i64`].join(', '), reducer('add', f32));
      add(`reduce_scatter_dim${dim}_p4`, `reduce_scatter (add) of f32[4,4] along dim ${dim} over 4 partitions in the group ${JSON.stringify(group)} (use_global_device_ids)`, ['reduce_scatter', 'add'], p4,
        { inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]), lines: [line], results }, [...GLOBAL_IDS, ...(dim !== 0 ? ['reduce_scatter_wrong_dim'] : [])]);
    }
    {
      const xs = perInstance(s32, [2, 1], 4);
      const pg = processGroups('flattened_ids', [[0, 1, 2, 3]], p4);
      const outs = allGather(xs, pg, 1);
      const { line, results } = collectiveLine('all_gather', [xs[0]!], [outs[0]!], [...modeAttrs(true, true), 'all_gather_dim = 1 : i64', `replica_groups = ${matrix([[0, 1, 2, 3]])}`].join(', '));
      add('all_gather_partitions_dim1_p4', 'all_gather of s32[2,1] along dim 1 over 4 partitions (use_global_device_ids)', ['all_gather'], p4,
        { inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]), lines: [line], results }, GLOBAL_IDS);
    }
    {
      const g2 = { replicas: 2, partitions: 2 };
      const xs = perInstance(f32, [2], 4);
      const pg = processGroups('cross_replica_and_partition', [[0, 1]], g2);
      const outs = allGather(xs, pg, 0);
      const { line, results } = collectiveLine('all_gather', [xs[0]!], [outs[0]!], [CHANNEL, 'all_gather_dim = 0 : i64', `replica_groups = ${matrix([[0, 1]])}`].join(', '));
      add('all_gather_cross_replica_and_partition_r2p2', 'all_gather of f32[2] with channel_handle over replica group [0, 1] and every partition: order (r0,p0), (r1,p0), (r0,p1), (r1,p1)', ['all_gather'], g2,
        { inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]), lines: [line], results });
      const replicaMajor = [[0, 1].flatMap((r) => [0, 1].map((p) => r * 2 + p))];
      accept(out.at(-1)!, allGather(xs, replicaMajor, 0).map((o) => [o]), XLA_REPLICA_MAJOR);
    }
    {
      const g2 = { replicas: 2, partitions: 2 };
      const xs = perInstance(f32, [4, 2], 4);
      const pg = processGroups('cross_replica_and_partition', [[0, 1]], g2);
      const outs = reduceScatter(xs, pg, 'add', 0);
      const { line, results } = collectiveLine('reduce_scatter', [xs[0]!], [outs[0]!],
        [CHANNEL, `replica_groups = ${matrix([[0, 1]])}`, 'scatter_dimension = 0 : i64'].join(', '), reducer('add', f32));
      add('reduce_scatter_cross_replica_and_partition_r2p2', 'reduce_scatter (add) of f32[4,2] along dim 0 with channel_handle over replica group [0, 1] and every partition: piece k to the k-th of (r0,p0), (r1,p0), (r0,p1), (r1,p1)', ['reduce_scatter', 'add'], g2,
        { inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]), lines: [line], results });
      const replicaMajor = [[0, 1].flatMap((r) => [0, 1].map((p) => r * 2 + p))];
      accept(out.at(-1)!, reduceScatter(xs, replicaMajor, 'add', 0).map((o) => [o]), XLA_REPLICA_MAJOR);
    }
    {
      const g2 = { replicas: 2, partitions: 2 };
      const xs = perInstance(s32, [2, 4], 4);
      const outs = allToAll(xs, processGroups('cross_replica', [[0, 1]], g2), 1, 0);
      const { line, results } = collectiveLine('all_to_all', [xs[0]!], [outs[0]!],
        ['concat_dimension = 0 : i64', `replica_groups = ${matrix([[0, 1]])}`, 'split_count = 2 : i64', 'split_dimension = 1 : i64'].join(', '));
      add('all_to_all_replicas_r2p2', 'all_to_all of s32[2,4] between the 2 replicas of each partition (no channel_handle: groups name replicas)', ['all_to_all'], g2,
        { inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]), lines: [line], results });
    }
    for (const grid of [{ replicas: 1, partitions: 4 }, { replicas: 2, partitions: 2 }]) {
      const n = grid.replicas * grid.partitions;
      const P = grid.partitions;
      const xs = perInstance(s32, [2, 2 * P], n);
      const all = [Array.from({ length: P }, (_, i) => i)];
      const outs = allToAll(xs, processGroups('cross_partition', all, grid), 1, 0);
      const { line, results } = collectiveLine('all_to_all', [xs[0]!], [outs[0]!],
        [CHANNEL, 'concat_dimension = 0 : i64', `replica_groups = ${matrix(all)}`, `split_count = ${P} : i64`, 'split_dimension = 1 : i64'].join(', '));
      const tag = grid.replicas > 1 ? `r${grid.replicas}p${P}` : `p${P}`;
      add(`all_to_all_partitions_${tag}`, `all_to_all of s32[2,${2 * P}] across the ${P} partitions of each replica (channel_handle): split dim 1, concatenate dim 0`, ['all_to_all'], grid,
        { inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]), lines: [line], results });
    }
  }
  return out;
}

// Replicated programs (mhlo.num_replicas = N, one argument list per replica) for the collectives.
import type { DtypeRow } from '../../abi/dtypes.js';
import { allGather, allReduce, allToAll, collectivePermute, reduceScatter } from '../../oracle/collectives.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';
import { dt, program, type Program } from './program.js';

const REPLICA_COUNTS = [2, 4] as const;

function groupsAttr(groups: readonly (readonly number[])[]): string {
  return `dense<${JSON.stringify(groups).replace(/,/g, ', ')}> : tensor<${groups.length}x${groups[0]!.length}xi64>`;
}

/** Replica r's operand: distinct small integers (sums are exact in every order). */
function perReplica(d: DtypeRow, dims: readonly number[], n: number): Tensor[] {
  const size = dims.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, r) => Tensor.of(d, dims, Array.from({ length: size }, (_, i) => {
    const v = (r + 1) * 10 + i - (r % 2 ? 3 : 0);
    return d.kind === 'float' ? v : BigInt(v);
  })));
}

function reducer(op: string, d: DtypeRow): string[] {
  const s = tensorType(d, []);
  return [`^bb0(%arg1: ${s}, %arg2: ${s}):`, `  %1 = stablehlo.${op} %arg1, %arg2 : ${s}`, `  stablehlo.return %1 : ${s}`];
}

interface Built { text: string; inputs: Tensor[][]; outputs: Tensor[][] }

function oneOp(name: string, n: number, xs: Tensor[], outs: Tensor[], head: string, region: string[] | null, tail: string): Built {
  const f = new FuncBuilder('main');
  const a = f.arg(typeOf(xs[0]!));
  const r = f.fresh();
  const lines = region ? [`${r} = "stablehlo.${head}"(${a}) <{${tail}}> ({`, ...region, `}) : (${typeOf(xs[0]!)}) -> ${typeOf(outs[0]!)}`] : [`${r} = "stablehlo.${head}"(${a}) <{${tail}}> : (${typeOf(xs[0]!)}) -> ${typeOf(outs[0]!)}`];
  f.raw(lines.join('\n'));
  return { text: moduleText(name, [f.text([{ value: r, type: typeOf(outs[0]!) }])], n), inputs: xs.map((x) => [x]), outputs: outs.map((o) => [o]) };
}

export function collectivePrograms(): Program[] {
  const out: Program[] = [];
  for (const n of REPLICA_COUNTS) {
    const all = [Array.from({ length: n }, (_, i) => i)];
    const halves = [Array.from({ length: n / 2 }, (_, i) => i), Array.from({ length: n / 2 }, (_, i) => i + n / 2)];
    const add = (name: string, description: string, ops: string[], b: Built, catches: string[] = []) =>
      out.push(program({ name, description, ops, text: b.text, inputs: b.inputs, outputs: b.outputs, replicas: n, catches }));

    for (const [op, dname] of [['add', 'f32'], ['add', 's32'], ['maximum', 'f32'], ['add', 'bf16'], ['add', 'u64']] as const) {
      const d = dt(dname);
      const xs = perReplica(d, [4], n);
      const name = `all_reduce_${op}_${dname}_r${n}`;
      add(name, `all_reduce (${op === 'add' ? 'psum' : 'pmax'}) of ${d.name}[4] over ${n} replicas in one group`, ['all_reduce', op],
        oneOp(name, n, xs, allReduce(xs, all, op), 'all_reduce', reducer(op, d), `replica_groups = ${groupsAttr(all)}`));
    }
    {
      const d = dt('f32');
      const xs = perReplica(d, [3], n);
      const name = `all_reduce_add_f32_groups_r${n}`;
      add(name, `all_reduce add with two replica groups of ${n / 2} over ${n} replicas`, ['all_reduce', 'add'],
        oneOp(name, n, xs, allReduce(xs, halves, 'add'), 'all_reduce', reducer('add', d), `replica_groups = ${groupsAttr(halves)}`));
    }
    for (const dname of ['f32', 's8']) {
      const d = dt(dname);
      const xs = perReplica(d, [2, 3], n);
      const name = `all_gather_${dname}_r${n}`;
      add(name, `all_gather of ${d.name}[2,3] along dim 0 over ${n} replicas`, ['all_gather'],
        oneOp(name, n, xs, allGather(xs, all, 0), 'all_gather', null, `all_gather_dim = 0 : i64, replica_groups = ${groupsAttr(all)}`));
    }
    {
      const d = dt('f32');
      const xs = perReplica(d, [2 * n, 2], n);
      const name = `reduce_scatter_add_f32_r${n}`;
      add(name, `reduce_scatter (psum_scatter) of f32[${2 * n},2] along dim 0 over ${n} replicas`, ['reduce_scatter', 'add'],
        oneOp(name, n, xs, reduceScatter(xs, all, 'add', 0), 'reduce_scatter', reducer('add', d), `replica_groups = ${groupsAttr(all)}, scatter_dimension = 0 : i64`));
    }
    {
      const d = dt('s32');
      const xs = perReplica(d, [2, 2 * n], n);
      const name = `all_to_all_s32_r${n}`;
      add(name, `all_to_all of s32[2,${2 * n}]: split dim 1 into ${n}, concatenate along dim 0`, ['all_to_all'],
        oneOp(name, n, xs, allToAll(xs, all, 1, 0), 'all_to_all', null, `concat_dimension = 0 : i64, replica_groups = ${groupsAttr(all)}, split_count = ${n} : i64, split_dimension = 1 : i64`));
    }
    {
      const d = dt('f32');
      const xs = perReplica(d, [3], n);
      const ring = Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as [number, number]);
      const partial: [number, number][] = [[0, n - 1]];
      for (const [id, pairs, what] of [['ring', ring, 'a ring shift'], ['partial', partial, `only 0 → ${n - 1} (every other replica receives zeros)`]] as const) {
        const name = `collective_permute_${id}_f32_r${n}`;
        const attr = `dense<${JSON.stringify(pairs).replace(/,/g, ', ')}> : tensor<${pairs.length}x2xi64>`;
        // a ring of more than two replicas has a wrap-around pair between ids that are not neighbours
        const catches = id === 'ring' && n > 2 ? ['collective_permute_drops_wraparound'] : [];
        add(name, `collective_permute of f32[3] over ${n} replicas: ${what}`, ['collective_permute'],
          oneOp(name, n, xs, collectivePermute(xs, pairs), 'collective_permute', null, `source_target_pairs = ${attr}`), catches);
      }
    }
    {
      const f = new FuncBuilder('main');
      const r = f.op('stablehlo.replica_id : tensor<ui32>');
      const name = `replica_id_r${n}`;
      const u32 = dt('u32');
      add(name, `replica_id on each of ${n} replicas`, ['replica_id'], {
        text: moduleText(name, [f.text([{ value: r, type: 'tensor<ui32>' }])], n),
        inputs: Array.from({ length: n }, () => []),
        outputs: Array.from({ length: n }, (_, i) => [Tensor.of(u32, [], [BigInt(i)])]),
      });
    }
  }
  return out;
}

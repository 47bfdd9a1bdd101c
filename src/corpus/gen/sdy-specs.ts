// Programs as JAX >= 0.7 lowers them: with Shardy (the sdy dialect), which JAX uses by default since 0.7.0
// (jax_use_shardy_partitioner). Written in the form JAX 0.10.2's `jit(...).lower(...).as_text()` prints: a module-level
// `sdy.mesh` with its `stablehlo.mesh` attribute, `sdy.sharding` on @main's arguments and results, `jax.result_info`
// on results, `sdy.sharding_constraint` (every jax.random program holds one on an empty mesh) and
// `sdy.manual_computation` (what jax.shard_map emits, collectives inside). A program spanning devices has one argument
// list per device, each the shard its `sdy.sharding` gives that device (the mesh's devices in iota order, so device d
// has mesh coordinates d in row-major order over the axes), and one result list per device likewise.
import { Tensor } from '../../oracle/tensor.js';
import { dt, program, type Program } from './program.js';

const f32 = dt('f32');
const vec = (values: readonly number[]): Tensor => Tensor.of(f32, [values.length], values);
const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
/** A float as MLIR prints a dense element (JAX: `2.000000e+00`). */
const float = (v: number): string => v.toExponential(6).replace(/e([+-])(\d)$/, 'e$10$2');
const WEIGHTS = range(1, 8);

/** `sdy.mesh @name = <[axes]>` as JAX prints it, with the `stablehlo.mesh` attribute JAX puts beside it. */
function mesh(name: string, axes: readonly (readonly [string, number])[]): string {
  const sdy = axes.map(([a, n]) => `"${a}"=${n}`).join(', ');
  const hlo = axes.map(([a, n]) => `{name = "${a}", size = ${n} : i64}`).join(', ');
  return `  sdy.mesh @${name} = <[${sdy}]> {stablehlo.mesh = {axes = [${hlo}]}}`;
}

function moduleOf(name: string, partitions: number, lines: readonly string[]): string {
  return [`module @jit_${name} attributes {mhlo.num_partitions = ${partitions} : i32, mhlo.num_replicas = 1 : i32} {`, ...lines, '}', ''].join('\n');
}

/** Every Shardy program shows a compiler that does not know the dialect; a multi-device one a wrong shard order too. */
const SINGLE = ['sdy_unsupported'];
const SPANNING = ['sdy_unsupported', 'sdy_shards_swapped'];
/** A manual computation reads its shards and writes its results through the same device-to-shard map, so a mirrored
 * map cancels out there; its collectives' values show their kernels' faults instead. */
const MANUAL_CATCHES = ['sdy_unsupported', 'op_off_by_one=all_reduce', 'op_off_by_one=collective_permute', 'op_off_by_one=all_gather'];

export function sdyPrograms(): Program[] {
  const out: Program[] = [];

  // jax.random's form: an empty mesh and a sharding constraint on the key, on one device.
  {
    const name = 'sdy_empty_mesh_constraint_f32';
    const x = vec([1.5, -2, 0.25, 8]);
    out.push(program({
      name, description: 'sdy.sharding_constraint on an empty mesh (every jax.random program carries one on its key), then add', ops: ['sdy.mesh', 'sdy.sharding_constraint', 'add'],
      text: moduleOf(name, 1, [
        mesh('empty_mesh', []),
        '  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {',
        '    %0 = sdy.sharding_constraint %arg0 <@empty_mesh, [{}]> : tensor<4xf32>',
        '    %1 = stablehlo.add %0, %0 : tensor<4xf32>',
        '    return %1 : tensor<4xf32>',
        '  }',
      ]),
      inputs: [x], outputs: [vec([3, -4, 0.5, 16])], catches: SINGLE,
    }));
  }

  // jit over a NamedSharding on two devices: a sharded argument, a sharded result and a replicated reduction.
  {
    const name = 'sdy_named_sharding_x2_f32';
    const shards = [range(0, 4), range(4, 4)];
    const total = range(0, 8).reduce((a, b) => a + b, 0);
    out.push(program({
      name, description: 'jit over NamedSharding(mesh x=2, P("x")): v * [1, 2, …, 8] sharded like v (which element meets which weight tells the shard order), and sum(v) replicated (the partitioner adds the all-reduce)', ops: ['sdy.mesh', 'constant', 'multiply', 'reduce', 'add'],
      text: moduleOf(name, 2, [
        mesh('mesh', [['x', 2]]),
        '  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<f32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, []>}) {',
        `    %0 = stablehlo.constant dense<[${WEIGHTS.map(float).join(', ')}]> : tensor<8xf32>`,
        '    %1 = stablehlo.multiply %arg0, %0 : tensor<8xf32>',
        '    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>',
        '    %2 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>',
        '    return %1, %2 : tensor<8xf32>, tensor<f32>',
        '  }',
      ]),
      inputs: shards.map((s) => [vec(s)]),
      outputs: shards.map((s, d) => [vec(s.map((v, i) => v * WEIGHTS[d * 4 + i]!)), Tensor.of(f32, [], [total])]),
      partitions: 2, catches: SPANNING,
    }));
  }

  // A replicated argument constrained to a sharding mid-program (jax.lax.with_sharding_constraint).
  {
    const name = 'sdy_sharding_constraint_x2_f32';
    const whole = [3, -1, 4, -1.5, 5, -9, 2, 6];
    out.push(program({
      name, description: 'a replicated argument, sdy.sharding_constraint to P("x") on mesh x=2, negate: each device returns its half', ops: ['sdy.mesh', 'sdy.sharding_constraint', 'negate'],
      text: moduleOf(name, 2, [
        mesh('mesh', [['x', 2]]),
        '  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {',
        '    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>',
        '    %1 = stablehlo.negate %0 : tensor<8xf32>',
        '    return %1 : tensor<8xf32>',
        '  }',
      ]),
      inputs: [[vec(whole)], [vec(whole)]],
      outputs: [[vec(whole.slice(0, 4).map((v) => -v))], [vec(whole.slice(4).map((v) => -v))]],
      partitions: 2, catches: SPANNING,
    }));
  }

  // jax.shard_map with psum, ppermute and a tiled all_gather: sdy.manual_computation with collectives inside.
  {
    const name = 'sdy_manual_computation_collectives_x2_f32';
    const shards = [[1, 2, 3, 4], [10, 20, 30, 40]];
    const sum = shards[0]!.map((v, i) => v + shards[1]![i]!);
    const gathered = [...shards[0]!, ...shards[1]!];
    const channel = 'channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>';
    out.push(program({
      name, description: 'shard_map over mesh x=2: psum (all_reduce), ppermute (collective_permute 0→1 only: device 0 receives zeros) and all_gather(tiled) inside sdy.manual_computation', ops: ['sdy.mesh', 'sdy.manual_computation', 'all_reduce', 'add', 'collective_permute', 'all_gather'],
      text: moduleOf(name, 2, [
        mesh('mesh', [['x', 2]]),
        '  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<16xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {',
        '    %0:3 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>, <@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {',
        `      %1 = "stablehlo.all_reduce"(%arg1) <{${channel}, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({`,
        '      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):',
        '        %4 = stablehlo.add %arg2, %arg3 : tensor<f32>',
        '        stablehlo.return %4 : tensor<f32>',
        '      }) : (tensor<4xf32>) -> tensor<4xf32>',
        `      %2 = "stablehlo.collective_permute"(%arg1) <{${channel}, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>`,
        `      %3 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, ${channel}, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>`,
        '      sdy.return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>',
        '    } : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<16xf32>)',
        '    return %0#0, %0#1, %0#2 : tensor<8xf32>, tensor<8xf32>, tensor<16xf32>',
        '  }',
      ]),
      inputs: shards.map((s) => [vec(s)]),
      outputs: [0, 1].map((d) => [vec(sum), vec(d === 1 ? shards[0]! : [0, 0, 0, 0]), vec(gathered)]),
      partitions: 2, catches: MANUAL_CATCHES,
    }));
  }

  // A 2×2 mesh: a block-sharded matrix plus its transpose, which needs every device's blocks (the mesh's device d
  // sits at (x, y) = (d / 2, d % 2) and holds block rows x, block columns y).
  {
    const name = 'sdy_mesh_2x2_transpose_add_multiply_f32';
    const n = 4;
    const a = Array.from({ length: n * n }, (_, i) => i * 1.5 - 7);
    const sum = a.map((_, i) => (a[i]! + a[(i % n) * n + Math.floor(i / n)]!) * (i + 1));
    const block = (m: readonly number[], d: number): Tensor => {
      const [bx, by] = [Math.floor(d / 2), d % 2];
      const rows = [0, 1].flatMap((r) => [0, 1].map((c) => m[(bx * 2 + r) * n + by * 2 + c]!));
      return Tensor.of(f32, [2, 2], rows);
    };
    const sharding = '#sdy.sharding<@mesh, [{"x"}, {"y"}]>';
    out.push(program({
      name, description: 'mesh x=2, y=2: (a + transpose(a)) * [[1 … 16]] for a sharded P("x", "y") on four devices (each result block needs another device\'s block; the weights tell the block order)', ops: ['sdy.mesh', 'transpose', 'add', 'constant', 'multiply'],
      text: moduleOf(name, 4, [
        mesh('mesh', [['x', 2], ['y', 2]]),
        `  func.func public @main(%arg0: tensor<4x4xf32> {sdy.sharding = ${sharding}}) -> (tensor<4x4xf32> {jax.result_info = "result", sdy.sharding = ${sharding}}) {`,
        '    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>',
        '    %1 = stablehlo.add %arg0, %0 : tensor<4x4xf32>',
        `    %cst = stablehlo.constant dense<[${[0, 1, 2, 3].map((r) => `[${range(r * n + 1, n).map(float).join(', ')}]`).join(', ')}]> : tensor<4x4xf32>`,
        '    %2 = stablehlo.multiply %1, %cst : tensor<4x4xf32>',
        '    return %2 : tensor<4x4xf32>',
        '  }',
      ]),
      inputs: [0, 1, 2, 3].map((d) => [block(a, d)]),
      outputs: [0, 1, 2, 3].map((d) => [block(sum, d)]),
      partitions: 4, catches: SPANNING,
    }));
  }
  return out;
}

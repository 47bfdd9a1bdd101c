// Small StableHLO text programs the core suites compile. Each generator returns the module text;
// expected values are computed in TypeScript next to the case that uses them.
export const tensor = (dims: readonly number[], mlir: string): string =>
  `tensor<${dims.length ? `${dims.join('x')}x` : ''}${mlir}>`;

const moduleAttrs = (replicas: number, partitions = 1) =>
  `attributes {mhlo.num_partitions = ${partitions} : i32, mhlo.num_replicas = ${replicas} : i32}`;

export function module(name: string, body: string, replicas = 1): string {
  return `module @${name} ${moduleAttrs(replicas)} {\n${body}\n}\n`;
}

/** `1 + 1` with no arguments: the smallest useful program. */
export const onePlusOne = (): string =>
  module(
    'jit_one_plus_one',
    `  func.func public @main() -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %c, %c : tensor<i32>
    return %0 : tensor<i32>
  }`,
  );

/** x + 1 elementwise (the "add one" program of XLA's own C API test). */
export function addOne(dims: readonly number[] = [], mlir = 'f32'): string {
  const t = tensor(dims, mlir);
  const one = mlir.startsWith('f') || mlir === 'bf16' ? '1.000000e+00' : '1';
  return module(
    'jit_add_one',
    `  func.func public @main(%arg0: ${t}) -> ${t} {
    %c = stablehlo.constant dense<${one}> : ${t}
    %0 = stablehlo.add %arg0, %c : ${t}
    return %0 : ${t}
  }`,
  );
}

/** x + c on f32 for an integer c: programs that differ only in a constant (one per concurrent compile). */
export function addConstant(dims: readonly number[], c: number): string {
  const t = tensor(dims, 'f32');
  return module(
    `jit_add_${c}`,
    `  func.func public @main(%arg0: ${t}) -> ${t} {
    %c = stablehlo.constant dense<${c.toFixed(1)}> : ${t}
    %0 = stablehlo.add %arg0, %c : ${t}
    return %0 : ${t}
  }`,
  );
}

/** jitted `x * 2` on f32. */
export function timesTwo(dims: readonly number[]): string {
  const t = tensor(dims, 'f32');
  return module(
    'jit_times_two',
    `  func.func public @main(%arg0: ${t}) -> ${t} {
    %c = stablehlo.constant dense<2.000000e+00> : ${t}
    %0 = stablehlo.multiply %arg0, %c : ${t}
    return %0 : ${t}
  }`,
  );
}

/** (a, b) -> (a + b, a * b): two outputs, two arguments. */
export function addAndMul(dims: readonly number[], mlir = 'f32'): string {
  const t = tensor(dims, mlir);
  return module(
    'jit_add_and_mul',
    `  func.func public @main(%arg0: ${t}, %arg1: ${t}) -> (${t}, ${t}) {
    %0 = stablehlo.add %arg0, %arg1 : ${t}
    %1 = stablehlo.multiply %arg0, %arg1 : ${t}
    return %0, %1 : ${t}, ${t}
  }`,
  );
}

const groups = (gs: readonly (readonly number[])[]): string =>
  `dense<[${gs.map((g) => `[${g.join(', ')}]`).join(', ')}]> : tensor<${gs.length}x${gs[0]!.length}xi64>`;

const adder = (scalar: string) => `({
    ^bb0(%a: ${scalar}, %b: ${scalar}):
      %t = stablehlo.add %a, %b : ${scalar}
      stablehlo.return %t : ${scalar}
    })`;

export const iota = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** pmap(lambda x: x + psum(x)) over n replicas, each replica holding f32[1]. */
export function pmapPsum(n: number): string {
  const t = tensor([1], 'f32');
  return module(
    'pmap_x_plus_psum',
    `  func.func public @main(%arg0: ${t}) -> ${t} {
    %s = "stablehlo.all_reduce"(%arg0) <{replica_groups = ${groups([iota(n)])}}> ${adder('tensor<f32>')} : (${t}) -> ${t}
    %0 = stablehlo.add %arg0, %s : ${t}
    return %0 : ${t}
  }`,
    n,
  );
}

/** Each replica returns its replica id. */
export function replicaId(n: number): string {
  return module(
    'replica_id',
    `  func.func public @main() -> tensor<ui32> {
    %0 = stablehlo.replica_id : tensor<ui32>
    return %0 : tensor<ui32>
  }`,
    n,
  );
}

export interface CollectiveProgram {
  readonly text: string;
  /** per replica: f32 input values */
  readonly inputs: number[][];
  readonly inputDims: number[];
  /** per replica: expected f32 output values */
  readonly outputs: number[][];
}

/** Input of replica r: k elements r*10 + i + 1 (distinct across replicas, exact in f32). */
const inputOf = (r: number, k: number): number[] => Array.from({ length: k }, (_, i) => r * 10 + i + 1);

/** all_reduce(sum) within `gs` (defaults to one group of all replicas). */
export function allReduce(n: number, gs: number[][] = [iota(n)]): CollectiveProgram {
  const k = 3;
  const t = tensor([k], 'f32');
  const inputs = iota(n).map((r) => inputOf(r, k));
  const outputs = iota(n).map((r) => {
    const g = gs.find((x) => x.includes(r))!;
    return iota(k).map((i) => g.reduce((acc, m) => acc + inputs[m]![i]!, 0));
  });
  const text = module(
    'all_reduce',
    `  func.func public @main(%arg0: ${t}) -> ${t} {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = ${groups(gs)}}> ${adder('tensor<f32>')} : (${t}) -> ${t}
    return %0 : ${t}
  }`,
    n,
  );
  return { text, inputs, inputDims: [k], outputs };
}

export function allGather(n: number): CollectiveProgram {
  const k = 2;
  const inputs = iota(n).map((r) => inputOf(r, k));
  const all = inputs.flat();
  const text = module(
    'all_gather',
    `  func.func public @main(%arg0: ${tensor([k], 'f32')}) -> ${tensor([k * n], 'f32')} {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = ${groups([iota(n)])}}> : (${tensor([k], 'f32')}) -> ${tensor([k * n], 'f32')}
    return %0 : ${tensor([k * n], 'f32')}
  }`,
    n,
  );
  return { text, inputs, inputDims: [k], outputs: iota(n).map(() => all) };
}

export function reduceScatter(n: number): CollectiveProgram {
  const k = 2 * n;
  const inputs = iota(n).map((r) => inputOf(r, k));
  const sum = iota(k).map((i) => inputs.reduce((a, x) => a + x[i]!, 0));
  const text = module(
    'reduce_scatter',
    `  func.func public @main(%arg0: ${tensor([k], 'f32')}) -> ${tensor([2], 'f32')} {
    %0 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = ${groups([iota(n)])}, scatter_dimension = 0 : i64}> ${adder('tensor<f32>')} : (${tensor([k], 'f32')}) -> ${tensor([2], 'f32')}
    return %0 : ${tensor([2], 'f32')}
  }`,
    n,
  );
  return { text, inputs, inputDims: [k], outputs: iota(n).map((r) => sum.slice(2 * r, 2 * r + 2)) };
}

export function allToAll(n: number): CollectiveProgram {
  // operand f32[n] split into n parts of 1 along dim 0; receiver k gets part k of every sender
  const inputs = iota(n).map((r) => inputOf(r, n));
  const text = module(
    'all_to_all',
    `  func.func public @main(%arg0: ${tensor([n], 'f32')}) -> ${tensor([n], 'f32')} {
    %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = ${groups([iota(n)])}, split_count = ${n} : i64, split_dimension = 0 : i64}> : (${tensor([n], 'f32')}) -> ${tensor([n], 'f32')}
    return %0 : ${tensor([n], 'f32')}
  }`,
    n,
  );
  return { text, inputs, inputDims: [n], outputs: iota(n).map((k) => iota(n).map((s) => inputs[s]![k]!)) };
}

/** collective_permute along `pairs` ([source, target]); non-targets receive zeros. */
export function collectivePermute(n: number, pairs: [number, number][]): CollectiveProgram {
  const k = 3;
  const t = tensor([k], 'f32');
  const inputs = iota(n).map((r) => inputOf(r, k));
  const outputs = iota(n).map((r) => {
    const src = pairs.find(([, tgt]) => tgt === r);
    return src ? inputs[src[0]]! : iota(k).map(() => 0);
  });
  const pairText = `dense<[${pairs.map(([s, d]) => `[${s}, ${d}]`).join(', ')}]> : tensor<${pairs.length}x2xi64>`;
  const text = module(
    'collective_permute',
    `  func.func public @main(%arg0: ${t}) -> ${t} {
    %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = ${pairText}}> : (${t}) -> ${t}
    return %0 : ${t}
  }`,
    n,
  );
  return { text, inputs, inputDims: [k], outputs };
}

/**
 * Programs every compiler must reject with an error, never success or a crash. The header names no code (XLA answers
 * parse errors with UNKNOWN); INVALID_ARGUMENT is only a quality preference (tier1.compile.rejects_bad_program_code).
 */
export const BAD_PROGRAMS: readonly { id: string; text: string; catches: string[] }[] = [
  { id: 'garbage', text: 'this is not a program ¯\\_(ツ)_/¯', catches: ['compile_accepts_garbage'] },
  { id: 'truncated', text: addOne([4]).slice(0, 80), catches: ['compile_accepts_garbage'] },
  { id: 'empty', text: '', catches: ['compile_accepts_garbage'] },
  {
    id: 'type_mismatch',
    text: module(
      'bad_types',
      `  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }`,
    ),
    catches: ['compile_crashes_on_bad_type'],
  },
  {
    id: 'result_type_mismatch',
    text: module(
      'bad_result',
      `  func.func public @main(%arg0: tensor<4xf32>) -> tensor<3xf32> {
    return %arg0 : tensor<4xf32>
  }`,
    ),
    catches: ['compile_crashes_on_bad_type'],
  },
  {
    id: 'undefined_value',
    text: module(
      'bad_ssa',
      `  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %nope : tensor<4xf32>
    return %0 : tensor<4xf32>
  }`,
    ),
    catches: ['compile_accepts_garbage'],
  },
];

// Compile and execute time of a 1024×1024 f32 matrix product (stablehlo.dot_general) through the CTS binding.
// Usage: node dist/scripts/bench-dot.js [plugin.so] [n=1024] [runs=5]
import { existsSync } from 'node:fs';
import { Plugin } from '../src/pjrt/index.js';

const DEFAULT_PLUGIN = 'build/reference-plugin/libpjrt_reference.so';

function program(n: number): string {
  const t = `tensor<${n}x${n}xf32>`;
  return `module @bench_dot attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: ${t}, %arg1: ${t}) -> (${t}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (${t}, ${t}) -> ${t}
    return %0 : ${t}
  }
}
`;
}

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main(): Promise<number> {
  const file = process.argv[2] ?? DEFAULT_PLUGIN;
  const n = Number(process.argv[3] ?? 1024);
  const runs = Number(process.argv[4] ?? 5);
  if (!existsSync(file)) {
    console.error(`bench-dot: ${file} not found (npm run build:plugin, or pass a library)`);
    return 2;
  }
  const plugin = Plugin.load(file);
  if (plugin.has('PJRT_Plugin_Initialize')) plugin.initialize();
  const client = await plugin.createClient();
  const device = client.addressableDevices()[0]!;

  const compiles: number[] = [];
  let exe = await client.compile({ code: program(n), format: 'mlir' });
  for (let i = 0; i < runs; i++) {
    exe.destroy();
    const t0 = process.hrtime.bigint();
    exe = await client.compile({ code: program(n), format: 'mlir' });
    compiles.push(ms(t0));
  }

  // a = all ones, b = identity → the product equals a: a cheap full check of the result.
  const ones = new Float32Array(n * n).fill(1);
  const eye = new Float32Array(n * n);
  for (let i = 0; i < n; i++) eye[i * n + i] = 1;
  const bytes = (f: Float32Array): Uint8Array => new Uint8Array(f.buffer);
  const a = await client.upload(bytes(ones), { dtype: 'f32', dims: [n, n], device });
  const b = await client.upload(bytes(eye), { dtype: 'f32', dims: [n, n], device });

  const executes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const { outputs } = await exe.execute([[a, b]]);
    const out = outputs[0]![0]!;
    const host = new Float32Array((await out.toHost()).buffer.slice(0));
    executes.push(ms(t0));
    if (host.some((v) => v !== 1)) throw new Error('bench-dot: wrong product');
    out.destroy();
  }
  const flops = 2 * n ** 3;
  const exec = median(executes);
  console.log(`dot_general f32 ${n}x${n} · ${n}x${n} (${plugin.path})`);
  console.log(`compile: median ${median(compiles).toFixed(2)} ms over ${runs}`);
  console.log(`execute + download: median ${exec.toFixed(1)} ms over ${runs} (${(flops / exec / 1e6).toFixed(2)} GFLOP/s)`);
  a.destroy();
  b.destroy();
  exe.destroy();
  await client.destroy();
  return 0;
}

main().then((code) => process.exit(code), (e: unknown) => {
  console.error(`bench-dot: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(3);
});

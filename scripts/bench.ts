// Per-call overhead of the binding: PJRT_Client_PlatformName through the object model, through RawApi with a
// reused Args, and as a bare koffi call of the same function pointer with a preallocated buffer.
// Usage: node dist/scripts/bench.js [plugin.so] [iterations]
import koffi from '../src/ffi/koffi.js';
import { existsSync } from 'node:fs';
import { layoutOf, slotOffset } from '../src/abi/index.js';
import { mem } from '../src/ffi/index.js';
import { Plugin } from '../src/pjrt/index.js';

const DEFAULT_PLUGIN = 'build/reference-plugin/libpjrt_reference.so';

const ROUNDS = 7;

/** Median over ROUNDS rounds of n/ROUNDS calls (the machine is shared; the median resists noise). */
function time(label: string, n: number, f: () => unknown): number {
  for (let i = 0; i < Math.min(n, 10000); i++) f(); // warm up
  const per = Math.max(1, Math.floor(n / ROUNDS));
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < per; i++) f();
    rounds.push(Number(process.hrtime.bigint() - t0) / per);
  }
  const ns = rounds.sort((a, b) => a - b)[ROUNDS >> 1]!;
  console.log(`${label.padEnd(58)} ${ns.toFixed(0).padStart(7)} ns/call (median of ${ROUNDS})`);
  return ns;
}

async function main(): Promise<number> {
  const file = process.argv[2] ?? DEFAULT_PLUGIN;
  const n = Number(process.argv[3] ?? 200000);
  if (!existsSync(file)) {
    console.error(`bench: ${file} not found (build the reference plugin with npm run build:plugin, or pass a library)`);
    return 2;
  }
  const plugin = Plugin.load(file);
  if (plugin.has('PJRT_Plugin_Initialize')) plugin.initialize();
  const client = await plugin.createClient();
  const slot = 'PJRT_Client_PlatformName';
  const L = layoutOf(`${slot}_Args`);
  console.log(`plugin ${plugin.path} (API 0.${plugin.apiVersion.minor}), ${n} iterations, platform '${client.platformName()}'`);

  const objectModel = time('object model: client.platformName()', n, () => client.platformName());

  const reused = plugin.raw.args(slot).ptr('client', client.ptr);
  time('RawApi: raw.call(slot, reusedArgs) + a.str()', n, () => {
    plugin.raw.call(slot, reused);
    return reused.str('platform_name');
  });

  // Bare koffi: the same function pointer, one preallocated Buffer, offsets resolved once.
  const fn = koffi.decode(mem.readPtr(plugin.raw.apiPtr, slotOffset(slot)), koffi.proto('void *BenchFn(void *args)')) as (b: Buffer) => bigint | null;
  const buf = Buffer.alloc(L.sizeof);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  dv.setBigUint64(0, BigInt(L.structSize), true);
  dv.setBigUint64(L.field('client').offset, client.ptr, true);
  const pOff = L.field('platform_name').offset;
  const sOff = L.field('platform_name_size').offset;
  const rawCall = time('raw koffi: fn(buf) only', n, () => fn(buf));
  const rawFull = time('raw koffi: fn(buf) + decode.string(ptr, len)', n, () => {
    if (fn(buf) !== null) throw new Error('call failed');
    return koffi.decode.string(dv.getBigUint64(pOff, true), dv.getBigUint64(sOff, true));
  });
  console.log(`overhead of the object model over the bare call + decode: ${(objectModel - rawFull).toFixed(0)} ns/call ` +
    `(${(objectModel / rawFull).toFixed(2)}x; bare call alone ${rawCall.toFixed(0)} ns)`);
  await client.destroy();
  return 0;
}

main().then((c) => process.exit(c), (e: unknown) => {
  console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

// Tier 2 — concurrency: many calls on one shared client at once, as frameworks make them (JAX dispatches
// asynchronously and users call device_put from Python threads). Each chain is a sequence of calls; CHAINS chains run
// together, and the binding runs every call that may block on a libuv thread (src/ffi/api.ts callAsync; 16 threads),
// so the plugin sees up to CHAINS calls at once from different OS threads. Every value is checked, every wait is the
// case's own (bounded by its timeout), and the overlap achieved is recorded (details.concurrency; docs/concurrency.md).
import { area, type CaseContext } from '../../src/harness/index.js';
import { takeAsyncOverlap, type Buffer } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileText, readOut } from '../_lib/exec.js';
import { soleOutput } from '../_lib/outputs.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addConstant, addOne } from '../_lib/programs.js';

const t = area('tier2.concurrency', { tier: 2, slow: true, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer', 'PJRT_Buffer_Destroy'] } });

type Ctx = CaseContext<unknown>;
/** Chains running at once: more than the reference plugin's completion threads, fewer than the binding's libuv threads. */
const CHAINS = 8;
const STATS = 'PJRT_Device_MemoryStats';

/** Runs `chain(c)` for every chain at once and records the overlap of their asynchronous calls. */
async function together(ctx: Ctx, rounds: number, chain: (c: number, round: number) => Promise<void>): Promise<void> {
  takeAsyncOverlap();
  const t0 = performance.now();
  let calls = 0;
  await Promise.all(Array.from({ length: CHAINS }, async (_, c) => {
    for (let r = 0; r < rounds; r++) {
      await chain(c, r);
      calls++;
    }
  }));
  const o = takeAsyncOverlap();
  ctx.detail('concurrency', { chains: CHAINS, calls, maxInFlight: o.maxInFlight, overlapMs: Math.round(o.overlapMs * 10) / 10, wallMs: Math.round((performance.now() - t0) * 10) / 10 });
  check.ok(o.maxInFlight >= 2, 'the concurrency area needs calls in flight together (a CTS check: the binding ran them one at a time)', '≥ 2 calls in flight', `${o.maxInFlight}`);
}

/** f32 values no other chain and round uses: chain c, round r, element i. */
const valuesOf = (c: number, r: number, n: number): number[] => Array.from({ length: n }, (_, i) => c * 100_000 + r * 1_000 + i);

t.case('uploads_reads_destroys', {
  source: 'framework',
  cite: 'XLA\'s PjRtBuffer and PjRtClient are "Thread-safe" (xla/pjrt/pjrt_client.h), and JAX calls device_put, reads results and deletes arrays from any Python thread: uploads, reads and destroys on several threads at once must each keep their own values, and the device\'s bytes_in_use must end where it began once every buffer is destroyed',
  catches: ['race_bytes_in_use_update'],
  requires: { slots: [STATS] },
}).run(async (ctx) => {
  const n = 1024;
  const before = await check.unimplementedIsUnsupported(ctx, `${STATS}: "Implementations may also return PJRT_Error_Code_UNIMPLEMENTED"`, () => ctx.device.memoryStats().bytesInUse);
  await together(ctx, 12, async (c, r) => {
    const want = valuesOf(c, r, n);
    const b = await ctx.client.upload(f32(want), { dtype: 'f32', dims: [n], device: ctx.device });
    const got = readF32(await b.toHost({ dtype: 'f32', dims: [n] }));
    b.destroy();
    check.ok(check.deepEqual(got, want), 'PJRT_Buffer_ToHostBuffer: a buffer read while other threads upload and destroy theirs must hold its own values', `chain ${c} round ${r}'s values`, `${got.slice(0, 4).join(', ')}, …`);
  });
  const after = ctx.device.memoryStats().bytesInUse;
  check.ok(after === before, `${STATS}: bytes_in_use must end where it began once the buffers uploaded on ${CHAINS} threads are destroyed (an allocation count updated without synchronisation drifts)`, `${before}`, `${after}`);
});

t.case('one_executable_many_threads', {
  source: 'framework',
  cite: 'XLA\'s PjRtLoadedExecutable::Execute may be called from several threads at once (pjrt_client.h: the client and its executables are thread-safe), and JAX\'s asynchronous dispatch launches one jitted function from every thread that calls it: each launch must compute from its own arguments',
  catches: ['race_execute_shared_arguments', 'flaky_every_second_launch'],
  requires: { slots: ['PJRT_LoadedExecutable_Execute'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const n = 256;
  const exe = await compileText(ctx.client, addOne([n]));
  const device = exe.addressableDevices()[0]!;
  await together(ctx, 8, async (c, r) => {
    const input = valuesOf(c, r, n);
    const x: Buffer = await ctx.client.upload(f32(input), { dtype: 'f32', dims: [n], device });
    const out = soleOutput(await exe.execute([[x]]));
    const got = readF32(await readOut(out, { dtype: 'f32', dims: [n] }));
    out.destroy();
    x.destroy();
    const want = input.map((v) => v + 1);
    check.ok(check.deepEqual(got, want), `PJRT_LoadedExecutable_Execute: a launch among ${CHAINS} concurrent launches of one executable must compute x + 1 of its own argument`, `chain ${c} round ${r}: ${want.slice(0, 3).join(', ')}, …`, `${got.slice(0, 3).join(', ')}, …`);
  });
  exe.destroy();
});

t.case('compiles_and_launches_many_threads', {
  source: 'framework',
  cite: 'XLA\'s PjRtClient::CompileAndLoad is thread-safe (pjrt_client.h), and JAX compiles on whichever thread first calls a jitted function, so several threads compile different programs at once (a multi-threaded server warming its functions): each compile must yield its own program',
  catches: ['race_compile_shared_result'],
  requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute', 'PJRT_LoadedExecutable_Destroy'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const n = 16;
  const input = Array.from({ length: n }, (_, i) => i);
  const x = await ctx.client.upload(f32(input), { dtype: 'f32', dims: [n], device: ctx.device });
  // Chain c compiles x + (c + 1) again each round: CHAINS different programs compiling at once.
  await together(ctx, 3, async (c) => {
    const exe = await compileText(ctx.client, addConstant([n], c + 1));
    const out = soleOutput(await exe.execute([[x]]));
    const got = readF32(await readOut(out, { dtype: 'f32', dims: [n] }));
    out.destroy();
    exe.destroy();
    const want = input.map((v) => v + c + 1);
    check.ok(check.deepEqual(got, want), `PJRT_Client_Compile: among ${CHAINS} concurrent compiles of different programs, each must load its own (x + ${c + 1})`, `${want.slice(0, 3).join(', ')}, …`, `${got.slice(0, 3).join(', ')}, …`);
  });
  x.destroy();
});

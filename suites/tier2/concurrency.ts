// Tier 2 — concurrency: many calls on one shared client at once, as frameworks make them (JAX dispatches
// asynchronously and users call device_put from Python threads). Each chain is a sequence of calls; CHAINS chains run
// together, and the binding runs every call that may block on a libuv thread (src/ffi/api.ts callAsync; 16 threads),
// so the plugin sees up to CHAINS calls at once from different OS threads. Every value is checked, every wait is the
// case's own (bounded by its timeout), and the overlap achieved is recorded (details.concurrency; docs/concurrency.md).
import { area, type CaseContext } from '../../src/harness/index.js';
import { Event, takeAsyncOverlap, type Buffer, type PjrtError } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { awaitReady } from '../_lib/async.js';
import { BASIC_EXECUTE, compileText, readOut } from '../_lib/exec.js';
import { soleOutput } from '../_lib/outputs.js';
import { dtype, f32, pattern, readF32 } from '../_lib/patterns.js';
import { addConstant, addOne } from '../_lib/programs.js';

const t = area('tier2.concurrency', { tier: 2, slow: true, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer', 'PJRT_Buffer_Destroy'] } });

type Ctx = CaseContext<unknown>;
/** Chains running at once: more than the reference plugin's completion threads, fewer than the binding's libuv threads. */
const CHAINS = 8;
const STATS = 'PJRT_Device_MemoryStats';

/** Runs `body`, then records the overlap its asynchronous calls achieved and checks that some did overlap. */
async function overlapping(ctx: Ctx, chains: number, body: () => Promise<number>): Promise<void> {
  takeAsyncOverlap();
  const t0 = performance.now();
  const calls = await body();
  const o = takeAsyncOverlap();
  ctx.detail('concurrency', { chains, calls, maxInFlight: o.maxInFlight, overlapMs: Math.round(o.overlapMs * 10) / 10, wallMs: Math.round((performance.now() - t0) * 10) / 10 });
  check.ok(o.maxInFlight >= 2, 'the concurrency area needs calls in flight together (a CTS check: the binding ran them one at a time)', '≥ 2 calls in flight', `${o.maxInFlight}`);
}

/** Runs `chain(c)` for every chain at once and records the overlap of their asynchronous calls. */
function together(ctx: Ctx, rounds: number, chain: (c: number, round: number) => Promise<void>): Promise<void> {
  return overlapping(ctx, CHAINS, async () => {
    let calls = 0;
    await Promise.all(Array.from({ length: CHAINS }, async (_, c) => {
      for (let r = 0; r < rounds; r++) {
        await chain(c, r);
        calls++;
      }
    }));
    return calls;
  });
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

/** How long every waiter of a round gets once its event was set: far beyond a plugin's callback latency. */
const SETTLE_MS = 5_000;
/** PJRT_Error_Code INTERNAL: the status odd rounds set, so that every waiter is seen to get the event's own status. */
const INTERNAL = 13;
/** Awaits blocked on one event while its callbacks are registered (each holds a libuv thread until the event is set). */
const AWAITERS = 4;

t.case('events_from_many_threads', {
  source: 'framework',
  cite: 'PJRT_Event_OnReady: "Registers `callback` to be called once `event` is ready, with `event`\'s error status", and PJRT_Event_Await "Blocks the calling thread until `event` is ready"; XLA\'s futures (PjRtFuture::OnReady, Await) are used from any thread while the plugin completes them from its own, and XLA\'s C-API client sets caller-made events (PJRT_Event_Set) from whichever thread finishes the work — every callback registered as the event is set from another thread must be called, once, with the status set, and every blocked Await must return it',
  catches: ['race_on_ready_check_then_register'],
  requires: { slots: ['PJRT_Event_Create', 'PJRT_Event_Set', 'PJRT_Event_OnReady', 'PJRT_Event_Await', 'PJRT_Event_Destroy'] },
}).run(async (ctx) => {
  const api = ctx.plugin.raw;
  await check.unimplementedIsUnsupported(ctx, 'caller-made events (PJRT_Event_Create) are not offered by this plugin', () => Event.create(api).destroy());
  const rounds = 24;
  await overlapping(ctx, CHAINS + AWAITERS + 1, async () => {
    for (let r = 0; r < rounds; r++) {
      const code = r % 2 === 0 ? 0 : INTERNAL;
      const ev = Event.create(api);
      // Awaits first (they block until the Set), then half the registrations, the Set, the other half: all dispatched
      // to the libuv threads at once, so registrations run while the Set does.
      const waits: Promise<PjrtError | null>[] = [];
      for (let i = 0; i < AWAITERS; i++) waits.push(ev.await().then(() => null, (e: PjrtError) => e));
      const callbacks: Promise<PjrtError | null>[] = [];
      for (let i = 0; i < CHAINS / 2; i++) callbacks.push(ev.onReadyOnWorker());
      const set = ev.setOnWorker(code, code === 0 ? undefined : `round ${r}`);
      for (let i = CHAINS / 2; i < CHAINS; i++) callbacks.push(ev.onReadyOnWorker());
      await set;
      const calledBack = await check.allSettleWithin(callbacks, SETTLE_MS, `PJRT_Event_OnReady: every callback registered while PJRT_Event_Set runs on another thread must be called once the event is set (round ${r}: ${CHAINS} registrations from ${CHAINS} threads)`);
      const awaited = await check.allSettleWithin(waits, SETTLE_MS, `PJRT_Event_Await: every thread blocked in Await must return once the event is set (round ${r})`);
      [...calledBack.map((o) => ['PJRT_Event_OnReady\'s callback', o] as const), ...awaited.map((o) => ['PJRT_Event_Await', o] as const)].forEach(([what, o], i) => {
        if (o.status === 'rejected') check.fail(`PJRT_Event_OnReady: registering a callback on a created event from another thread must succeed (round ${r}, waiter ${i})`, 'the registration accepted', String(o.reason));
        const got = o.value === null ? 0 : o.value.code;
        check.ok(got === code, `${what}: every waiter gets the status PJRT_Event_Set gave the event (round ${r}, waiter ${i})`, code === 0 ? 'OK' : 'INTERNAL', o.value === null ? 'OK' : `${o.value.codeName}: ${o.value.message}`);
      });
      ev.destroy();
    }
    return rounds * (CHAINS + AWAITERS + 1);
  });
});

/** Query chain q's long-lived buffer: rank 2, a shape no other chain's buffer has. */
const queriedDims = (q: number): number[] => [q + 2, 3 * q + 5];

t.case('queries_during_transfers', {
  source: 'framework',
  cite: 'PJRT_Buffer_Dimensions: "dims … Has the lifetime of `buffer`", and XLA\'s PjRtBuffer is "Thread-safe" (pjrt_client.h): JAX reads shapes, element types and memory statistics from any Python thread while others transfer, so a query answered beside other queries and transfers must describe its own buffer, and bytes_in_use must stay within what the live buffers can account for',
  catches: ['race_dimensions_shared_scratch'],
  requires: { slots: ['PJRT_Buffer_Dimensions', 'PJRT_Buffer_ElementType'] },
}).run(async (ctx) => {
  const queried = CHAINS / 2;
  const inUse = async (): Promise<bigint | undefined> => (ctx.plugin.raw.has(STATS) ? (await check.okOrCleanError(() => ctx.device.memoryStats().bytesInUse, STATS)).value : undefined);
  // Never below what was in use before the case's buffers; never above that with the kept buffers, plus each transfer
  // chain's one f32[n] buffer at a time twice over (room for a plugin's staging copy).
  const floor = await inUse();
  const kept: Buffer[] = [];
  for (let q = 0; q < queried; q++) {
    const dims = queriedDims(q);
    const dt = q % 2 === 0 ? 'f32' : 's8';
    kept.push(await ctx.client.upload(pattern(dtype(dt), dims), { dtype: dt, dims, device: ctx.device }));
  }
  for (const b of kept) await awaitReady(b);
  const n = 512;
  const withKept = await inUse();
  const ceiling = withKept === undefined ? undefined : withKept + BigInt((CHAINS - queried) * n * 4 * 2);
  await together(ctx, 16, async (c, r) => {
    if (c < queried) {
      const b = kept[c]!;
      const [dims, dt] = await Promise.all([b.dimsOnWorker(), b.elementTypeOnWorker()]);
      check.ok(check.deepEqual(dims, queriedDims(c)), 'PJRT_Buffer_Dimensions: a query answered while other threads query other buffers must describe its own buffer', JSON.stringify(queriedDims(c)), JSON.stringify(dims));
      check.equal(dt, c % 2 === 0 ? 'f32' : 's8', 'PJRT_Buffer_ElementType: a query answered while other threads query other buffers must describe its own buffer');
      if (floor !== undefined && ceiling !== undefined) {
        const now = ctx.device.memoryStats().bytesInUse;
        check.ok(now >= floor && now <= ceiling, `${STATS}: bytes_in_use read during transfers must lie between what was in use before the case and that plus the buffers kept throughout and every transfer chain's live buffer`, `${floor}…${ceiling}`, `${now}`);
      }
      return;
    }
    const want = valuesOf(c, r, n);
    const b = await ctx.client.upload(f32(want), { dtype: 'f32', dims: [n], device: ctx.device });
    const got = readF32(await b.toHost({ dtype: 'f32', dims: [n] }));
    b.destroy();
    check.ok(check.deepEqual(got, want), 'PJRT_Buffer_ToHostBuffer: a buffer read while other threads query buffers must hold its own values', `chain ${c} round ${r}'s values`, `${got.slice(0, 4).join(', ')}, …`);
  });
  for (const b of kept) b.destroy();
});

t.case('destroys_beside_executions', {
  source: 'framework',
  cite: 'PJRT_Buffer_Delete: "Drop the buffer\'s reference to its associated device memory", PJRT_Buffer_Destroy frees it, and XLA\'s PjRtBuffer is "Thread-safe" (pjrt_client.h): JAX deletes arrays (del, garbage collection, donation) on some threads while jitted functions run on others — what the destroyed buffers give back must not reach the executions\' arguments or outputs, nor the buffers still alive',
  catches: ['race_storage_pool_reuse'],
  requires: { slots: ['PJRT_LoadedExecutable_Execute', 'PJRT_Buffer_Delete'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const n = 256;
  const exe = await compileText(ctx.client, addOne([n]));
  const device = exe.addressableDevices()[0]!;
  const launchers = CHAINS / 2;
  const kept: Buffer[] = [];
  for (let c = 0; c < launchers; c++) kept.push(await ctx.client.upload(f32(valuesOf(c, 99, n)), { dtype: 'f32', dims: [n], device }));
  await together(ctx, 16, async (c, r) => {
    // Every buffer is f32[n]: what a destroy gives back fits every other allocation.
    const want = valuesOf(c, r, n);
    const b = await ctx.client.upload(f32(want), { dtype: 'f32', dims: [n], device });
    if (c < launchers) {
      // Launchers run x + 1 on their kept argument and on this round's, while the other chains delete and destroy.
      for (const [x, values] of [[kept[c]!, valuesOf(c, 99, n)], [b, want]] as const) {
        const out = soleOutput(await exe.execute([[x]]));
        const got = readF32(await readOut(out, { dtype: 'f32', dims: [n] }));
        out.destroy();
        const plusOne = values.map((v) => v + 1);
        check.ok(check.deepEqual(got, plusOne), 'PJRT_LoadedExecutable_Execute: an execution running while other threads delete and destroy buffers must compute from its own argument into its own output', `chain ${c} round ${r}: ${plusOne.slice(0, 3).join(', ')}, …`, `${got.slice(0, 3).join(', ')}, …`);
      }
    }
    const got = readF32(await b.toHost({ dtype: 'f32', dims: [n] }));
    b.delete();
    b.destroy();
    check.ok(check.deepEqual(got, want), 'PJRT_Buffer_ToHostBuffer: a buffer uploaded while other threads execute, delete and destroy must hold its own values until it is deleted', `chain ${c} round ${r}'s values`, `${got.slice(0, 4).join(', ')}, …`);
  });
  for (let c = 0; c < launchers; c++) {
    const got = readF32(await kept[c]!.toHost({ dtype: 'f32', dims: [n] }));
    check.ok(check.deepEqual(got, valuesOf(c, 99, n)), 'PJRT_Buffer_ToHostBuffer: a buffer kept alive must keep its values while buffers beside it are deleted and destroyed', `argument ${c}'s values`, `${got.slice(0, 4).join(', ')}, …`);
    kept[c]!.destroy();
  }
  exe.destroy();
});

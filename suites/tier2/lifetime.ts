// Tier 2 — lifetimes: each kind of object created and destroyed many times, in the orders frameworks use, must leave
// nothing behind. The plugin's own accounting (PJRT_Device_MemoryStats bytes_in_use) is judged where the header or a
// framework's pattern makes a leak fatal (device memory runs out); the process's native heap and threads, which only a
// long-running process feels, are quality (suites/_lib/lifetime.ts has the measures and bounds).
import { area, topologyCreateOptions, type CaseContext } from '../../src/harness/index.js';
import type { LifetimeGrowth } from '../../src/config/results.js';
import { Event, TransferManager, type Buffer, type Client } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { awaitReady } from '../_lib/async.js';
import { BASIC_EXECUTE, compileText, readOut } from '../_lib/exec.js';
import { deviceBytesInUse, deviceMemoryReturned, hostMemoryBounded, measureCycles, threadsReturned } from '../_lib/lifetime.js';
import { soleOutput } from '../_lib/outputs.js';
import { dtype, f32, pattern, readF32 } from '../_lib/patterns.js';
import { addOne } from '../_lib/programs.js';

const t = area('tier2.lifetime', { tier: 2, slow: true, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_Destroy'] } });

type Ctx = CaseContext<unknown>;
const STATS = 'PJRT_Device_MemoryStats';
/** A buffer large enough that its bytes are unmistakable in any allocator's statistics. */
const BIG = 1 << 18;
/** The program the execution cycles run: x + 1 on N f32, its input and output N × 4 bytes. */
const N = 1024;

async function uploadU8(c: Client, ctx: Ctx, bytes: number, data?: Uint8Array): Promise<Buffer> {
  return c.upload(data ?? pattern(dtype('u8'), [bytes]), { dtype: 'u8', dims: [bytes], device: ctx.device });
}

/** The buffer's readiness awaited, then the buffer destroyed (an execution's output, as a framework drops it). */
async function settleAndDestroy(b: Buffer): Promise<void> {
  const ready = b.readyEvent();
  try {
    await ready.await();
  } finally {
    ready.destroy();
  }
  b.destroy();
}

t.case('buffers.device_memory', {
  source: 'header',
  cite: 'PJRT_Buffer_Destroy: "Deletes the underlying runtime objects as if \'PJRT_Buffer_Delete\' were called and frees `buffer`"; PJRT_Buffer_Delete: "Drop the buffer\'s reference to its associated device memory" — a buffer uploaded and destroyed (JAX\'s device_put then del) gives its device memory back, so bytes_in_use returns to where it was',
  catches: ['leak_buffer_storage_on_destroy'],
  requires: { slots: [STATS] },
}).run(async (ctx) => {
  const data = pattern(dtype('u8'), [BIG]);
  const g = await measureCycles(ctx, { warmup: 3, cycles: 40, device: ctx.device }, async () => (await uploadU8(ctx.client, ctx, BIG, data)).destroy());
  deviceMemoryReturned(g, BIG, `40 buffers of ${BIG} bytes were uploaded and destroyed`);
});

t.case('transfers.host_memory', {
  source: 'quality',
  cite: 'PJRT_Client_BufferFromHostBuffer\'s done_with_host_buffer and PJRT_Buffer_ReadyEvent\'s events are owned by the caller and freed by PJRT_Event_Destroy ("Frees `event`"); what the plugin creates for itself per transfer is its own to free — a process making millions of small transfers (a framework\'s scalars) must not grow per transfer. Only the process\'s memory shows such a leak, so quality',
  catches: ['leak_event_per_transfer', 'leak_buffer_storage_on_destroy'],
}).run(async (ctx) => {
  const data = pattern(dtype('u8'), [64]);
  const g = await measureCycles(ctx, { warmup: 100, cycles: 5000, judgesHeap: true }, async () => (await uploadU8(ctx.client, ctx, 64, data)).destroy());
  hostMemoryBounded(g, 'PJRT_Client_BufferFromHostBuffer: small small buffers uploaded (both events awaited and destroyed) and destroyed');
});

/**
 * x + 1 on N f32 compiled and its input uploaded, then `cycles` launches measured, each output destroyed when ready
 * (`device`: read its bytes_in_use too); the executable and input are destroyed after.
 */
async function launchCycles(ctx: Ctx, opts: { warmup: number; cycles: number; withDevice: boolean }): Promise<LifetimeGrowth> {
  const exe = await compileText(ctx.client, addOne([N]));
  const device = exe.addressableDevices()[0]!;
  const x = await ctx.client.upload(pattern(dtype('f32'), [N]), { dtype: 'f32', dims: [N], device });
  const g = await measureCycles(ctx, { warmup: opts.warmup, cycles: opts.cycles, ...(opts.withDevice ? { device } : { judgesHeap: true }) },
    async () => settleAndDestroy(soleOutput(await exe.execute([[x]]))));
  x.destroy();
  exe.destroy();
  return g;
}

t.case('executes.device_memory', {
  source: 'framework',
  cite: 'a jitted step is executed again and again with its outputs dropped (JAX\'s training loop: every step\'s outputs replace the last, PyArray deletion destroys their buffers) — so an execution may keep nothing on the device once its outputs are destroyed; a per-execution leak exhausts device memory in any long loop',
  catches: ['leak_buffer_per_execute'],
  requires: { slots: [STATS, 'PJRT_LoadedExecutable_Execute'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const g = await launchCycles(ctx, { warmup: 5, cycles: 100, withDevice: true });
  deviceMemoryReturned(g, N * 4, '100 executions whose outputs were destroyed');
});

t.case('executes.host_memory', {
  source: 'quality',
  cite: 'as executes.device_memory, read from the process: an execution whose outputs are destroyed leaves nothing in the host process either (a plugin whose device memory is host memory, or whose bookkeeping grows per launch, shows it only here)',
  catches: ['leak_buffer_per_execute'],
  requires: { slots: ['PJRT_LoadedExecutable_Execute'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const g = await launchCycles(ctx, { warmup: 50, cycles: 500, withDevice: false });
  hostMemoryBounded(g, 'PJRT_LoadedExecutable_Execute: executions whose outputs were destroyed');
});

t.case('executables.device_memory', {
  source: 'framework',
  cite: 'PJRT_LoadedExecutable_Destroy frees the loaded executable, and with it what it holds on its devices; JAX compiles a new executable per new shape or static argument and drops the old ones from its cache (jax.clear_caches, the cache\'s eviction), so what a destroyed executable leaves on the device accumulates',
  catches: ['leak_executable_device_copy'],
  requires: { slots: [STATS, 'PJRT_Client_Compile', 'PJRT_LoadedExecutable_Destroy'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const first = await compileText(ctx.client, addOne([N]));
  const device = first.addressableDevices()[0]!;
  // One live executable's own share of the device: the bound below which a destroyed one must have given all back.
  const before = await deviceBytesInUse(ctx, device);
  const second = await compileText(ctx.client, addOne([N]));
  const oneExecutable = Math.max(1, Number((await deviceBytesInUse(ctx, device)) - before));
  second.destroy();
  const g = await measureCycles(ctx, { warmup: 3, cycles: 50, device }, async () => (await compileText(ctx.client, addOne([N]))).destroy());
  first.destroy();
  deviceMemoryReturned(g, oneExecutable * 2, '50 executables compiled and destroyed');
});

t.case('executables.host_memory', {
  source: 'quality',
  cite: 'PJRT_LoadedExecutable_Destroy: "Frees `executable`" (with what it loaded); a process that compiles and drops executables for hours (a serving process, a notebook) must not grow per executable. Only the process\'s memory shows it, so quality',
  catches: ['leak_executable_device_copy'],
  requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Destroy'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const g = await measureCycles(ctx, { warmup: 10, cycles: 1000, judgesHeap: true }, async () => (await compileText(ctx.client, addOne([N]))).destroy());
  hostMemoryBounded(g, 'PJRT_Client_Compile / PJRT_LoadedExecutable_Destroy: executables compiled and destroyed');
});

t.case('outputs_outlive_executable', {
  source: 'framework',
  cite: 'outputs are independent PJRT_Buffers owned by the caller (PJRT_LoadedExecutable_Execute: "output_lists … the caller takes ownership"); JAX keeps a jitted function\'s results while dropping the executable (a one-off jit, jax.clear_caches) — so outputs stay readable after PJRT_LoadedExecutable_Destroy, and executable and outputs, destroyed in that order, give the device memory back',
  catches: ['leak_executable_device_copy', 'leak_buffer_per_execute'],
  requires: { slots: [STATS, 'PJRT_LoadedExecutable_Execute', 'PJRT_LoadedExecutable_Destroy', 'PJRT_Buffer_ToHostBuffer'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const input = [1, 2, 3, 4];
  // What one live executable of this program holds on its device (measured before the cycles): the bound below.
  const probe = await compileText(ctx.client, addOne([4]));
  const device = probe.addressableDevices()[0]!;
  const withProbe = await deviceBytesInUse(ctx, device);
  probe.destroy();
  const oneExecutable = Math.max(0, Number(withProbe - (await deviceBytesInUse(ctx, device))));
  const x = await ctx.client.upload(f32(input), { dtype: 'f32', dims: [4], device });
  const g = await measureCycles(ctx, { warmup: 2, cycles: 20, device }, async () => {
    const exe = await compileText(ctx.client, addOne([4]));
    const out = soleOutput(await exe.execute([[x]]));
    exe.destroy();
    const got = readF32(await readOut(out, { dtype: 'f32', dims: [4] }));
    const want = input.map((v) => v + 1);
    check.ok(check.deepEqual(got, want), 'PJRT_LoadedExecutable_Destroy: an output must keep its value after its executable is destroyed', `${want}`, `${got}`);
    out.destroy();
  });
  x.destroy();
  // Less than one cycle's allocation (an executable and its 16-byte output) may remain: a per-cycle leak is 20 of them.
  deviceMemoryReturned(g, oneExecutable + 16 + 1, '20 executables compiled, executed and destroyed before their outputs');
});

t.case('clients.threads', {
  source: 'quality',
  cite: 'PJRT_Client_Destroy: "Shuts down and frees the client"; a process that creates and destroys clients (a test suite, a notebook restarting its backend, pytorch/xla#9669\'s runtime resources) must get back every thread a client started. The header names no measure, so quality',
  catches: ['leak_client_thread'],
  requires: { slots: ['PJRT_Client_Create', 'PJRT_Client_Destroy'] },
  client: 'fresh', // the clients the cycles make are its own: a plugin without one (compile-only) has none to cycle
}).run(async (ctx) => {
  const g = await measureCycles(ctx, { warmup: 3, cycles: 15 }, async () => (await ctx.newClient()).destroy());
  threadsReturned(g, 'PJRT_Client_Destroy: clients created and destroyed');
});

/** How long PJRT_Client_Destroy may take with objects still alive before the case calls it hung. */
const DESTROY_BOUND_MS = 10_000;

t.case('clients.destroyed_with_live_objects', {
  source: 'quality',
  cite: 'PJRT_Client_Destroy: "Shuts down and frees the client" — the header says nothing of buffers and executables still alive then. Frameworks destroy the client last (JAX\'s arrays and executables hold it), but a process tearing down in arbitrary order (a test fixture, a notebook restarting its backend, an interpreter at exit, pytorch/xla#9669) destroys a client whose objects are alive: the destroy must return, and the client\'s threads end. The header is silent, so quality; the objects left are never touched again',
  catches: ['client_destroy_waits_for_live_buffers'],
  requires: { slots: ['PJRT_Client_Create', 'PJRT_Client_Destroy', 'PJRT_LoadedExecutable_Execute'] },
  dependsOn: BASIC_EXECUTE,
  client: 'fresh', // the clients the cycles make are its own: a plugin without one (compile-only) has none to cycle
}).run(async (ctx) => {
  const input = [1, 2, 3, 4];
  const g = await measureCycles(ctx, { warmup: 2, cycles: 15 }, async () => {
    const c = await ctx.newClient();
    const exe = await compileText(c, addOne([4]));
    const x = await c.upload(f32(input), { dtype: 'f32', dims: [4], device: exe.addressableDevices()[0]! });
    const out = soleOutput(await exe.execute([[x]]));
    await awaitReady(out);
    for (const h of [x, out, exe]) h.abandon();
    const [destroyed] = await check.allSettleWithin([c.destroy()], DESTROY_BOUND_MS, 'PJRT_Client_Destroy: a client destroyed while a buffer, an output and an executable it made are alive must return');
    if (destroyed!.status === 'rejected') check.fail('PJRT_Client_Destroy: destroying a client whose objects are alive should succeed (the header names no error for it)', 'no error', String(destroyed!.reason));
  });
  threadsReturned(g, 'PJRT_Client_Destroy: clients destroyed with live buffers and executables');
});

t.case('errors.host_memory', {
  source: 'quality',
  cite: 'PJRT_Error_Destroy: "Frees `error`"; frameworks turn every error into a status and destroy it (XLA\'s PjrtErrorToStatus), and a process probing for capabilities (UNIMPLEMENTED answers) makes many — only the process\'s memory shows a leak, so quality',
  catches: ['leak_error_on_destroy'],
  requires: { slots: ['PJRT_Client_LookupDevice', 'PJRT_Error_Destroy'] },
}).run(async (ctx) => {
  // The raw call and destroy, no exception per cycle: the JavaScript engine's reaction to a thrown error per cycle
  // (deoptimising, recompiling) moves the heap by more than a leaked error.
  const api = ctx.plugin.raw;
  const args = api.args('PJRT_Client_LookupDevice').ptr('client', ctx.client.ptr).i32('id', 1 << 30);
  const g = await measureCycles(ctx, { warmup: 200, cycles: 5000, judgesHeap: true }, async () => {
    const err = api.callRaw('PJRT_Client_LookupDevice', args);
    if (err === null) check.fail('PJRT_Client_LookupDevice: an id no device has must be an error (the cycle needs one to destroy)', 'an error', 'a device');
    api.destroyError(err);
  });
  hostMemoryBounded(g, 'PJRT_Error_Destroy: errors (PJRT_Client_LookupDevice of an unknown id) destroyed');
});

t.case('topologies.host_memory', {
  source: 'quality',
  cite: 'PJRT_TopologyDescription_Destroy: "Frees `topology`" (one PJRT_TopologyDescription_Create made); an AOT compiler creates one per target it compiles for — only the process\'s memory shows a leak, so quality',
  catches: ['leak_topology_on_destroy'],
  requires: { slots: ['PJRT_TopologyDescription_Create', 'PJRT_TopologyDescription_Destroy'] },
  client: 'none',
}).run(async (ctx) => {
  // The entry's compile target, as JAX's AOT path names it (libtpu needs its name and options).
  const spec = { name: ctx.config.topology ?? '', options: topologyCreateOptions(ctx.config) };
  const cycle = async (): Promise<void> => ctx.plugin.createTopology(spec).destroy();
  // XLA's CPU plugin: "Topology not supported for CPU compilation"
  await check.unimplementedIsUnsupported(ctx, 'PJRT_TopologyDescription_Create: the plugin describes no topology without a client', cycle);
  const g = await measureCycles(ctx, { warmup: 30, cycles: 500, judgesHeap: true }, cycle);
  hostMemoryBounded(g, 'PJRT_TopologyDescription_Destroy: topologies created and destroyed');
});

t.case('serialized_executables.host_memory', {
  source: 'quality',
  cite: 'PJRT_Executable_Serialize: "serialized_executable_deleter … must be called to free serialized_executable"; a framework serializing for its compilation cache calls it after copying the bytes (XLA\'s PjRtCApiExecutable::SerializeExecutable) — only the process\'s memory shows a deleter that frees nothing, so quality',
  catches: ['leak_serialized_executable'],
  requires: { slots: ['PJRT_Executable_Serialize', 'PJRT_LoadedExecutable_GetExecutable'] },
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const exe = await check.unimplementedIsUnsupported(ctx, 'the plugin does not serialize executables', async () => {
    const loaded = await compileText(ctx.client, addOne([N]));
    const e = loaded.executable();
    return { loaded, e, size: e.serialize().length };
  });
  const g = await measureCycles(ctx, { warmup: 50, cycles: 2500, judgesHeap: true }, async () => void exe.e.serialize());
  hostMemoryBounded(g, `PJRT_Executable_Serialize: serializations of ${exe.size} bytes, each freed by its deleter`);
  exe.e.destroy();
  exe.loaded.destroy();
});

t.case('events.host_memory', {
  source: 'quality',
  cite: 'PJRT_Event_Destroy: "Frees `event`" (one PJRT_Event_Create made, PJRT_Event_Set completed); XLA\'s C-API client makes such an event for every host-to-device transfer it feeds and every promise it hands the plugin — only the process\'s memory shows one the plugin keeps, so quality',
  catches: ['leak_created_event'],
  requires: { slots: ['PJRT_Event_Create', 'PJRT_Event_Set', 'PJRT_Event_Destroy'] },
}).run(async (ctx) => {
  const api = ctx.plugin.raw;
  const cycle = async (): Promise<void> => {
    const ev = Event.create(api);
    ev.set(0);
    ev.destroy();
  };
  await check.unimplementedIsUnsupported(ctx, 'caller-made events (PJRT_Event_Create) are not offered by this plugin', cycle);
  const g = await measureCycles(ctx, { warmup: 200, cycles: 5000, judgesHeap: true }, cycle);
  hostMemoryBounded(g, 'PJRT_Event_Destroy: events created, set and destroyed');
});

t.case('transfer_managers.device_memory', {
  source: 'header',
  cite: 'PJRT_AsyncHostToDeviceTransferManager_Destroy: "Frees `transfer_manager`", and a retrieved buffer is the caller\'s to destroy; XLA\'s C-API client makes a manager per asynchronous host-to-device transfer (CreateBuffersForAsyncHostToDevice) and destroys it once its buffers are handed on — manager and buffer destroyed, the device memory the buffer took comes back',
  catches: ['leak_transfer_manager_on_destroy'],
  requires: { slots: [STATS, 'PJRT_Client_CreateBuffersForAsyncHostToDevice', 'PJRT_AsyncHostToDeviceTransferManager_TransferData', 'PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer', 'PJRT_AsyncHostToDeviceTransferManager_Destroy'] },
}).run(async (ctx) => {
  const spec = { dtype: 'u8', dims: [BIG] } as const;
  const data = pattern(dtype('u8'), [BIG]);
  const cycle = async (): Promise<void> => {
    const tm = await TransferManager.create(ctx.client, [spec], ctx.device.defaultMemory());
    const b = tm.retrieveBuffer(0);
    const done = await tm.transferData(0, data, 0, true);
    await done.await();
    done.destroy();
    tm.destroy();
    await settleAndDestroy(b);
  };
  await check.unimplementedIsUnsupported(ctx, 'asynchronous host-to-device transfers are optional (UNIMPLEMENTED)', cycle);
  const g = await measureCycles(ctx, { warmup: 3, cycles: 40, device: ctx.device }, cycle);
  deviceMemoryReturned(g, BIG, `40 transfer managers of one ${BIG}-byte buffer, filled, destroyed, and their buffers destroyed`);
});

t.case('dlpack_views.device_memory', {
  source: 'framework',
  cite: 'jaxlib\'s DLPack export holds an external reference (PJRT_Buffer_IncreaseExternalReferenceCount: the data "should not be deleted or moved by the PJRT implementation") until the consumer\'s view is destroyed (PJRT_Client_CreateViewOfDeviceBuffer\'s on_delete_callback releases it), and the exported array may be deleted first (del x) — once the view is destroyed and the last external reference dropped (PJRT_Buffer_DecreaseExternalReferenceCount), the deleted array\'s device memory comes back; a model exchanging tensors with another framework every step leaks it otherwise',
  catches: ['leak_external_reference'],
  requires: { slots: [STATS, 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount', 'PJRT_Buffer_OpaqueDeviceMemoryDataPointer', 'PJRT_Client_CreateViewOfDeviceBuffer', 'PJRT_Buffer_Delete'] },
}).run(async (ctx) => {
  const data = pattern(dtype('u8'), [BIG]);
  const cycle = async (): Promise<void> => {
    const x = await uploadU8(ctx.client, ctx, BIG, data);
    x.increaseExternalRef();
    const ptr = x.opaqueDeviceMemoryDataPointer();
    if (ptr === null) check.fail('PJRT_Buffer_OpaqueDeviceMemoryDataPointer: a live buffer has an address (the cycle exports it)', 'an address', 'NULL');
    const view = ctx.client.createViewOfDeviceBuffer({ pointer: ptr, dtype: 'u8', dims: [BIG], device: ctx.device });
    x.delete();
    view.buffer.destroy();
    // jaxlib's on_delete_callback releases the export, which drops the reference: the same order here.
    if ((await view.deleteCallbackCalled()) === 0) check.fail('PJRT_Client_CreateViewOfDeviceBuffer: the view\'s on_delete_callback must be called once the view is destroyed (the cycle releases the export then)', 'a call within 2 s', 'none');
    x.decreaseExternalRef();
    x.destroy();
  };
  await check.unimplementedIsUnsupported(ctx, 'the DLPack paths are optional ("This method is not required on all hardware platforms" for views)', cycle);
  const g = await measureCycles(ctx, { warmup: 3, cycles: 40, device: ctx.device }, cycle);
  deviceMemoryReturned(g, BIG, `40 buffers of ${BIG} bytes exported (an external reference), viewed, deleted, the view destroyed and the reference dropped`);
});

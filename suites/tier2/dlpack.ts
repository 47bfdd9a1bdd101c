// Tier 2 — DLPack-style interop: IsOnCpu, raw pointers, external references, views of device memory and of host
// memory the test owns, the views' on-delete callback, zero-copy host buffers. Plugin memory is never read through a
// raw address (it may be device memory): a view over the address is read instead.
import { area, type CaseContext } from '../../src/harness/index.js';
import { allocateHostMemory, drainRelayedCallbacks, type DeviceBufferView } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { dtype, pattern } from '../_lib/patterns.js';

const t = area('tier2.dlpack', { tier: 2, requires: { slots: ['PJRT_Buffer_OpaqueDeviceMemoryDataPointer'] } });

t.case('pointers_agree', { catches: ['unsafe_pointer_wrong'], requires: { slots: ['PJRT_Buffer_UnsafePointer'] } }).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [32]), { dtype: 'f32', dims: [32] });
  const opaque = buf.opaqueDeviceMemoryDataPointer();
  check.ok(opaque !== null, 'OpaqueDeviceMemoryDataPointer must be non-null for a live buffer', 'an address', 'NULL');
  check.equal(buf.unsafePointer(), opaque, 'UnsafePointer and OpaqueDeviceMemoryDataPointer must name the same memory');
});

// A copied view shows the same bytes here; view_sees_later_writes and view_over_owned_memory catch view_copies_memory.
t.case('view_over_unsafe_pointer', { catches: ['unsafe_pointer_wrong'], requires: { slots: ['PJRT_Buffer_UnsafePointer', 'PJRT_Client_CreateViewOfDeviceBuffer'] } }).run(
  async (ctx) => {
    const host = pattern(dtype('f32'), [32]);
    const buf = await ctx.client.upload(host, { dtype: 'f32', dims: [32], device: ctx.device });
    const view = ctx.client.createViewOfDeviceBuffer(buf.unsafePointer(), { dtype: 'f32', dims: [32], device: ctx.device });
    check.bytes(await view.toHost(), host, 'the memory at UnsafePointer must hold the buffer\'s bytes');
  },
);

t.case('is_on_cpu_consistent', { catches: ['crash_in=PJRT_Client_BufferFromHostBuffer'], requires: { slots: ['PJRT_Buffer_IsOnCpu'] } }).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('u8'), [8]), { dtype: 'u8', dims: [8] });
  check.equal(buf.isOnCpu(), buf.isOnCpu(), 'PJRT_Buffer_IsOnCpu must be stable');
});

t.case('external_ref_increase_decrease', { catches: ['decrease_ref_below_zero_ok'], requires: { slots: ['PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] } }).run(
  async ({ client }) => {
    const buf = await client.upload(pattern(dtype('u8'), [8]), { dtype: 'u8', dims: [8] });
    buf.increaseExternalRef();
    buf.decreaseExternalRef();
    await check.rejects(() => buf.decreaseExternalRef(), 'DecreaseExternalReferenceCount without a matching increase must fail', ['INVALID_ARGUMENT', 'FAILED_PRECONDITION']);
  },
);

t.case('external_ref_keeps_memory', { catches: ['external_ref_ignored'], requires: { slots: ['PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Client_CreateViewOfDeviceBuffer'] } }).run(
  async (ctx) => {
    const host = pattern(dtype('s32'), [4096]);
    const buf = await ctx.client.upload(host, { dtype: 's32', dims: [4096], device: ctx.device });
    buf.increaseExternalRef();
    const ptr = buf.opaqueDeviceMemoryDataPointer()!;
    buf.delete();
    // memory churn that would reuse freed storage
    for (let i = 0; i < 8; i++) await ctx.client.upload(new Uint8Array(4096 * 4).fill(0xee), { dtype: 's32', dims: [4096], device: ctx.device });
    const view = ctx.client.createViewOfDeviceBuffer(ptr, { dtype: 's32', dims: [4096], device: ctx.device });
    check.bytes(await view.toHost(), host, 'an outstanding external reference must keep the memory alive after PJRT_Buffer_Delete');
    buf.decreaseExternalRef();
  },
);

t.case('zero_copy_aliases_cpu_memory', { catches: ['zero_copy_copies'], requires: { slots: ['PJRT_Buffer_IsOnCpu'] } }).run(async (ctx) => {
  const host = pattern(dtype('f32'), [16]);
  const { buffer, doneWithHost } = await ctx.client.bufferFromHost(host, { dtype: 'f32', dims: [16], semantics: 'kImmutableZeroCopy', device: ctx.device });
  await buffer.readyEvent().await();
  if (!buffer.isOnCpu()) return ctx.skip('the buffer is not in CPU memory; zero-copy may legitimately copy');
  check.equal(doneWithHost.isReady(), false, 'with kImmutableZeroCopy on CPU memory the plugin aliases the host buffer, so done_with_host_buffer must wait for the buffer\'s deletion');
  buffer.delete();
  await doneWithHost.await();
});

t.case('view_sees_later_writes', { catches: ['view_copies_memory'], requires: { slots: ['PJRT_Client_CreateViewOfDeviceBuffer', 'PJRT_Buffer_IsOnCpu'] } }).run(async (ctx) => {
  const host = pattern(dtype('u8'), [64]);
  const { buffer } = await ctx.client.bufferFromHost(host, { dtype: 'u8', dims: [64], semantics: 'kMutableZeroCopy', device: ctx.device });
  await buffer.readyEvent().await();
  if (!buffer.isOnCpu()) return ctx.skip('needs a CPU-resident buffer to write through its host memory');
  const view = ctx.client.createViewOfDeviceBuffer(buffer.opaqueDeviceMemoryDataPointer()!, { dtype: 'u8', dims: [64], device: ctx.device });
  const before = await view.toHost();
  host.fill(0x42);
  const after = await view.toHost();
  check.bytes(before, pattern(dtype('u8'), [64]), 'a view must show the memory it views');
  check.bytes(after, await buffer.toHost(), 'a view must alias the memory it views (later writes visible in both), not copy it');
});

const VIEW = 'PJRT_Client_CreateViewOfDeviceBuffer';

/** Whether the case's device keeps buffers in host memory, so that a view may be made over memory the test owns. */
async function deviceIsOnCpu(ctx: CaseContext<unknown>): Promise<boolean> {
  const probe = await ctx.client.upload(pattern(dtype('u8'), [8]), { dtype: 'u8', dims: [8], device: ctx.device });
  const onCpu = probe.isOnCpu();
  probe.destroy();
  return onCpu;
}

t.case('view_over_owned_memory', { catches: ['view_copies_memory'], requires: { slots: [VIEW, 'PJRT_Buffer_IsOnCpu'] } }).run(async (ctx) => {
  if (!(await deviceIsOnCpu(ctx))) return ctx.skip('the device\'s buffers are not in host memory: a view over host memory the test owns would not be device memory');
  const first = pattern(dtype('s32'), [64]);
  const mem = allocateHostMemory(first.byteLength, { scope: ctx.scope });
  mem.view().set(first);
  const { buffer } = ctx.client.createViewOfDeviceBuffer({ pointer: mem.address, dtype: 's32', dims: [64], device: ctx.device });
  check.bytes(await buffer.toHost(), first, 'a view must show the bytes of the memory it views');
  check.equal(buffer.isOnCpu(), true, 'a view over host memory on a CPU device must report IsOnCpu');
  const second = first.map((b) => b ^ 0x5a);
  mem.view().set(second);
  check.bytes(await buffer.toHost(), second, 'a view must alias the memory it views (a later write must be visible through it), not copy it');
});

/** A view, with on-delete callback, over the memory of a plugin buffer kept alive by an external reference. */
async function viewOfBuffer(ctx: CaseContext<unknown>, host: Uint8Array, dims: number[]) {
  const buf = await ctx.client.upload(host, { dtype: 'u8', dims, device: ctx.device });
  buf.increaseExternalRef();
  const ptr = buf.opaqueDeviceMemoryDataPointer();
  check.ok(ptr !== null, 'OpaqueDeviceMemoryDataPointer must be non-null for a live buffer', 'an address', 'NULL');
  const view: DeviceBufferView = ctx.client.createViewOfDeviceBuffer({ pointer: ptr, dtype: 'u8', dims, device: ctx.device, onDelete: true });
  return { buf, ptr, view };
}

t.case('view_on_delete_called_once', {
  catches: ['view_delete_callback_never', 'view_delete_callback_twice'],
  requires: { slots: [VIEW, 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(async (ctx) => {
  const host = pattern(dtype('u8'), [96]);
  const { buf, ptr, view } = await viewOfBuffer(ctx, host, [96]);
  check.bytes(await view.buffer.toHost(), host, 'a view must show the bytes of the memory it views');
  await drainRelayedCallbacks();
  check.equal(view.deleteCallbackCount(), 0, 'on_delete_callback must not be called while the view is alive');
  view.buffer.destroy();
  // the plugin may call it later, from its own thread
  check.equal(await view.settledDeleteCallbackCount(), 1, 'on_delete_callback must be called exactly once when the view buffer is destroyed');
  check.equal(view.deleteCallbackPointers()[0], ptr, 'on_delete_callback must receive the device_buffer_ptr of the view');
  buf.decreaseExternalRef();
});

t.case('dlpack_round_trip', {
  catches: ['unsafe_pointer_wrong', 'view_delete_callback_never', 'view_delete_callback_twice'],
  requires: { slots: [VIEW, 'PJRT_Buffer_UnsafePointer', 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(async (ctx) => {
  // export: hold an external reference and hand out the data pointer; import: a view whose on_delete drops the reference
  const host = pattern(dtype('u8'), [256]);
  const { buf, ptr, view } = await viewOfBuffer(ctx, host, [16, 16]);
  check.equal(buf.unsafePointer(), ptr, 'UnsafePointer (the DLPack data pointer) and OpaqueDeviceMemoryDataPointer must agree');
  check.bytes(await view.buffer.toHost(), await buf.toHost(), 'the imported view must hold the exported buffer\'s bytes');
  check.bytes(await view.buffer.toHost(), host, 'the exported buffer must hold the uploaded bytes');
  view.buffer.destroy();
  check.equal(await view.settledDeleteCallbackCount(), 1, 'destroying the imported view must call its deleter exactly once');
  buf.decreaseExternalRef();
  check.bytes(await buf.toHost(), host, 'the exported buffer must be intact after the import is released');
});

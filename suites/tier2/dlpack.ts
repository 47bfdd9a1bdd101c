// Tier 2 — DLPack-style interop: IsOnCpu, raw pointers, external references, views of device memory and of host
// memory the test owns, the views' on-delete callback, zero-copy host buffers. Plugin memory is never read through a
// raw address unless IsOnCpu says it is host memory; otherwise a view over the address is read instead.
// Host memory the test hands to the plugin is allocated aligned (allocateHostMemory: 256 bytes), since XLA's CPU
// client aliases (views, zero-copy) only memory aligned to cpu::MinAlign() and rejects or copies other memory.
// The DLPack helpers (UnsafePointer, external references, CreateViewOfDeviceBuffer: "not required on all hardware
// platforms") may be UNIMPLEMENTED: such a case is unsupported.
import { area, type CaseContext } from '../../src/harness/index.js';
import { allocateHostMemory, drainRelayedCallbacks, readNative, type DeviceBufferView } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { dtype, pattern } from '../_lib/patterns.js';

const t = area('tier2.dlpack', { tier: 2, requires: { slots: ['PJRT_Buffer_OpaqueDeviceMemoryDataPointer'] } });

const VIEW = 'PJRT_Client_CreateViewOfDeviceBuffer';
const OPTIONAL = 'the DLPack paths are optional ("This method is not required on all hardware platforms" for views)';

type Ctx = CaseContext<unknown>;
/** The case body, with UNIMPLEMENTED from an optional DLPack slot turned into `unsupported`. */
const optional = (body: (ctx: Ctx) => Promise<void>) => (ctx: Ctx) => check.unimplementedIsUnsupported(ctx, OPTIONAL, () => body(ctx));

/** Whether the case's device keeps buffers in host memory (IsOnCpu of a probe buffer). */
async function deviceIsOnCpu(ctx: Ctx): Promise<boolean> {
  const probe = await ctx.client.upload(pattern(dtype('u8'), [8]), { dtype: 'u8', dims: [8], device: ctx.device });
  const onCpu = probe.isOnCpu();
  probe.destroy();
  return onCpu;
}

t.case('pointers_agree', {
  source: 'quality',
  cite: 'PJRT_Buffer_UnsafePointer is only "often but not guaranteed to be the physical/device address", yet JAX hands both out as the array\'s data address (Array.unsafe_buffer_pointer / __cuda_array_interface__ use UnsafePointer, DLPack export uses OpaqueDeviceMemoryDataPointer): interop code expects them to agree',
  catches: ['unsafe_pointer_wrong', 'opaque_pointer_wrong'],
  requires: { slots: ['PJRT_Buffer_UnsafePointer', 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async ({ client, device }) => {
  const buf = await client.upload(pattern(dtype('f32'), [32]), { dtype: 'f32', dims: [32], device });
  buf.increaseExternalRef(); // OpaqueDeviceMemoryDataPointer is stable only while an external reference is held
  const opaque = buf.opaqueDeviceMemoryDataPointer();
  check.ok(opaque !== null, 'OpaqueDeviceMemoryDataPointer of a live buffer', 'an address', 'NULL');
  check.equal(buf.unsafePointer(), opaque, 'UnsafePointer and OpaqueDeviceMemoryDataPointer should name the same memory (JAX hands out both as the data address)');
  buf.decreaseExternalRef();
}));

t.case('view_over_unsafe_pointer', {
  source: 'quality',
  cite: 'PJRT_Buffer_UnsafePointer: "platform-dependent address … often but not guaranteed to be the physical/device address"; JAX publishes it as the data address of __cuda_array_interface__, whose consumers read the array there, so it should be where the bytes are',
  catches: ['unsafe_pointer_wrong'],
  requires: { slots: ['PJRT_Buffer_UnsafePointer', VIEW, 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  const host = pattern(dtype('f32'), [32]);
  const buf = await ctx.client.upload(host, { dtype: 'f32', dims: [32], device: ctx.device });
  buf.increaseExternalRef();
  const view = ctx.client.createViewOfDeviceBuffer(buf.unsafePointer(), { dtype: 'f32', dims: [32], device: ctx.device });
  check.bytes(await view.toHost(), host, 'the memory at UnsafePointer should hold the buffer\'s bytes');
  view.destroy();
  buf.decreaseExternalRef();
}));

t.case('is_on_cpu_consistent', {
  source: 'framework',
  cite: 'PJRT_Buffer_IsOnCpu: "Whether this buffer is on CPU and thus allows for certain optimizations"; jaxlib\'s Python buffer protocol (py_array.cc) accepts only IsOnCpu buffers and reads their bytes in place at the external reference\'s OpaqueDeviceMemoryDataPointer',
  catches: ['opaque_pointer_wrong'],
  requires: { slots: ['PJRT_Buffer_IsOnCpu', 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  const host = pattern(dtype('u8'), [64]);
  const buf = await ctx.client.upload(host, { dtype: 'u8', dims: [64], device: ctx.device });
  if (!buf.isOnCpu()) return ctx.skip('IsOnCpu is false: the buffer\'s memory need not be host-readable, so there is nothing to check');
  buf.increaseExternalRef();
  const ptr = buf.opaqueDeviceMemoryDataPointer();
  check.ok(ptr !== null, 'OpaqueDeviceMemoryDataPointer of a live buffer', 'an address', 'NULL');
  check.bytes(readNative(ptr, host.length), host, 'a buffer that reports IsOnCpu must hold its bytes in host memory at its OpaqueDeviceMemoryDataPointer (what JAX\'s buffer protocol reads)');
  buf.decreaseExternalRef();
}));

t.case('external_ref_increase_decrease', {
  source: 'header',
  cite: 'PJRT_Buffer_DecreaseExternalReferenceCount: "Returns an error if the reference count is zero (i.e. PJRT_Buffer_IncreaseExternalReferenceCount is not called beforehand)" — no code named, so any error',
  control: 'a matching Increase/Decrease pair on the same buffer succeeds first',
  catches: ['decrease_ref_below_zero_ok'],
  requires: { slots: ['PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('u8'), [8]), { dtype: 'u8', dims: [8] });
  await check.control('IncreaseExternalReferenceCount then DecreaseExternalReferenceCount', () => {
    buf.increaseExternalRef();
    buf.decreaseExternalRef();
  });
  await check.rejects(() => buf.decreaseExternalRef(), 'DecreaseExternalReferenceCount with the count at zero must return an error');
}));

t.case('external_ref_keeps_memory', {
  source: 'header',
  cite: 'PJRT_Buffer_IncreaseExternalReferenceCount: the raw buffer data "is being shared with another framework (e.g. NumPy, dlpack) and should not be deleted or moved by the PJRT implementation"; OpaqueDeviceMemoryDataPointer stays valid while "the external reference count is greater than 0"',
  catches: ['external_ref_ignored', 'opaque_pointer_wrong'],
  requires: { slots: ['PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount', VIEW] },
}).run(optional(async (ctx) => {
  const host = pattern(dtype('s32'), [4096]);
  const buf = await ctx.client.upload(host, { dtype: 's32', dims: [4096], device: ctx.device });
  buf.increaseExternalRef();
  const ptr = buf.opaqueDeviceMemoryDataPointer()!;
  buf.delete();
  // memory churn that would reuse freed storage
  for (let i = 0; i < 8; i++) await ctx.client.upload(new Uint8Array(4096 * 4).fill(0xee), { dtype: 's32', dims: [4096], device: ctx.device });
  const view = ctx.client.createViewOfDeviceBuffer(ptr, { dtype: 's32', dims: [4096], device: ctx.device });
  check.bytes(await view.toHost(), host, 'an outstanding external reference must keep the memory (and its bytes) alive after PJRT_Buffer_Delete');
  view.destroy();
  buf.decreaseExternalRef();
}));

t.case('view_without_delete_callback', {
  source: 'header',
  cite: 'PJRT_Client_CreateViewOfDeviceBuffer_Args.on_delete_callback: "A callback to be performed when the PJRT_Buffer is done with the on-device buffer. This callback is optional and can be a nullptr" — a view made without one is read and destroyed like any other buffer, and the memory it viewed is left as it was',
  catches: ['view_null_delete_callback_called'],
  requires: { slots: [VIEW, 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  // Every other view of the CTS passes a callback, as frameworks do (jaxlib's DLPack import releases the exporter in
  // it): this case alone asks whether NULL, which the header allows, is handled.
  const host = pattern(dtype('u8'), [128]);
  const buf = await ctx.client.upload(host, { dtype: 'u8', dims: [128], device: ctx.device });
  buf.increaseExternalRef();
  const ptr = buf.opaqueDeviceMemoryDataPointer();
  check.ok(ptr !== null, 'OpaqueDeviceMemoryDataPointer must be non-null for a live buffer', 'an address', 'NULL');
  const { buffer: view } = ctx.client.createViewOfDeviceBuffer({ pointer: ptr, dtype: 'u8', dims: [128], device: ctx.device, onDelete: false });
  check.bytes(await view.toHost(), host, 'a view made without an on_delete_callback must show the bytes of the memory it views');
  view.destroy();
  await drainRelayedCallbacks();
  check.bytes(await buf.toHost(), host, 'destroying a view without an on_delete_callback must leave the viewed buffer intact');
  buf.decreaseExternalRef();
}));

/** A kImmutableZeroCopy buffer over aligned host memory the test owns; `aliased`: the buffer's data is that memory. */
async function zeroCopyBuffer(ctx: Ctx) {
  const host = pattern(dtype('f32'), [16]);
  const mem = allocateHostMemory(host.length, { scope: ctx.scope });
  mem.view().set(host);
  const { buffer, doneWithHost } = await ctx.client.bufferFromHost(mem.view(), { dtype: 'f32', dims: [16], semantics: 'kImmutableZeroCopy', device: ctx.device });
  await buffer.readyEvent().await();
  buffer.increaseExternalRef();
  const ptr = buffer.opaqueDeviceMemoryDataPointer();
  buffer.decreaseExternalRef();
  return { buffer, doneWithHost, mem, aliased: ptr === mem.address, ptr };
}

t.case('zero_copy_aliases_cpu_memory', {
  source: 'quality',
  cite: 'PJRT_HostBufferSemantics_kImmutableZeroCopy: the buffer "may alias `data`" — a copy conforms, but a CPU plugin that never aliases aligned host memory makes every zero-copy transfer (jax.device_put of numpy arrays on CPU) a full copy',
  catches: ['zero_copy_copies'],
  requires: { slots: ['PJRT_Buffer_IsOnCpu', 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  if (!(await deviceIsOnCpu(ctx))) return ctx.skip('the device\'s buffers are not in host memory: zero-copy of host memory cannot alias there');
  const { buffer, doneWithHost, mem, ptr } = await zeroCopyBuffer(ctx);
  check.equal(ptr, mem.address, 'kImmutableZeroCopy of 256-byte-aligned dense host memory on a CPU device should alias it (the buffer\'s data pointer is the host address)');
  buffer.delete();
  await doneWithHost.await();
}));

t.case('zero_copy_done_waits_for_buffer', {
  source: 'header',
  cite: 'PJRT_HostBufferSemantics_kImmutableZeroCopy: "The PjRtBuffer may alias `data` … The caller promises to keep `data` alive … as long as the buffer is alive; to notify the caller that the buffer may be freed, the runtime will call `done_with_host_buffer` when the PjRtBuffer is freed"',
  catches: ['zero_copy_done_early'],
  requires: { slots: ['PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  const { buffer, doneWithHost, aliased } = await zeroCopyBuffer(ctx);
  if (!aliased) {
    buffer.delete();
    await doneWithHost.await();
    return ctx.skip('the plugin copied the host data (allowed): done_with_host_buffer may then fire at once');
  }
  check.equal(doneWithHost.isReady(), false, 'a zero-copy buffer that aliases the host memory must not fire done_with_host_buffer while it is alive (the caller would free memory in use)');
  buffer.delete();
  await doneWithHost.await(); // and it must fire once the buffer is gone
}));

/** A view over host memory the test owns (aligned), on a CPU device. */
async function ownedView(ctx: Ctx) {
  const first = pattern(dtype('s32'), [64]);
  const mem = allocateHostMemory(first.byteLength, { scope: ctx.scope });
  mem.view().set(first);
  const { buffer } = ctx.client.createViewOfDeviceBuffer({ pointer: mem.address, dtype: 's32', dims: [64], device: ctx.device });
  return { first, mem, buffer };
}

t.case('view_over_owned_memory', {
  source: 'header',
  cite: 'PJRT_Client_CreateViewOfDeviceBuffer: "Creates a PJRT buffer that is a non-owned view of an on-device buffer" — the view shows the bytes of the memory it views, and holds no copy of its own (its data pointer is the viewed address)',
  catches: ['view_copies_memory'],
  requires: { slots: [VIEW, 'PJRT_Buffer_IsOnCpu', 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  if (!(await deviceIsOnCpu(ctx))) return ctx.skip('the device\'s buffers are not in host memory: host memory the test owns is not device memory there');
  const { first, mem, buffer } = await ownedView(ctx);
  check.bytes(await buffer.toHost(), first, 'a view must show the bytes of the memory it views');
  buffer.increaseExternalRef();
  const ptr = buffer.opaqueDeviceMemoryDataPointer();
  buffer.decreaseExternalRef();
  check.equal(ptr, mem.address, 'a non-owned view must be over the memory it was given (OpaqueDeviceMemoryDataPointer = device_buffer_ptr), not a copy');
}));

t.case('view_sees_later_writes', {
  source: 'header',
  cite: 'PJRT_Client_CreateViewOfDeviceBuffer: "a non-owned view of an on-device buffer … The buffer may be mutated" — a view aliases the memory, so a write to that memory after the view was made is visible through it',
  catches: ['view_copies_memory'],
  requires: { slots: [VIEW, 'PJRT_Buffer_IsOnCpu'] },
}).run(optional(async (ctx) => {
  if (!(await deviceIsOnCpu(ctx))) return ctx.skip('the device\'s buffers are not in host memory: host memory the test owns is not device memory there');
  const { first, mem, buffer } = await ownedView(ctx);
  check.bytes(await buffer.toHost(), first, 'a view must show the bytes of the memory it views');
  const second = first.map((b) => b ^ 0x5a);
  mem.view().set(second);
  check.bytes(await buffer.toHost(), second, 'a view must alias the memory it views (a later write must be visible through it), not copy it');
}));

/** A view (with the CTS's counting on-delete callback) over the memory of a plugin buffer kept alive by an external reference. */
async function viewOfBuffer(ctx: Ctx, host: Uint8Array, dims: number[]) {
  const buf = await ctx.client.upload(host, { dtype: 'u8', dims, device: ctx.device });
  buf.increaseExternalRef();
  const ptr = buf.opaqueDeviceMemoryDataPointer();
  check.ok(ptr !== null, 'OpaqueDeviceMemoryDataPointer must be non-null for a live buffer', 'an address', 'NULL');
  const view: DeviceBufferView = ctx.client.createViewOfDeviceBuffer({ pointer: ptr, dtype: 'u8', dims, device: ctx.device });
  return { buf, ptr, view };
}

t.case('view_on_delete_called_once', {
  source: 'header',
  cite: 'PJRT_Client_CreateViewOfDeviceBuffer_Args.on_delete_callback: "A callback to be performed when the PJRT_Buffer is done with the on-device buffer", declared as on_delete_callback(void* device_buffer_ptr, void* user_arg)',
  catches: ['view_delete_callback_never', 'view_delete_callback_twice'],
  requires: { slots: [VIEW, 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  const host = pattern(dtype('u8'), [96]);
  const { buf, ptr, view } = await viewOfBuffer(ctx, host, [96]);
  await drainRelayedCallbacks();
  check.equal(view.deleteCallbackCount(), 0, 'on_delete_callback must not be called while the view is alive (the view is not done with the memory)');
  view.buffer.destroy();
  // the plugin may call it later, from its own thread
  check.equal(await view.settledDeleteCallbackCount(), 1, 'on_delete_callback must be called exactly once when the view buffer is destroyed');
  check.equal(view.deleteCallbackPointers()[0], ptr, 'on_delete_callback must receive the device_buffer_ptr of the view');
  buf.decreaseExternalRef();
}));

t.case('dlpack_round_trip', {
  source: 'framework',
  cite: 'jaxlib dlpack.cc / torch_xla dl_convertor.cc export a buffer as an external reference plus OpaqueDeviceMemoryDataPointer and import one with PJRT_Client_CreateViewOfDeviceBuffer whose on_delete_callback releases the exporter; the round trip must show the same bytes and release exactly once',
  catches: ['opaque_pointer_wrong', 'view_delete_callback_never', 'view_delete_callback_twice'],
  requires: { slots: [VIEW, 'PJRT_Buffer_IncreaseExternalReferenceCount', 'PJRT_Buffer_DecreaseExternalReferenceCount'] },
}).run(optional(async (ctx) => {
  // export: hold an external reference and hand out the data pointer; import: a view whose on_delete drops the reference
  const host = pattern(dtype('u8'), [256]);
  const { buf, view } = await viewOfBuffer(ctx, host, [16, 16]);
  check.bytes(await view.buffer.toHost(), host, 'the imported view must hold the exported buffer\'s bytes');
  view.buffer.destroy();
  check.equal(await view.settledDeleteCallbackCount(), 1, 'destroying the imported view must call its deleter exactly once');
  buf.decreaseExternalRef();
  check.bytes(await buf.toHost(), host, 'the exported buffer must be intact after the import is released');
}));

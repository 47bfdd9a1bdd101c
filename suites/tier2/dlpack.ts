// Tier 2 — DLPack-style interop: IsOnCpu, raw pointers, external references, views of device memory,
// zero-copy host buffers. Memory is never read through a raw address: a view over the address is read instead.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { dtype, pattern } from '../_lib/patterns.js';

const t = area('tier2.dlpack', { tier: 2, requires: { slots: ['PJRT_Buffer_OpaqueDeviceMemoryDataPointer'] } });

t.case('pointers_agree', { catches: ['unsafe_pointer_wrong'], requires: { slots: ['PJRT_Buffer_UnsafePointer'] } }).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [32]), { dtype: 'f32', dims: [32] });
  const opaque = buf.opaqueDeviceMemoryDataPointer();
  check.ok(opaque !== null, 'OpaqueDeviceMemoryDataPointer must be non-null for a live buffer', 'an address', 'NULL');
  check.equal(buf.unsafePointer(), opaque, 'UnsafePointer and OpaqueDeviceMemoryDataPointer must name the same memory');
});

t.case('view_over_unsafe_pointer', { catches: ['unsafe_pointer_wrong', 'view_copies_memory'], requires: { slots: ['PJRT_Buffer_UnsafePointer', 'PJRT_Client_CreateViewOfDeviceBuffer'] } }).run(
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

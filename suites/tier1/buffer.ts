// Tier 1 — buffer metadata, deletion and copies between devices and memories.
// Data is read back into destinations sized from the buffer's dtype and dims (no ToHostBuffer size query: that is
// tier1.transfer.to_host_size_query).
import { area, params, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';
import { byteSize, dtype, pattern } from '../_lib/patterns.js';
import { shape } from '../_lib/shapes.js';
import { uploadOrUnsupported } from '../_lib/transfer.js';

const t = area('tier1.buffer', { tier: 1, requires: { slots: ['PJRT_Client_BufferFromHostBuffer'] } });

/** Asymmetric shapes so reversed dims show. */
const META_SHAPES = [shape(2, 3), shape(4, 1, 5), shape(3, 2, 2, 5)];
const META_DTYPES = ['pred', 's8', 'u16', 's32', 'u64', 'f16', 'bf16', 'f32', 'f64'];
const metaRows = params().combine('dt', META_DTYPES).combine('shape', META_SHAPES).derive('dims', (p) => [...p.shape.dims]).rows();
type MetaRow = (typeof metaRows)[number];

/** The row's buffer: its dtype's pattern at its dims (a type the plugin lacks makes the case unsupported). */
const uploadRow = (ctx: CaseContext<MetaRow>) =>
  uploadOrUnsupported(ctx, ctx.client, pattern(dtype(ctx.p.dt), ctx.p.dims), { dtype: ctx.p.dt, dims: ctx.p.dims });

t.case('element_type', {
  description: 'PJRT_Buffer_ElementType reports the type the buffer was uploaded with',
  source: 'header',
  cite: 'PJRT_Buffer_ElementType: "Returns the type of the array elements of a buffer"; PJRT_Client_BufferFromHostBuffer_Args.type: "the type of the resulting output `buffer`"',
  catches: ['wrong_element_type'],
})
  .params(metaRows)
  .run(async (ctx) => {
    const buf = await uploadRow(ctx);
    check.equal(buf.elementType(), ctx.p.dt, 'PJRT_Buffer_ElementType must report the `type` the buffer was created with (BufferFromHostBuffer: "the type of the resulting output buffer")');
  });

t.case('dimensions', {
  description: 'PJRT_Buffer_Dimensions reports the dims the buffer was uploaded with',
  source: 'header',
  cite: 'PJRT_Buffer_Dimensions: "Returns the array shape of `buffer`, i.e. the size of each dimension"; BufferFromHostBuffer_Args.dims: "The array dimensions of `data`"',
  catches: ['wrong_dims'],
})
  .params(metaRows)
  .run(async (ctx) => {
    const buf = await uploadRow(ctx);
    check.equal(buf.dims(), ctx.p.dims, 'PJRT_Buffer_Dimensions must report the dims the buffer was created with ("the size of each dimension")');
  });

t.case('unpadded_dimensions', {
  description: 'PJRT_Buffer_UnpaddedDimensions equals the dims of a buffer without dynamic dimensions',
  source: 'header',
  cite: 'PJRT_Buffer_UnpaddedDimensions: "usually is equivalent to PJRT_Buffer_Dimensions" and differs only for "dynamic dimensions" (sizes known only at runtime); a buffer uploaded with fixed dims has none',
  catches: ['unpadded_dims_reversed'],
  requires: { slots: ['PJRT_Buffer_UnpaddedDimensions'] },
})
  .params(metaRows)
  .run(async (ctx) => {
    const buf = await uploadRow(ctx);
    check.equal(buf.unpaddedDims(), ctx.p.dims, 'PJRT_Buffer_UnpaddedDimensions of a buffer without dynamic dimensions must equal its dims (header: only dynamic dimensions may be smaller)');
  });

t.case('on_device_size', {
  description: 'PJRT_Buffer_OnDeviceSizeInBytes covers at least the packed data',
  source: 'header',
  cite: 'PJRT_Buffer_OnDeviceSizeInBytes: "Gets the number of bytes of the buffer storage on the device"; the storage holds the data, so it is at least the packed size of the elements',
  catches: ['on_device_size_zero'],
  requires: { slots: ['PJRT_Buffer_OnDeviceSizeInBytes'] },
})
  .params(metaRows)
  .run(async (ctx) => {
    const d = dtype(ctx.p.dt);
    const buf = await uploadRow(ctx);
    const size = buf.onDeviceSizeInBytes();
    const min = byteSize(d, ctx.p.dims);
    check.ok(size >= min, 'PJRT_Buffer_OnDeviceSizeInBytes ("the number of bytes of the buffer storage on the device") must cover the data it stores', `≥ ${min} (elements × element bits / 8)`, `${size}`);
  });

/**
 * The largest padding a real device layout applies: TPU tiles pad the two minor dimensions to at most 32 × 128
 * elements (int8/pred) or 8 × 128 (32-bit), so a degenerate [.., 1, 1] array can grow up to 4096-fold; allocators add
 * granularity (pages, alignment). Beyond 4096 × data + 1 MiB a small buffer's "storage size" is no layout's size:
 * it is an uninitialised or garbage answer.
 */
const PADDING_FACTOR = 4096;
const SLACK = 1 << 20;

t.case('on_device_size_bounded', {
  description: 'PJRT_Buffer_OnDeviceSizeInBytes is a plausible storage size, not garbage',
  source: 'quality',
  cite: 'PJRT_Buffer_OnDeviceSizeInBytes: "Gets the number of bytes of the buffer storage on the device" sets no upper bound, but no device layout pads a small array beyond 4096× its data plus 1 MiB of allocation slack (TPU tiles, 32×128 elements at most, are the largest padding in XLA): a larger answer is garbage a user would want flagged',
  catches: ['on_device_size_garbage'],
  requires: { slots: ['PJRT_Buffer_OnDeviceSizeInBytes'] },
})
  .params(metaRows)
  .run(async (ctx) => {
    const d = dtype(ctx.p.dt);
    const buf = await uploadRow(ctx);
    const size = buf.onDeviceSizeInBytes();
    const max = byteSize(d, ctx.p.dims) * PADDING_FACTOR + SLACK;
    check.ok(size <= max, 'PJRT_Buffer_OnDeviceSizeInBytes should be a storage size (quality: no layout pads this much); a value beyond any layout\'s padding is garbage', `≤ ${max} (data × ${PADDING_FACTOR} + 1 MiB)`, `${size}`);
  });

t.case('device_and_memory', {
  description: 'PJRT_Buffer_Device is the device the data was uploaded to',
  source: 'header',
  cite: 'PJRT_Buffer_Device: "Returns this buffer\'s storage device"; BufferFromHostBuffer_Args.device: "Device to copy host data to"',
  catches: ['buffer_device_wrong', 'crash_in=PJRT_Buffer_Device'],
  requires: { slots: ['PJRT_Buffer_Device'] },
}).run(async ({ client }) => {
  for (const device of client.addressableDevices()) {
    const buf = await client.upload(pattern(dtype('f32'), [3]), { dtype: 'f32', dims: [3], device });
    check.ok(same(buf.device(), device), 'PJRT_Buffer_Device ("this buffer\'s storage device") must be the device the host data was copied to', `device ${device.id}`, `device ${buf.device().id}`);
  }
});

t.case('default_memory', {
  description: 'a buffer uploaded without a memory lands in the device\'s default memory',
  source: 'header',
  cite: 'BufferFromHostBuffer_Args.memory: "If nullptr, host data will be copied to `device`"; PJRT_Device_DefaultMemory: "which memory data processed by this device should be stored in by default"; PJRT_Buffer_Memory: "Returns this buffer\'s storage memory"',
  catches: ['buffer_memory_wrong', 'crash_in=PJRT_Buffer_Memory'],
  requires: { slots: ['PJRT_Buffer_Memory', 'PJRT_Device_DefaultMemory'] },
}).run(async ({ client }) => {
  for (const device of client.addressableDevices()) {
    const buf = await client.upload(pattern(dtype('f32'), [3]), { dtype: 'f32', dims: [3], device });
    check.ok(same(buf.memory(), device.defaultMemory()), 'a buffer copied to a device (memory = NULL) is stored in the device\'s default memory (PJRT_Device_DefaultMemory)', `memory ${device.defaultMemory().id()}`, `memory ${buf.memory().id()}`);
  }
});

t.case('placed_in_memory', {
  description: 'a buffer uploaded to a memory reports that memory',
  source: 'header',
  cite: 'BufferFromHostBuffer_Args.memory: "otherwise we copy data to `memory`"; PJRT_Buffer_Memory: "Returns this buffer\'s storage memory"',
  catches: ['buffer_memory_wrong', 'crash_in=PJRT_Buffer_Memory'],
  requires: { slots: ['PJRT_Buffer_Memory'] },
}).run(async (ctx) => {
  for (const memory of ctx.device.addressableMemories()) {
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype('f32'), [3]), { dtype: 'f32', dims: [3], memory });
    check.ok(same(buf.memory(), memory), `a buffer created in memory '${memory.kind()}' must report it (PJRT_Buffer_Memory: "this buffer's storage memory")`, `memory ${memory.id()}`, `memory ${buf.memory().id()}`);
  }
});

t.case('delete_is_deleted', {
  description: 'PJRT_Buffer_IsDeleted is false before PJRT_Buffer_Delete and true after',
  source: 'header',
  cite: 'PJRT_Buffer_IsDeleted: "True if and only if PJRT_Buffer_Delete has previously been called"',
  catches: ['is_deleted_stale', 'buffer_delete_noop'],
  requires: { slots: ['PJRT_Buffer_Delete', 'PJRT_Buffer_IsDeleted'] },
}).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [4]), { dtype: 'f32', dims: [4] });
  check.equal(buf.isDeleted(), false, 'PJRT_Buffer_IsDeleted is "true if and only if PJRT_Buffer_Delete has previously been called": false before');
  buf.delete();
  check.equal(buf.isDeleted(), true, 'PJRT_Buffer_IsDeleted is "true if and only if PJRT_Buffer_Delete has previously been called": true after');
});

t.case('use_after_delete', {
  description: 'reading a deleted buffer is an error, not garbage or a crash',
  source: 'quality',
  cite: 'PJRT_Buffer_Delete allows only IsDeleted and Destroy afterwards, so reading a deleted buffer is outside the contract; XLA\'s plugins answer it with an error ("called on deleted or donated buffer"), which turns a user\'s use-after-free into a diagnosable error instead of garbage or a crash',
  control: 'ToHostBuffer of the same buffer, read while it is live, succeeds and returns its bytes',
  catches: ['use_after_delete_crashes', 'buffer_delete_noop'],
  requires: { slots: ['PJRT_Buffer_Delete'] },
}).run(async ({ client }) => {
  const host = pattern(dtype('f32'), [1024]);
  const buf = await client.upload(host, { dtype: 'f32', dims: [1024] });
  const live = await check.control('read the live buffer', () => buf.toHost({ dtype: 'f32', dims: [1024] }));
  check.bytes(live, host, 'positive control: the live buffer must read back its bytes');
  buf.delete();
  await check.rejects(() => buf.toHost({ dtype: 'f32', dims: [1024] }), 'reading a deleted buffer should return an error, not read freed memory (quality: XLA returns an error)');
});

t.case('metadata_after_delete', {
  description: 'element type and dims of a deleted buffer are still answered',
  source: 'quality',
  cite: 'PJRT_Buffer_Delete allows only IsDeleted and Destroy afterwards; XLA\'s wrapper still answers ElementType/Dimensions of a deleted buffer (the shape outlives the storage), which callers that keep the handle for error messages or bookkeeping use',
  catches: ['wrong_dims', 'wrong_element_type'],
  requires: { slots: ['PJRT_Buffer_Delete'] },
}).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('s32'), [2, 5]), { dtype: 's32', dims: [2, 5] });
  buf.delete();
  check.equal(buf.elementType(), 's32', 'the element type should stay queryable after Delete (quality: XLA keeps it)');
  check.equal(buf.dims(), [2, 5], 'the dims should stay queryable after Delete (quality: XLA keeps them)');
});

t.case('copy_to_device', {
  description: 'PJRT_Buffer_CopyToDevice puts the copy on the destination device',
  source: 'header',
  cite: 'PJRT_Buffer_CopyToDevice: "Copies the buffer to device `dst_device` within the same client"',
  catches: ['copy_to_device_wrong_device'],
  requires: { slots: ['PJRT_Buffer_CopyToDevice'] },
}).run(async (ctx) => {
  const devices = ctx.client.addressableDevices();
  if (devices.length < 2) return ctx.skip('needs two addressable devices');
  const src = await ctx.client.upload(pattern(dtype('f32'), [6, 2]), { dtype: 'f32', dims: [6, 2], device: devices[0]! });
  for (const target of devices.slice(1)) {
    const dst = await src.copyToDevice(target);
    check.ok(same(dst.device(), target), 'PJRT_Buffer_CopyToDevice ("copies the buffer to device dst_device") must return a buffer on the target device', `device ${target.id}`, `device ${dst.device().id}`);
  }
});

t.case('copy_to_device_data', {
  description: 'PJRT_Buffer_CopyToDevice copies the values and leaves the source intact',
  source: 'header',
  cite: 'PJRT_Buffer_CopyToDevice: "Copies the buffer to device `dst_device`": the copy holds the same values and the source is left as it was',
  catches: ['d2h_wrong_for_dtype=f32'],
  requires: { slots: ['PJRT_Buffer_CopyToDevice'] },
}).run(async (ctx) => {
  const devices = ctx.client.addressableDevices();
  if (devices.length < 2) return ctx.skip('needs two addressable devices');
  const host = pattern(dtype('f32'), [6, 2]);
  const src = await ctx.client.upload(host, { dtype: 'f32', dims: [6, 2], device: devices[0]! });
  for (const target of devices.slice(1)) {
    const dst = await src.copyToDevice(target);
    check.bytes(await dst.toHost({ dtype: 'f32', dims: [6, 2] }), host, `a copy (PJRT_Buffer_CopyToDevice to device ${target.id}) must hold the same bytes`);
  }
  check.bytes(await src.toHost({ dtype: 'f32', dims: [6, 2] }), host, 'the source of a copy must be unchanged');
});

t.case('copy_to_memory', {
  description: 'PJRT_Buffer_CopyToMemory puts the copy in the destination memory',
  source: 'header',
  cite: 'PJRT_Buffer_CopyToMemory: "Copies the buffer to memory `dst_memory` within the same client"',
  catches: ['copy_to_memory_ignored'],
  requires: { slots: ['PJRT_Buffer_CopyToMemory'] },
}).run(async (ctx) => {
  const memories = ctx.device.addressableMemories();
  if (memories.length < 2) return ctx.skip('needs two memories on the device');
  const src = await ctx.client.upload(pattern(dtype('u8'), [33]), { dtype: 'u8', dims: [33], memory: ctx.device.defaultMemory() });
  for (const m of memories.filter((x) => !same(x, ctx.device.defaultMemory()))) {
    const dst = await src.copyToMemory(m);
    check.ok(same(dst.memory(), m), 'PJRT_Buffer_CopyToMemory ("copies the buffer to memory dst_memory") must return a buffer in the target memory', `memory ${m.id()} (${m.kind()})`, `memory ${dst.memory().id()} (${dst.memory().kind()})`);
  }
});

t.case('copy_to_memory_data', {
  description: 'PJRT_Buffer_CopyToMemory copies the values',
  source: 'header',
  cite: 'PJRT_Buffer_CopyToMemory: "Copies the buffer to memory `dst_memory`": the copy holds the same values',
  catches: ['d2h_wrong_for_dtype=u8'],
  requires: { slots: ['PJRT_Buffer_CopyToMemory'] },
}).run(async (ctx) => {
  const memories = ctx.device.addressableMemories();
  if (memories.length < 2) return ctx.skip('needs two memories on the device');
  const host = pattern(dtype('u8'), [33]);
  const src = await ctx.client.upload(host, { dtype: 'u8', dims: [33], memory: ctx.device.defaultMemory() });
  for (const m of memories.filter((x) => !same(x, ctx.device.defaultMemory()))) {
    const dst = await src.copyToMemory(m);
    check.bytes(await dst.toHost({ dtype: 'u8', dims: [33] }), host, `a copy to memory '${m.kind()}' must hold the same bytes`);
  }
});

t.case('ready_event', {
  description: 'PJRT_Buffer_ReadyEvent completes without error for an uploaded buffer',
  source: 'header',
  cite: 'PJRT_Buffer_ReadyEvent: "an event that is triggered when ... the data in the PJRT_Buffer becomes ready, or an error has occurred"; PJRT_Event_IsReady: "Returns true if this PJRT_Event has completed"; PJRT_Event_Error: nullptr for no error',
  catches: ['event_never_ready'],
  requires: { slots: ['PJRT_Buffer_ReadyEvent'] },
}).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [4]), { dtype: 'f32', dims: [4] });
  const ev = buf.readyEvent();
  await ev.await();
  check.equal(ev.isReady(), true, 'after PJRT_Event_Await returns, PJRT_Event_IsReady ("has completed") must be true');
  check.equal(ev.error(), null, 'the ready event of a successful transfer must carry no error (PJRT_Event_Error)');
});

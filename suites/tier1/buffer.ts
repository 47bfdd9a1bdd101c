// Tier 1 — buffer metadata, deletion and copies between devices and memories.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';
import { byteSize, dtype, pattern } from '../_lib/patterns.js';
import { shape } from '../_lib/shapes.js';
import { uploadOrUnsupported } from '../_lib/transfer.js';

const t = area('tier1.buffer', { tier: 1, requires: { slots: ['PJRT_Client_BufferFromHostBuffer'] } });

/** Asymmetric shapes so reversed dims show. */
const META_SHAPES = [shape(2, 3), shape(4, 1, 5), shape(3, 2, 2, 5)];
const META_DTYPES = ['pred', 's8', 'u16', 's32', 'u64', 'f16', 'bf16', 'f32', 'f64'];
const metaRows = META_DTYPES.flatMap((dt) => META_SHAPES.map((s) => ({ id: `${dt}.${s.id}`, dt, dims: [...s.dims] })));

t.case('element_type', { catches: ['wrong_element_type'] })
  .params(metaRows)
  .run(async (ctx) => {
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype(ctx.p.dt), ctx.p.dims), { dtype: ctx.p.dt, dims: ctx.p.dims });
    check.equal(buf.elementType(), ctx.p.dt, 'PJRT_Buffer_ElementType must report the type the buffer was created with');
  });

t.case('dimensions', { catches: ['wrong_dims'] })
  .params(metaRows)
  .run(async (ctx) => {
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype(ctx.p.dt), ctx.p.dims), { dtype: ctx.p.dt, dims: ctx.p.dims });
    check.equal(buf.dims(), ctx.p.dims, 'PJRT_Buffer_Dimensions must report the dims the buffer was created with');
    check.equal(buf.unpaddedDims(), ctx.p.dims, 'PJRT_Buffer_UnpaddedDimensions of a static-shape buffer must equal its dims');
  });

t.case('on_device_size', { catches: ['on_device_size_zero'], requires: { slots: ['PJRT_Buffer_OnDeviceSizeInBytes'] } })
  .params(metaRows)
  .run(async (ctx) => {
    const d = dtype(ctx.p.dt);
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(d, ctx.p.dims), { dtype: ctx.p.dt, dims: ctx.p.dims });
    const size = buf.onDeviceSizeInBytes();
    check.ok(size >= byteSize(d, ctx.p.dims), 'PJRT_Buffer_OnDeviceSizeInBytes must be at least the dense size of the data', `≥ ${byteSize(d, ctx.p.dims)}`, `${size}`);
  });

t.case('device_and_memory', { catches: ['crash_in=PJRT_Client_BufferFromHostBuffer'], requires: { slots: ['PJRT_Buffer_Device', 'PJRT_Buffer_Memory'] } }).run(
  async ({ client }) => {
    for (const device of client.addressableDevices()) {
      const buf = await client.upload(pattern(dtype('f32'), [3]), { dtype: 'f32', dims: [3], device });
      check.ok(same(buf.device(), device), 'PJRT_Buffer_Device must be the device the buffer was placed on', `device ${device.id}`, `device ${buf.device().id}`);
      check.ok(same(buf.memory(), device.defaultMemory()), 'a buffer placed on a device lives in its default memory', `memory ${device.defaultMemory().id()}`, `memory ${buf.memory().id()}`);
    }
  },
);

t.case('placed_in_memory', { catches: ['crash_in=PJRT_Buffer_Memory'], requires: { slots: ['PJRT_Buffer_Memory'] } }).run(async (ctx) => {
  for (const memory of ctx.device.addressableMemories()) {
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype('f32'), [3]), { dtype: 'f32', dims: [3], memory });
    check.ok(same(buf.memory(), memory), `a buffer created in memory '${memory.kind()}' must report it`, `memory ${memory.id()}`, `memory ${buf.memory().id()}`);
  }
});

t.case('delete_is_deleted', { catches: ['is_deleted_stale'], requires: { slots: ['PJRT_Buffer_Delete', 'PJRT_Buffer_IsDeleted'] } }).run(
  async ({ client }) => {
    const buf = await client.upload(pattern(dtype('f32'), [4]), { dtype: 'f32', dims: [4] });
    check.equal(buf.isDeleted(), false, 'a fresh buffer must not report IsDeleted');
    buf.delete();
    check.equal(buf.isDeleted(), true, 'PJRT_Buffer_IsDeleted must be true after PJRT_Buffer_Delete');
  },
);

t.case('use_after_delete', { catches: ['use_after_delete_crashes'], requires: { slots: ['PJRT_Buffer_Delete'] } }).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [1024]), { dtype: 'f32', dims: [1024] });
  buf.delete();
  await check.rejects(() => buf.toHost(), 'ToHostBuffer of a deleted buffer must return an error, not read freed memory');
});

t.case('metadata_after_delete', { catches: ['wrong_dims', 'wrong_element_type'], requires: { slots: ['PJRT_Buffer_Delete'] } }).run(
  async ({ client }) => {
    const buf = await client.upload(pattern(dtype('s32'), [2, 5]), { dtype: 's32', dims: [2, 5] });
    buf.delete();
    check.equal(buf.elementType(), 's32', 'element type must stay queryable after Delete');
    check.equal(buf.dims(), [2, 5], 'dims must stay queryable after Delete');
  },
);

t.case('copy_to_device', { catches: ['copy_to_device_wrong_device'], requires: { slots: ['PJRT_Buffer_CopyToDevice'] } }).run(async (ctx) => {
  const devices = ctx.client.addressableDevices();
  if (devices.length < 2) return ctx.skip('needs two addressable devices');
  const host = pattern(dtype('f32'), [6, 2]);
  const src = await ctx.client.upload(host, { dtype: 'f32', dims: [6, 2], device: devices[0]! });
  for (const target of devices.slice(1)) {
    const dst = await src.copyToDevice(target);
    check.ok(same(dst.device(), target), 'PJRT_Buffer_CopyToDevice must return a buffer on the target device', `device ${target.id}`, `device ${dst.device().id}`);
    check.bytes(await dst.toHost(), host, 'a copy must hold the same bytes');
  }
  check.bytes(await src.toHost(), host, 'the source of a copy must be unchanged');
});

t.case('copy_to_memory', { catches: ['copy_to_memory_ignored'], requires: { slots: ['PJRT_Buffer_CopyToMemory'] } }).run(async (ctx) => {
  const memories = ctx.device.addressableMemories();
  if (memories.length < 2) return ctx.skip('needs two memories on the device');
  const host = pattern(dtype('u8'), [33]);
  const src = await ctx.client.upload(host, { dtype: 'u8', dims: [33], memory: ctx.device.defaultMemory() });
  for (const m of memories.filter((x) => !same(x, ctx.device.defaultMemory()))) {
    const dst = await src.copyToMemory(m);
    check.ok(same(dst.memory(), m), 'PJRT_Buffer_CopyToMemory must return a buffer in the target memory', `memory ${m.id()} (${m.kind()})`, `memory ${dst.memory().id()} (${dst.memory().kind()})`);
    check.bytes(await dst.toHost(), host, 'a copy to another memory must hold the same bytes');
  }
});

t.case('ready_event', { catches: ['event_never_ready'], requires: { slots: ['PJRT_Buffer_ReadyEvent'] } }).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [4]), { dtype: 'f32', dims: [4] });
  const ev = buf.readyEvent();
  await ev.await();
  check.equal(ev.isReady(), true, 'after Await returns, IsReady must be true');
  check.equal(ev.error(), null, 'a successful transfer must leave no error on its ready event');
});

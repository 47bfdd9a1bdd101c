// Tier 2 — asynchronous host-to-device transfers (PJRT_Client_CreateBuffersForAsyncHostToDevice and the
// PJRT_AsyncHostToDeviceTransferManager_* slots), how JAX moves large arrays. The header documents only Destroy;
// the rest is specified by what XLA's C-API client and the C++ interface it wraps
// (PjRtClient::AsyncHostToDeviceTransferManager in xla/pjrt/pjrt_client.h) say, hence `source: 'framework'`.
// TransferData takes data "already laid out in the correct on-device format, for example returned by a call to
// buffer->CopyRawToHost": the data cases make that image with PJRT_Buffer_CopyRawToHost of an uploaded buffer, so
// they hold on any device layout.
import { area, type CaseContext } from '../../src/harness/index.js';
import { copyRawToHost, TransferManager, type Memory, type ShapeSpec } from '../../src/pjrt/index.js';
import { awaitReady } from '../_lib/async.js';
import * as check from '../_lib/check.js';
import { dtype, pattern } from '../_lib/patterns.js';
import { uploadOrUnsupported } from '../_lib/transfer.js';

const CREATE = 'PJRT_Client_CreateBuffersForAsyncHostToDevice';
const TM = 'PJRT_AsyncHostToDeviceTransferManager';
const t = area('tier2.async_transfer', {
  tier: 2,
  requires: { slots: [CREATE, `${TM}_Destroy`, `${TM}_RetrieveBuffer`] },
});

const RAW = 'PJRT_Buffer_CopyRawToHost';
const TRANSFER_DATA = `${TM}_TransferData`;
const MANAGER_INTERFACE = 'xla/pjrt/pjrt_client.h, PjRtClient::AsyncHostToDeviceTransferManager';
const OPTIONAL = `PjRtClient::CreateBuffersForAsyncHostToDevice's default answer is UNIMPLEMENTED ("not implemented on platform"), so a platform may lack it`;

type Ctx = CaseContext<unknown>;
/** The case body, with UNIMPLEMENTED from CreateBuffersForAsyncHostToDevice turned into `unsupported`. */
const optional = (body: (ctx: Ctx) => Promise<void>) => (ctx: Ctx) => check.unimplementedIsUnsupported(ctx, OPTIONAL, () => body(ctx));

const F32: ShapeSpec = { dtype: 'f32', dims: [16, 8] };
const S8: ShapeSpec = { dtype: 's8', dims: [3, 5] };

function manager(ctx: Ctx, specs: readonly ShapeSpec[], memory: Memory = ctx.device.defaultMemory()): Promise<TransferManager> {
  return TransferManager.create(ctx.client, specs, memory);
}

/** Host data of `spec` and its on-device image (PJRT_Buffer_CopyRawToHost of the same data, uploaded). */
async function deviceImage(ctx: Ctx, spec: ShapeSpec): Promise<{ host: Uint8Array; raw: Uint8Array }> {
  const host = pattern(dtype(spec.dtype), spec.dims);
  const src = await uploadOrUnsupported(ctx, ctx.client, host, { dtype: spec.dtype, dims: spec.dims, device: ctx.device });
  const raw = await copyRawToHost(src, 0, src.onDeviceSizeInBytes());
  src.destroy();
  return { host, raw };
}

t.case('buffer_count', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: buffer_count() "Returns the number of buffers managed by this object" — one per shape spec passed to CreateBuffersForAsyncHostToDevice`,
  catches: ['h2d_manager_count_wrong'],
  requires: { slots: [`${TM}_BufferCount`] },
}).run(optional(async (ctx) => {
  const tm = await manager(ctx, [F32, S8, F32]);
  check.equal(tm.bufferCount(), 3, 'PJRT_AsyncHostToDeviceTransferManager_BufferCount must equal the number of shape specs');
}));

t.case('retrieved_shapes', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: RetrieveBuffer "Returns buffer_index" (the buffer of that shape spec) and "can be called at any convenient time" — retrieved in any order, each buffer has its spec's element type and dims`,
  catches: ['h2d_manager_retrieve_in_order', 'h2d_manager_dims_reversed'],
}).run(optional(async (ctx) => {
  const specs = [F32, S8];
  const tm = await manager(ctx, specs);
  for (const i of [1, 0]) {
    const b = tm.retrieveBuffer(i);
    check.equal(b.elementType(), specs[i]!.dtype, `RetrieveBuffer(${i}) must return the buffer of shape spec ${i} (element type)`);
    check.ok(check.deepEqual(b.dims(), [...specs[i]!.dims]), `RetrieveBuffer(${i}) must return the buffer of shape spec ${i} (dims)`, JSON.stringify(specs[i]!.dims), JSON.stringify(b.dims()));
  }
}));

t.case('buffer_size_is_on_device_size', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: buffer_size(i) "Returns the on-device size in bytes of buffer buffer_index" — what PJRT_Buffer_OnDeviceSizeInBytes says of the retrieved buffer`,
  catches: ['h2d_manager_size_in_elements'],
  requires: { slots: [`${TM}_BufferSize`, 'PJRT_Buffer_OnDeviceSizeInBytes'] },
}).run(optional(async (ctx) => {
  const tm = await manager(ctx, [F32, S8]);
  for (const i of [0, 1]) {
    const size = tm.bufferSize(i);
    check.equal(size, tm.retrieveBuffer(i).onDeviceSizeInBytes(), `BufferSize(${i}) must equal PJRT_Buffer_OnDeviceSizeInBytes of the buffer RetrieveBuffer(${i}) returns`);
  }
}));

t.case('device_of_memory', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: device() "Returns the destination device of the transfers" — the device of the memory the buffers were created in (PJRT_Memory_AddressableByDevices), where the retrieved buffers live (PJRT_Buffer_Device)`,
  catches: ['h2d_manager_device_wrong'],
  requires: { slots: [`${TM}_Device`, 'PJRT_Buffer_Device'] },
}).run(optional(async (ctx) => {
  const dev = ctx.devices[ctx.devices.length - 1]!;
  const tm = await manager(ctx, [S8], dev.defaultMemory());
  const got = tm.device();
  check.ok(got === dev, 'PJRT_AsyncHostToDeviceTransferManager_Device must be the device of the manager\'s memory', `device ${dev.id}`, `device ${got.id}`);
  check.ok(tm.retrieveBuffer(0).device() === got, 'the retrieved buffer must be on the manager\'s device', `device ${got.id}`, 'another device');
}));

t.case('transfer_data_at_offsets', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: TransferRawDataToSubBuffer "Transfers 'data' into a sub-buffer of buffer_index starting at offset, of length transfer_size" — two chunks, the later one first, assemble the whole buffer`,
  catches: ['h2d_manager_ignores_offset'],
  requires: { slots: [TRANSFER_DATA, RAW] },
}).run(optional(async (ctx) => {
  const { host, raw } = await deviceImage(ctx, F32);
  const tm = await manager(ctx, [F32]);
  const b = tm.retrieveBuffer(0);
  const half = Math.floor(raw.length / 2);
  const second = await tm.transferData(0, raw.slice(half), half, false);
  await second.await();
  const first = await tm.transferData(0, raw.slice(0, half), 0, true);
  await first.await();
  await awaitReady(b);
  check.bytes(await b.toHost(), host, 'chunks transferred at their offsets must assemble the buffer (TransferData honours `offset`)');
}));

t.case('not_ready_before_last_transfer', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: TransferRawDataToSubBuffer "If is_last_transfer is false then the buffer remains unavailable to consumers after the transfer completes. If is_last_transfer is true then the buffer becomes available to consumers after the transfer completes"`,
  catches: ['h2d_manager_ready_before_last'],
  requires: { slots: [TRANSFER_DATA, RAW, 'PJRT_Event_IsReady'] },
}).run(optional(async (ctx) => {
  const { host, raw } = await deviceImage(ctx, F32);
  const tm = await manager(ctx, [F32]);
  const b = tm.retrieveBuffer(0);
  const half = Math.floor(raw.length / 2);
  const ready = b.readyEvent();
  await (await tm.transferData(0, raw.slice(0, half), 0, false)).await();
  await new Promise((r) => setTimeout(r, 50));
  check.equal(ready.isReady(), false, 'the buffer must not be ready after a transfer with is_last_transfer = false ("remains unavailable to consumers")');
  await (await tm.transferData(0, raw.slice(half), half, true)).await();
  await ready.await();
  check.bytes(await b.toHost(), host, 'after the last transfer the buffer holds every chunk');
}));

t.case('done_means_data_consumed', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: "'data' must remain in scope until on_done is called" (XLA's C API: done_with_h2d_transfer is that on_done) — once done_with_h2d_transfer fired the caller may reuse its memory`,
  catches: ['h2d_manager_done_before_copy'],
  requires: { slots: [TRANSFER_DATA, RAW] },
}).run(optional(async (ctx) => {
  const { host, raw } = await deviceImage(ctx, F32);
  const tm = await manager(ctx, [F32]);
  const b = tm.retrieveBuffer(0);
  const chunk = raw.slice();
  await (await tm.transferData(0, chunk, 0, true)).await();
  chunk.fill(0xee); // allowed once done_with_h2d_transfer fired
  await awaitReady(b);
  check.bytes(await b.toHost(), host, 'done_with_h2d_transfer may fire only after the plugin has read the data');
}));

const LITERAL: ShapeSpec = { dtype: 'f32', dims: [2, 3] };
/** A manager of one f32[2,3] buffer, that buffer, and the host literal for it. */
async function oneLiteral(ctx: Ctx) {
  const tm = await manager(ctx, [LITERAL]);
  return { host: pattern(dtype(LITERAL.dtype), LITERAL.dims), tm, b: tm.retrieveBuffer(0) };
}

t.case('transfer_literal', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: TransferLiteralToBuffer "Transfers 'literal' into buffer_index"; the buffer becomes available once the transfer completes ("on_done is called when the transfer is complete but before the buffers are made available")`,
  catches: [`crash_in=${TM}_TransferLiteral`],
  requires: { slots: [`${TM}_TransferLiteral`] },
}).run(optional(async (ctx) => {
  const { host, tm, b } = await oneLiteral(ctx);
  await (await tm.transferLiteral(0, host, LITERAL)).await();
  await awaitReady(b);
  check.bytes(await b.toHost(), host, 'a literal transferred with TransferLiteral must come back unchanged');
}));

t.case('transfer_literal_sub_byte', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: TransferLiteralToBuffer takes a host literal (sub-byte elements one per byte, as XLA literals hold them) and lays it out on the device, unlike TransferRawDataToBuffer whose data is "already laid out in the correct on-device format"`,
  catches: ['transfer_literal_unpacked'],
  requires: { slots: [`${TM}_TransferLiteral`] },
}).run(optional(async (ctx) => {
  const spec: ShapeSpec = { dtype: 's4', dims: [5, 3] };
  const host = pattern(dtype('s4'), spec.dims);
  // The element type must be supported at all (BufferFromHostBuffer), else the case is unsupported.
  (await uploadOrUnsupported(ctx, ctx.client, host, { dtype: 's4', dims: spec.dims, device: ctx.device })).destroy();
  const tm = await manager(ctx, [spec]);
  const b = tm.retrieveBuffer(0);
  await (await tm.transferLiteral(0, host, spec)).await();
  await awaitReady(b);
  check.bytes(await b.toHost(), host, 'an s4 literal transferred with TransferLiteral must come back unchanged (one element per host byte)');
}));

t.case('transfer_literal_null_layout', {
  source: 'quality',
  cite: `PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args.shape_layout carries no "If nullptr" (BufferFromHostBuffer's device_layout does: "If nullptr, the device layout is assumed to be a dense layout"), and XLA's C-API client always passes the literal's layout; a plugin that takes NULL as the dense default, or refuses it with an error, serves a C caller that leaves it out — XLA's wrapper CHECK-fails instead (BorrowingLiteral: LayoutUtil::HasLayout) and the process aborts`,
  catches: [`crash_in=${TM}_TransferLiteral`],
  requires: { slots: [`${TM}_TransferLiteral`] },
}).run(optional(async (ctx) => {
  const { host, tm, b } = await oneLiteral(ctx);
  const r = await check.okOrCleanError(async () => (await tm.transferLiteral(0, host, LITERAL, null)).await(), 'TransferLiteral with shape_layout = NULL should take the dense default or refuse it with an error (quality)');
  if (r.error !== undefined) return;
  await awaitReady(b);
  check.bytes(await b.toHost(), host, 'a literal transferred with shape_layout = NULL was taken, so it must be read as the dense default');
}));

t.case('set_buffer_error', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: SetBufferError "Indicates that a specific buffer should result in an error status" — the retrieved buffer's ready event fails with that error`,
  catches: ['h2d_manager_set_error_ignored'],
  requires: { slots: [`${TM}_SetBufferError`] },
}).run(optional(async (ctx) => {
  const tm = await manager(ctx, [S8, S8]);
  const b = tm.retrieveBuffer(1);
  tm.setBufferError(1, { code: 'DATA_LOSS', message: 'cts: injected transfer error' });
  const ready = b.readyEvent();
  const e = await check.rejects(() => ready.await(), 'the ready event of a buffer given SetBufferError must fail with that error');
  check.equal(e.codeName, 'DATA_LOSS', 'the buffer\'s error must carry the code passed to SetBufferError');
}));

t.case('retrieved_buffers_outlive_manager', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: RetrieveBuffer returns a std::unique_ptr<PjRtBuffer> the caller owns (XLA's C API wraps it in a PJRT_Buffer the caller destroys) — destroying the manager (PJRT_AsyncHostToDeviceTransferManager_Destroy "Frees transfer_manager") leaves it alive`,
  catches: ['h2d_manager_destroy_deletes_buffers'],
  requires: { slots: [`${TM}_TransferLiteral`, 'PJRT_Buffer_IsDeleted'] },
}).run(optional(async (ctx) => {
  const host = pattern(dtype('s8'), S8.dims);
  const tm = await manager(ctx, [S8]);
  const b = tm.retrieveBuffer(0);
  await (await tm.transferLiteral(0, host, S8)).await();
  await awaitReady(b);
  tm.destroy();
  check.equal(b.isDeleted(), false, 'a retrieved buffer must not be deleted by destroying its transfer manager');
  check.bytes(await b.toHost(), host, 'a retrieved buffer keeps its data after its transfer manager is destroyed');
}));

t.case('destroy_null', {
  source: 'header',
  cite: 'PJRT_AsyncHostToDeviceTransferManager_Destroy: "Frees `transfer_manager`. `transfer_manager` can be nullptr."',
  catches: [`crash_in=${TM}_Destroy`],
}).run(optional(async ({ client }) => {
  const slot = `${TM}_Destroy`;
  client.api.call(slot, client.api.args(slot).ptr('transfer_manager', null));
}));

t.case('add_metadata', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: AddTransferMetadata "Adds the specified key/value metadata for the transfer operation" (a string → string map; XLA's C API passes every PJRT_NamedValue as a string) — string metadata are accepted and the transfers still work`,
  catches: ['transfer_metadata_rejected'],
  requires: { slots: [`${TM}_AddMetadata`, `${TM}_TransferLiteral`] },
}).run(optional(async (ctx) => {
  const host = pattern(dtype('s8'), S8.dims);
  const tm = await manager(ctx, [S8]);
  tm.addMetadata({ 'cts.transfer_id': 'tier2.async_transfer.add_metadata', 'cts.note': 'metadata for debugging only' });
  const b = tm.retrieveBuffer(0);
  await (await tm.transferLiteral(0, host, S8)).await();
  await awaitReady(b);
  check.bytes(await b.toHost(), host, 'transfers after AddMetadata must still deliver the data');
}));

t.case('explicit_default_device_layouts', {
  source: 'framework',
  cite: `${MANAGER_INTERFACE}: CreateBuffersForAsyncHostToDevice "If the desired layout of one or more buffers is not specified in \`device_layouts\`, then those buffers will use the default device layout" — so giving the default (dense major-to-minor) layout for one buffer and none for the other makes the same buffers`,
  catches: ['explicit_device_layout_rejected'],
  requires: { slots: [`${TM}_TransferLiteral`] },
}).run(async (ctx) => {
  // Without layouts first: a plugin without async transfers at all is unsupported, one that refuses only the
  // explicit default layout fails.
  (await check.unimplementedIsUnsupported(ctx, OPTIONAL, () => manager(ctx, [S8]))).destroy();
  const host = pattern(dtype('s8'), S8.dims);
  const tm = await TransferManager.create(ctx.client, [S8, S8], ctx.device.defaultMemory(), [{ minorToMajor: [1, 0] }, null]);
  for (const i of [0, 1]) {
    const b = tm.retrieveBuffer(i);
    await (await tm.transferLiteral(i, host, S8)).await();
    await awaitReady(b);
    check.bytes(await b.toHost(), host, `buffer ${i} (device layout ${i === 0 ? 'the default, explicit' : 'not given'}) holds the literal`);
  }
});

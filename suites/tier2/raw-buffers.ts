// Tier 2 — buffers beyond host transfers: raw copies of the on-device bytes (CopyRawToHost, CopyRawToHostFuture),
// uninitialized, bitcast, control-dependent and alias buffers, the (deprecated) memory layout query, dynamic
// dimensions, DMA mappings. The header documents few of these slots; what it leaves out comes from the C++
// interface XLA's C API wraps (xla/pjrt/pjrt_client.h), hence `source: 'framework'`. Every one of them is optional
// there (its default answer is UNIMPLEMENTED), so UNIMPLEMENTED makes a case unsupported.
import { area, type CaseContext } from '../../src/harness/index.js';
import {
  allocateHostMemory,
  bitcast,
  copyRawToHost,
  copyRawToHostFuture,
  createAliasBuffer,
  dmaMap,
  dmaUnmap,
  donateWithControlDependency,
  Layouts,
  memoryLayout,
  parseLayoutText,
  type Buffer,
  type LayoutSpec,
  type MemoryLayout,
  type Event,
} from '../../src/pjrt/index.js';
import { awaitReady } from '../_lib/async.js';
import * as check from '../_lib/check.js';
import { isPjrtError, isUnsupported } from '../_lib/errors.js';
import { dtype, pattern } from '../_lib/patterns.js';

const t = area('tier2.raw_buffers', { tier: 2, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] } });

const PJRT_CLIENT_H = 'xla/pjrt/pjrt_client.h';
const OPTIONAL = `the slot's PjRtClient/PjRtBuffer method defaults to UNIMPLEMENTED in ${PJRT_CLIENT_H}, so a platform may lack it`;
const INJECTED = { code: 'DATA_LOSS', message: 'cts: injected error' };
/** How long a case waits before it checks that something did not become ready too early. */
const SETTLE_MS = 50;

type Ctx = CaseContext<unknown>;
const optional = (body: (ctx: Ctx) => Promise<void>) => (ctx: Ctx) => check.unimplementedIsUnsupported(ctx, OPTIONAL, () => body(ctx));
const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));

async function upload(ctx: Ctx, name: string, dims: number[]): Promise<{ host: Uint8Array; buf: Buffer }> {
  const host = pattern(dtype(name), dims);
  return { host, buf: await ctx.client.upload(host, { dtype: name, dims, device: ctx.device }) };
}

/** Awaits an event; an UNIMPLEMENTED error it carries (a default implementation) makes the case unsupported. */
async function awaitOrUnsupported(ctx: Ctx, e: Event, what: string): Promise<void> {
  try {
    await e.await();
  } catch (err) {
    if (isPjrtError(err) && err.codeName === 'UNIMPLEMENTED') ctx.unsupported(`${what}: the event carries UNIMPLEMENTED ("${err.message}"): ${OPTIONAL}`);
    throw err;
  }
}

// ---- raw copies ----
const RAW_CITE = `${PJRT_CLIENT_H}, PjRtBuffer::CopyRawToHost: "Transfers a sub-range of the on-device representation of the buffer"`;

t.case('copy_raw_sub_range', {
  source: 'framework',
  cite: `${RAW_CITE} — the bytes at [offset, offset + transfer_size) of the whole image (offset 0, OnDeviceSizeInBytes)`,
  catches: ['copy_raw_ignores_offset'],
  requires: { slots: ['PJRT_Buffer_CopyRawToHost', 'PJRT_Buffer_OnDeviceSizeInBytes'] },
}).run(optional(async (ctx) => {
  const { buf } = await upload(ctx, 'f32', [64]);
  const size = buf.onDeviceSizeInBytes();
  const whole = await copyRawToHost(buf, 0, size);
  const offset = Math.floor(size / 4);
  const part = await copyRawToHost(buf, offset, Math.floor(size / 2));
  check.bytes(part, whole.slice(offset, offset + Math.floor(size / 2)), `CopyRawToHost(offset ${offset}) must copy the bytes at that offset of the on-device representation`);
}));

t.case('copy_raw_future_waits_for_destination', {
  source: 'header',
  cite: 'PJRT_Buffer_CopyRawToHostFuture: "Similar to PJRT_Buffer_CopyRawToHost, but the transfer will not happen until `future_ready_callback` is invoked" — before that the event cannot complete successfully; after it the destination holds that range of the whole image PJRT_Buffer_CopyRawToHost gives',
  catches: ['copy_raw_future_ignores_destination', 'copy_raw_ignores_offset'],
  requires: { slots: ['PJRT_Buffer_CopyRawToHostFuture', 'PJRT_Buffer_CopyRawToHost', 'PJRT_Buffer_OnDeviceSizeInBytes', 'PJRT_Event_IsReady'] },
}).run(optional(async (ctx) => {
  const { buf } = await upload(ctx, 'f32', [64]);
  const size = buf.onDeviceSizeInBytes();
  const offset = Math.floor(size / 4), n = Math.floor(size / 2);
  const expected = (await copyRawToHost(buf, 0, size)).slice(offset, offset + n);
  const fut = await copyRawToHostFuture(buf, offset, n);
  await settle();
  if (fut.event.isReady()) {
    // "In error cases it is possible for the returned Future to become ready before `dst` is fulfilled" (pjrt_client.h)
    await awaitOrUnsupported(ctx, fut.event, 'PJRT_Buffer_CopyRawToHostFuture');
    check.fail('the transfer "will not happen until `future_ready_callback` is invoked"', 'an event that is not ready (or failed) before the destination is given', 'an event that completed successfully without a destination');
  }
  fut.fulfill();
  await awaitOrUnsupported(ctx, fut.event, 'PJRT_Buffer_CopyRawToHostFuture');
  check.bytes(fut.dst, expected, 'CopyRawToHostFuture must deliver the same bytes as CopyRawToHost of the same range');
}));

t.case('copy_raw_future_error_cancels', {
  source: 'framework',
  cite: `${PJRT_CLIENT_H}, PjRtBuffer::CopyRawToHostFuture: "If \`dst\` is fulfilled with a non-Ok status, then the transfer will be cancelled" — XLA's implementation (CommonPjRtBufferImpl) fails the returned future with that status`,
  catches: ['copy_raw_future_error_ignored'],
  requires: { slots: ['PJRT_Buffer_CopyRawToHostFuture', 'PJRT_Buffer_OnDeviceSizeInBytes'] },
}).run(optional(async (ctx) => {
  const { buf } = await upload(ctx, 'f32', [64]);
  const fut = await copyRawToHostFuture(buf, 0, buf.onDeviceSizeInBytes());
  fut.fail(INJECTED);
  const e = await check.rejects(() => fut.event.await(), 'a CopyRawToHostFuture whose destination fails must fail too');
  if (e.codeName === 'UNIMPLEMENTED') ctx.unsupported(`PJRT_Buffer_CopyRawToHostFuture: the event carries UNIMPLEMENTED ("${e.message}"): ${OPTIONAL}`);
  check.equal(e.codeName, INJECTED.code, 'the cancelled copy carries the status passed to future_ready_callback');
}));

// ---- uninitialized buffers ----
t.case('uninitialized_shape_and_memory', {
  source: 'header',
  cite: 'PJRT_Client_CreateUninitializedBuffer_Args: shape fields, and "If nullptr, host data will be copied to `device`, otherwise we copy data to `memory`" — the buffer has the requested element type and dims and lives in `memory`',
  catches: ['uninitialized_buffer_ignores_memory'],
  requires: { slots: ['PJRT_Client_CreateUninitializedBuffer', 'PJRT_Buffer_Memory'] },
}).run(optional(async (ctx) => {
  for (const m of ctx.device.addressableMemories()) {
    const b = await ctx.client.createUninitializedBuffer({ dtype: 'bf16', dims: [3, 4], memory: m });
    check.equal(b.elementType(), 'bf16', 'an uninitialized buffer has the requested element type');
    check.ok(check.deepEqual(b.dims(), [3, 4]), 'an uninitialized buffer has the requested dims', '[3,4]', JSON.stringify(b.dims()));
    check.ok(b.memory() === m, 'an uninitialized buffer lives in the requested `memory`', m.kind(), b.memory().kind());
  }
}));

// ---- metadata ----
t.case('memory_layout', {
  source: 'header',
  cite: 'PJRT_Buffer_GetMemoryLayout: "Returns the memory layout of the data in this buffer" — a Tiled layout\'s minor_to_major is a permutation of the dimensions, a Strides layout has one stride per dimension (deprecated in favour of the layouts extension, so UNIMPLEMENTED is unsupported)',
  catches: ['memory_layout_truncated'],
  requires: { slots: ['PJRT_Buffer_GetMemoryLayout'] },
}).run(optional(async (ctx) => {
  const dims = [2, 3, 4];
  const { buf } = await upload(ctx, 'f32', dims);
  const l = memoryLayout(buf);
  if (l.type === 'tiled') {
    check.ok(check.deepEqual([...l.minorToMajor].sort((a, b) => a - b), [0, 1, 2]), 'a Tiled layout\'s minor_to_major must be a permutation of the buffer\'s dimensions', '[0,1,2] in some order', JSON.stringify(l.minorToMajor));
  } else if (l.type === 'strides') {
    check.equal(l.byteStrides.length, dims.length, 'a Strides layout has one byte stride per dimension');
  } else {
    check.fail('PJRT_Buffer_MemoryLayout.type is a PJRT_Buffer_MemoryLayout_Type', 'Tiled or Strides', `type ${l.value}`);
  }
}));

/** Row-major `host` rearranged as a buffer of `dims` laid out by `layout` (tiles dropped, as a host read-back does). */
function laidOut(host: Uint8Array, dims: readonly number[], esize: number, layout: MemoryLayout): Uint8Array | undefined {
  const rank = dims.length;
  let strides: number[];
  if (layout.type === 'tiled') {
    strides = new Array<number>(rank).fill(0);
    let step = esize;
    for (const d of layout.minorToMajor) {
      strides[d] = step;
      step *= dims[d]!;
    }
  } else if (layout.type === 'strides') {
    strides = layout.byteStrides;
  } else {
    return undefined;
  }
  const out = new Uint8Array(host.length);
  const count = host.length / esize;
  for (let flat = 0; flat < count; flat++) {
    let rest = flat;
    let at = 0;
    for (let i = rank - 1; i >= 0; i--) {
      at += (rest % dims[i]!) * strides[i]!;
      rest = Math.floor(rest / dims[i]!);
    }
    if (at < 0 || at + esize > out.length) return undefined;
    out.set(host.subarray(flat * esize, (flat + 1) * esize), at);
  }
  return out;
}

const isRowMajor = (l: MemoryLayout, rank: number): boolean =>
  l.type === 'tiled' && l.tiles.length === 0 && check.deepEqual(l.minorToMajor, [...Array(rank).keys()].reverse());

t.case('memory_layout_matches_bytes', {
  source: 'header',
  cite: 'PJRT_Buffer_GetMemoryLayout: "Returns the memory layout of the data in this buffer"; PJRT_Buffer_ToHostBuffer_Args.host_layout: "If nullptr, the layout of the src buffer will be used" (XLA\'s wrapper: DeviceShapeToHostShape of the on-device shape, i.e. its minor_to_major without tiles) — so a read-back without host_layout holds the data in the order the reported layout says; with the Layouts extension, PJRT_Layouts_PJRT_Buffer_MemoryLayout reports the same minor_to_major (deprecated slot: UNIMPLEMENTED is unsupported)',
  catches: ['memory_layout_reversed'],
  requires: { slots: ['PJRT_Buffer_GetMemoryLayout'] },
}).run(optional(async (ctx) => {
  const dims = [2, 3, 4]; // no two alike, so a wrong permutation moves bytes
  const { host, buf } = await upload(ctx, 'f32', dims);
  const l = memoryLayout(buf);
  const want = laidOut(host, dims, 4, l);
  check.ok(want !== undefined, 'PJRT_Buffer_GetMemoryLayout must describe a layout of the buffer\'s 96 bytes', 'a Tiled permutation or in-range Strides', JSON.stringify(l));
  check.bytes(await buf.toHost({ hostLayout: null }), want, `ToHostBuffer without host_layout writes the buffer's layout, so the bytes must be the data laid out as GetMemoryLayout reports (${JSON.stringify(l)})`);
  if (l.type === 'tiled' && ctx.plugin.extensions().some((e) => e.typeName === Layouts.TYPE)) {
    const text = new Layouts(ctx.plugin.raw).buffer(buf);
    const ext = parseLayoutText(text);
    check.ok(ext !== null, 'PJRT_Layouts_PJRT_Buffer_MemoryLayout serializes to XLA layout text', 'text like "{2,1,0}"', JSON.stringify(text));
    check.equal(l.minorToMajor, ext.minorToMajor, 'PJRT_Buffer_GetMemoryLayout and the Layouts extension must report the same minor_to_major for one buffer');
  }
}));

t.case('dynamic_dimensions_of_static_buffer', {
  source: 'header',
  cite: 'PJRT_Buffer_DynamicDimensionIndices: "Returns the indices of dynamically-sized dimensions, or an empty list if all dimensions are static" — a buffer from host data has static dimensions',
  catches: ['dynamic_dims_all'],
  requires: { slots: ['PJRT_Buffer_DynamicDimensionIndices'] },
}).run(async (ctx) => {
  const { buf } = await upload(ctx, 'f32', [2, 3]);
  check.ok(check.deepEqual(buf.dynamicDimensionIndices(), []), 'a buffer uploaded from host data has no dynamic dimensions', '[]', JSON.stringify(buf.dynamicDimensionIndices()));
});

// ---- bitcast ----
t.case('bitcast', {
  source: 'framework',
  cite: `PJRT_Buffer_Bitcast: "Bitcasts the buffer to a new type, dimensions, and layout"; ${PJRT_CLIENT_H} PjRtBuffer::Bitcast: "a metadata-only operation and does not copy any data. The original buffer will be donated" — f32[4,8] as s32[4,8] holds the same bytes and the source is deleted`,
  catches: ['bitcast_keeps_element_type', 'bitcast_keeps_source'],
  requires: { slots: ['PJRT_Buffer_Bitcast', 'PJRT_Buffer_IsDeleted'] },
}).run(optional(async (ctx) => {
  const { host, buf } = await upload(ctx, 'f32', [4, 8]);
  const out = bitcast(buf, 's32', [4, 8]);
  check.equal(out.elementType(), 's32', 'the bitcast buffer has the requested element type');
  check.ok(check.deepEqual(out.dims(), [4, 8]), 'the bitcast buffer has the requested dims', '[4,8]', JSON.stringify(out.dims()));
  check.equal(buf.isDeleted(), true, 'Bitcast donates the source buffer ("The original buffer will be donated")');
  check.bytes(await out.toHost(), host, 'a bitcast to an element type of the same width keeps every byte');
}));

t.case('bitcast_reshape', {
  source: 'framework',
  cite: `PJRT_Buffer_Bitcast: "Bitcasts the buffer to a new type, dimensions, and layout"; ${PJRT_CLIENT_H} PjRtBuffer::Bitcast: "a new buffer of the same on-device size but possibly different element_type, dims, and device_layout … metadata-only", which XLA's CommonPjRtBufferImpl::Bitcast (common_pjrt_client.cc) allows whenever the on-device byte sizes match — f32[4,8] as u16[8,8] (128 bytes each) has the requested type and dims; with both buffers dense row-major (GetMemoryLayout) it holds the same bytes`,
  catches: ['bitcast_reshape_keeps_dims'],
  requires: { slots: ['PJRT_Buffer_Bitcast', 'PJRT_Buffer_IsDeleted'] },
}).run(optional(async (ctx) => {
  const { host, buf } = await upload(ctx, 'f32', [4, 8]);
  const layoutOrNone = (b: Buffer): MemoryLayout | undefined => {
    if (!ctx.plugin.has('PJRT_Buffer_GetMemoryLayout')) return undefined;
    try {
      return memoryLayout(b);
    } catch (e) {
      if (isPjrtError(e)) return undefined;
      throw e;
    }
  };
  const before = layoutOrNone(buf);
  const out = bitcast(buf, 'u16', [8, 8]);
  check.equal(out.elementType(), 'u16', 'the bitcast buffer has the requested element type');
  check.ok(check.deepEqual(out.dims(), [8, 8]), 'a bitcast to other dims of the same byte size gives a buffer of those dims', '[8,8]', JSON.stringify(out.dims()));
  check.equal(buf.isDeleted(), true, 'Bitcast donates the source buffer ("The original buffer will be donated")');
  const after = layoutOrNone(out);
  if (before && after && isRowMajor(before, 2) && isRowMajor(after, 2)) {
    check.bytes(await out.toHost(), host, 'a bitcast between dense row-major layouts reinterprets the same bytes');
  } else {
    ctx.log('the layouts are not both known to be dense row-major, so the bytes are not compared');
  }
}));

// ---- donation with a control dependency ----
const DONATE_CITE = `${PJRT_CLIENT_H}, PjRtBuffer::DonateWithControlDependency: "Donates 'this' and returns a new buffer that is ready only when both 'this' and 'dependency' are ready. Once ready, the new buffer's contents will be exactly the contents of 'this'"`;

t.case('donate_with_control_dependency', {
  source: 'framework',
  cite: `${DONATE_CITE} — not ready before dependency_ready_callback, the source deleted, the data kept`,
  catches: ['donate_dependency_ignored', 'donate_dependency_keeps_source'],
  requires: { slots: ['PJRT_Buffer_DonateWithControlDependency', 'PJRT_Buffer_IsDeleted', 'PJRT_Event_IsReady'] },
}).run(optional(async (ctx) => {
  const { host, buf } = await upload(ctx, 's32', [16]);
  const d = donateWithControlDependency(buf);
  check.equal(buf.isDeleted(), true, 'DonateWithControlDependency donates the source buffer');
  const ready = d.buffer.readyEvent();
  await settle();
  check.equal(ready.isReady(), false, 'the new buffer must not be ready before the dependency is ("ready only when both \'this\' and \'dependency\' are ready")');
  d.ready();
  await ready.await();
  check.bytes(await d.buffer.toHost(), host, 'once ready, the new buffer\'s contents are exactly the source\'s');
}));

t.case('donate_with_control_dependency_error', {
  source: 'framework',
  cite: `${DONATE_CITE}; "If either 'this' or 'dependency' transitions to error, then the returned buffer will transition to error"`,
  catches: ['donate_dependency_error_ignored'],
  requires: { slots: ['PJRT_Buffer_DonateWithControlDependency'] },
}).run(optional(async (ctx) => {
  const { buf } = await upload(ctx, 's32', [16]);
  const d = donateWithControlDependency(buf);
  d.fail(INJECTED);
  const ready = d.buffer.readyEvent();
  await check.rejects(() => ready.await(), 'a dependency that failed makes the new buffer fail');
}));

// ---- alias buffers ----
const ALIAS_CITE = `${PJRT_CLIENT_H}, PjRtClient::CreateAliasBuffer: "Creates a buffer that is an alias of another buffer. The alias buffer is initially uninitialized and must be fulfilled later"`;

/**
 * The device layout of `real`, the buffer that will fulfil an alias: XLA's CommonPjRtClient refuses a fulfilment whose
 * on-device shape differs from the alias's ("Shape mismatch in CreateRawBufferChannel fulfill"), so a framework gives
 * the alias the device shape, tiles included. From PJRT_Buffer_GetMemoryLayout; dense when the plugin cannot say.
 */
function deviceLayoutOf(real: Buffer): LayoutSpec | undefined {
  try {
    const l = memoryLayout(real);
    return l.type === 'tiled' ? { minorToMajor: l.minorToMajor, tiles: l.tiles } : undefined;
  } catch (e) {
    if (isUnsupported(e) || isPjrtError(e)) return undefined; // deprecated slot absent or UNIMPLEMENTED
    throw e;
  }
}

t.case('alias_buffer_fulfilled', {
  source: 'framework',
  cite: `${ALIAS_CITE} — not ready until PJRT_Client_FulfillAliasBuffer; a read queued before then waits and sees the fulfilling buffer's data`,
  catches: ['alias_not_forwarded', 'alias_ready_before_fulfill'],
  requires: { slots: ['PJRT_Client_CreateAliasBuffer', 'PJRT_Client_FulfillAliasBuffer', 'PJRT_Event_IsReady'] },
}).run(optional(async (ctx) => {
  const dims = [4, 4];
  const { host, buf } = await upload(ctx, 'f32', dims);
  const alias = createAliasBuffer(ctx.client, ctx.device.defaultMemory(), 'f32', dims, deviceLayoutOf(buf));
  const ready = alias.buffer.readyEvent();
  const early = alias.buffer.toHost(); // queued before the alias has data
  await settle();
  check.equal(ready.isReady(), false, 'an alias buffer must not be ready before it is fulfilled ("initially uninitialized and must be fulfilled later")');
  alias.fulfill(buf);
  await ready.await();
  check.bytes(await early, host, 'a read queued on the alias before fulfillment sees the fulfilling buffer\'s data');
  check.bytes(await alias.buffer.toHost(), host, 'the fulfilled alias holds the fulfilling buffer\'s data');
}));

t.case('alias_buffer_fulfilled_with_error', {
  source: 'framework',
  cite: `${ALIAS_CITE}; XLA's C API (PJRT_Client_FulfillAliasBuffer) passes a non-OK status_code to the fulfillment as the alias's status — the alias buffer fails with it`,
  catches: ['alias_error_ignored'],
  requires: { slots: ['PJRT_Client_CreateAliasBuffer', 'PJRT_Client_FulfillAliasBuffer'] },
}).run(optional(async (ctx) => {
  const alias = createAliasBuffer(ctx.client, ctx.device.defaultMemory(), 'f32', [4]);
  alias.fail(INJECTED);
  await check.rejects(() => awaitReady(alias.buffer), 'an alias fulfilled with an error must fail');
}));

// ---- DMA mappings ----
const DMA_CITE = `${PJRT_CLIENT_H}: DmaMap "Maps memory for fast transfers. May have backend specific alignment requirements (most backends will require at least a page)"; DmaUnmap "Unmaps memory for fast transfers"`;
const PAGE = 4096;

t.case('dma_map_unmap_remap', {
  source: 'framework',
  cite: `${DMA_CITE} — page-aligned memory can be mapped, used as a host buffer, unmapped, and mapped again`,
  catches: ['dma_unmap_keeps_mapping'],
  requires: { slots: ['PJRT_Client_DmaMap', 'PJRT_Client_DmaUnmap'] },
}).run(optional(async (ctx) => {
  const mem = allocateHostMemory(4 * PAGE, { alignment: PAGE, scope: ctx.scope });
  const host = pattern(dtype('f32'), [PAGE]);
  mem.view().set(host);
  dmaMap(ctx.client, mem.address, mem.byteLength);
  const buf = await ctx.client.upload(mem.view(), { dtype: 'f32', dims: [PAGE], device: ctx.device, semantics: 'kImmutableOnlyDuringCall' });
  check.bytes(await buf.toHost(), host, 'a host buffer in DMA-mapped memory transfers like any other');
  dmaUnmap(ctx.client, mem.address);
  dmaMap(ctx.client, mem.address, mem.byteLength); // mapping again after an unmap
  dmaUnmap(ctx.client, mem.address);
}));

t.case('dma_unmap_unmapped', {
  source: 'quality',
  control: 'the same memory maps and unmaps first',
  cite: `${DMA_CITE}; the header says nothing of unmapping memory that is not mapped and no framework does it, but XLA's GPU client returns an error when the driver cannot unregister the address (PjRtStreamExecutorClient::DmaUnmap: "Failed to unregister host memory"), and a silent success hides a caller's bookkeeping bug`,
  catches: ['dma_unmap_unmapped_ok'],
  requires: { slots: ['PJRT_Client_DmaMap', 'PJRT_Client_DmaUnmap'] },
}).run(optional(async (ctx) => {
  const mem = allocateHostMemory(PAGE, { alignment: PAGE, scope: ctx.scope });
  dmaMap(ctx.client, mem.address, mem.byteLength); // UNIMPLEMENTED here: no DMA mappings at all (unsupported)
  await check.control('DmaUnmap of the memory just mapped', () => dmaUnmap(ctx.client, mem.address));
  await check.rejects(() => dmaUnmap(ctx.client, mem.address), 'PJRT_Client_DmaUnmap of memory that is not mapped should fail (quality, as XLA\'s GPU client does)');
}));

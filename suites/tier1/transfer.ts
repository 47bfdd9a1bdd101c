// Tier 1 — host → device → host transfers: every element type, every rank, zero-size, strides, large.
// Data cases read back into a destination whose size they compute from dims and dtype (one byte per element for
// sub-byte types), as XLA's PjRtCApiBuffer::ToLiteral does; the ToHostBuffer size query (dst = NULL) is checked by
// its own cases, so a broken size query fails exactly those.
import { area, params } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { DTYPES, pattern, byteSize, dtype, hostElementBytes, hostSize } from '../_lib/patterns.js';
import { NONEMPTY_SHAPES, SMALL_SHAPES, ZERO_SIZE_SHAPES, denseStrides, shape, type Shape } from '../_lib/shapes.js';
import { strided, uploadOrUnsupported } from '../_lib/transfer.js';

const t = area('tier1.transfer', { tier: 1, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] } });

const ROUNDTRIP = 'host→device→host must be bit-exact (PJRT_Client_BufferFromHostBuffer then PJRT_Buffer_ToHostBuffer)';
/** One dtype whose device→host corruption the matrix proves we catch. */
const D2H_PROBE = 'bf16';

const TRANSFER_DTYPES = DTYPES.filter((d) => d.kind !== 'token');
const TRANSFER_DTYPE_NAMES = TRANSFER_DTYPES.map((d) => d.name);

/**
 * Every element type at every shape worth its cost: the core types at every non-empty and zero-size shape, the
 * others at the small shapes. Each row names the fault its data proves it catches.
 */
const ROUNDTRIP_ROWS = params()
  .combine('dt', TRANSFER_DTYPE_NAMES)
  .derive('d', (p) => dtype(p.dt))
  .expand('s', (p): readonly Shape[] => (p.d.core ? [...NONEMPTY_SHAPES, ...ZERO_SIZE_SHAPES] : SMALL_SHAPES))
  .derive('catches', (p) => {
    if (!p.d.core) return [`d2h_wrong_for_dtype=${p.d.name}`];
    if (ZERO_SIZE_SHAPES.includes(p.s)) return ['rejects_zero_size'];
    return ['h2d_drops_last_byte', ...(p.d.name === D2H_PROBE ? [`d2h_wrong_for_dtype=${D2H_PROBE}`] : [])];
  });
type RoundtripRow = ReturnType<typeof ROUNDTRIP_ROWS.rows>[number];

t.case('roundtrip', {
  description: 'host → device → host is bit-exact for every element type and shape',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer: "Asynchronously copies a buffer stored on host to device memory" (empty byte_strides: "dense layout with dimensions in major-to-minor order"); PJRT_Buffer_ToHostBuffer: "copies the buffer\'s value into a preallocated host buffer". Sub-byte types use one element per host byte, the default host layout of XLA\'s clients (DeviceShapeToHostShape; ml_dtypes arrays)',
  catches: (p: RoundtripRow) => p.catches,
})
  .params(ROUNDTRIP_ROWS)
  .run(async (ctx) => {
    const { client, p } = ctx;
    const host = pattern(p.d, p.s.dims);
    const buf = await uploadOrUnsupported(ctx, client, host, { dtype: p.d.name, dims: p.s.dims });
    check.bytes(await buf.toHost({ dtype: p.d.name, dims: p.s.dims }), host, `${ROUNDTRIP}${p.d.bits < 8 ? ' (one element per host byte)' : ''}`);
  });

/** The size query on every element type, a scalar and a zero-size array. */
const sizeRows = (dts: readonly string[], shapes: readonly Shape[]) =>
  params().combine('dt', dts).derive('d', (p) => dtype(p.dt)).combine('shape', shapes).derive('dims', (p) => [...p.shape.dims]).rows();
const SIZE_ROWS = [...sizeRows(TRANSFER_DTYPE_NAMES, [shape(2, 3)]), ...sizeRows(['f32'], [shape(), shape(3, 0)])];

t.case('to_host_size_query', {
  description: 'ToHostBuffer with dst = NULL reports the dense host size',
  source: 'header',
  cite: 'PJRT_Buffer_ToHostBuffer_Args.dst: "`dst` can be nullptr to query required size which will be set into `dst_size`"; with host_layout NULL "the layout of the src buffer will be used" — the dense default layout, dims × element bytes (sub-byte: one byte per element, as XLA\'s wrapper computes ShapeUtil::ByteSizeOfElements of DeviceShapeToHostShape)',
  catches: ['to_host_size_query_rejected'],
})
  .params(SIZE_ROWS)
  .run(async (ctx) => {
    const { d, dims } = ctx.p;
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(d, dims), { dtype: d.name, dims });
    const want = hostSize(d, dims);
    check.equal(buf.hostSizeQuery().size, want, `PJRT_Buffer_ToHostBuffer with dst = NULL must set dst_size to the size needed for the dense default host layout (${dims.length ? dims.join('×') : 'scalar'} × ${hostElementBytes(d)} bytes)`);
  });

t.case('to_host_size_query_no_event', {
  description: 'a size query starts no copy, so it returns no event',
  source: 'quality',
  cite: 'PJRT_Buffer_ToHostBuffer_Args: a NULL `dst` only queries the size ("to query required size which will be set into dst_size"); `event` "signals when the copy has completed", and the header does not say whether a query, which starts no copy, sets one — XLA\'s wrapper leaves it NULL, so a framework has no event to await or destroy',
  catches: ['to_host_size_query_event', 'to_host_size_query_rejected'],
}).run(async ({ client }) => {
  const buf = await client.upload(pattern(dtype('f32'), [4]), { dtype: 'f32', dims: [4] });
  check.equal(buf.hostSizeQuery().event, false, 'the ToHostBuffer size query (dst = NULL) copies nothing and should leave `event` NULL (quality)');
});

t.case('roundtrip_every_device', {
  description: 'the round trip is bit-exact on every addressable device',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.device: "Device to copy host data to"; PJRT_Buffer_ToHostBuffer copies the value back',
  catches: ['h2d_drops_last_byte'],
}).run(async (ctx) => {
  for (const device of ctx.client.addressableDevices()) {
    const host = pattern(dtype('f32'), [5, 3]);
    const buf = await ctx.client.upload(host, { dtype: 'f32', dims: [5, 3], device });
    check.bytes(await buf.toHost({ dtype: 'f32', dims: [5, 3] }), host, `${ROUNDTRIP} on device ${device.id}`);
  }
});

t.case('roundtrip_every_memory', {
  description: 'the round trip is bit-exact through every addressable memory',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.memory: "otherwise we copy data to `memory`"; PJRT_Buffer_ToHostBuffer copies the value back',
  catches: ['h2d_drops_last_byte'],
}).run(async (ctx) => {
  for (const memory of ctx.device.addressableMemories()) {
    const host = pattern(dtype('s32'), [4, 4]);
    const buf = await uploadOrUnsupported(ctx, ctx.client, host, { dtype: 's32', dims: [4, 4], memory });
    check.bytes(await buf.toHost({ dtype: 's32', dims: [4, 4] }), host, `${ROUNDTRIP} into memory '${memory.kind()}'`);
  }
});

/** Host layouts given by byte_strides: permuted dims and padded rows. */
const STRIDED: readonly { id: string; dtype: string; dims: number[]; strides: (dims: number[], e: number) => number[] }[] = [
  { id: 'transposed_2d', dtype: 'f32', dims: [3, 5], strides: (d, e) => [e, d[0]! * e] },
  { id: 'padded_rows', dtype: 'f32', dims: [4, 3], strides: (d, e) => [(d[1]! + 2) * e, e] },
  { id: 'permuted_3d', dtype: 's16', dims: [2, 3, 4], strides: (d, e) => [e, d[0]! * d[2]! * e, d[0]! * e] },
  { id: 'padded_inner', dtype: 'u8', dims: [5, 7], strides: (_d, e) => [16 * e, 2 * e] },
  { id: 'f64_transposed', dtype: 'f64', dims: [4, 2], strides: (d, e) => [e, d[0]! * e] },
];

t.case('byte_strides', {
  description: 'an upload honours byte_strides (permuted and padded host layouts)',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.byte_strides: "Number of bytes to traverse per dimension of the input data"',
  catches: ['h2d_ignores_byte_strides'],
})
  .params(STRIDED)
  .run(async (ctx) => {
    const d = dtype(ctx.p.dtype);
    const e = hostElementBytes(d);
    const dense = pattern(d, ctx.p.dims);
    const byteStrides = ctx.p.strides(ctx.p.dims, e);
    const host = strided(dense, ctx.p.dims, e, byteStrides);
    const buf = await uploadOrUnsupported(ctx, ctx.client, host, { dtype: d.name, dims: ctx.p.dims, byteStrides });
    check.bytes(await buf.toHost({ dtype: d.name, dims: ctx.p.dims }), dense, `byte_strides [${byteStrides}] ("bytes to traverse per dimension of the input data") must be honoured: the buffer holds the array they describe`);
  });

t.case('byte_strides_dense_explicit', {
  description: 'explicit dense byte_strides mean the same as none',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.byte_strides: "If empty, the array is assumed to have a dense layout with dimensions in major-to-minor order" — so explicit dense strides describe the same array',
  catches: ['h2d_drops_last_byte'],
}).run(async (ctx) => {
  const dims = [3, 4];
  const dense = pattern(dtype('f32'), dims);
  const buf = await ctx.client.upload(dense, { dtype: 'f32', dims, byteStrides: denseStrides(dims, 4) });
  check.bytes(await buf.toHost({ dtype: 'f32', dims }), dense, 'explicit dense byte_strides must give the same array as the default (empty) layout');
});

const LARGE = shape(256, 1024, 1024);

t.case('large_256mib', {
  description: 'a 256 MiB array makes the round trip bit-exact',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer / PJRT_Buffer_ToHostBuffer copy the whole array whatever its size (framework weights and activations routinely exceed 2^28 bytes: chunked or DMA paths must still be exact)',
  catches: ['h2d_drops_last_byte'],
  timeoutMs: 180000,
  slow: true,
}).run(async (ctx) => {
  const size = byteSize(dtype('u8'), LARGE.dims);
  try {
    const stats = ctx.device.memoryStats();
    const limit = stats['bytesLimit'];
    if (limit !== undefined && limit - stats.bytesInUse < BigInt(size) * 2n) {
      return ctx.skip(`device memory (${limit - stats.bytesInUse} bytes free) cannot hold two ${size}-byte buffers`);
    }
  } catch {
    // memory statistics are optional
  }
  const host = new Uint8Array(size);
  for (let i = 0; i < size; i += 4093) host[i] = (i >> 12) & 0xff || 1;
  host[size - 1] = 0x5a;
  const buf = await ctx.client.upload(host, { dtype: 'u8', dims: [...LARGE.dims] });
  check.bytes(await buf.toHost({ dtype: 'u8', dims: LARGE.dims }), host, `${ROUNDTRIP} for a 256 MiB buffer`);
});

t.case('to_host_dst_too_small', {
  description: 'a too-small dst_size is rejected, as XLA does',
  source: 'quality',
  cite: 'PJRT_Buffer_ToHostBuffer_Args.dst_size: "Otherwise, `dst_size` must be greater than or equal to the needed size" is a duty of the caller, not a promise to reject: a plugin that copies only min(dst_size, needed) bytes safely conforms. An error (XLA\'s wrapper: "`dst_size` must be >= N, got M.") tells the caller of its mistake, where a silent short copy hides it (any code passes)',
  control: 'the same ToHostBuffer with dst_size equal to the needed size succeeds',
  catches: ['to_host_dst_size_unchecked'],
}).run(async (ctx) => {
  const host = pattern(dtype('f32'), [8]);
  const buf = await ctx.client.upload(host, { dtype: 'f32', dims: [8] });
  check.bytes(await check.control('ToHostBuffer with dst_size = 32', () => buf.toHost({ dstSize: 32 })), host, 'positive control: a full-size read must return the data');
  await check.rejects(() => buf.toHost({ dstSize: 16 }), 'ToHostBuffer with dst_size (16) smaller than the needed size (32) should fail (quality: the header makes dst_size ≥ the needed size the caller\'s duty; XLA rejects it)');
});

t.case('to_host_dst_too_small_code', {
  description: 'a too-small dst_size is rejected with INVALID_ARGUMENT',
  source: 'quality',
  cite: 'the header names no code for a too-small dst_size; INVALID_ARGUMENT (what XLA\'s wrapper returns: "`dst_size` must be >= N, got M.") tells the caller the argument was wrong, which lets frameworks map it to a ValueError',
  control: 'the same ToHostBuffer with dst_size equal to the needed size succeeds',
  catches: ['wrong_error_code'],
}).run(async (ctx) => {
  const buf = await ctx.client.upload(pattern(dtype('f32'), [8]), { dtype: 'f32', dims: [8] });
  await check.control('ToHostBuffer with dst_size = 32', () => buf.toHost({ dstSize: 32 }));
  await check.rejects(() => buf.toHost({ dstSize: 16 }), 'a too-small dst_size should be reported as INVALID_ARGUMENT (quality: as XLA does)', ['INVALID_ARGUMENT']);
});

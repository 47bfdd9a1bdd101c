// Tier 1 — host → device → host transfers: every element type, every rank, zero-size, strides, large.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { DTYPES, pattern, byteSize, dtype, type DtypeRow } from '../_lib/patterns.js';
import { NONEMPTY_SHAPES, SMALL_SHAPES, ZERO_SIZE_SHAPES, denseStrides, shape, type Shape } from '../_lib/shapes.js';
import { strided, uploadOrUnsupported } from '../_lib/transfer.js';

const t = area('tier1.transfer', { tier: 1, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] } });

const ROUNDTRIP = 'host→device→host must be bit-exact (PJRT_Client_BufferFromHostBuffer then PJRT_Buffer_ToHostBuffer)';
/** One dtype whose device→host corruption the matrix proves we catch. */
const D2H_PROBE = 'bf16';

interface Row {
  id: string;
  d: DtypeRow;
  s: Shape;
  catches: string[];
}

function rowsFor(d: DtypeRow): Row[] {
  const crash = 'crash_in=PJRT_Client_BufferFromHostBuffer';
  if (!d.core) return SMALL_SHAPES.map((s) => ({ id: `${d.name}.${s.id}`, d, s, catches: [crash] }));
  const nonEmpty = NONEMPTY_SHAPES.map((s) => ({
    id: `${d.name}.${s.id}`,
    d,
    s,
    catches: ['h2d_drops_last_byte', ...(d.name === D2H_PROBE ? [`d2h_wrong_for_dtype=${D2H_PROBE}`] : [])],
  }));
  const empty = ZERO_SIZE_SHAPES.map((s) => ({ id: `${d.name}.${s.id}`, d, s, catches: ['rejects_zero_size'] }));
  return [...nonEmpty, ...empty];
}

t.case('roundtrip', { catches: (p: Row) => p.catches })
  .params(DTYPES.filter((d) => d.kind !== 'token').flatMap(rowsFor))
  .run(async (ctx) => {
    const { client, p } = ctx;
    const host = pattern(p.d, p.s.dims);
    const buf = await uploadOrUnsupported(ctx, client, host, { dtype: p.d.name, dims: p.s.dims });
    check.bytes(await buf.toHost(), host, ROUNDTRIP);
  });

t.case('roundtrip_every_device', { catches: ['h2d_drops_last_byte'] }).run(async (ctx) => {
  for (const device of ctx.client.addressableDevices()) {
    const host = pattern(dtype('f32'), [5, 3]);
    const buf = await ctx.client.upload(host, { dtype: 'f32', dims: [5, 3], device });
    check.bytes(await buf.toHost(), host, `${ROUNDTRIP} on device ${device.id}`);
  }
});

t.case('roundtrip_every_memory', { catches: ['h2d_drops_last_byte'] }).run(async (ctx) => {
  for (const memory of ctx.device.addressableMemories()) {
    const host = pattern(dtype('s32'), [4, 4]);
    const buf = await uploadOrUnsupported(ctx, ctx.client, host, { dtype: 's32', dims: [4, 4], memory });
    check.bytes(await buf.toHost(), host, `${ROUNDTRIP} into memory '${memory.kind()}'`);
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

t.case('byte_strides', { catches: ['h2d_ignores_byte_strides'] })
  .params(STRIDED)
  .run(async (ctx) => {
    const d = dtype(ctx.p.dtype);
    const e = d.bits / 8;
    const dense = pattern(d, ctx.p.dims);
    const byteStrides = ctx.p.strides(ctx.p.dims, e);
    const host = strided(dense, ctx.p.dims, e, byteStrides);
    const buf = await uploadOrUnsupported(ctx, ctx.client, host, { dtype: d.name, dims: ctx.p.dims, byteStrides });
    check.bytes(await buf.toHost(), dense, `byte_strides [${byteStrides}] must be honoured: the device holds the dense row-major array`);
  });

t.case('byte_strides_dense_explicit', { catches: ['h2d_drops_last_byte'] }).run(async (ctx) => {
  const dims = [3, 4];
  const dense = pattern(dtype('f32'), dims);
  const buf = await ctx.client.upload(dense, { dtype: 'f32', dims, byteStrides: denseStrides(dims, 4) });
  check.bytes(await buf.toHost(), dense, 'explicit dense byte_strides must equal the default layout');
});

const LARGE = shape(256, 1024, 1024);

t.case('large_256mib', { catches: ['h2d_drops_last_byte'], timeoutMs: 180000 }).run(async (ctx) => {
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
  check.bytes(await buf.toHost(), host, `${ROUNDTRIP} for a 256 MiB buffer`);
});

t.case('to_host_dst_too_small', { catches: ['wrong_error_code'] }).run(async (ctx) => {
  const buf = await ctx.client.upload(pattern(dtype('f32'), [8]), { dtype: 'f32', dims: [8] });
  await check.rejects(() => buf.toHost({ dstSize: 16 }), 'ToHostBuffer with dst_size smaller than the buffer must fail', ['INVALID_ARGUMENT']);
});

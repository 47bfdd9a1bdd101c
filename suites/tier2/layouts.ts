// Tier 2 — layouts the caller chooses: ToHostBuffer's `host_layout` (a minor_to_major permutation, byte strides)
// and BufferFromHostBuffer's `device_layout`. Expected host bytes are computed here from the dense row-major data
// with `strided` (the same helper the byte_strides upload cases use).
import { area } from '../../src/harness/index.js';
import { toHostWithLayout } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { isPjrtError } from '../_lib/errors.js';
import { dtype, hostElementBytes, hostSize, pattern } from '../_lib/patterns.js';
import { strided } from '../_lib/transfer.js';

const t = area('tier2.layouts', { tier: 2, requires: { slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] } });

const HOST_LAYOUT = 'PJRT_Buffer_ToHostBuffer_Args.host_layout: "The caller can specify an optional host layout. If nullptr, the layout of the src buffer will be used"';

/** Byte strides of the dense layout whose dimensions run minor to major as `minorToMajor` says. */
function stridesOf(dims: readonly number[], minorToMajor: readonly number[], elemBytes: number): number[] {
  const out = new Array<number>(dims.length).fill(0);
  let acc = elemBytes;
  for (const d of minorToMajor) {
    out[d] = acc;
    acc *= dims[d]!;
  }
  return out;
}

const PERMUTATIONS = [
  { id: 'f32.3x4.column_major', dt: 'f32', dims: [3, 4], minorToMajor: [0, 1] },
  { id: 's16.2x3x5.1_0_2', dt: 's16', dims: [2, 3, 5], minorToMajor: [1, 0, 2] },
  { id: 'f64.4x2.row_major', dt: 'f64', dims: [4, 2], minorToMajor: [1, 0] },
];

t.case('to_host_minor_to_major', {
  source: 'header',
  cite: `${HOST_LAYOUT}; XLA's C-API client passes a literal's layout here (PjRtCApiBuffer::ToLiteral) — the data arrive with their dimensions ordered as minor_to_major says`,
  catches: (p: (typeof PERMUTATIONS)[number]) => (p.id.endsWith('row_major') ? ['crash_in=PJRT_Buffer_ToHostBuffer'] : ['to_host_ignores_host_layout']),
})
  .params(PERMUTATIONS)
  .run(async ({ client, device, p }) => {
    const d = dtype(p.dt);
    const host = pattern(d, p.dims);
    const buf = await client.upload(host, { dtype: p.dt, dims: p.dims, device });
    const want = strided(host, p.dims, hostElementBytes(d), stridesOf(p.dims, p.minorToMajor, hostElementBytes(d)));
    const got = await toHostWithLayout(buf, { minorToMajor: p.minorToMajor }, hostSize(d, p.dims));
    check.bytes(got, want, `ToHostBuffer with host_layout minor_to_major ${JSON.stringify(p.minorToMajor)} must lay the data out that way`);
  });

t.case('to_host_byte_strides', {
  source: 'header',
  cite: `${HOST_LAYOUT}; PJRT_Buffer_MemoryLayout may be Strides — a plugin may refuse it (XLA's plugins answer INVALID_ARGUMENT "does not support host_layout with strides"), but one that accepts it must honour it`,
  catches: ['to_host_ignores_host_layout'],
}).run(async (ctx) => {
  const dims = [3, 4];
  const d = dtype('f32');
  const host = pattern(d, dims);
  const buf = await ctx.client.upload(host, { dtype: 'f32', dims, device: ctx.device });
  const strides = stridesOf(dims, [0, 1], hostElementBytes(d));
  let got: Uint8Array;
  try {
    got = await toHostWithLayout(buf, { byteStrides: strides }, hostSize(d, dims));
  } catch (e) {
    if (isPjrtError(e)) ctx.unsupported(`ToHostBuffer refused a Strides host_layout (${e.codeName}: "${e.message}"), which the header allows`);
    throw e;
  }
  check.bytes(got, strided(host, dims, hostElementBytes(d), strides), `ToHostBuffer with host_layout byte strides ${JSON.stringify(strides)} must write the data at those strides`);
});

t.case('device_layout_default_explicit', {
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.device_layout: "If nullptr, the device layout is assumed to be a dense layout with dimensions in major-to-minor order" — passing that very layout explicitly asks for the same buffer',
  catches: ['explicit_device_layout_rejected'],
}).run(async ({ client, device }) => {
  const dims = [3, 4];
  const host = pattern(dtype('f32'), dims);
  const buf = await client.upload(host, { dtype: 'f32', dims, device, deviceLayout: { minorToMajor: [1, 0] } });
  check.bytes(await buf.toHost(), host, 'a buffer made with the default device layout given explicitly holds the host data');
});

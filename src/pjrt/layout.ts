// PJRT_Buffer_MemoryLayout as the caller builds it: a Tiled layout (minor_to_major, no tiles) or byte Strides.
// Used for ToHostBuffer's host_layout and BufferFromHostBuffer's device_layout.
import { enumValue } from '../abi/index.js';
import { mem, type Args, type RawApi } from '../ffi/index.js';
import type { Buffer } from './buffer.js';
import { Event } from './event.js';

/** A Tiled layout (`tiles`: each tile's dims, outermost first; none: dense) or byte Strides. */
export type LayoutSpec = { minorToMajor: readonly number[]; tiles?: readonly (readonly number[])[] } | { byteStrides: readonly number[] };

/**
 * The dense major-to-minor layout of a rank-`rank` array: what an `xla::Shape` carries unless told otherwise, so what
 * XLA's C-API client passes wherever a call takes a shape's layout (pjrt_c_api_client.cc sends `shape.layout()`).
 */
export function denseLayout(rank: number): LayoutSpec {
  return { minorToMajor: Array.from({ length: rank }, (_, i) => rank - 1 - i) };
}

/** A PJRT_Buffer_MemoryLayout Args for `spec` (the union member written in place, its arrays kept alive). */
export function memoryLayoutArgs(api: RawApi, spec: LayoutSpec): Args {
  const outer = api.args('PJRT_Buffer_MemoryLayout');
  const tiled = 'minorToMajor' in spec;
  let inner: Args;
  if (tiled) {
    const tiles = spec.tiles ?? [];
    inner = api.args('PJRT_Buffer_MemoryLayout_Tiled').i64s('minor_to_major', 'minor_to_major_size', spec.minorToMajor).size('num_tiles', tiles.length);
    if (tiles.length > 0) {
      const sizes = BigUint64Array.from(tiles, (t) => BigInt(t.length));
      inner.i64s('tile_dims', null, tiles.flat()).ptr('tile_dim_sizes', mem.addressOf(sizes)).keep(sizes);
    }
  } else {
    inner = api.args('PJRT_Buffer_MemoryLayout_Strides').i64s('byte_strides', 'num_byte_strides', spec.byteStrides);
  }
  outer.buf.set(inner.buf.subarray(0, inner.layout.sizeof), outer.layout.offset('layout'));
  outer.keep(inner).i32('type', enumValue('PJRT_Buffer_MemoryLayout_Type', tiled ? 'Tiled' : 'Strides'));
  return outer;
}

/** PJRT_Buffer_ToHostBuffer with `host_layout` into a new `dstSize`-byte array; resolves once the event is ready. */
export async function toHostWithLayout(b: Buffer, layout: LayoutSpec, dstSize: number): Promise<Uint8Array> {
  if (b.destroyed) throw new Error('Buffer used after destroy()');
  const dst = new Uint8Array(dstSize);
  const a = b.api.args('PJRT_Buffer_ToHostBuffer').ptr('src', b.ptr).struct('host_layout', memoryLayoutArgs(b.api, layout)).bytes('dst', 'dst_size', dst);
  await b.api.callAsync('PJRT_Buffer_ToHostBuffer', a);
  const ev = a.getPtr('event');
  if (ev !== null) {
    const e = new Event(b.api, ev, undefined).keep(dst);
    try {
      await e.await();
    } finally {
      e.destroy();
    }
  }
  return dst;
}

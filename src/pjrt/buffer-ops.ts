// Buffer operations beyond the basic ones: raw copies (CopyRawToHost, CopyRawToHostFuture), Bitcast,
// DonateWithControlDependency, GetMemoryLayout, alias buffers and DMA mappings. Each callback the plugin hands out
// (future_ready_callback, dependency_ready_callback, the alias fulfillment) is wrapped as a one-shot function.
import { enumValue, layoutOf } from '../abi/index.js';
import { callDeleter, mem, type Ptr } from '../ffi/index.js';
import { Buffer } from './buffer.js';
import type { Client } from './client.js';
import { bufferTypeOf } from './dtype.js';
import { Event } from './event.js';
import type { Memory } from './memory.js';
import type { LayoutSpec } from './layout.js';
import { writeShape } from './shape-args.js';

export interface ErrorStatus {
  code: string;
  message: string;
}

function nonNull(p: Ptr | null, what: string): Ptr {
  if (p === null) throw new Error(`${what} returned NULL`);
  return p;
}

function alive(b: Buffer): Ptr {
  if (b.destroyed) throw new Error('Buffer used after destroy()');
  return b.ptr;
}

/** PJRT_Buffer_CopyRawToHost of `size` bytes at `offset`; resolves with them once the event is ready. */
export async function copyRawToHost(b: Buffer, offset: number, size: number): Promise<Uint8Array> {
  const slot = 'PJRT_Buffer_CopyRawToHost';
  const dst = new Uint8Array(Math.max(size, 1));
  const a = b.api.args(slot).ptr('buffer', alive(b)).bytes('dst', null, dst).i64('offset', offset).i64('transfer_size', size);
  await b.api.callAsync(slot, a);
  const e = new Event(b.api, nonNull(a.getPtr('event'), slot), undefined).keep(dst);
  try {
    await e.await();
  } finally {
    e.destroy();
  }
  return dst.subarray(0, size);
}

export interface RawCopyFuture {
  /** The copy's event (caller-owned, tracked by the buffer's scope). */
  readonly event: Event;
  /** Hands the plugin the destination (future_ready_callback with OK); the copy lands in `dst`. */
  fulfill(): void;
  /** Cancels through future_ready_callback with an error. */
  fail(error: ErrorStatus): void;
  /** The destination the copy writes into once fulfilled. */
  readonly dst: Uint8Array;
}

/** PJRT_Buffer_CopyRawToHostFuture: the transfer waits until `fulfill()` (or fails with `fail()`). */
export async function copyRawToHostFuture(b: Buffer, offset: number, size: number): Promise<RawCopyFuture> {
  const slot = 'PJRT_Buffer_CopyRawToHostFuture';
  const a = b.api.args(slot).ptr('buffer', alive(b)).i64('offset', offset).i64('transfer_size', size);
  await b.api.callAsync(slot, a);
  const dst = new Uint8Array(Math.max(size, 1));
  const event = new Event(b.api, nonNull(a.getPtr('event'), slot), b.scope).keep(dst);
  const callback = nonNull(a.getPtr('future_ready_callback'), `${slot} (future_ready_callback)`);
  const data = a.getPtr('callback_data');
  let used = false;
  const call = (fill: (cb: ReturnType<typeof b.api.args>) => void) => {
    if (used) throw new Error('future_ready_callback may be called once');
    used = true;
    const cb = b.api.args('PJRT_Buffer_CopyRawToHostFuture_Callback_Args').ptr('callback_data', data);
    fill(cb);
    callDeleter(callback, cb.address);
  };
  return {
    event,
    dst: dst.subarray(0, size),
    fulfill: () => call((cb) => cb.i32('error_code', enumValue('PJRT_Error_Code', 'OK')).bytes('dst', null, dst)),
    fail: (e) => call((cb) => cb.i32('error_code', enumValue('PJRT_Error_Code', e.code)).bytes('error_message', 'error_message_size', e.message)),
  };
}

/** PJRT_Buffer_Bitcast to `dtype`/`dims` with the default device layout. */
export function bitcast(b: Buffer, dtype: string, dims: readonly number[]): Buffer {
  const slot = 'PJRT_Buffer_Bitcast';
  const a = b.api.args(slot).ptr('buffer', alive(b)).i32('element_type', bufferTypeOf(dtype)).i64s('dims', 'num_dims', dims);
  b.api.call(slot, a);
  return new Buffer(b.client, nonNull(a.getPtr('out_buffer'), slot), b.scope).withShape(dtype, dims);
}

export interface ControlledDonation {
  /** The new buffer, ready once the source and the dependency are. */
  readonly buffer: Buffer;
  /** dependency_ready_callback with OK. */
  ready(): void;
  /** dependency_ready_callback with an error. */
  fail(error: ErrorStatus): void;
}

/** PJRT_Buffer_DonateWithControlDependency. */
export function donateWithControlDependency(b: Buffer): ControlledDonation {
  const slot = 'PJRT_Buffer_DonateWithControlDependency';
  const a = b.api.args(slot).ptr('buffer', alive(b));
  b.api.call(slot, a);
  const buffer = new Buffer(b.client, nonNull(a.getPtr('out_buffer'), slot), b.scope);
  if (b.shape) buffer.withShape(b.shape.dtype, b.shape.dims);
  const callback = nonNull(a.getPtr('dependency_ready_callback'), `${slot} (dependency_ready_callback)`);
  const data = a.getPtr('callback_data');
  let used = false;
  const call = (code: string, message: string) => {
    if (used) throw new Error('dependency_ready_callback may be called once');
    used = true;
    const cb = b.api.args('PJRT_Buffer_DonateWithControlDependency_Callback_Args').ptr('callback_data', data).i32('error_code', enumValue('PJRT_Error_Code', code));
    if (message) cb.bytes('error_message', 'error_message_size', message);
    callDeleter(callback, cb.address);
  };
  return { buffer, ready: () => call('OK', ''), fail: (e) => call(e.code, e.message) };
}

export type MemoryLayout =
  /** `tiles`: each tile's dims, outermost tile first (PJRT_Buffer_MemoryLayout_Tiled tile_dims split by tile_dim_sizes) */
  | { type: 'tiled'; minorToMajor: number[]; tiles: number[][] }
  | { type: 'strides'; byteStrides: number[] }
  | { type: 'unknown'; value: number };

/** PJRT_Buffer_GetMemoryLayout (deprecated upstream in favour of the layouts extension). */
export function memoryLayout(b: Buffer): MemoryLayout {
  const slot = 'PJRT_Buffer_GetMemoryLayout';
  const a = b.api.args(slot).ptr('buffer', alive(b));
  b.api.call(slot, a);
  const base = a.address + BigInt(a.layout.offset('layout'));
  const ml = layoutOf('PJRT_Buffer_MemoryLayout');
  const union = base + BigInt(ml.field('layout').offset);
  const type = mem.readI32(base, ml.field('type').offset);
  if (type === enumValue('PJRT_Buffer_MemoryLayout_Type', 'Tiled')) {
    const t = layoutOf('PJRT_Buffer_MemoryLayout_Tiled');
    const m2m = mem.readI64Array(mem.readPtr(union, t.field('minor_to_major').offset), Number(mem.readU64(union, t.field('minor_to_major_size').offset)));
    const sizes = mem.readU64Array(mem.readPtr(union, t.field('tile_dim_sizes').offset), Number(mem.readU64(union, t.field('num_tiles').offset))).map(Number);
    const dims = mem.readI64Array(mem.readPtr(union, t.field('tile_dims').offset), sizes.reduce((x, y) => x + y, 0)).map(Number);
    let at = 0;
    const tiles = sizes.map((n) => dims.slice(at, (at += n)));
    return { type: 'tiled', minorToMajor: m2m.map(Number), tiles };
  }
  if (type === enumValue('PJRT_Buffer_MemoryLayout_Type', 'Strides')) {
    const s = layoutOf('PJRT_Buffer_MemoryLayout_Strides');
    const strides = mem.readI64Array(mem.readPtr(union, s.field('byte_strides').offset), Number(mem.readU64(union, s.field('num_byte_strides').offset)));
    return { type: 'strides', byteStrides: strides.map(Number) };
  }
  return { type: 'unknown', value: type };
}

export interface AliasBuffer {
  readonly buffer: Buffer;
  /** PJRT_Client_FulfillAliasBuffer with `real` (status OK). */
  fulfill(real: Buffer): void;
  /** PJRT_Client_FulfillAliasBuffer with an error status. */
  fail(error: ErrorStatus): void;
}

/** PJRT_Client_CreateAliasBuffer in `memory`, the shape written as src/pjrt/shape-args.ts says (`layout: null`: NULL). */
export function createAliasBuffer(client: Client, memory: Memory, dtype: string, dims: readonly number[], layout?: LayoutSpec | null): AliasBuffer {
  const slot = 'PJRT_Client_CreateAliasBuffer';
  const a = writeShape(client.api, client.api.args(slot).ptr('client', client.ptr).ptr('memory', memory.ptr), { dtype, dims, layout });
  client.api.call(slot, a);
  const buffer = new Buffer(client, nonNull(a.getPtr('alias_buffer'), slot), client.scope).withShape(dtype, dims);
  const cb = nonNull(a.getPtr('fulfill_alias_buffer_cb'), `${slot} (fulfill_alias_buffer_cb)`);
  const fulfil = (f: (x: ReturnType<typeof client.api.args>) => void) => {
    const x = client.api.args('PJRT_Client_FulfillAliasBuffer').ptr('client', client.ptr).ptr('fulfill_alias_buffer_cb', cb);
    f(x);
    client.api.call('PJRT_Client_FulfillAliasBuffer', x);
  };
  return {
    buffer,
    fulfill: (real) => fulfil((x) => x.ptr('buffer', alive(real)).i32('status_code', enumValue('PJRT_Error_Code', 'OK'))),
    fail: (e) => fulfil((x) => x.i32('status_code', enumValue('PJRT_Error_Code', e.code)).bytes('error_message', 'error_message_size', e.message)),
  };
}

export function dmaMap(client: Client, data: Ptr, size: number): void {
  client.api.call('PJRT_Client_DmaMap', client.api.args('PJRT_Client_DmaMap').ptr('client', client.ptr).ptr('data', data).size('size', size));
}
export function dmaUnmap(client: Client, data: Ptr): void {
  client.api.call('PJRT_Client_DmaUnmap', client.api.args('PJRT_Client_DmaUnmap').ptr('client', client.ptr).ptr('data', data));
}

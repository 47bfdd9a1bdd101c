import { dtype as dtypeRow, hostByteSize } from '../abi/dtypes.js';
import type { Ptr } from '../ffi/index.js';
import type { Client } from './client.js';
import type { Device } from './device.js';
import { dtypeNameOf } from './dtype.js';
import { Event } from './event.js';
import { Handle } from './handle.js';
import type { Memory } from './memory.js';
import { denseLayout, memoryLayoutArgs, type LayoutSpec } from './layout.js';
import type { Scope } from './scope.js';

/** A PJRT_Buffer (caller-owned). */
export class Buffer extends Handle {
  private refs: unknown[] = [];
  /**
   * The element type and dims the buffer was created with, when its creator knew them (uploads and copies of
   * them). `toHost()` sizes its destination from this instead of asking the plugin (the size query is a separate
   * conformance case; frameworks never ask it: XLA's PjRtCApiBuffer::ToLiteral computes dst_size itself).
   */
  shape?: { dtype: string; dims: readonly number[] };

  constructor(
    readonly client: Client,
    ptr: Ptr,
    scope: Scope | undefined,
  ) {
    super(client.api, ptr, scope);
    scope?.track(this);
  }
  withShape(dtype: string, dims: readonly number[]): this {
    this.shape = { dtype, dims: [...dims] };
    return this;
  }
  /** Keep host memory alive as long as this buffer (zero-copy semantics). */
  keep(x: unknown): this {
    this.refs.push(x);
    return this;
  }
  private q(slot: string) {
    const a = this.api.args(slot).ptr('buffer', this.alive('Buffer'));
    this.api.call(slot, a);
    return a;
  }
  /** As q, called on a libuv worker thread (queries from several OS threads at once: the concurrency area). */
  private async qOnWorker(slot: string) {
    const a = this.api.args(slot).ptr('buffer', this.alive('Buffer'));
    await this.api.callAsync(slot, a);
    return a;
  }
  /** PJRT_Buffer_Dimensions called on a worker thread. */
  async dimsOnWorker(): Promise<number[]> {
    return (await this.qOnWorker('PJRT_Buffer_Dimensions')).i64Array('dims', 'num_dims').map(Number);
  }
  /** PJRT_Buffer_ElementType called on a worker thread: the dtype's name. */
  async elementTypeOnWorker(): Promise<string> {
    return dtypeNameOf((await this.qOnWorker('PJRT_Buffer_ElementType')).getI32('type'));
  }
  /** dtype name, e.g. 'f32'. */
  elementType(): string {
    return dtypeNameOf(this.elementTypeValue());
  }
  elementTypeValue(): number {
    return this.q('PJRT_Buffer_ElementType').getI32('type');
  }
  dims(): number[] {
    return this.q('PJRT_Buffer_Dimensions').i64Array('dims', 'num_dims').map(Number);
  }
  unpaddedDims(): number[] {
    return this.q('PJRT_Buffer_UnpaddedDimensions').i64Array('unpadded_dims', 'num_dims').map(Number);
  }
  dynamicDimensionIndices(): number[] {
    return this.q('PJRT_Buffer_DynamicDimensionIndices').i64Array('dynamic_dim_indices', 'num_dynamic_dims').map(Number);
  }
  onDeviceSizeInBytes(): number {
    return this.q('PJRT_Buffer_OnDeviceSizeInBytes').getSize('on_device_size_in_bytes');
  }
  device(): Device {
    const p = this.q('PJRT_Buffer_Device').getPtr('device');
    if (p === null) throw new Error('PJRT_Buffer_Device returned NULL');
    return this.client.deviceFor(p);
  }
  memory(): Memory {
    const p = this.q('PJRT_Buffer_Memory').getPtr('memory');
    if (p === null) throw new Error('PJRT_Buffer_Memory returned NULL');
    return this.client.memoryFor(p);
  }
  delete(): void {
    this.q('PJRT_Buffer_Delete');
  }
  isDeleted(): boolean {
    return this.q('PJRT_Buffer_IsDeleted').getBool('is_deleted');
  }
  isOnCpu(): boolean {
    return this.q('PJRT_Buffer_IsOnCpu').getBool('is_on_cpu');
  }
  readyEvent(): Event {
    const p = this.q('PJRT_Buffer_ReadyEvent').getPtr('event');
    if (p === null) throw new Error('PJRT_Buffer_ReadyEvent returned NULL');
    return new Event(this.api, p, this.scope);
  }
  /**
   * The size query: PJRT_Buffer_ToHostBuffer with dst = NULL. Returns dst_size and whether the plugin handed
   * out an event (one that comes back is destroyed here).
   */
  hostSizeQuery(): { size: number; event: boolean } {
    const a = this.api.args('PJRT_Buffer_ToHostBuffer').ptr('src', this.alive('Buffer'));
    this.api.call('PJRT_Buffer_ToHostBuffer', a);
    const ev = a.getPtr('event');
    if (ev !== null) new Event(this.api, ev, undefined).destroy();
    return { size: a.getSize('dst_size'), event: ev !== null };
  }
  /** Bytes needed on the host, from the size query (PJRT_Buffer_ToHostBuffer with dst = NULL). */
  hostSize(): number {
    return this.hostSizeQuery().size;
  }
  /** Bytes of the default dense host layout of `dtype` × `dims` (one byte per sub-byte element). */
  static hostBytes(dtype: string, dims: readonly number[]): number {
    return hostByteSize(dtypeRow(dtype), dims.reduce((x, y) => x * y, 1));
  }
  /**
   * Copies the buffer to a new host array: the copy on a worker, then the event. The destination's size is
   * `dstSize`, else computed from `dtype`/`dims` (given, or remembered in `shape`), and only for a buffer of
   * unknown shape asked of the plugin (the size query). The host layout is dense major-to-minor, as XLA's C-API client
   * passes the layout of the literal it fills (PjRtCApiBuffer::ToLiteral); `hostLayout: null` passes NULL ("the layout
   * of the src buffer will be used"), for the cases that ask about that.
   */
  async toHost(opts: { dstSize?: number; dtype?: string; dims?: readonly number[]; hostLayout?: LayoutSpec | null } = {}): Promise<Uint8Array> {
    const shape = opts.dtype !== undefined && opts.dims !== undefined ? { dtype: opts.dtype, dims: opts.dims } : this.shape;
    const size = opts.dstSize ?? (shape ? Buffer.hostBytes(shape.dtype, shape.dims) : this.hostSize());
    const dst = new Uint8Array(size);
    const layout = opts.hostLayout === undefined ? denseLayout((shape?.dims ?? this.dims()).length) : opts.hostLayout;
    const a = this.api.args('PJRT_Buffer_ToHostBuffer').ptr('src', this.alive('Buffer')).bytes('dst', 'dst_size', dst);
    if (layout !== null) a.struct('host_layout', memoryLayoutArgs(this.api, layout));
    await this.api.callAsync('PJRT_Buffer_ToHostBuffer', a);
    const ev = a.getPtr('event');
    if (ev !== null) {
      const e = new Event(this.api, ev, undefined).keep(dst);
      try {
        await e.await();
      } finally {
        e.destroy();
      }
    }
    return dst;
  }
  async copyToDevice(d: Device): Promise<Buffer> {
    const a = this.api.args('PJRT_Buffer_CopyToDevice').ptr('buffer', this.alive('Buffer')).ptr('dst_device', d.ptr);
    await this.api.callAsync('PJRT_Buffer_CopyToDevice', a);
    return this.wrapOut(a.getPtr('dst_buffer'), 'PJRT_Buffer_CopyToDevice');
  }
  async copyToMemory(m: Memory): Promise<Buffer> {
    const a = this.api.args('PJRT_Buffer_CopyToMemory').ptr('buffer', this.alive('Buffer')).ptr('dst_memory', m.ptr);
    await this.api.callAsync('PJRT_Buffer_CopyToMemory', a);
    return this.wrapOut(a.getPtr('dst_buffer'), 'PJRT_Buffer_CopyToMemory');
  }
  private wrapOut(p: Ptr | null, slot: string): Buffer {
    if (p === null) throw new Error(`${slot} returned a NULL buffer`);
    const b = new Buffer(this.client, p, this.scope);
    if (this.shape) b.shape = this.shape;
    return b;
  }
  unsafePointer(): bigint {
    return this.q('PJRT_Buffer_UnsafePointer').getU64('buffer_pointer');
  }
  increaseExternalRef(): void {
    this.q('PJRT_Buffer_IncreaseExternalReferenceCount');
  }
  decreaseExternalRef(): void {
    this.q('PJRT_Buffer_DecreaseExternalReferenceCount');
  }
  opaqueDeviceMemoryDataPointer(): Ptr | null {
    return this.q('PJRT_Buffer_OpaqueDeviceMemoryDataPointer').getPtr('device_memory_ptr');
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.refs = [];
    this.api.call('PJRT_Buffer_Destroy', this.api.args('PJRT_Buffer_Destroy').ptr('buffer', this.ptr));
  }
}


// PJRT_Client_CreateBuffersForAsyncHostToDevice and its PJRT_AsyncHostToDeviceTransferManager: buffers that exist
// before their data, filled by chunks (TransferData) or whole literals (TransferLiteral).
import { enumValue } from '../abi/index.js';
import { encodeNamedValueList, type Ptr } from '../ffi/index.js';
import { Buffer } from './buffer.js';
import type { Client } from './client.js';
import type { Device } from './device.js';
import { bufferTypeOf } from './dtype.js';
import { Event } from './event.js';
import { Handle } from './handle.js';
import { memoryLayoutArgs, type LayoutSpec } from './layout.js';
import { writeShape } from './shape-args.js';
import type { Memory } from './memory.js';

export interface ShapeSpec {
  dtype: string;
  dims: readonly number[];
}

/** A PJRT_AsyncHostToDeviceTransferManager (caller-owned). */
export class TransferManager extends Handle {
  private constructor(
    readonly client: Client,
    ptr: Ptr,
    readonly specs: readonly ShapeSpec[],
  ) {
    super(client.api, ptr, client.scope);
    client.scope?.track(this);
  }

  /**
   * PJRT_Client_CreateBuffersForAsyncHostToDevice for `specs` in `memory`; `deviceLayouts` (one per spec, null = the
   * default) is passed only when given.
   */
  static async create(client: Client, specs: readonly ShapeSpec[], memory: Memory, deviceLayouts?: readonly (LayoutSpec | null)[]): Promise<TransferManager> {
    const slot = 'PJRT_Client_CreateBuffersForAsyncHostToDevice';
    const api = client.api;
    const specArgs = specs.map((s) => api.args('PJRT_ShapeSpec').i64s('dims', 'num_dims', s.dims).i32('element_type', bufferTypeOf(s.dtype)));
    const stride = specArgs[0]?.byteLength ?? 0;
    // The specs are an array of structs: copy each one into one contiguous block.
    const block = new Uint8Array(Math.max(stride * specs.length, 16));
    specArgs.forEach((s, i) => block.set(s.buf.subarray(0, stride), i * stride));
    const a = api.args(slot).ptr('client', client.ptr).bytes('shape_specs', null, block).size('num_shape_specs', specs.length).ptr('memory', memory.ptr);
    for (const s of specArgs) a.keep(s);
    if (deviceLayouts !== undefined) {
      const layouts = deviceLayouts.map((l) => (l === null ? null : memoryLayoutArgs(api, l)));
      a.ptrs('device_layouts', 'num_device_layouts', layouts.map((l) => l?.address ?? null)).keep(layouts);
    }
    await api.callAsync(slot, a);
    const p = a.getPtr('transfer_manager');
    if (p === null) throw new Error(`${slot} succeeded but returned NULL`);
    return new TransferManager(client, p, specs);
  }

  private args(slot: string) {
    return this.api.args(slot).ptr('transfer_manager', this.alive('TransferManager'));
  }
  private event(p: Ptr | null, slot: string, keep: unknown): Event {
    if (p === null) throw new Error(`${slot} returned a NULL done_with_h2d_transfer`);
    return new Event(this.api, p, this.scope).keep(keep);
  }

  bufferCount(): number {
    const a = this.args('PJRT_AsyncHostToDeviceTransferManager_BufferCount');
    this.api.call('PJRT_AsyncHostToDeviceTransferManager_BufferCount', a);
    return a.getSize('buffer_count');
  }
  bufferSize(index: number): number {
    const a = this.args('PJRT_AsyncHostToDeviceTransferManager_BufferSize').i32('buffer_index', index);
    this.api.call('PJRT_AsyncHostToDeviceTransferManager_BufferSize', a);
    return a.getSize('buffer_size');
  }
  device(): Device {
    const a = this.args('PJRT_AsyncHostToDeviceTransferManager_Device');
    this.api.call('PJRT_AsyncHostToDeviceTransferManager_Device', a);
    const p = a.getPtr('device_out');
    if (p === null) throw new Error('PJRT_AsyncHostToDeviceTransferManager_Device returned NULL');
    return this.client.deviceFor(p);
  }
  /** The buffer at `index` (its shape remembered from the spec). */
  retrieveBuffer(index: number): Buffer {
    const slot = 'PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer';
    const a = this.args(slot).i32('buffer_index', index);
    this.api.call(slot, a);
    const p = a.getPtr('buffer_out');
    if (p === null) throw new Error(`${slot} returned NULL`);
    const b = new Buffer(this.client, p, this.scope);
    const spec = this.specs[index];
    return spec ? b.withShape(spec.dtype, spec.dims) : b;
  }
  /** TransferData: `data` (raw on-device bytes) at `offset` of buffer `index`; the event keeps `data` alive. */
  async transferData(index: number, data: Uint8Array, offset: number, isLast: boolean): Promise<Event> {
    const slot = 'PJRT_AsyncHostToDeviceTransferManager_TransferData';
    const a = this.args(slot).i32('buffer_index', index).bytes('data', null, data).i64('offset', offset).i64('transfer_size', data.byteLength).bool('is_last_transfer', isLast);
    await this.api.callAsync(slot, a);
    return this.event(a.getPtr('done_with_h2d_transfer'), slot, data);
  }
  /**
   * TransferLiteral: a host literal of the buffer's shape, with the literal's layout (src/pjrt/shape-args.ts: dense
   * unless `layout` says otherwise, NULL for `null`), as XLA's C-API client passes it (an `xla::Literal` has one).
   */
  async transferLiteral(index: number, data: Uint8Array, spec: ShapeSpec, layout?: LayoutSpec | null): Promise<Event> {
    const slot = 'PJRT_AsyncHostToDeviceTransferManager_TransferLiteral';
    const a = writeShape(this.api, this.args(slot).i32('buffer_index', index).bytes('data', null, data), { ...spec, layout });
    await this.api.callAsync(slot, a);
    return this.event(a.getPtr('done_with_h2d_transfer'), slot, data);
  }
  setBufferError(index: number, error: { code: string; message: string }): void {
    const slot = 'PJRT_AsyncHostToDeviceTransferManager_SetBufferError';
    const a = this.args(slot).i32('buffer_index', index).i32('error_code', enumValue('PJRT_Error_Code', error.code)).bytes('error_message', 'error_message_size', error.message);
    this.api.call(slot, a);
  }
  addMetadata(metadata: Record<string, string>): void {
    const slot = 'PJRT_AsyncHostToDeviceTransferManager_AddMetadata';
    const m = encodeNamedValueList(Object.entries(metadata).map(([name, value]) => ({ name, value })));
    const a = this.args(slot).ptr('transfer_metadata', m.ptr).size('num_metadata', m.count).keep(m.keep);
    this.api.call(slot, a);
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    const slot = 'PJRT_AsyncHostToDeviceTransferManager_Destroy';
    this.api.call(slot, this.api.args(slot).ptr('transfer_manager', this.ptr));
  }
}

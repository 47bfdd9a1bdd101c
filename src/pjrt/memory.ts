import { memoryFunctionTable, type MemoryFunctionTable, type Ptr, type RawApi } from '../ffi/index.js';

/** The API minor from which a PJRT_Memory starts with its function table (pjrt_c_api.h CHANGELOG 0.105). */
export const MEMORY_TABLE_SINCE = 105;
import type { Client } from './client.js';
import type { Device } from './device.js';

/** A PJRT_Memory (owned by its client). */
export class Memory {
  constructor(
    readonly client: Client,
    readonly ptr: Ptr,
  ) {}
  get api(): RawApi {
    return this.client.api;
  }
  private q(slot: string) {
    const a = this.api.args(slot).ptr('memory', this.ptr);
    this.api.call(slot, a);
    return a;
  }
  id(): number {
    return this.q('PJRT_Memory_Id').getI32('id');
  }
  kind(): string {
    return this.q('PJRT_Memory_Kind').str('kind');
  }
  kindId(): number {
    return this.q('PJRT_Memory_Kind_Id').getI32('kind_id');
  }
  debugString(): string {
    return this.q('PJRT_Memory_DebugString').str('debug_string');
  }
  toString(): string {
    return this.q('PJRT_Memory_ToString').str('to_string');
  }
  /**
   * The PJRT_Memory_FunctionTable this memory starts with (null: NULL there), read as XLA's C-API client reads it for a
   * plugin of 0.105 or later; undefined for an older plugin, whose PJRT_Memory has no such member.
   */
  functionTable(): MemoryFunctionTable | null | undefined {
    return this.api.minor >= MEMORY_TABLE_SINCE ? memoryFunctionTable(this.ptr) : undefined;
  }
  addressableByDevices(): Device[] {
    return this.q('PJRT_Memory_AddressableByDevices').ptrArray('devices', 'num_devices').map((p) => this.client.deviceFor(p));
  }
}

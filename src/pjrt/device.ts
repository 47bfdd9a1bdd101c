import { decodeNamedValueList, decodeNamedValues, type NamedValueEntry, type NamedValues, type Ptr, type RawApi } from '../ffi/index.js';
import type { Client } from './client.js';
import type { Memory } from './memory.js';

/** A PJRT_DeviceDescription (owned by its client or topology). */
export class DeviceDescription {
  constructor(
    readonly api: RawApi,
    readonly ptr: Ptr,
  ) {}
  private q(slot: string) {
    const a = this.api.args(slot).ptr('device_description', this.ptr);
    this.api.call(slot, a);
    return a;
  }
  get id(): number {
    return this.q('PJRT_DeviceDescription_Id').getI32('id');
  }
  get processIndex(): number {
    return this.q('PJRT_DeviceDescription_ProcessIndex').getI32('process_index');
  }
  get kind(): string {
    return this.q('PJRT_DeviceDescription_Kind').str('device_kind');
  }
  get debugString(): string {
    return this.q('PJRT_DeviceDescription_DebugString').str('debug_string');
  }
  get attributes(): NamedValues {
    const a = this.q('PJRT_DeviceDescription_Attributes');
    return decodeNamedValues(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  /** Attributes in the plugin's order, with their NamedValue types. */
  attributeList(): NamedValueEntry[] {
    const a = this.q('PJRT_DeviceDescription_Attributes');
    return decodeNamedValueList(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  toString(): string {
    return this.q('PJRT_DeviceDescription_ToString').str('to_string');
  }
}

/** Each optional `<stat>` / `<stat>_is_set` pair of PJRT_Device_MemoryStats_Args, camel-cased. */
export interface MemoryStats {
  bytesInUse: bigint;
  peakBytesInUse?: bigint;
  numAllocs?: bigint;
  largestAllocSize?: bigint;
  bytesLimit?: bigint;
  bytesReserved?: bigint;
  peakBytesReserved?: bigint;
  bytesReservableLimit?: bigint;
  largestFreeBlockBytes?: bigint;
  poolBytes?: bigint;
  peakPoolBytes?: bigint;
  /** 0.113 */
  peakAllocatedBytes?: bigint;
  [stat: string]: bigint | undefined;
}

/** A PJRT_Device (owned by its client). */
export class Device {
  private desc: DeviceDescription | null = null;
  constructor(
    readonly client: Client,
    readonly ptr: Ptr,
  ) {}
  get api(): RawApi {
    return this.client.api;
  }
  get description(): DeviceDescription {
    if (this.desc === null) {
      const a = this.api.args('PJRT_Device_GetDescription').ptr('device', this.ptr);
      this.api.call('PJRT_Device_GetDescription', a);
      const p = a.getPtr('device_description');
      if (p === null) throw new Error('PJRT_Device_GetDescription returned a NULL description');
      this.desc = new DeviceDescription(this.api, p);
    }
    return this.desc;
  }
  get id(): number {
    return this.description.id;
  }
  get processIndex(): number {
    return this.description.processIndex;
  }
  get kind(): string {
    return this.description.kind;
  }
  get attributes(): NamedValues {
    return this.description.attributes;
  }
  get debugString(): string {
    return this.description.debugString;
  }
  toString(): string {
    return this.description.toString();
  }
  localHardwareId(): number {
    const a = this.api.args('PJRT_Device_LocalHardwareId').ptr('device', this.ptr);
    this.api.call('PJRT_Device_LocalHardwareId', a);
    return a.getI32('local_hardware_id');
  }
  isAddressable(): boolean {
    const a = this.api.args('PJRT_Device_IsAddressable').ptr('device', this.ptr);
    this.api.call('PJRT_Device_IsAddressable', a);
    return a.getBool('is_addressable');
  }
  addressableMemories(): Memory[] {
    const a = this.api.args('PJRT_Device_AddressableMemories').ptr('device', this.ptr);
    this.api.call('PJRT_Device_AddressableMemories', a);
    return a.ptrArray('memories', 'num_memories').map((p) => this.client.memoryFor(p));
  }
  defaultMemory(): Memory {
    const a = this.api.args('PJRT_Device_DefaultMemory').ptr('device', this.ptr);
    this.api.call('PJRT_Device_DefaultMemory', a);
    const p = a.getPtr('memory');
    if (p === null) throw new Error('PJRT_Device_DefaultMemory returned NULL');
    return this.client.memoryFor(p);
  }
  /** PJRT_Device_GetAttributes (0.92); the plugin's deleter is called after reading. */
  deviceAttributes(): NamedValues {
    const a = this.api.args('PJRT_Device_GetAttributes').ptr('device', this.ptr);
    this.api.call('PJRT_Device_GetAttributes', a);
    return decodeNamedValues(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  /** bytes_in_use always; other statistics only when the plugin sets their `_is_set` flag. */
  memoryStats(): MemoryStats {
    const a = this.api.args('PJRT_Device_MemoryStats').ptr('device', this.ptr);
    this.api.call('PJRT_Device_MemoryStats', a);
    const out: MemoryStats = { bytesInUse: a.getI64('bytes_in_use') };
    for (const f of a.layout.fieldNames()) {
      if (!f.endsWith('_is_set') || !a.getBool(f)) continue;
      const name = f.slice(0, -'_is_set'.length);
      out[name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = a.getI64(name);
    }
    return out;
  }
}

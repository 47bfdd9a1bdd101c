import { callDeleter, decodeNamedValueList, decodeNamedValues, encodeNamedValues, mem, type NamedValueEntry, type NamedValues, type Ptr, type RawApi } from '../ffi/index.js';
import { bufferTypeOf } from './dtype.js';
import { DeviceDescription } from './device.js';
import { Handle } from './handle.js';
import type { Scope } from './scope.js';

/** A PJRT_TopologyDescription; `owned` ones (from TopologyDescription_Create/Deserialize) are destroyed by us. */
export class TopologyDescription extends Handle {
  constructor(
    api: RawApi,
    ptr: Ptr,
    scope: Scope | undefined,
    readonly owned: boolean,
  ) {
    super(api, ptr, scope);
    if (owned) scope?.track(this);
  }
  /** PJRT_TopologyDescription_Create: a caller-owned topology (destroyed with `scope`). */
  static create(api: RawApi, opts: { name?: string; options?: NamedValues; scope?: Scope } = {}): TopologyDescription {
    const enc = encodeNamedValues(opts.options ?? {});
    const a = api
      .args('PJRT_TopologyDescription_Create')
      .bytes('topology_name', 'topology_name_size', opts.name ?? '')
      .ptr('create_options', enc.ptr)
      .size('num_options', enc.count)
      .keep(enc.keep);
    api.call('PJRT_TopologyDescription_Create', a);
    const p = a.getPtr('topology');
    if (p === null) throw new Error('PJRT_TopologyDescription_Create returned a NULL topology');
    return new TopologyDescription(api, p, opts.scope, true);
  }
  /** PJRT_TopologyDescription_Deserialize: a caller-owned topology (destroyed with `scope`). */
  static deserialize(api: RawApi, bytes: Uint8Array, scope?: Scope): TopologyDescription {
    const a = api.args('PJRT_TopologyDescription_Deserialize').bytes('serialized_topology', 'serialized_topology_size', bytes);
    api.call('PJRT_TopologyDescription_Deserialize', a);
    const p = a.getPtr('topology');
    if (p === null) throw new Error('PJRT_TopologyDescription_Deserialize returned a NULL topology');
    return new TopologyDescription(api, p, scope, true);
  }
  /** PJRT_TopologyDescription_Destroy(NULL) ("`topology` can be nullptr"). */
  static destroyNull(api: RawApi): void {
    api.call('PJRT_TopologyDescription_Destroy', api.args('PJRT_TopologyDescription_Destroy').ptr('topology', null));
  }
  private q(slot: string) {
    const a = this.api.args(slot).ptr('topology', this.alive('TopologyDescription'));
    this.api.call(slot, a);
    return a;
  }
  platformName(): string {
    return this.q('PJRT_TopologyDescription_PlatformName').str('platform_name');
  }
  platformVersion(): string {
    return this.q('PJRT_TopologyDescription_PlatformVersion').str('platform_version');
  }
  deviceDescriptions(): DeviceDescription[] {
    return this.q('PJRT_TopologyDescription_GetDeviceDescriptions')
      .ptrArray('descriptions', 'num_descriptions')
      .map((p) => new DeviceDescription(this.api, p));
  }
  attributes(): NamedValues {
    const a = this.q('PJRT_TopologyDescription_Attributes');
    return decodeNamedValues(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  /** Attributes in the plugin's order, with their NamedValue types. */
  attributeList(): NamedValueEntry[] {
    const a = this.q('PJRT_TopologyDescription_Attributes');
    return decodeNamedValueList(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  memorySpaceKindIds(): number[] {
    const a = this.q('PJRT_TopologyDescription_GetMemorySpaceKindIds');
    return mem.readI32Array(a.getPtr('memory_space_kind_ids'), a.getSize('num_memory_space_kind_ids'));
  }
  /** Serialized xla.ShapeProto of `dtype[dims]` in the memory space of `kindId` (the plugin's deleter is called). */
  canonicalShape(kindId: number, dtype: string, dims: number[]): Uint8Array {
    const a = this.api
      .args('PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace')
      .ptr('topology', this.alive('TopologyDescription'))
      .i32('memory_space_kind_id', kindId)
      .i64s('dims', 'num_dims', dims)
      .i32('element_type', bufferTypeOf(dtype));
    this.api.call('PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace', a);
    const bytes = a.getBytes('serialized_shape', 'serialized_shape_size');
    callDeleter(a.getPtr('serialized_shape_deleter'), a.getPtr('serialized_shape'));
    return bytes;
  }
  fingerprint(): bigint {
    return this.q('PJRT_TopologyDescription_Fingerprint').getU64('fingerprint');
  }
  serialize(): Uint8Array {
    const a = this.q('PJRT_TopologyDescription_Serialize');
    const bytes = a.getBytes('serialized_bytes');
    callDeleter(a.getPtr('serialized_topology_deleter'), a.getPtr('serialized_topology'));
    return bytes;
  }
  /** Destroys an owned topology now (a client's topology is never destroyed by us). */
  destroy(): void {
    if (this._destroyed || !this.owned) return;
    this._destroyed = true;
    this.api.call('PJRT_TopologyDescription_Destroy', this.api.args('PJRT_TopologyDescription_Destroy').ptr('topology', this.ptr));
  }
}

import { callDeleter, decodeNamedValues, type NamedValues, type Ptr, type RawApi } from '../ffi/index.js';
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
  fingerprint(): bigint {
    return this.q('PJRT_TopologyDescription_Fingerprint').getU64('fingerprint');
  }
  serialize(): Uint8Array {
    const a = this.q('PJRT_TopologyDescription_Serialize');
    const bytes = a.getBytes('serialized_bytes');
    callDeleter(a.getPtr('serialized_topology_deleter'), a.getPtr('serialized_topology'));
    return bytes;
  }
  destroy(): void {
    if (this._destroyed || !this.owned) return;
    this._destroyed = true;
    this.api.call('PJRT_TopologyDescription_Destroy', this.api.args('PJRT_TopologyDescription_Destroy').ptr('topology', this.ptr));
  }
}

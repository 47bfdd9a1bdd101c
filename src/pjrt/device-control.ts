// Device control beyond the cached description: a fresh description query, PJRT_Device_GetAttributes, memory-stat
// reset, poisoning an execution by launch id, async tracking events, and the client's global process info.
import { enumValue } from '../abi/index.js';
import { callDeleter, decodeNamedValueList, type NamedValueEntry, type RawApi } from '../ffi/index.js';
import type { Client } from './client.js';
import { DeviceDescription, type Device } from './device.js';
import { Handle } from './handle.js';
import type { Scope } from './scope.js';

/** PJRT_Device_GetDescription, called now (Device.description caches the first answer). */
export function queryDescription(device: Device): DeviceDescription {
  const a = device.api.args('PJRT_Device_GetDescription').ptr('device', device.ptr);
  device.api.call('PJRT_Device_GetDescription', a);
  const p = a.getPtr('device_description');
  if (p === null) throw new Error('PJRT_Device_GetDescription returned a NULL description');
  return new DeviceDescription(device.api, p);
}

/** PJRT_Device_GetAttributes in the plugin's order; the attributes are copied, then the plugin's deleter runs. */
export function deviceAttributeList(device: Device): NamedValueEntry[] {
  const a = device.api.args('PJRT_Device_GetAttributes').ptr('device', device.ptr);
  device.api.call('PJRT_Device_GetAttributes', a);
  const list = decodeNamedValueList(a.getPtr('attributes'), a.getSize('num_attributes'));
  callDeleter(a.getPtr('attributes_deleter'), a.getPtr('device_attributes'));
  return list;
}

export function clearMemoryStats(device: Device): void {
  device.api.call('PJRT_Device_ClearMemoryStats', device.api.args('PJRT_Device_ClearMemoryStats').ptr('device', device.ptr));
}

/** PJRT_Device_PoisonExecution: whether an unfinished execution with `launchId` was poisoned. */
export function poisonExecution(device: Device, launchId: number, error: { code: string; message: string }): boolean {
  const code = enumValue('PJRT_Error_Code', error.code);
  const a = device.api
    .args('PJRT_Device_PoisonExecution')
    .ptr('device', device.ptr)
    .i32('launch_id', launchId)
    .i32('error_code', code)
    .bytes('error_message', 'error_message_size', error.message);
  device.api.call('PJRT_Device_PoisonExecution', a);
  return a.getBool('poisoned');
}

/** A PJRT_AsyncTrackingEvent (caller-owned). */
export class AsyncTrackingEvent extends Handle {
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.api.call('PJRT_AsyncTrackingEvent_Destroy', this.api.args('PJRT_AsyncTrackingEvent_Destroy').ptr('event', this.ptr));
  }
}

/** PJRT_Device_CreateAsyncTrackingEvent; null when the plugin returns no event (XLA's CPU device does). */
export function createAsyncTrackingEvent(device: Device, description: string, scope?: Scope): AsyncTrackingEvent | null {
  const a = device.api.args('PJRT_Device_CreateAsyncTrackingEvent').ptr('device', device.ptr).bytes('description', 'description_size', description);
  device.api.call('PJRT_Device_CreateAsyncTrackingEvent', a);
  const p = a.getPtr('event');
  if (p === null) return null;
  const e = new AsyncTrackingEvent(device.api, p, scope);
  scope?.track(e);
  return e;
}

export type ProcessState = 'kUnspecified' | 'kUninitialized' | 'kDisconnected' | 'kConnected' | 'kError';
export interface ProcessInfo {
  taskId: number;
  incarnationId: bigint;
  state: ProcessState;
  errorCode?: number;
  errorMessage?: string;
}

/** PJRT_Client_UpdateGlobalProcessInfo with one PJRT_ProcessInfo per entry. */
export function updateGlobalProcessInfo(client: Client, infos: readonly ProcessInfo[]): void {
  const api: RawApi = client.api;
  const structs = infos.map((p) => {
    const state = enumValue('PJRT_ProcessState', p.state);
    return api
      .args('PJRT_ProcessInfo')
      .i32('task_id', p.taskId)
      .size('incarnation_id', p.incarnationId)
      .i32('state', state)
      .i32('error_code', p.errorCode ?? 0)
      .bytes('error_message', 'error_message_size', p.errorMessage ?? '');
  });
  const stride = structs[0]?.layout.sizeof ?? 0;
  const packed = new Uint8Array(Math.max(1, stride * structs.length));
  structs.forEach((s, i) => packed.set(s.buf.subarray(0, stride), i * stride));
  const a = api.args('PJRT_Client_UpdateGlobalProcessInfo').ptr('client', client.ptr).size('num_process_infos', infos.length).keep(structs);
  if (infos.length > 0) a.bytes('process_infos', null, packed);
  api.call('PJRT_Client_UpdateGlobalProcessInfo', a);
}

// Gathers the `info` document from a loaded plugin. Each query that fails is recorded as a problem, not fatal.
import { API_SLOTS, PJRT_API_MAJOR, PJRT_API_MINOR } from '../abi/index.js';
import { PjrtError, UnsupportedError, callStacks, type NamedValueEntry } from '../ffi/index.js';
import type { Client, Plugin } from '../pjrt/index.js';
import { traced } from '../worker/call-trace.js';
import type { InfoDocument, NamedValueJson, InfoDeviceJson, InfoMemoryJson } from './info-schema.js';

function int64Json(v: bigint): number | string {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

function namedValueJson(e: NamedValueEntry): NamedValueJson {
  const v = e.value;
  let value: NamedValueJson['value'];
  if (typeof v === 'bigint') value = int64Json(v);
  else if (Array.isArray(v)) value = v.map(int64Json);
  else if (typeof v === 'number' && !Number.isFinite(v)) value = String(v);
  else value = v;
  return { name: e.name, kind: e.kind, value };
}

export function errorText(e: unknown): string {
  if (e instanceof PjrtError) return `${e.slot}: ${e.codeName}: ${e.message}`;
  if (e instanceof UnsupportedError) return `unsupported: ${e.reason}`;
  return e instanceof Error ? e.message : String(e);
}

export class Collector {
  readonly problems: { what: string; message: string }[] = [];
  /** Runs `f`; on failure records the problem and returns `fallback`. */
  try<T>(what: string, f: () => T, fallback: T): T {
    try {
      return traced(what, f);
    } catch (e) {
      this.problems.push({ what, message: errorText(e) });
      return fallback;
    }
  }
}

export function pluginPart(plugin: Plugin, c: Collector): Omit<InfoDocument, 'platform' | 'processIndex' | 'devices' | 'addressableDevices' | 'memories' | 'problems'> {
  const extensions = c.try('extension chain', () => plugin.describeExtensions(), { chain: [], loop: false });
  return {
    plugin: { path: plugin.path, structSize: plugin.structSize, callStack: callStacks() },
    apiVersion: { plugin: plugin.apiVersion, ours: { major: PJRT_API_MAJOR, minor: PJRT_API_MINOR } },
    attributes: c.try('PJRT_Plugin_Attributes', () => plugin.attributeList().map(namedValueJson), []),
    extensions,
    slots: API_SLOTS.map((s) => ({ name: s.name, since: s.since, state: plugin.slotState(s.name) })),
  };
}

export function clientPart(client: Client, c: Collector): Pick<InfoDocument, 'platform' | 'processIndex' | 'devices' | 'addressableDevices' | 'memories'> {
  const devices = c.try('PJRT_Client_Devices', () => client.devices(), []);
  const addressable = c.try('PJRT_Client_AddressableDevices', () => client.addressableDevices(), []);
  const memories = c.try('PJRT_Client_AddressableMemories', () => client.addressableMemories(), []);
  const deviceJson = devices.map((d, i): InfoDeviceJson => {
    const w = `device ${i}`;
    const isAddr = c.try(`${w} PJRT_Device_IsAddressable`, () => d.isAddressable(), null);
    return {
      id: c.try(`${w} PJRT_DeviceDescription_Id`, () => d.id, null),
      kind: c.try(`${w} PJRT_DeviceDescription_Kind`, () => d.kind, null),
      localHardwareId: c.try(`${w} PJRT_Device_LocalHardwareId`, () => d.localHardwareId(), null),
      processIndex: c.try(`${w} PJRT_DeviceDescription_ProcessIndex`, () => d.processIndex, null),
      addressable: isAddr,
      attributes: c.try(`${w} PJRT_DeviceDescription_Attributes`, () => d.description.attributeList().map(namedValueJson), []),
      debugString: c.try(`${w} PJRT_DeviceDescription_DebugString`, () => d.debugString, null),
      toString: c.try(`${w} PJRT_DeviceDescription_ToString`, () => d.toString(), null),
      memories: isAddr ? c.try(`${w} PJRT_Device_AddressableMemories`, () => d.addressableMemories().map((m) => m.id()), null) : null,
      defaultMemory: isAddr ? c.try(`${w} PJRT_Device_DefaultMemory`, () => d.defaultMemory().id(), null) : null,
    };
  });
  const memoryJson = memories.map((m, i): InfoMemoryJson => {
    const w = `memory ${i}`;
    return {
      id: c.try(`${w} PJRT_Memory_Id`, () => m.id(), null),
      kind: c.try(`${w} PJRT_Memory_Kind`, () => m.kind(), null),
      kindId: c.try(`${w} PJRT_Memory_Kind_Id`, () => m.kindId(), null),
      debugString: c.try(`${w} PJRT_Memory_DebugString`, () => m.debugString(), null),
      toString: c.try(`${w} PJRT_Memory_ToString`, () => m.toString(), null),
      devices: c.try(`${w} PJRT_Memory_AddressableByDevices`, () => m.addressableByDevices().map((d) => d.id), null),
    };
  });
  return {
    platform: {
      name: c.try('PJRT_Client_PlatformName', () => client.platformName(), null),
      version: c.try('PJRT_Client_PlatformVersion', () => client.platformVersion(), null),
    },
    processIndex: c.try('PJRT_Client_ProcessIndex', () => client.processIndex(), null),
    devices: deviceJson,
    addressableDevices: addressable.map((d) => c.try('PJRT_DeviceDescription_Id', () => d.id, -1)),
    memories: memoryJson,
  };
}

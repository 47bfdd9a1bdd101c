// Typed access to the extensions frameworks use (src/abi/extensions.ts describes their structs). Every entry point
// throws UnsupportedError when the plugin lacks the extension or the function, so a case needing it is `unsupported`.
import { enumValue, layoutOf } from '../abi/index.js';
import {
  callDeleter, callTraced, callTracedAsync, decodeFn, errorCodeName, extensionFn, extensionFnName, makeArgs, memberPointer, PjrtError,
  requireExtension, UnsupportedError, type Args, type RawApi,
} from '../ffi/index.js';
import { readBytes, readU64, type Ptr } from '../ffi/mem.js';
import type { Buffer } from './buffer.js';
import type { Client } from './client.js';
import type { Device, DeviceDescription } from './device.js';
import type { Executable } from './executable.js';
import type { TopologyDescription } from './topology.js';

/** Calls `member` of extension `type` with a fresh Args that `fill` completes; a PJRT_Error becomes a PjrtError. */
function callExt(api: RawApi, type: string, member: string, fill: (a: Args) => void): Args {
  const { fn, args } = extensionFn(api, type, member);
  const a = makeArgs(args);
  fill(a);
  const err = callTraced(fn, extensionFnName(args), a.address);
  if (err !== null) throw api.takeError(err, `${type}.${member}`);
  return a;
}

async function callExtAsync(api: RawApi, type: string, member: string, fill: (a: Args) => void): Promise<Args> {
  const { fn, args } = extensionFn(api, type, member);
  const a = makeArgs(args);
  fill(a);
  const err = await callTracedAsync(fn, extensionFnName(args), a.address);
  if (err !== null) throw api.takeError(err, `${type}.${member}`);
  return a;
}

/** A layout's minor_to_major from XLA's layout text (`{1,0}`, `{1,0:T(8,128)}`), or null when it is not one. */
export function parseLayoutText(text: string): { minorToMajor: number[]; rest: string } | null {
  const m = /^\{([0-9,\s]*)(?::([^}]*))?\}$/.exec(text);
  if (!m) return null;
  const body = m[1]!.trim();
  return { minorToMajor: body === '' ? [] : body.split(',').map((x) => Number(x.trim())), rest: m[2] ?? '' };
}

export class Layouts {
  static readonly TYPE = 'Layouts';
  constructor(readonly api: RawApi) {}
  private call(member: string, fill: (a: Args) => void): Args {
    return callExt(this.api, Layouts.TYPE, `PJRT_Layouts_${member}`, fill);
  }
  /** The serialized form of a PJRT_Layouts_MemoryLayout (the plugin's deleter is called). */
  serialize(layout: Ptr): string {
    const a = this.call('MemoryLayout_Serialize', (x) => x.ptr('layout', layout));
    try {
      return a.str('serialized_bytes');
    } finally {
      callDeleter(a.getPtr('serialized_layout_deleter'), a.getPtr('serialized_layout'));
    }
  }
  destroy(layout: Ptr): void {
    this.call('MemoryLayout_Destroy', (x) => x.ptr('layout', layout));
  }
  /** Serializes and destroys a caller-owned layout. */
  private take(layout: Ptr | null, what: string): string {
    if (layout === null) throw new PjrtError(-1, 'NULL_LAYOUT', `${what} returned no layout`, what);
    try {
      return this.serialize(layout);
    } finally {
      this.destroy(layout);
    }
  }
  clientDefault(client: Client, pjrtType: string, dims: readonly number[]): string {
    const a = this.call('PJRT_Client_GetDefaultLayout', (x) => x.ptr('client', client.ptr)
      .i32('type', enumValue('PJRT_Buffer_Type', pjrtType)).i64s('dims', 'num_dims', dims));
    return this.take(a.getPtr('layout'), 'PJRT_Layouts_PJRT_Client_GetDefaultLayout');
  }
  topologyDefault(topology: TopologyDescription, pjrtType: string, dims: readonly number[]): string {
    const a = this.call('PJRT_Topology_GetDefaultLayout', (x) => x.ptr('topology_description', topology.ptr)
      .i32('type', enumValue('PJRT_Buffer_Type', pjrtType)).i64s('dims', 'num_dims', dims));
    return this.take(a.getPtr('layout'), 'PJRT_Layouts_PJRT_Topology_GetDefaultLayout');
  }
  buffer(buffer: Buffer): string {
    const a = this.call('PJRT_Buffer_MemoryLayout', (x) => x.ptr('buffer', buffer.ptr));
    return this.take(a.getPtr('layout'), 'PJRT_Layouts_PJRT_Buffer_MemoryLayout');
  }
  /** Output layouts (owned by the executable: serialized, not destroyed). */
  outputs(executable: Executable): string[] {
    const a = this.call('PJRT_Executable_GetOutputLayouts', (x) => x.ptr('executable', executable.ptr));
    return a.ptrArray('layouts', 'num_outputs').map((p) => this.serialize(p));
  }
}

export interface MemoryDescriptionInfo { kind: string; kindId: number }

export class MemoryDescriptions {
  static readonly TYPE = 'MemoryDescriptions';
  constructor(readonly api: RawApi) {}
  /** The memory descriptions of a device description; `defaultIndex` -1 when the plugin names no default. */
  of(desc: DeviceDescription): { memories: MemoryDescriptionInfo[]; defaultIndex: number } {
    const a = callExt(this.api, MemoryDescriptions.TYPE, 'PJRT_DeviceDescription_MemoryDescriptions',
      (x) => x.ptr('device_description', desc.ptr));
    const memories = a.ptrArray('memory_descriptions', 'num_memory_descriptions').map((p) => {
      const k = callExt(this.api, MemoryDescriptions.TYPE, 'PJRT_MemoryDescription_Kind', (x) => x.ptr('memory_description', p));
      return { kind: k.str('kind'), kindId: k.getI32('kind_id') };
    });
    const raw = a.getU64('default_memory_index');
    return { memories, defaultIndex: raw === 0xffffffffffffffffn ? -1 : Number(raw) };
  }
}

export class Stream {
  static readonly TYPE = 'Stream';
  constructor(readonly api: RawApi) {}
  forDevice(device: Device): bigint {
    return callExt(this.api, Stream.TYPE, 'get_stream', (x) => x.ptr('device', device.ptr)).getI64('stream');
  }
  /** May block until the buffer is ready, so it runs off the main thread. */
  async waitUntilReady(stream: bigint, buffer: Buffer): Promise<void> {
    await callExtAsync(this.api, Stream.TYPE, 'wait_stream', (x) => x.i64('stream', stream).ptr('buffer', buffer.ptr));
  }
}

export class Ffi {
  static readonly TYPE = 'FFI';
  constructor(readonly api: RawApi) {}
  /** Registers a type; `typeId` 0 asks the plugin to assign one. Returns the id the Args carry afterwards. */
  typeRegister(name: string, typeId = 0n): bigint {
    const info = makeArgs('PJRT_FFI_Type_Info').ptr('deleter', null); // no struct_size: clear what Args wrote
    return callExt(this.api, Ffi.TYPE, 'type_register', (x) => x.bytes('type_name', 'type_name_size', name)
      .i64('type_id', typeId).struct('type_info', info)).getI64('type_id');
  }
  userDataAdd(context: Ptr | null, typeId: bigint, data: Ptr | null): void {
    // user_data is a PJRT_FFI_UserData by value: its members sit at user_data's offset plus their own.
    const at = (a: Args, member: string): number => a.base + a.layout.offset('user_data') + layoutOf('PJRT_FFI_UserData').field(member).offset;
    callExt(this.api, Ffi.TYPE, 'user_data_add', (x) => {
      x.ptr('context', context);
      x.dv.setBigInt64(at(x, 'type_id'), typeId, true);
      x.dv.setBigUint64(at(x, 'data'), data ?? 0n, true);
    });
  }
  registerHandler(target: string, handler: Ptr | null, platform: string): void {
    callExt(this.api, Ffi.TYPE, 'register_handler', (x) => x.bytes('target_name', 'target_name_size', target)
      .ptr('handler', handler).bytes('platform_name', 'platform_name_size', platform));
  }
  /** A new PJRT_ExecuteContext (core slots) and its destroyer. */
  createContext(): { context: Ptr; destroy: () => void } {
    const a = this.api.args('PJRT_ExecuteContext_Create');
    this.api.call('PJRT_ExecuteContext_Create', a);
    const context = a.getPtr('context');
    if (context === null) throw new PjrtError(-1, 'NULL_CONTEXT', 'PJRT_ExecuteContext_Create returned no context', 'PJRT_ExecuteContext_Create');
    return { context, destroy: () => this.api.call('PJRT_ExecuteContext_Destroy', this.api.args('PJRT_ExecuteContext_Destroy').ptr('context', context)) };
  }
}

const PROFILER_FNS: Readonly<Record<string, string>> = {
  create: 'PLUGIN_Profiler_Create_Args', destroy: 'PLUGIN_Profiler_Destroy_Args', start: 'PLUGIN_Profiler_Start_Args',
  stop: 'PLUGIN_Profiler_Stop_Args', collect_data: 'PLUGIN_Profiler_CollectData_Args',
};

/** The PLUGIN_Profiler_Api table the Profiler extension points at. */
export class ProfilerApi {
  static readonly TYPE = 'Profiler';
  readonly ptr: Ptr;
  readonly structSize: number;
  constructor(readonly api: RawApi) {
    const { entry, struct } = requireExtension(api, ProfilerApi.TYPE);
    const p = memberPointer(entry.address, struct, 'profiler_api', entry.structSize, 'extension Profiler');
    if (p === null) throw new UnsupportedError('extension Profiler.profiler_api', 'is null (no profiler in this plugin)');
    this.ptr = p;
    this.structSize = Number(readU64(p, 0));
  }
  /** A member of the table (null when null; UnsupportedError past its struct_size). */
  pointer(name: string): Ptr | null {
    return memberPointer(this.ptr, 'PLUGIN_Profiler_Api', name, this.structSize, 'PLUGIN_Profiler_Api');
  }
  private member(name: string): Ptr {
    const p = this.pointer(name);
    if (p === null) throw new UnsupportedError(`PLUGIN_Profiler_Api.${name}`, 'is null');
    return p;
  }
  /** Calls a PLUGIN_Profiler_Api function; a PLUGIN_Profiler_Error becomes a PjrtError (and is destroyed). */
  call(name: keyof typeof PROFILER_FNS & string, fill: (a: Args) => void): Args {
    const a = makeArgs(PROFILER_FNS[name]!);
    fill(a);
    const err = callTraced(decodeFn(this.member(name)), extensionFnName(PROFILER_FNS[name]!), a.address);
    if (err !== null) throw this.takeError(err, name);
    return a;
  }
  private takeError(err: Ptr, name: string): PjrtError {
    const m = makeArgs('PLUGIN_Profiler_Error_Message_Args').ptr('error', err);
    callTraced(decodeFn(this.member('error_message'), true), 'PLUGIN_Profiler_Error_Message', m.address);
    const c = makeArgs('PLUGIN_Profiler_Error_GetCode_Args').ptr('error', err);
    callTraced(decodeFn(this.member('error_get_code')), 'PLUGIN_Profiler_Error_GetCode', c.address);
    callTraced(decodeFn(this.member('error_destroy'), true), 'PLUGIN_Profiler_Error_Destroy', makeArgs('PLUGIN_Profiler_Error_Destroy_Args').ptr('error', err).address);
    const code = c.getI32('code');
    return new PjrtError(code, errorCodeName(code), m.str('message'), `PLUGIN_Profiler_Api.${name}`);
  }
  /**
   * collect_data as both callers do it: the first call (buffer null) gives the size and, in XLA's PluginTracer, the
   * plugin's own buffer; when the plugin left `buffer` null, a second call fills one of that size (profiler_c_api.h).
   */
  collect(profiler: Ptr): { bytes: Uint8Array; firstCallBuffer: boolean } {
    const a = this.call('collect_data', (x) => x.ptr('profiler', profiler).ptr('buffer', null));
    const size = a.getSize('buffer_size_in_bytes');
    const own = a.getPtr('buffer');
    if (size === 0) return { bytes: new Uint8Array(0), firstCallBuffer: own !== null };
    if (own !== null) return { bytes: readBytes(own, size), firstCallBuffer: true };
    const dst = new Uint8Array(size);
    this.call('collect_data', (x) => x.ptr('profiler', profiler).bytes('buffer', null, dst));
    return { bytes: dst, firstCallBuffer: false };
  }
}

/**
 * An extension for an Args struct's extension_start: a PJRT_Profiler_Extension as XLA's C-API client builds it for
 * PJRT_Client_Compile and PJRT_LoadedExecutable_Execute (pjrt::CreatePjrtProfilerExtension: profiler_api null, a
 * traceme context id), or with `type` another PJRT_Extension_Type value (one the plugin may not know). `next`
 * continues the chain.
 */
export function argsExtension(opts: { tracemeContextId?: bigint; type?: number; next?: Args } = {}): Args {
  const a = makeArgs('PJRT_Profiler_Extension'); // base.struct_size (offset 0) = PJRT_Profiler_Extension_STRUCT_SIZE
  const base = layoutOf('PJRT_Extension_Base');
  a.dv.setInt32(a.base + base.field('type').offset, opts.type ?? enumValue('PJRT_Extension_Type', 'Profiler'), true);
  if (opts.next) a.keep(opts.next);
  a.dv.setBigUint64(a.base + base.field('next').offset, opts.next?.address ?? 0n, true);
  a.ptr('profiler_api', null).i64('traceme_context_id', opts.tracemeContextId ?? 0n);
  return a;
}

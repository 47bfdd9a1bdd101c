import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { enumValue, structDef } from '../abi/index.js';
import { dtype, hostByteSize } from '../abi/dtypes.js';
import {
  encodeNamedValueList,
  encodeNamedValues,
  kvCallbacks,
  spokenMinor,
  type Args,
  type KeyValueStore,
  type KvCallbacks,
  type NamedValues,
  type Ptr,
  type RawApi,
  viewDeleteTracker,
} from '../ffi/index.js';
import { encodeCompileOptions, type CompileOptions } from '../proto/index.js';
import { Buffer } from './buffer.js';
import { Device } from './device.js';
import { bufferTypeOf } from './dtype.js';
import { Event } from './event.js';
import { LoadedExecutable, type Executable } from './executable.js';
import { Handle } from './handle.js';
import { Memory } from './memory.js';
import type { Scope } from './scope.js';
import { TopologyDescription } from './topology.js';
import { DeviceBufferView, type ViewSpec } from './view.js';
import { denseLayout, memoryLayoutArgs, type LayoutSpec } from './layout.js';
import { programArgs, type Program } from './program-args.js';
import { writeShape } from './shape-args.js';

const MEMORY_FIELD_SINCE = structDef('PJRT_Client_CreateViewOfDeviceBuffer_Args').fields.find((f) => f.name === 'memory')!.since;

export type HostBufferSemantics =
  | 'kImmutableOnlyDuringCall'
  | 'kImmutableUntilTransferCompletes'
  | 'kImmutableZeroCopy'
  | 'kMutableZeroCopy';

export interface BufferSpec {
  dtype: string;
  dims: number[];
  byteStrides?: number[];
  semantics?: HostBufferSemantics;
  device?: Device;
  memory?: Memory;
  /** PJRT_Client_BufferFromHostBuffer_Args.device_layout (none: the default layout). */
  deviceLayout?: LayoutSpec;
}

export interface ClientCreateOptions {
  options?: NamedValues;
  kv?: KeyValueStore;
  scope?: Scope;
}

/** A PJRT_Client. Devices and memories are cached per pointer, so the same device is the same object. */
export class Client extends Handle {
  private readonly devicesByPtr = new Map<Ptr, Device>();
  private readonly memoriesByPtr = new Map<Ptr, Memory>();
  private readonly compiled = new Map<string, Promise<LoadedExecutable>>();

  private constructor(
    api: RawApi,
    ptr: Ptr,
    scope: Scope | undefined,
    private kv: KvCallbacks | null,
  ) {
    super(api, ptr, scope);
    scope?.track(this);
  }

  /** PJRT_Client_Create on a worker thread (KV callbacks, if any, are served by the main thread meanwhile). */
  static async create(api: RawApi, opts: ClientCreateOptions = {}): Promise<Client> {
    const enc = encodeNamedValues(opts.options ?? {});
    const a = api.args('PJRT_Client_Create').ptr('create_options', enc.ptr).size('num_options', enc.count).keep(enc.keep);
    const kv = opts.kv ? kvCallbacks(opts.kv) : null;
    if (kv !== null) {
      a.ptr('kv_get_callback', kv.get).ptr('kv_get_user_arg', kv.userArg);
      a.ptr('kv_put_callback', kv.put).ptr('kv_put_user_arg', kv.userArg);
      a.ptr('kv_try_get_callback', kv.tryGet).ptr('kv_try_get_user_arg', kv.userArg);
    }
    try {
      await api.callAsync('PJRT_Client_Create', a);
    } catch (e) {
      kv?.release();
      throw e;
    }
    const p = a.getPtr('client');
    if (p === null) {
      kv?.release();
      throw new Error('PJRT_Client_Create succeeded but returned a NULL client');
    }
    return new Client(api, p, opts.scope, kv);
  }

  /** @internal the Device object for a plugin pointer */
  deviceFor(p: Ptr): Device {
    let d = this.devicesByPtr.get(p);
    if (d === undefined) this.devicesByPtr.set(p, (d = new Device(this, p)));
    return d;
  }
  /** @internal the Memory object for a plugin pointer */
  memoryFor(p: Ptr): Memory {
    let m = this.memoriesByPtr.get(p);
    if (m === undefined) this.memoriesByPtr.set(p, (m = new Memory(this, p)));
    return m;
  }

  private q(slot: string) {
    const a = this.api.args(slot).ptr('client', this.alive('Client'));
    this.api.call(slot, a);
    return a;
  }
  platformName(): string {
    return this.q('PJRT_Client_PlatformName').str('platform_name');
  }
  platformVersion(): string {
    return this.q('PJRT_Client_PlatformVersion').str('platform_version');
  }
  processIndex(): number {
    return this.q('PJRT_Client_ProcessIndex').getI32('process_index');
  }
  devices(): Device[] {
    return this.q('PJRT_Client_Devices').ptrArray('devices', 'num_devices').map((p) => this.deviceFor(p));
  }
  addressableDevices(): Device[] {
    return this.q('PJRT_Client_AddressableDevices')
      .ptrArray('addressable_devices', 'num_addressable_devices')
      .map((p) => this.deviceFor(p));
  }
  lookupDevice(id: number): Device {
    const a = this.api.args('PJRT_Client_LookupDevice').ptr('client', this.alive('Client')).i32('id', id);
    this.api.call('PJRT_Client_LookupDevice', a);
    return this.deviceFor(nonNull(a.getPtr('device'), 'PJRT_Client_LookupDevice'));
  }
  lookupAddressableDevice(localHardwareId: number): Device {
    const a = this.api
      .args('PJRT_Client_LookupAddressableDevice')
      .ptr('client', this.alive('Client'))
      .i32('local_hardware_id', localHardwareId);
    this.api.call('PJRT_Client_LookupAddressableDevice', a);
    return this.deviceFor(nonNull(a.getPtr('addressable_device'), 'PJRT_Client_LookupAddressableDevice'));
  }
  addressableMemories(): Memory[] {
    return this.q('PJRT_Client_AddressableMemories')
      .ptrArray('addressable_memories', 'num_addressable_memories')
      .map((p) => this.memoryFor(p));
  }
  /** The client-owned topology (not destroyed by us). */
  topology(): TopologyDescription {
    const p = nonNull(this.q('PJRT_Client_TopologyDescription').getPtr('topology'), 'PJRT_Client_TopologyDescription');
    return new TopologyDescription(this.api, p, this.scope, false);
  }
  /** Row-major [replica][partition] device ids, flattened. */
  defaultDeviceAssignment(replicas: number, partitions: number): number[] {
    const out = new Int32Array(Math.max(1, replicas * partitions));
    const a = this.api
      .args('PJRT_Client_DefaultDeviceAssignment')
      .ptr('client', this.alive('Client'))
      .i32('num_replicas', replicas)
      .i32('num_partitions', partitions)
      .bytes('default_assignment', null, new Uint8Array(out.buffer))
      .size('default_assignment_size', replicas * partitions);
    this.api.call('PJRT_Client_DefaultDeviceAssignment', a);
    return Array.from(out.subarray(0, replicas * partitions));
  }

  /** `argsExtension`: an extension chain for the Compile Args' extension_start (XLA's client passes one). */
  compile(program: Program, options: CompileOptions | Uint8Array = {}, argsExtension?: Args): Promise<LoadedExecutable> {
    return this.compileFor(program, options, this.scope, argsExtension);
  }

  private async compileFor(program: Program, options: CompileOptions | Uint8Array, scope: Scope | undefined, argsExtension?: Args): Promise<LoadedExecutable> {
    recordProgram(program, options);
    const prog = programArgs(this.api, program);
    const opts = options instanceof Uint8Array ? options : encodeCompileOptions(options);
    const a = this.api
      .args('PJRT_Client_Compile')
      .ptr('client', this.alive('Client'))
      .struct('program', prog.args)
      .bytes('compile_options', 'compile_options_size', opts);
    if (argsExtension) a.struct('extension_start', argsExtension);
    try {
      await this.api.callAsync('PJRT_Client_Compile', a);
    } finally {
      prog.release();
    }
    return new LoadedExecutable(this, nonNull(a.getPtr('executable'), 'PJRT_Client_Compile'), scope);
  }

  /**
   * The client's one loaded executable of this program and options, compiled on first use and reused: for cases
   * that run a program rather than test compiling it. It belongs to the client (destroyed with it), never to a
   * scope, so a caller must not delete or destroy it.
   */
  compileCached(program: Program, options: CompileOptions | Uint8Array = {}): Promise<LoadedExecutable> {
    const opts = options instanceof Uint8Array ? options : encodeCompileOptions(options);
    const code = typeof program.code === 'string' ? program.code : Array.from(program.code, (b) => String.fromCharCode(b)).join('');
    const key = `${program.format ?? 'mlir'}\u0000${Array.from(opts).join(',')}\u0000${code}`;
    let exe = this.compiled.get(key);
    if (!exe) {
      exe = this.compileFor(program, opts, undefined);
      this.compiled.set(key, exe);
      exe.catch(() => this.compiled.delete(key));
    }
    return exe;
  }

  /** PJRT_Client_Load: a PJRT_Executable (e.g. from PJRT_Compile) loaded onto this client. */
  async load(executable: Executable, options?: CompileOptions | Uint8Array): Promise<LoadedExecutable> {
    const a = this.api.args('PJRT_Client_Load').ptr('client', this.alive('Client')).ptr('executable', executable.ptr);
    if (options !== undefined) {
      a.bytes('compile_options', 'compile_options_size', options instanceof Uint8Array ? options : encodeCompileOptions(options));
    }
    await this.api.callAsync('PJRT_Client_Load', a);
    return new LoadedExecutable(this, nonNull(a.getPtr('loaded_executable'), 'PJRT_Client_Load'), this.scope);
  }

  async deserializeAndLoad(serialized: Uint8Array, overrideOptions?: CompileOptions | Uint8Array): Promise<LoadedExecutable> {
    const a = this.api
      .args('PJRT_Executable_DeserializeAndLoad')
      .ptr('client', this.alive('Client'))
      .bytes('serialized_executable', 'serialized_executable_size', serialized);
    if (overrideOptions !== undefined) {
      const o = overrideOptions instanceof Uint8Array ? overrideOptions : encodeCompileOptions(overrideOptions);
      a.bytes('overridden_serialized_compile_options', 'overridden_serialized_compile_options_size', o);
    }
    await this.api.callAsync('PJRT_Executable_DeserializeAndLoad', a);
    return new LoadedExecutable(this, nonNull(a.getPtr('loaded_executable'), 'PJRT_Executable_DeserializeAndLoad'), this.scope);
  }

  /** PJRT_Client_BufferFromHostBuffer. `data` is kept referenced by the returned event (and, for zero-copy, the buffer). */
  async bufferFromHost(data: Uint8Array, spec: BufferSpec): Promise<{ buffer: Buffer; doneWithHost: Event }> {
    const semantics = spec.semantics ?? 'kImmutableUntilTransferCompletes';
    const a = this.api
      .args('PJRT_Client_BufferFromHostBuffer')
      .ptr('client', this.alive('Client'))
      .bytes('data', null, data)
      .i32('type', bufferTypeOf(spec.dtype))
      .i64s('dims', 'num_dims', spec.dims)
      .i32('host_buffer_semantics', enumValue('PJRT_HostBufferSemantics', semantics));
    if (spec.byteStrides !== undefined) a.i64s('byte_strides', 'num_byte_strides', spec.byteStrides);
    if (spec.deviceLayout !== undefined) a.struct('device_layout', memoryLayoutArgs(this.api, spec.deviceLayout));
    if (spec.memory !== undefined) a.ptr('memory', spec.memory.ptr);
    else a.ptr('device', (spec.device ?? this.addressableDevices()[0])?.ptr ?? null);
    await this.api.callAsync('PJRT_Client_BufferFromHostBuffer', a);
    const buffer = new Buffer(this, nonNull(a.getPtr('buffer'), 'PJRT_Client_BufferFromHostBuffer'), this.scope).withShape(spec.dtype, spec.dims);
    if (semantics === 'kImmutableZeroCopy' || semantics === 'kMutableZeroCopy') buffer.keep(data);
    const done = a.getPtr('done_with_host_buffer');
    const doneWithHost = new Event(this.api, nonNull(done, 'PJRT_Client_BufferFromHostBuffer (done_with_host_buffer)'), this.scope);
    doneWithHost.keep(data);
    return { buffer, doneWithHost };
  }

  /** bufferFromHost, then wait for done_with_host_buffer and the buffer's ready event. */
  async upload(data: Uint8Array, spec: BufferSpec): Promise<Buffer> {
    const expected = hostByteSize(dtype(spec.dtype), spec.dims.reduce((x, y) => x * y, 1));
    if (spec.byteStrides === undefined && data.byteLength < expected) {
      throw new Error(`upload: ${data.byteLength} bytes given, ${spec.dtype}[${spec.dims.join(',')}] needs ${expected}`);
    }
    const { buffer, doneWithHost } = await this.bufferFromHost(data, spec);
    try {
      await doneWithHost.await();
    } finally {
      doneWithHost.destroy();
    }
    const ready = buffer.readyEvent();
    try {
      await ready.await();
    } finally {
      ready.destroy();
    }
    return buffer;
  }

  async createUninitializedBuffer(spec: { dtype: string; dims: number[]; device?: Device; memory?: Memory }): Promise<Buffer> {
    const a = writeShape(this.api, this.api.args('PJRT_Client_CreateUninitializedBuffer').ptr('client', this.alive('Client')), spec);
    if (spec.memory !== undefined) a.ptr('memory', spec.memory.ptr);
    else a.ptr('device', (spec.device ?? this.addressableDevices()[0])?.ptr ?? null);
    await this.api.callAsync('PJRT_Client_CreateUninitializedBuffer', a);
    return new Buffer(this, nonNull(a.getPtr('buffer'), 'PJRT_Client_CreateUninitializedBuffer'), this.scope).withShape(spec.dtype, spec.dims);
  }

  async createErrorBuffer(
    error: { code: string; message: string },
    spec: { dtype: string; dims: number[]; memory: Memory; payload?: NamedValues },
  ): Promise<Buffer> {
    const a = this.api
      .args('PJRT_Client_CreateErrorBuffer')
      .ptr('client', this.alive('Client'))
      .i32('error_code', enumValue('PJRT_Error_Code', error.code))
      .bytes('error_message', 'error_message_size', error.message)
      .ptr('memory', spec.memory.ptr);
    writeShape(this.api, a, spec);
    if (spec.payload !== undefined) {
      const p = encodeNamedValueList(Object.entries(spec.payload).map(([name, value]) => ({ name, value })));
      a.ptr('payload', p.ptr).size('num_payload', p.count).keep(p.keep);
    }
    await this.api.callAsync('PJRT_Client_CreateErrorBuffer', a);
    return new Buffer(this, nonNull(a.getPtr('buffer'), 'PJRT_Client_CreateErrorBuffer'), this.scope).withShape(spec.dtype, spec.dims);
  }

  /**
   * PJRT_Client_CreateViewOfDeviceBuffer. The object form returns the buffer with its on-delete callback
   * counter; the older (pointer, spec) form returns just the buffer, with no callback.
   */
  createViewOfDeviceBuffer(spec: ViewSpec): DeviceBufferView;
  createViewOfDeviceBuffer(devicePtr: Ptr, spec: Omit<ViewSpec, 'pointer' | 'onDelete'>): Buffer;
  createViewOfDeviceBuffer(a0: ViewSpec | Ptr, a1?: Omit<ViewSpec, 'pointer' | 'onDelete'>): DeviceBufferView | Buffer {
    if (typeof a0 === 'bigint') return this.createView({ ...a1!, pointer: a0 }).buffer;
    return this.createView(a0);
  }

  private createView(spec: ViewSpec): DeviceBufferView {
    const slot = 'PJRT_Client_CreateViewOfDeviceBuffer';
    const a = this.api
      .args(slot)
      .ptr('client', this.alive('Client'))
      .ptr('device_buffer_ptr', spec.pointer)
      .i64s('dims', 'num_dims', spec.dims)
      .i32('element_type', bufferTypeOf(spec.dtype));
    const layout = spec.layout === undefined ? denseLayout(spec.dims.length) : spec.layout;
    if (layout !== null) a.struct('layout', memoryLayoutArgs(this.api, layout));
    let device = spec.device;
    // plugins older than the `memory` field never read it, and a CTS speaking an older minor (`--api-minor`) has no
    // such field: give them the memory's device instead
    const memoryField = spokenMinor() >= MEMORY_FIELD_SINCE;
    if (device === undefined && spec.memory !== undefined && (this.api.minor < MEMORY_FIELD_SINCE || !memoryField)) device = spec.memory.addressableByDevices()[0];
    if (device !== undefined) a.ptr('device', device.ptr);
    if (spec.memory !== undefined && memoryField) a.ptr('memory', spec.memory.ptr);
    if (spec.stream !== undefined) a.i64('stream', spec.stream);
    const tracker = spec.onDelete === false ? null : viewDeleteTracker();
    if (tracker !== null) a.ptr('on_delete_callback', tracker.callback).ptr('on_delete_callback_arg', tracker.userArg);
    this.api.call(slot, a);
    return new DeviceBufferView(new Buffer(this, nonNull(a.getPtr('buffer'), slot), this.scope).withShape(spec.dtype, spec.dims), tracker);
  }

  /**
   * @internal Points a long-lived client at the scope of whoever uses it now: the objects it creates from here on
   * (buffers, executables, events, topologies) are tracked by that scope and destroyed with it.
   */
  useScope(scope: Scope | undefined): void {
    (this as { scope: Scope | undefined }).scope = scope;
  }

  async destroy(): Promise<void> {
    if (this._destroyed) return;
    const cached = [...this.compiled.values()];
    this.compiled.clear();
    for (const e of await Promise.allSettled(cached)) if (e.status === 'fulfilled') e.value.destroy();
    this._destroyed = true;
    try {
      await this.api.callAsync('PJRT_Client_Destroy', this.api.args('PJRT_Client_Destroy').ptr('client', this.ptr));
    } finally {
      this.kv?.release();
      this.kv = null;
    }
  }
}

/**
 * Record mode (`PJRT_CTS_RECORD_PROGRAMS=<dir>`): every StableHLO text this process compiles is appended to
 * `<dir>/<pid>.jsonl` as {"text": …, "replicas": n, "partitions": m} (the compile options' counts; absent when the
 * options came serialized), so scripts/gen-artifacts.ts can serialize what a reference run compiles and the AOT
 * cases (tier1.aot_compile.suite_program) know the devices each program needs.
 */
export const RECORD_PROGRAMS_ENV = 'PJRT_CTS_RECORD_PROGRAMS';
const recorded = new Set<string>();

function recordProgram(program: Program, options: CompileOptions | Uint8Array): void {
  const dir = process.env[RECORD_PROGRAMS_ENV];
  if (!dir || typeof program.code !== 'string' || (program.format ?? 'mlir') !== 'mlir') return;
  const counts = options instanceof Uint8Array ? {} : {
    replicas: options.numReplicas ?? options.deviceAssignment?.length ?? 1,
    partitions: options.numPartitions ?? options.deviceAssignment?.[0]?.length ?? 1,
  };
  const line = JSON.stringify({ text: program.code, ...counts });
  if (recorded.has(line)) return;
  recorded.add(line);
  mkdirSync(dir, { recursive: true });
  appendFileSync(path.join(dir, `${process.pid}.jsonl`), line + '\n');
}

function nonNull(p: Ptr | null, slot: string): Ptr {
  if (p === null) throw new Error(`${slot} succeeded but returned NULL`);
  return p;
}

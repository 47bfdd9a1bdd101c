import { callDeleter, decodeNamedValues, mem, type Args, type NamedValues, type Ptr, type RawApi } from '../ffi/index.js';
import { Buffer } from './buffer.js';
import type { Client } from './client.js';
import type { Device } from './device.js';
import { dtypeNameOf } from './dtype.js';
import { Event } from './event.js';
import type { ExecuteContext } from './execute-context.js';
import type { HostCallbackSet } from './host-callbacks.js';
import { Handle } from './handle.js';
import type { Scope } from './scope.js';

/** A PJRT_Executable (caller-owned). */
export class Executable extends Handle {
  constructor(api: RawApi, ptr: Ptr, scope: Scope | undefined) {
    super(api, ptr, scope);
    scope?.track(this);
  }
  private q(slot: string) {
    const a = this.api.args(slot).ptr('executable', this.alive('Executable'));
    this.api.call(slot, a);
    return a;
  }
  name(): string {
    return this.q('PJRT_Executable_Name').str('executable_name');
  }
  numReplicas(): number {
    return this.q('PJRT_Executable_NumReplicas').getSize('num_replicas');
  }
  numPartitions(): number {
    return this.q('PJRT_Executable_NumPartitions').getSize('num_partitions');
  }
  numOutputs(): number {
    return this.q('PJRT_Executable_NumOutputs').getSize('num_outputs');
  }
  sizeOfGeneratedCodeInBytes(): bigint {
    return this.q('PJRT_Executable_SizeOfGeneratedCodeInBytes').getI64('size_in_bytes');
  }
  outputElementTypes(): string[] {
    const a = this.q('PJRT_Executable_OutputElementTypes');
    return mem.readI32Array(a.getPtr('output_types'), a.getSize('num_output_types')).map(dtypeNameOf);
  }
  outputDimensions(): number[][] {
    const a = this.q('PJRT_Executable_OutputDimensions');
    const n = a.getSize('num_outputs');
    const ranks = mem.readU64Array(a.getPtr('dim_sizes'), n).map(Number);
    const flat = mem.readI64Array(a.getPtr('dims'), ranks.reduce((x, y) => x + y, 0)).map(Number);
    let at = 0;
    return ranks.map((r) => flat.slice(at, (at += r)));
  }
  outputMemoryKinds(): string[] {
    return this.memoryKinds('PJRT_Executable_OutputMemoryKinds', 'num_outputs');
  }
  parameterMemoryKinds(): string[] {
    return this.memoryKinds('PJRT_Executable_ParameterMemoryKinds', 'num_parameters');
  }
  private memoryKinds(slot: string, countField: string): string[] {
    const a = this.q(slot);
    const n = a.getSize(countField);
    const ptrs = mem.readPtrArray(a.getPtr('memory_kinds'), n);
    const sizes = mem.readU64Array(a.getPtr('memory_kind_sizes'), n);
    return ptrs.map((p, i) => mem.readString(p, sizes[i]!));
  }
  /** Serialized CompileOptionsProto the executable was compiled with (copied; the plugin's deleter is called). */
  compileOptions(): Uint8Array {
    const a = this.q('PJRT_Executable_GetCompileOptions');
    const bytes = a.getBytes('serialized_bytes');
    callDeleter(a.getPtr('serialized_compile_options_deleter'), a.getPtr('serialized_compile_options'));
    return bytes;
  }
  fingerprint(): string {
    return this.q('PJRT_Executable_Fingerprint').str('executable_fingerprint');
  }
  /** Serialized executable bytes (copied; the plugin's deleter is called). */
  serialize(): Uint8Array {
    const a = this.q('PJRT_Executable_Serialize');
    const bytes = a.getBytes('serialized_bytes');
    callDeleter(a.getPtr('serialized_executable_deleter'), a.getPtr('serialized_executable'));
    return bytes;
  }
  /**
   * The optimized program, called twice as the header says: the size query (`code` NULL) gives `querySize`, then
   * the copy into a buffer of that size; `code` is what the copy says it wrote (its `code_size`).
   */
  optimizedProgram(): { format: string; code: Uint8Array; querySize: number } {
    const prog = this.api.args('PJRT_Program');
    const a = this.api.args('PJRT_Executable_OptimizedProgram').ptr('executable', this.alive('Executable')).struct('program', prog);
    this.api.call('PJRT_Executable_OptimizedProgram', a);
    const querySize = prog.getSize('code_size');
    const buf = new Uint8Array(querySize);
    prog.bytes('code', null, buf);
    this.api.call('PJRT_Executable_OptimizedProgram', a);
    return { format: prog.str('format'), code: buf.slice(0, Math.min(querySize, prog.getSize('code_size'))), querySize };
  }
  costAnalysis(): NamedValues {
    const a = this.q('PJRT_Executable_GetCostAnalysis');
    return decodeNamedValues(a.getPtr('properties'), a.getSize('num_properties'));
  }
  compiledMemoryStats(): Record<string, bigint> {
    const a = this.q('PJRT_Executable_GetCompiledMemoryStats');
    const out: Record<string, bigint> = {};
    for (const f of a.layout.fieldNames()) {
      if (f.endsWith('_in_bytes') || f.endsWith('_bytes') || f === 'indefinite_allocations') out[f] = a.getI64(f);
    }
    return out;
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.api.call('PJRT_Executable_Destroy', this.api.args('PJRT_Executable_Destroy').ptr('executable', this.ptr));
  }
}

export interface ExecuteOptions {
  nonDonatable?: number[];
  deviceCompleteEvents?: boolean;
  executeDevice?: Device;
  launchId?: number;
  /** An extension chain for the Execute Args' extension_start (XLA's client passes a PJRT_Profiler_Extension). */
  argsExtension?: Args;
  /** PJRT_ExecuteOptions.context (kept alive by the caller for the execution). */
  context?: ExecuteContext;
  /** Send/recv callbacks for the program's host transfers (the same for every device). */
  hostCallbacks?: HostCallbackSet;
}

export interface ExecuteResult {
  outputs: Buffer[][];
  completeEvents: Event[];
}

/** A PJRT_LoadedExecutable (caller-owned). */
export class LoadedExecutable extends Handle {
  private outputs: number | null = null;

  constructor(
    readonly client: Client,
    ptr: Ptr,
    scope: Scope | undefined,
  ) {
    super(client.api, ptr, scope);
    scope?.track(this);
  }
  /** A new PJRT_Executable (caller-owned, tracked by this executable's scope). */
  executable(): Executable {
    const a = this.api.args('PJRT_LoadedExecutable_GetExecutable').ptr('loaded_executable', this.alive('LoadedExecutable'));
    this.api.call('PJRT_LoadedExecutable_GetExecutable', a);
    const p = a.getPtr('executable');
    if (p === null) throw new Error('PJRT_LoadedExecutable_GetExecutable returned NULL');
    return new Executable(this.api, p, this.scope);
  }
  numOutputs(): number {
    if (this.outputs === null) {
      const e = this.executable();
      try {
        this.outputs = e.numOutputs();
      } finally {
        e.destroy();
      }
    }
    return this.outputs;
  }
  /** Deprecated PJRT_LoadedExecutable_Fingerprint. */
  fingerprint(): string {
    const a = this.api.args('PJRT_LoadedExecutable_Fingerprint').ptr('executable', this.alive('LoadedExecutable'));
    this.api.call('PJRT_LoadedExecutable_Fingerprint', a);
    return a.str('executable_fingerprint');
  }
  /** Serialized DeviceAssignmentProto (copied; the plugin's deleter is called). */
  deviceAssignment(): Uint8Array {
    const a = this.api.args('PJRT_LoadedExecutable_GetDeviceAssignment').ptr('executable', this.alive('LoadedExecutable'));
    this.api.call('PJRT_LoadedExecutable_GetDeviceAssignment', a);
    const bytes = a.getBytes('serialized_bytes');
    callDeleter(a.getPtr('serialized_device_assignment_deleter'), a.getPtr('serialized_device_assignment'));
    return bytes;
  }
  /** (replica, partition) of each addressable device this executable runs on. */
  addressableDeviceLogicalIds(): { replica: number; partition: number }[] {
    const a = this.api.args('PJRT_LoadedExecutable_AddressableDeviceLogicalIds').ptr('executable', this.alive('LoadedExecutable'));
    this.api.call('PJRT_LoadedExecutable_AddressableDeviceLogicalIds', a);
    const n = a.getSize('num_addressable_device_logical_ids');
    const flat = mem.readI32Array(a.getPtr('addressable_device_logical_ids'), 2 * n); // PJRT_LogicalDeviceIds: {int replica; int partition;}
    return Array.from({ length: n }, (_, i) => ({ replica: flat[2 * i]!, partition: flat[2 * i + 1]! }));
  }
  addressableDevices(): Device[] {
    const a = this.api.args('PJRT_LoadedExecutable_AddressableDevices').ptr('executable', this.alive('LoadedExecutable'));
    this.api.call('PJRT_LoadedExecutable_AddressableDevices', a);
    return a.ptrArray('addressable_devices', 'num_addressable_devices').map((p) => this.client.deviceFor(p));
  }
  delete(): void {
    this.api.call('PJRT_LoadedExecutable_Delete', this.api.args('PJRT_LoadedExecutable_Delete').ptr('executable', this.alive('LoadedExecutable')));
  }
  isDeleted(): boolean {
    const a = this.api.args('PJRT_LoadedExecutable_IsDeleted').ptr('executable', this.alive('LoadedExecutable'));
    this.api.call('PJRT_LoadedExecutable_IsDeleted', a);
    return a.getBool('is_deleted');
  }
  /** args[device][argument]; outputs[device][output]. */
  async execute(args: Buffer[][], opts: ExecuteOptions = {}): Promise<ExecuteResult> {
    const nDev = args.length;
    const nArgs = args[0]?.length ?? 0;
    if (args.some((row) => row.length !== nArgs)) throw new Error('execute: every device needs the same number of arguments');
    const nOut = this.numOutputs();
    const api = this.api;
    const options = api.args('PJRT_ExecuteOptions');
    // Every framework asks for host-callback data in major-to-minor layout (IFRT pjrt_executable.cc, jaxlib, TF,
    // torch_xla set it true; XLA's wrapper: "PJRT C API doesn't support use_major_to_minor_data_layout_for_callbacks = false").
    if (options.layout.has('use_major_to_minor_data_layout_for_callbacks')) options.bool('use_major_to_minor_data_layout_for_callbacks', true);
    if (opts.nonDonatable !== undefined) {
      options.i64s('non_donatable_input_indices', 'num_non_donatable_input_indices', opts.nonDonatable);
    }
    if (opts.launchId !== undefined) options.i32('launch_id', opts.launchId);
    if (opts.context !== undefined) options.ptr('context', opts.context.ptr);
    opts.hostCallbacks?.encode(options, nDev);
    const argRows = args.map((row) => {
      const r = new BigUint64Array(Math.max(1, row.length));
      row.forEach((b, i) => (r[i] = b.ptr));
      return r;
    });
    const outRows = args.map(() => new BigUint64Array(Math.max(1, nOut)));
    const events = new BigUint64Array(Math.max(1, nDev));
    const a = api
      .args('PJRT_LoadedExecutable_Execute')
      .ptr('executable', this.alive('LoadedExecutable'))
      .struct('options', options)
      .ptrs('argument_lists', null, argRows.map((r) => mem.addressOf(r)))
      .size('num_devices', nDev)
      .size('num_args', nArgs)
      .ptrs('output_lists', null, outRows.map((r) => mem.addressOf(r)))
      .keep(argRows)
      .keep(outRows)
      .keep(events);
    if (opts.deviceCompleteEvents) a.ptr('device_complete_events', mem.addressOf(events));
    if (opts.executeDevice !== undefined) a.ptr('execute_device', opts.executeDevice.ptr);
    if (opts.argsExtension !== undefined) a.struct('extension_start', opts.argsExtension);
    await api.callAsync('PJRT_LoadedExecutable_Execute', a);
    const outputs = outRows.map((r) => Array.from(r.subarray(0, nOut), (p) => new Buffer(this.client, p, this.scope)));
    const completeEvents = opts.deviceCompleteEvents
      ? Array.from(events.subarray(0, nDev)).filter((p) => p !== 0n).map((p) => new Event(api, p, this.scope))
      : [];
    return { outputs, completeEvents };
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.api.call('PJRT_LoadedExecutable_Destroy', this.api.args('PJRT_LoadedExecutable_Destroy').ptr('executable', this.ptr));
  }
}

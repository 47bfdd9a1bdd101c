import { PJRT_API_MINOR } from '../abi/index.js';
import {
  describeExtensions,
  decodeNamedValueList,
  decodeNamedValues,
  loadApi,
  RawApi,
  type ExtensionDescription,
  type ExtensionEntry,
  type NamedValueEntry,
  type NamedValues,
  type SlotState,
} from '../ffi/index.js';
import { encodeCompileOptions, type CompileOptions } from '../proto/index.js';
import { Client, type ClientCreateOptions } from './client.js';
import { programArgs, type Program } from './program-args.js';
import { Executable } from './executable.js';
import type { Scope } from './scope.js';
import { TopologyDescription } from './topology.js';

/** A loaded PJRT plugin: the library stays mapped for the life of the process (RTLD_NODELETE). */
export class Plugin {
  readonly path: string;
  readonly apiVersion: { major: number; minor: number };
  readonly structSize: number;
  readonly raw: RawApi;
  /** The newest minor this CTS knows. */
  static readonly ourMinor = PJRT_API_MINOR;

  private constructor(raw: RawApi) {
    this.raw = raw;
    this.path = raw.path;
    this.apiVersion = { major: raw.major, minor: raw.minor };
    this.structSize = raw.structSize;
  }

  /** Throws PluginLoadError { kind, message } for anything that is not a usable PJRT plugin. */
  static load(path: string, opts: { global?: boolean } = {}): Plugin {
    return new Plugin(new RawApi(loadApi(path, opts)));
  }

  slotState(name: string): SlotState {
    return this.raw.slotState(name);
  }
  has(name: string): boolean {
    return this.raw.has(name);
  }
  initialize(): void {
    this.raw.call('PJRT_Plugin_Initialize', this.raw.args('PJRT_Plugin_Initialize'));
  }
  attributes(): NamedValues {
    const a = this.raw.args('PJRT_Plugin_Attributes');
    this.raw.call('PJRT_Plugin_Attributes', a);
    return decodeNamedValues(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  /** Attributes in the plugin's order, with their NamedValue types. */
  attributeList(): NamedValueEntry[] {
    const a = this.raw.args('PJRT_Plugin_Attributes');
    this.raw.call('PJRT_Plugin_Attributes', a);
    return decodeNamedValueList(a.getPtr('attributes'), a.getSize('num_attributes'));
  }
  extensions(): ExtensionEntry[] {
    return this.raw.extensionChain().entries;
  }
  extensionChain(): { entries: ExtensionEntry[]; loop: boolean } {
    return this.raw.extensionChain();
  }
  /** Every extension in the chain with, for those the CTS knows, the state of their members (for reports). */
  describeExtensions(): { chain: ExtensionDescription[]; loop: boolean } {
    return describeExtensions(this.raw);
  }
  createClient(opts: ClientCreateOptions = {}): Promise<Client> {
    return Client.create(this.raw, opts);
  }
  /** PJRT_TopologyDescription_Create (options as PJRT_Client_Create's). */
  createTopology(opts: { name?: string; options?: NamedValues; scope?: Scope } = {}): TopologyDescription {
    return TopologyDescription.create(this.raw, opts);
  }
  deserializeTopology(bytes: Uint8Array, scope?: Scope): TopologyDescription {
    return TopologyDescription.deserialize(this.raw, bytes, scope);
  }
  /** PJRT_Compile: ahead-of-time compile against `topology` (no client needed; `client` is optional). */
  async compile(topology: TopologyDescription, program: Program, options: CompileOptions | Uint8Array = {}, opts: { client?: Client; scope?: Scope } = {}): Promise<Executable> {
    const prog = programArgs(this.raw, program);
    const a = this.raw
      .args('PJRT_Compile')
      .ptr('topology', topology.ptr)
      .struct('program', prog.args)
      .bytes('compile_options', 'compile_options_size', options instanceof Uint8Array ? options : encodeCompileOptions(options))
      .ptr('client', opts.client?.ptr ?? null);
    try {
      await this.raw.callAsync('PJRT_Compile', a);
    } finally {
      prog.release();
    }
    const p = a.getPtr('executable');
    if (p === null) throw new Error('PJRT_Compile returned a NULL executable');
    return new Executable(this.raw, p, opts.scope);
  }
}

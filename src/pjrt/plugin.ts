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
import { Client, type ClientCreateOptions } from './client.js';

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
}

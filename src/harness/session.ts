// The plugin as one worker process sees it: loaded once on first use, a client per case.
import type { Client, Plugin } from '../pjrt/index.js';
import type { PluginIdentity } from '../config/results.js';
import type { ResolvedPlugin } from '../runner/plugins.js';
import { toJsonValue, type NamedValue } from '../runner/named-value.js';
import type { Scope } from '../pjrt/scope.js';

type PjrtModule = typeof import('../pjrt/index.js');

export class PluginSession {
  private mod: PjrtModule | undefined;
  private loaded: Plugin | undefined;
  private loadError: Error | undefined;
  private initialized = false;
  private identity: Partial<PluginIdentity> = {};
  private identityDirty = false;

  constructor(readonly config: ResolvedPlugin) {}

  /** Imports the object model (no plugin is opened yet). */
  async init(): Promise<void> {
    this.mod ??= await import('../pjrt/index.js');
  }

  get pjrt(): PjrtModule {
    if (!this.mod) throw new Error('pjrt-cts: PluginSession.init() was not awaited');
    return this.mod;
  }

  get isLoaded(): boolean {
    return this.loaded !== undefined;
  }

  /** Loads the plugin on first use; a load failure is remembered and rethrown for every later case. */
  plugin(): Plugin {
    if (this.loaded) return this.loaded;
    if (this.loadError) throw this.loadError;
    try {
      this.loaded = this.pjrt.Plugin.load(this.config.library, { global: this.config.rtldGlobal });
    } catch (e) {
      this.loadError = e as Error;
      throw e;
    }
    const p = this.loaded;
    this.note({ apiVersion: { ...p.apiVersion }, structSize: p.structSize });
    return p;
  }

  /** A client with the configured create options; PJRT_Plugin_Initialize is called once before the first. */
  async createClient(scope: Scope): Promise<Client> {
    const plugin = this.plugin();
    if (!this.initialized) {
      this.initialized = true;
      if (plugin.has('PJRT_Plugin_Initialize')) plugin.initialize();
      if (plugin.has('PJRT_Plugin_Attributes')) {
        try {
          this.note({ attributes: jsonValues(plugin.attributes() as Record<string, NamedValue>) });
        } catch { /* a tier-0 case reports broken attributes */ }
      }
    }
    const client = await plugin.createClient({ options: this.config.createOptions, scope });
    if (this.identity.platformName === undefined) {
      try {
        this.note({
          platformName: client.platformName(),
          platformVersion: client.platformVersion(),
          devices: client.devices().map((d) => ({ id: d.id, kind: d.kind, processIndex: d.processIndex })),
        });
      } catch { /* reported by the cases that check these */ }
    }
    return client;
  }

  private note(part: Partial<PluginIdentity>): void {
    Object.assign(this.identity, part);
    this.identityDirty = true;
  }

  /** The identity learnt since the last call, or undefined when nothing new. */
  takeIdentity(): Partial<PluginIdentity> | undefined {
    if (!this.identityDirty) return undefined;
    this.identityDirty = false;
    return { ...this.identity };
  }
}

function jsonValues(v: Record<string, NamedValue>): Record<string, ReturnType<typeof toJsonValue>> {
  const out: Record<string, ReturnType<typeof toJsonValue>> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toJsonValue(x);
  return out;
}

// The plugin as one worker process sees it: loaded (and PJRT_Plugin_Initialize called) once on first use, and one
// shared client created with the run's create options, reused by every case that does not ask for its own.
import { performance } from 'node:perf_hooks';
import type { Client, Device, Plugin } from '../pjrt/index.js';
import type { PluginIdentity } from '../config/results.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { toJsonValue, type NamedValue, type NamedValues } from '../config/named-value.js';
import type { Scope } from '../pjrt/scope.js';
import { declareProgramForms, knownProgramForms, noteStablehloCurrentVersion, type ProgramForms } from './program-forms.js';

type PjrtModule = typeof import('../pjrt/index.js');

/** What a worker did beyond running case bodies; reported with every result (cumulative for the worker). */
interface SessionCounters {
  clientsCreated: number;
  sharedClientsCreated: number;
  loadMs: number;
  /** Why the shared client was replaced, in order. */
  sharedClientResets: string[];
  /**
   * Set when the worker found that the plugin allows one live client per process without the entry saying so
   * (maxLiveClients): a fresh client could be created only after the shared one was released. How it was found.
   */
  clientLimit?: string;
}

interface Shared { client: Client; deviceIds: string }

/** The most clients a case may have alive in this process, and why (for an `unsupported` reason). */
export interface LiveClientLimit { max: number; reason: string }

export class PluginSession {
  private mod: PjrtModule | undefined;
  private loaded: Plugin | undefined;
  private loadError: Error | undefined;
  private identity: Partial<PluginIdentity> = {};
  private identityDirty = false;
  private shared: Shared | undefined;
  readonly counters: SessionCounters = { clientsCreated: 0, sharedClientsCreated: 0, loadMs: 0, sharedClientResets: [] };

  private notedForms: ProgramForms | undefined;
  /**
   * A live-client limit the plugin stated: PJRT_Client_Create refused with FAILED_PRECONDITION or RESOURCE_EXHAUSTED
   * while `max` clients lived (own-client.ts). A limit by design, like the entry's maxLiveClients.
   */
  statedClientLimit: LiveClientLimit | undefined;

  constructor(readonly config: ResolvedPlugin) {
    declareProgramForms(config.programForms);
  }

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

  /**
   * Loads the plugin on first use and calls PJRT_Plugin_Initialize once, before anything else, as frameworks do
   * ("One-time plugin setup. Must be called before any other functions"). A load failure is remembered and
   * rethrown for every later case.
   */
  plugin(): Plugin {
    if (this.loaded) return this.loaded;
    if (this.loadError) throw this.loadError;
    const t0 = performance.now();
    try {
      this.loaded = this.pjrt.Plugin.load(this.config.library, { global: this.config.rtldGlobal });
    } catch (e) {
      this.loadError = e as Error;
      throw e;
    }
    const p = this.loaded;
    if (p.has('PJRT_Plugin_Initialize')) p.initialize();
    this.counters.loadMs += performance.now() - t0;
    this.note({ apiVersion: { ...p.apiVersion }, structSize: p.structSize, callStack: this.pjrt.callStacks() });
    try {
      this.note({ extensions: p.describeExtensions() });
    } catch { /* tier0.extensions reports a broken chain */ }
    if (p.has('PJRT_Plugin_Attributes')) {
      try {
        const attributes = p.attributes() as Record<string, NamedValue>;
        noteStablehloCurrentVersion(attributes['stablehlo_current_version']);
        this.note({ attributes: jsonValues(attributes) });
      } catch { /* a tier-0 case reports broken attributes */ }
    }
    return p;
  }

  /** A new client with the configured create options, tracked by `scope` (destroyed with it). */
  async createClient(scope?: Scope): Promise<Client> {
    const plugin = this.plugin();
    const client = await plugin.createClient({ options: this.config.createOptions, ...(scope ? { scope } : {}) });
    this.counters.clientsCreated++;
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

  /** The worker's shared client, created on first use. It belongs to the session, never to a case's scope. */
  async sharedClient(): Promise<Client> {
    if (this.shared) return this.shared.client;
    const client = await this.createClient();
    this.counters.sharedClientsCreated++;
    this.shared = { client, deviceIds: deviceIds(client.devices()) };
    return client;
  }

  /** How many clients may live at once, when the entry says (maxLiveClients) or the plugin stated it. */
  liveClientLimit(): LiveClientLimit | undefined {
    const max = this.config.maxLiveClients;
    if (max !== undefined) return { max, reason: `the ${this.config.name} entry allows ${max} (maxLiveClients)` };
    return this.statedClientLimit;
  }

  /** One live client per process: declared by the entry (maxLiveClients: 1) or found by this worker (clientLimit). */
  get oneLiveClient(): boolean {
    return this.config.maxLiveClients === 1 || this.counters.clientLimit !== undefined;
  }

  get hasSharedClient(): boolean {
    return this.shared !== undefined;
  }

  /**
   * Creates clients with `options` from now on: the shared client is replaced by one created with them (at once, so
   * what its creation switches in the plugin, e.g. the reference plugin's `faults`, holds for the next case even when
   * that case uses no shared client). A failed creation is left for the cases to meet. False when they were the same.
   */
  async switchCreateOptions(options: NamedValues): Promise<boolean> {
    if (sameOptions(options, this.config.createOptions)) return false;
    await this.dropSharedClient(undefined);
    this.config.createOptions = options;
    await this.sharedClient().catch(() => undefined);
    return true;
  }

  /** Destroys the shared client (the next case that needs it gets a new one); `why` is recorded unless undefined. */
  async dropSharedClient(why: string | undefined): Promise<void> {
    const s = this.shared;
    if (!s) return;
    this.shared = undefined;
    if (why !== undefined) this.counters.sharedClientResets.push(why);
    if (!s.client.destroyed) await s.client.destroy().catch(() => undefined);
  }

  /**
   * After a case that used the shared client: is it still the client it was (not destroyed, the same devices)?
   * Returns the reason when it is not, after dropping it.
   */
  async checkSharedClient(caseId: string): Promise<string | undefined> {
    const s = this.shared;
    if (!s) return undefined;
    let why: string | undefined;
    if (s.client.destroyed) why = `${caseId} destroyed the shared client`;
    else {
      try {
        const now = deviceIds(s.client.devices());
        if (now !== s.deviceIds) why = `after ${caseId} the shared client's devices changed (${s.deviceIds} → ${now})`;
      } catch (e) {
        why = `after ${caseId} the shared client no longer answers PJRT_Client_Devices: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    if (why) await this.dropSharedClient(why);
    return why;
  }

  private note(part: Partial<PluginIdentity>): void {
    Object.assign(this.identity, part);
    this.identityDirty = true;
  }

  /** The identity learnt since the last call, or undefined when nothing new. */
  takeIdentity(): Partial<PluginIdentity> | undefined {
    const forms = knownProgramForms();
    if (forms && forms !== this.notedForms) {
      this.notedForms = forms;
      this.note({ programForms: { accepted: [...forms.accepted], how: forms.how, rejected: { ...forms.rejected } } });
    }
    if (!this.identityDirty) return undefined;
    this.identityDirty = false;
    return { ...this.identity };
  }
}

const sameOptions = (a: NamedValues, b: NamedValues): boolean =>
  JSON.stringify(Object.entries(a).map(([k, v]) => [k, toJsonValue(v)])) === JSON.stringify(Object.entries(b).map(([k, v]) => [k, toJsonValue(v)]));

const deviceIds = (ds: readonly Device[]): string => ds.map((d) => d.id).join(',');

function jsonValues(v: Record<string, NamedValue>): Record<string, ReturnType<typeof toJsonValue>> {
  const out: Record<string, ReturnType<typeof toJsonValue>> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toJsonValue(x);
  return out;
}

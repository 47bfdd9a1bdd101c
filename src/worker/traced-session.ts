// A PluginSession whose risky plugin calls are named in the call record (call-trace.ts): dlopen, GetPjrtApi,
// PJRT_Plugin_Initialize and PJRT_Client_Create. The parent then knows that a worker died (or hung) while creating
// a client, which the preflight reports as bad input and the run counts towards stopping early.
import { PluginSession } from '../harness/session.js';
import type { Plugin } from '../pjrt/index.js';
import { traceClientCreation, traced } from './call-trace.js';

type PjrtModule = PluginSession['pjrt'];
type LibcModule = typeof import('../ffi/libc.js');

export class TracedSession extends PluginSession {
  private libc: LibcModule | undefined;
  private wrapped: PjrtModule | undefined;

  override async init(): Promise<void> {
    await super.init();
    this.libc ??= await import('../ffi/libc.js');
  }

  /** The object model, with Plugin.load marked and every loaded plugin's initialize/createClient traced. */
  override get pjrt(): PjrtModule {
    const mod = super.pjrt;
    if (this.wrapped) return this.wrapped;
    const libc = this.libc;
    const PluginClass = new Proxy(mod.Plugin, {
      get(target, prop, receiver) {
        if (prop !== 'load') return Reflect.get(target, prop, receiver) as unknown;
        return (file: string, opts: { global?: boolean } = {}): Plugin => {
          // The loader's own flags, so its dlopen only takes another reference; dlopen runs static constructors.
          if (libc) traced('dlopen', () => libc.dlopen(file, libc.RTLD_NOW | libc.RTLD_NODELETE | (opts.global ? libc.RTLD_GLOBAL : 0)));
          return traceClientCreation(traced('GetPjrtApi', () => target.load(file, opts)));
        };
      },
    });
    this.wrapped = new Proxy(mod, { get: (t, prop, r) => (prop === 'Plugin' ? PluginClass : Reflect.get(t, prop, r) as unknown) });
    return this.wrapped;
  }
}

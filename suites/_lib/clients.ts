// Extra clients inside a case (the harness's `client` is the configured one): same options plus overrides.
import type { Client, Plugin, Scope } from '../../src/pjrt/index.js';
import { createOptionsOf, type NamedValues } from './config.js';

export interface ClientCtx {
  plugin: Plugin;
  scope: Scope;
  config: unknown;
}

export function newClient(ctx: ClientCtx, overrides: NamedValues = {}, opts: { dropConfigured?: boolean } = {}): Promise<Client> {
  const options = { ...(opts.dropConfigured ? {} : createOptionsOf(ctx.config)), ...overrides };
  return ctx.plugin.createClient({ options, scope: ctx.scope });
}

/** Identity of an owned PJRT object (devices and memories are compared by pointer). */
export const same = (a: { ptr: bigint }, b: { ptr: bigint }): boolean => a.ptr === b.ptr;

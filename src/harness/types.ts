// The shapes a suite file deals with. Object-model types come in as types only: importing the harness loads no plugin.
import type { Client, Device, Plugin } from '../pjrt/index.js';
import type { Scope } from '../pjrt/scope.js';
import type { Requirements } from '../config/results.js';
import type { ResolvedPlugin } from '../runner/plugins.js';
import type { expect } from './expect.js';

export type { Requirements };
/** `{ slots, minMinor, capabilities }`, or a list of slot names (the `PJRT_` prefix may be left out). */
export type RequiresSpec = Requirements | readonly string[];

export interface ParamRow { readonly id: string }

interface CommonOptions {
  /** Per-case timeout in ms (the run's --timeout otherwise). */
  timeoutMs?: number;
  requires?: RequiresSpec;
  /** In a --strict run, `skip` or `unsupported` of a required case is a failure. */
  required?: boolean;
  /** Force (true) or suppress (false) creating a client; by default one is created when the run function
   *  destructures `client`, `device` or `devices`, or takes the context as a whole. */
  client?: boolean;
  description?: string;
}

export interface AreaOptions extends CommonOptions { tier: number }

export interface CaseOptions extends CommonOptions {
  /** Faults of the reference plugin (faults.json) this case must catch: 'name' or 'name=arg'. A function gets the param row. */
  catches: readonly string[] | ((p: never) => readonly string[]);
}

export interface CaseContext<P> {
  readonly id: string;
  readonly p: P;
  readonly plugin: Plugin;
  readonly client: Client;
  /** The first addressable device. */
  readonly device: Device;
  readonly devices: Device[];
  readonly scope: Scope;
  readonly config: ResolvedPlugin;
  readonly timeoutMs: number;
  readonly expect: typeof expect;
  skip(reason: string): never;
  unsupported(reason: string): never;
  /** Records a capability for the matrix: key 'row/column', e.g. 'add/f32'; false if any case records false. */
  capability(key: string, ok: boolean): void;
  /** A note attached to the result's message. */
  log(message: string): void;
}

export type CaseFn<P> = (ctx: CaseContext<P>) => Promise<void> | void;

/** One registered case (after parameter expansion). */
export interface CaseDef {
  readonly id: string;
  readonly area: string;
  readonly tier: number;
  readonly name: string;
  readonly paramId?: string;
  readonly catches: readonly string[];
  readonly timeoutMs?: number;
  readonly requires: Requirements;
  readonly required: boolean;
  readonly client?: boolean;
  readonly description?: string;
  readonly p: ParamRow | undefined;
  readonly fn: CaseFn<never>;
}

/** What `pjrt-cts list` and the parent scheduler know about a case (serialisable). */
export interface CatalogueEntry {
  id: string;
  area: string;
  tier: number;
  catches: string[];
  requires: Requirements;
  required: boolean;
  timeoutMs?: number;
  description?: string;
  /** The suite file (relative to the suites directory) that registers it; absent for corpus cases. */
  file?: string;
}

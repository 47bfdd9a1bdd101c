// The shapes a suite file deals with. Object-model types come in as types only: importing the harness loads no plugin.
import type { Client, Device, NamedValues, Plugin } from '../pjrt/index.js';
import type { Scope } from '../pjrt/scope.js';
import type { CaseDetails, Requirements } from '../config/results.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';

export type { Requirements };
/** `{ slots, minMinor, capabilities }`, or a list of slot names (the `PJRT_` prefix may be left out). */
export type RequiresSpec = Requirements | readonly string[];

export interface ParamRow { readonly id: string }

/**
 * Where a case's demand comes from. `header`: a doc comment or declaration of pjrt_c_api.h. `framework`: JAX,
 * PyTorch/XLA or TensorFlow depend on it. `quality`: good practice only — a failure is a `warn`, never a gate failure.
 */
export const SOURCES = ['header', 'framework', 'quality'] as const;
export type Source = (typeof SOURCES)[number];

export type ClientNeed = 'shared' | 'fresh' | 'none' | 'process';

interface CommonOptions {
  /** Per-case timeout in ms (the run's --timeout otherwise). */
  timeoutMs?: number;
  /**
   * The case takes long in wall time (a second or so: processes of its own, deliberate delays, a large array): the
   * scheduler starts such cases right after tier 0, before the others, so that no worker is left running one after
   * the rest are done.
   */
  slow?: boolean;
  /**
   * The case computes heavily, in the worker and the plugin alike (the exhaustive numerics): the scheduler starts such
   * cases after tier 0 and the slow cases, so that with several workers they run beside cases that mostly wait rather
   * than beside each other (two of them side by side on two CPUs lose about a third of their speed to each other).
   */
  heavy?: boolean;
  requires?: RequiresSpec;
  /** In a --strict run, `skip` or `unsupported` of a required case is a failure. */
  required?: boolean;
  /**
   * The client the case gets as `ctx.client`: `shared` (default) — the worker's one client, created once with the
   * run's create options and reused; `fresh` — a client of its own, created for the case and destroyed after it
   * (create/destroy semantics, client-level state); `none` — no client (nothing is created for it); `process` — no
   * client in the worker, but the case has a process of its own create one (a framework loading the plugin): nothing
   * is created for it here, and the compile-only profile skips it as it skips every case that needs a client.
   * `true`/`false` are `shared`/`none`.
   */
  client?: ClientNeed | boolean;
  description?: string;
  /**
   * The id of a case that checks a precondition of this one (a function gets the param row; on an area: the default
   * of its cases). When that case failed in the same run, this case's failure is reported as
   * `skip: depends on <id>, which failed` so one root cause counts once.
   */
  dependsOn?: string | ((p: never) => string);
}

export interface AreaOptions extends CommonOptions { tier: number }

export interface CaseOptions extends CommonOptions {
  /** The source of the case's demand (see Source). */
  source: Source;
  /**
   * The evidence, in one sentence: for `header` the function/field and its doc comment's words; for `framework`
   * which framework relies on it and where; for `quality` why a user would want it although nothing requires it.
   */
  cite: string;
  /**
   * Set when the case can run only on the reference plugin (it needs a private create option or behaviour):
   * the reason. Self-tests prove the CTS's own machinery; they are not coverage of a foreign plugin.
   */
  selfTest?: string;
  /**
   * For a negative case (one that expects an error): the positive control it runs first — the same call
   * succeeding on valid input in the same state (`check.control`). Listed by `list --json`.
   */
  control?: string;
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
  skip(reason: string): never;
  unsupported(reason: string): never;
  /**
   * Ends the case `skip` because the plugins.json entry lacks `field` (e.g. 'completionDelayOption'), which the case
   * needs to run; `why` says what for. The message names the field, and says so when the plugin was given by path.
   */
  needsConfig(field: keyof ResolvedPlugin, why: string): never;
  /** Records a capability for the matrix: key 'row/column', e.g. 'add/f32'; false if any case records false. */
  capability(key: string, ok: boolean): void;
  /** Records a measurement in the result's `details` (e.g. a corpus output's largest observed error). */
  detail<K extends keyof CaseDetails>(key: K, value: CaseDetails[K]): void;
  /**
   * Another client, tracked by the case's scope: the configured create options with `overrides` (or only
   * `overrides` when `replaceConfigured`). When the plugin's entry limits live clients per process
   * (maxLiveClients) and one more would exceed it, the case ends `unsupported` with that reason.
   */
  newClient(overrides?: NamedValues, opts?: { replaceConfigured?: boolean }): Promise<Client>;
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
  readonly source: Source;
  readonly cite: string;
  readonly selfTest?: string;
  readonly control?: string;
  readonly dependsOn?: string;
  readonly timeoutMs?: number;
  readonly slow?: true;
  readonly heavy?: true;
  readonly requires: Requirements;
  readonly required: boolean;
  readonly client: ClientNeed;
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
  source: Source;
  cite: string;
  selfTest?: string;
  control?: string;
  dependsOn?: string;
  requires: Requirements;
  required: boolean;
  timeoutMs?: number;
  /** Started early, after tier 0 (CommonOptions.slow). */
  slow?: true;
  /** Started after tier 0 and the slow cases (CommonOptions.heavy). */
  heavy?: true;
  description?: string;
  /** The suite file (relative to the suites directory) that registers it; absent for corpus cases. */
  file?: string;
}

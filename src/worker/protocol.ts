// Messages between the parent and a worker (IPC with 'advanced' serialization, so bigint create options travel).
import type { PluginIdentity } from '../config/results.js';
import type { CaseOutcome } from '../harness/execute.js';
import type { CatalogueEntry } from '../harness/types.js';
import type { NamedValues } from '../config/named-value.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';

export type ToWorker =
  /** Import every suite and answer the catalogue; then exit, or with `stay` wait for `init` (or `end`). */
  | { type: 'list'; programs?: string; stay?: boolean }
  /** A spare: import every suite, then wait for `init` (or `end`). */
  | { type: 'import'; programs?: string }
  | { type: 'probe'; plugin: ResolvedPlugin }
  /**
   * Start a long-lived worker: import the suites (only `files` when given), warm up when `warmupMs` is given (before
   * the first case, under that deadline: first-use JIT caches must not turn into case timeouts), then answer `ready`.
   */
  | { type: 'init'; plugin: ResolvedPlugin; files?: string[]; programs?: string; warmup?: WarmupDeadlines }
  /** Run these cases, in order, after those sent before; each is answered with start, then result. */
  | { type: 'cases'; cases: CaseOrder[] }
  /** No more cases: release the plugin's objects and exit. */
  | { type: 'end' };

/**
 * One case to run. `createOptions`, when they differ from the worker's, replace them (and its shared client) first:
 * the fault matrix switches the reference plugin's faults this way, many claims per worker.
 */
export interface CaseOrder { id: string; timeoutMs: number; createOptions?: NamedValues }

/**
 * The warm-up's deadlines: compiling the program gets the long one (`ms`: first-use JIT caches); creating the shared
 * client and running the program get a case's (`caseMs`), so a plugin hanging there costs one case's timeout.
 */
export interface WarmupDeadlines { caseMs: number; ms: number }

/** A worker's cumulative counters (see PluginSession and src/ffi/call-stats.ts); its slot stats are sent as they change. */
export interface WorkerCounters {
  clientsCreated: number;
  sharedClientsCreated: number;
  sharedClientResets: string[];
  /** The plugin turned out to allow one live client per process (PluginSession counters). */
  clientLimit?: string;
  loadMs: number;
  /** Peak resident set size of the worker process so far (process.resourceUsage().maxRSS), KiB. */
  maxRssKiB: number;
  /** Its resident set size now, KiB (a soak's memory trend per worker). */
  rssKiB: number;
  /** The slots whose stats changed since the worker's previous counters, with their totals (mergeCounters). */
  slots: Record<string, { calls: number; ms: number }>;
}

export type FromWorker =
  | { type: 'catalogue'; cases: CatalogueEntry[] }
  | { type: 'start'; id: string }
  /** `next`: the case that starts right after this one (its start, without a message of its own). */
  | { type: 'result'; id: string; outcome: CaseOutcome; counters?: WorkerCounters; next?: string }
  /** Initialized (and warmed up): the first cases may come. */
  | { type: 'ready' }
  | { type: 'identity'; identity: Partial<PluginIdentity> }
  | { type: 'fatal'; message: string }
  /** The preflight's verdict: a problem is bad input (the library cannot be used, or it rejects the create options). */
  /** `about`: what the problem is with, when not the library itself (the create options it rejected). */
  | { type: 'probe'; problem?: string; about?: 'createOptions' }
  | { type: 'done' }
  /** A warm-up step begins (creating the shared client, then compiling and running): the parent arms `deadlineMs`. */
  | { type: 'warmup-start'; deadlineMs: number }
  | { type: 'warmup'; ok: boolean; ms: number; message?: string };

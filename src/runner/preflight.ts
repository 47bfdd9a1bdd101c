// Before any case runs: one short-lived worker loads the plugin and creates a client with the configured options.
// An unusable library, rejected create options, or a plugin that crashes or hangs while loading (dlopen,
// GetPjrtApi), initializing or creating a client (named in the call record, see call-record.ts) is the vendor's first thing to fix: exit 2 with one line naming
// the call, within the preflight's own short deadline, instead of a thousand identical crashes or timeouts.
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../config/errors.js';
import { CLIENT_CREATION_CALLS } from '../worker/call-record.js';
import { startWorker, type ChunkEnd } from './child.js';
import { lastPluginLine, withNullApiReason } from './plugin-stderr.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';

/** Where a preflight was when the run was interrupted: how long it had run, and the plugin call in flight if it still ran. */
export interface PreflightState { state: 'running' | 'passed' | 'failed'; ms: number; call?: string }

/** A preflight under way: its verdict (a ConfigError for bad input), or cancel it. */
export interface Preflight {
  plugin: ResolvedPlugin;
  verdict: Promise<void>;
  cancel(): void;
  /** Ends it (a run interrupted meanwhile) and says where it was. */
  stop(): Promise<PreflightState>;
}

/** Starts the preflight; `run` starts it while the catalogue is being listed and takes its verdict in its turn. */
export function startPreflight(plugin: ResolvedPlugin, timeoutMs: number): Preflight {
  const t0 = performance.now();
  const w = startWorker({ type: 'probe', plugin }, { ...process.env, ...plugin.env }, { onResult: () => undefined }, () => timeoutMs);
  let hung = false;
  let settled: 'passed' | 'failed' | undefined;
  let cancelled = false;
  const timer = setTimeout(() => {
    hung = true;
    w.kill();
  }, timeoutMs);
  const verdict = w.done.then((end) => {
    clearTimeout(timer);
    if (!cancelled) judge(plugin, end, hung, timeoutMs);
  });
  // Taken later (or never, when the run stops on other bad input first): not an unhandled rejection meanwhile.
  verdict.then(() => (settled = 'passed'), () => (settled = 'failed'));
  const cancel = (): void => {
    cancelled = true;
    clearTimeout(timer);
    w.kill();
  };
  return {
    plugin, verdict, cancel,
    stop: async () => {
      const ms = Math.round(performance.now() - t0);
      if (settled) return { state: settled, ms };
      cancel();
      const end = await w.done;
      return { state: 'running', ms, ...(end.call ? { call: end.call } : {}) };
    },
  };
}

export async function preflight(plugin: ResolvedPlugin, timeoutMs: number): Promise<void> {
  await startPreflight(plugin, timeoutMs).verdict;
}

function judge(plugin: ResolvedPlugin, end: ChunkEnd, hung: boolean, timeoutMs: number): void {
  const lib = plugin.library;
  if (end.probe) {
    const problem = withNullApiReason(end.probe, end.stderrTail);
    // Rejected create options are the configuration's, not the library's: named where they come from.
    const where = end.probeAbout !== 'createOptions' ? '--plugin' : plugin.byPath ? '--create-option' : `plugins.json plugins.${plugin.name}.createOptions (with any --create-option)`;
    throw new ConfigError(lib, where, problem.startsWith(`${lib}: `) ? problem.slice(lib.length + 2) : problem);
  }
  if (end.probe !== undefined) return;
  // Only a crash or hang in the calls that make a client is judged here; one elsewhere (say in the
  // PlatformName the identity asks for) is left to the cases that call it.
  if (!end.call || !CLIENT_CREATION_CALLS.has(end.call)) return;
  const call = end.call;
  const hint = ' (preflight; --no-preflight runs the cases anyway)';
  if (hung) throw new ConfigError(lib, call, `the plugin hangs: ${call} did not return within ${timeoutMs} ms${hint}`);
  if (end.fatal) throw new ConfigError(lib, call, `the preflight worker failed: ${end.fatal.split('\n')[0]}${hint}`);
  // The worker died before answering: a crash (signal) or an exit the plugin made.
  const last = lastPluginLine(end.stderrTail);
  throw new ConfigError(lib, call, `the plugin crashed in ${call}: the worker was ${end.death ?? 'lost'}${last ? `; its last output: ${last}` : ''}${hint}`);
}

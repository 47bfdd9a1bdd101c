// `run`, step 2 of 3: the session. Workers run the planned cases (scheduler.ts); each raw result goes through the
// status pipeline (status.ts) once and then to every reporter; signals, the stop policy (stop-policy.ts) and the
// warm-up are handled here. Nothing returns to run.ts until every case has its final result.
import { FAILING, type CaseResult, type SoakReport } from '../config/results.js';
import { SOAK_MAX_REPETITIONS, type SoakOptions } from './repetitions.js';
import type { Reporter } from './reporter.js';
import type { RunCounters } from './counters.js';
import { DEFAULT_MAX_CALL_FAILURES, DEFAULT_MAX_CLIENT_FAILURES, DEFAULT_WARMUP_TIMEOUT_MS, NOT_RUN, workerPlan, type RunPlan } from './plan.js';
import { schedule, type RawResult, type WarmupReport } from './scheduler.js';
import { StatusPipeline } from './status.js';
import { StopPolicy, type BlockedCall } from './stop-policy.js';
import { signalNameOf } from './interrupt.js';
import type { InterruptedBefore } from './plan-interrupted.js';

export interface SessionOutcome {
  results: CaseResult[];
  interrupted: boolean;
  /** The signal that interrupted the run. */
  signalName?: string;
  /** Interrupted before its cases started: where, and the preflight's state (plan-interrupted.ts). */
  interruptedBefore?: InterruptedBefore;
  /** Why the run stopped early (the cases not run are recorded as skip). */
  stopped?: string;
  /** PJRT calls that crashed or hung in K cases in a row; the cases needing them were skipped. */
  blocked: BlockedCall[];
  /** pjrt-cts itself failed (a worker could not even load the suites). */
  internal?: Error;
  counters?: RunCounters;
  warmup?: WarmupReport;
  /** run --repeat / --soak: what the repetitions found. */
  soak?: SoakReport;
  durationMs: number;
  /** The slots each failing case called (for root causes: which foundation it builds on). */
  calledSlots: Map<string, string[]>;
}

export async function runSession(plan: RunPlan, out: Required<Pick<Reporter, 'note' | 'start'>> & Reporter): Promise<SessionOutcome> {
  const { o, selected } = plan;
  const t0 = Date.now();
  const results: CaseResult[] = [];
  const policy = new StopPolicy({
    maxClientFailures: o.maxClientFailures ?? DEFAULT_MAX_CLIENT_FAILURES,
    maxCallFailures: o.maxCallFailures ?? DEFAULT_MAX_CALL_FAILURES,
    ...(o.maxFailures !== undefined ? { maxFailures: o.maxFailures } : {}),
  });
  const ac = new AbortController();
  // SIGINT/SIGTERM arrive through o.signal (run.ts watches them from before the plan; a signal may have come already).
  let signalName: string | undefined;
  const onAbortSignal = (): void => {
    signalName ??= signalNameOf(o.signal!);
    ac.abort();
  };
  if (o.signal?.aborted) onAbortSignal();
  else o.signal?.addEventListener('abort', onAbortSignal);

  // The raw result of the case just judged (the pipeline may hold a dependent back; the policy sees each once).
  const rawOf = new Map<string, RawResult>();
  const calledSlots = new Map<string, string[]>();
  const pipeline = new StatusPipeline(
    { strict: o.strict, ...(plan.expectations ? { expectations: plan.expectations } : {}), identity: plan.identity },
    new Set(selected.map((c) => c.id)),
    (r) => {
      results.push(r);
      out.result(r);
      const raw = rawOf.get(r.id);
      rawOf.delete(r.id);
      if (raw?.slots && FAILING.has(r.status)) calledSlots.set(r.id, raw.slots);
      if (raw && policy.observe(raw, r)) ac.abort();
    },
    o.recordSlots,
  );
  /** Says so when the policy has just blocked a call. */
  const noteBlocked = (blockedBefore: number): void => {
    if (policy.blocked.size === blockedBefore) return;
    const b = [...policy.blocked.values()].at(-1)!;
    out.note(`pjrt-cts: ${b.call} was ${b.how === 'hanging' ? 'in flight at the timeout' : 'in flight at the crash'} ${policy.limits.maxCallFailures} times in a row (first in ${b.firstCase}): the remaining cases that need it are skipped (--max-call-failures)`);
  };
  const accept = (raw: RawResult): void => {
    const stopped = policy.stopped;
    const r = stopped && raw.status === 'skip' && raw.message === 'interrupted' ? { ...raw, message: `${NOT_RUN}${stopped}` } : raw;
    const blockedBefore = policy.blocked.size;
    rawOf.set(r.entry.id, r);
    pipeline.accept(r);
    noteBlocked(blockedBefore);
  };

  // The warm-up: only for a real plugin, and only when some selected case compiles.
  const warmupMs = o.warmupTimeoutMs ?? DEFAULT_WARMUP_TIMEOUT_MS;
  const wantWarmup = warmupMs > 0 && !plan.header.run.profile && !process.env['PJRT_CTS_SUITES'] && selected.some((c) => c.requires.slots?.includes('PJRT_Client_Compile'));
  if (wantWarmup) {
    out.note(`pjrt-cts: warm-up: each worker creates a client, then compiles and runs a trivial program before its first case (up to ${Math.round(warmupMs / 1000)} s: first-use JIT caches; --warmup-timeout)`);
  }
  let warmup: WarmupReport | undefined;
  const warmupWaived = (d: NonNullable<WarmupReport['died']>): boolean => {
    const status = d.how === 'hanging' ? 'timeout' : 'crash';
    return plan.expectations?.apply('', status, undefined, plan.identity, `${d.call ?? 'worker'}:${status}`).status === 'xfail';
  };
  const onWarmup = (w: WarmupReport): void => {
    // A crash or hang in the warm-up is the plugin's like any other: it counts towards the stop limits, unless an
    // expectations entry by rule waives it (as it would in a case).
    if (w.died && !warmupWaived(w.died)) {
      const blockedBefore = policy.blocked.size;
      if (policy.observeWarmup(w.died.how, w.died.call)) ac.abort();
      noteBlocked(blockedBefore);
    }
    if (warmup && !warmup.ok) return;
    if (!w.ok) out.note(`pjrt-cts: warm-up (a trivial program compiled and run before the first case) failed: ${w.message ?? 'unknown'}; no case is charged with it`);
    warmup ??= w;
    if (!w.ok) warmup = w;
  };

  let interrupted = false;
  let internal: Error | undefined;
  let counters: RunCounters | undefined;
  let soakReport: SoakReport | undefined;
  const lanes = workerPlan(plan.plugin, o.jobs, o.stdout);
  const soak: SoakOptions | undefined = (o.repeat ?? 1) > 1 || o.soakMs !== undefined
    ? { repeat: o.repeat ?? SOAK_MAX_REPETITIONS, ...(o.soakMs !== undefined ? { until: Date.now() + o.soakMs } : {}) }
    : undefined;
  const repetitionsText = o.soakMs !== undefined ? `until ${Math.round(o.soakMs / 1000)} s have passed (at most ${soak?.repeat} repetitions)` : `${soak?.repeat} times`;
  if (soak) out.note(`pjrt-cts: soak: the selection runs ${repetitionsText} in the same workers; a case whose verdict changes between repetitions is flaky`);
  try {
    ({ interrupted, counters, soak: soakReport } = await schedule(
      {
        cases: selected, plugin: lanes.plugin, jobs: lanes.jobs, retries: o.retries, defaultTimeoutMs: o.timeoutMs, signal: ac.signal,
        ...(o.programs ? { programs: o.programs } : {}), ...(wantWarmup ? { warmupMs } : {}),
        blocked: (e) => policy.blockedReason(e), ...(plan.keptWorkers ? { adopt: plan.keptWorkers } : {}), ...(soak ? { soak } : {}),
      },
      {
        onWarmup, onStart: (id) => out.start(id), onIdentity: (i) => Object.assign(plan.identity, i), onResult: accept,
        onRepetition: (n) => out.note(`pjrt-cts: soak: repetition ${n}${o.soakMs === undefined ? ` of ${soak!.repeat}` : ''} started`),
      },
    ));
  } catch (e) {
    internal = e as Error;
  } finally {
    o.signal?.removeEventListener('abort', onAbortSignal);
  }
  const stopped = policy.stopped;
  if (stopped) {
    interrupted = false;
    // Cases never started are recorded as not run, so the reports account for every selected case.
    const have = new Set([...results.map((r) => r.id), ...rawOf.keys()]);
    for (const c of selected) if (!have.has(c.id)) accept({ entry: c, status: 'skip', durationMs: 0, message: `${NOT_RUN}${stopped}`, attempts: 1 });
  }
  pipeline.flush();
  return {
    results, interrupted, blocked: [...policy.blocked.values()], durationMs: Date.now() - t0, calledSlots,
    ...(signalName ? { signalName } : {}), ...(stopped ? { stopped } : {}), ...(internal ? { internal } : {}),
    ...(counters ? { counters } : {}), ...(warmup ? { warmup } : {}), ...(soakReport ? { soak: soakReport } : {}),
  };
}

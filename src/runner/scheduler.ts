// Spreads cases over --jobs long-lived worker processes that pull cases from one queue; a fresh worker replaces
// one that crashed or timed out; retries for flakes.
import type { CaseDetails, PluginIdentity, SoakReport } from '../config/results.js';
import { Repetitions, type SoakOptions } from './repetitions.js';
import { CALLBACK_WAIT } from '../ffi/call-stats.js';
import type { CatalogueEntry } from '../harness/types.js';
import { startWorker, type ChunkEnd, type ChunkHandlers, type RunningChunk } from './child.js';
import { addWorker, emptyCounters, mergeCounters, type RunCounters } from './counters.js';
import type { CaseOrder, ToWorker, WorkerCounters } from '../worker/protocol.js';
import type { NamedValues } from '../config/named-value.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';

/** A case's final outcome before expectations are applied. */
export interface RawResult {
  entry: CatalogueEntry;
  status: 'pass' | 'fail' | 'crash' | 'timeout' | 'unsupported' | 'skip' | 'flaky';
  durationMs: number;
  message?: string;
  attempts: number;
  capabilities?: Record<string, boolean>;
  details?: CaseDetails;
  slots?: string[];
  /** For a crash or timeout: the plugin call in flight (call-trace.ts), e.g. PJRT_Client_Create. */
  call?: string;
  /** For a failure: the stable key of the broken rule (harness/execute.ts ruleOf). */
  rule?: string;
  /** A soak's repetitions of the case, each with its own verdict (repetitions.ts). */
  repetitions?: { status: RawResult['status']; durationMs: number; message?: string }[];
}

interface ScheduleOptions {
  cases: readonly CatalogueEntry[];
  plugin: ResolvedPlugin;
  jobs: number;
  retries: number;
  defaultTimeoutMs: number;
  programs?: string;
  signal?: AbortSignal;
  /** Create options for a case's worker when not the plugin's (the fault matrix: the reference plugin's `faults`). */
  createOptionsFor?(entry: CatalogueEntry): NamedValues | undefined;
  /** Each worker warms up (compiles and runs a trivial program) before its first case, under this deadline. */
  warmupMs?: number;
  /** Asked before a queued case is sent: a reason means the case is not run but recorded as `skip` with it. */
  blocked?: (e: CatalogueEntry) => string | undefined;
  /** Started workers (the kept list worker and its spares: suites imported, the run's environment) the lanes take first. */
  adopt?: RunningChunk[];
  /** Run the selection again and again (run --repeat / --soak): each case's repetitions summed up (repetitions.ts). */
  soak?: SoakOptions;
}

export interface WarmupReport {
  ok: boolean;
  ms: number;
  message?: string;
  /** The worker died in it (crash) or was killed at its deadline (hang), with the plugin call in flight if any. */
  died?: { how: 'crashing' | 'hanging'; call?: string };
}

interface ScheduleHandlers {
  onResult(r: RawResult): void;
  onStart?(id: string): void;
  onIdentity?(identity: Partial<PluginIdentity>): void;
  /** A worker's warm-up ended; a failure never fails a case. */
  onWarmup?(w: WarmupReport): void;
  /** A soak's repetition `n` (from 2) starts: its first case was taken. */
  onRepetition?(n: number): void;
}

export class FatalWorkerError extends Error {
  override readonly name = 'FatalWorkerError';
}

/** The suite files the cases need; every file when some case has none (corpus cases). */
function filesFor(cases: readonly CatalogueEntry[]): { files?: string[] } {
  if (cases.some((e) => !e.file)) return {};
  return { files: [...new Set(cases.map((e) => e.file!))] };
}

interface Job { entry: CatalogueEntry; attempt: number; first?: Omit<RawResult, 'attempts'>; /** a soak's, from 1 */ repetition?: number; /** when it was last sent to a worker (performance.now()) */ sentAt?: number }

/**
 * A worker is sent a second case ahead only while more than this many cases per worker are queued: near the end of
 * the queue a case held behind a long one would idle the other workers.
 */
const PREFETCH_MIN_QUEUE = 4;
/**
 * While more than BATCH_MIN_QUEUE cases per worker are queued, a worker holds up to 2 × BATCH cases and is topped up
 * BATCH at a time, in one message: a message per case costs the parent a write and the worker a wake-up each.
 */
const BATCH = 8;
const BATCH_MIN_QUEUE = 64;

/** Where the worker was: the PJRT call in flight, a wait for a callback registered through one, or none. */
function during(end: Pick<ChunkEnd, 'call' | 'callWaiting'>): string {
  if (!end.call) return ' with no traced PJRT call in flight';
  return end.callWaiting ? ` during ${end.call} (${CALLBACK_WAIT})` : ` during ${end.call}`;
}

function deathMessage(end: ChunkEnd, timeoutMs: number): string {
  const head = end.timedOut ? `no result within ${timeoutMs} ms${during(end)}; the worker was killed (SIGKILL)` : `the worker process died${during(end)}: ${end.death ?? 'unknown'}`;
  return end.stderrTail.length ? `${head}\n--- last output of the worker ---\n${end.stderrTail.join('\n')}` : head;
}

/** A started worker takes on a lane: its messages go to the lane's handlers, then it is initialized as a run worker. */
function handOver(w: RunningChunk, init: ToWorker, handlers: ChunkHandlers, timeoutOf: (id: string) => number): RunningChunk {
  w.rebind(handlers, timeoutOf);
  w.send(init);
  return w;
}

export async function schedule(opts: ScheduleOptions, h: ScheduleHandlers): Promise<{ interrupted: boolean; counters: RunCounters; soak?: SoakReport }> {
  const timeoutOf = (e: CatalogueEntry): number => e.timeoutMs ?? opts.defaultTimeoutMs;
  const byId = new Map(opts.cases.map((e) => [e.id, e]));
  // Slow cases early: a worker left with one at the end would keep the run going while the others idle. Tier 0
  // still goes first: on a plugin that crashes or hangs in its basics, its cases stop the run (stop-policy.ts)
  // before a slow case spends its long deadline.
  // Heavy cases next: while some lanes hold the slow cases (nextIndex), the others run them beside those waits.
  const early = (e: CatalogueEntry): number => (e.tier === 0 ? 0 : e.slow ? 1 : e.heavy ? 2 : 3);
  const queue: Job[] = [0, 1, 2, 3].flatMap((k) => opts.cases.filter((e) => early(e) === k)).map((entry) => ({ entry, attempt: 1 }));
  const running = new Set<RunningChunk>();
  const env = { ...process.env, ...opts.plugin.env };
  const files = filesFor(opts.cases);
  const counters = emptyCounters();
  let interrupted = false;
  let fatal: string | undefined;
  // Cleared once a worker died in its warm-up: its replacements go straight to the cases (no endless restarts).
  let warmupMs = opts.warmupMs;
  const adopt = [...(opts.adopt ?? [])];

  const reps = opts.soak ? new Repetitions(opts.soak) : undefined;
  let announced = 1;
  /** A case's final outcome (after retries); in a soak, its repetition's, summed up after the last one. */
  const complete = (job: Job, r: RawResult): void => {
    if (!reps) return h.onResult(r);
    const n = job.repetition ?? 1;
    reps.record(r, n);
    if (r.status !== 'skip' && !interrupted && !fatal && reps.another(n)) queue.push({ entry: job.entry, attempt: 1, repetition: n + 1 });
    else h.onResult(reps.sum(job.entry.id));
  };
  const finish = (job: Job, r: Omit<RawResult, 'attempts' | 'entry'>): void => {
    const failed = r.status === 'fail' || r.status === 'crash' || r.status === 'timeout';
    const base = { ...r, entry: job.entry };
    if (failed && job.attempt <= opts.retries) {
      queue.push({ entry: job.entry, attempt: job.attempt + 1, first: job.first ?? base, ...(job.repetition ? { repetition: job.repetition } : {}) });
      return;
    }
    if (job.first && r.status === 'pass') {
      const msg = `failed on attempt 1 (${job.first.status}), passed on attempt ${job.attempt}` + (job.first.message ? `: ${job.first.message}` : '');
      complete(job, { ...base, status: 'flaky', message: msg, attempts: job.attempt });
      return;
    }
    complete(job, { ...(job.first && failed ? job.first : base), attempts: job.attempt });
  };

  const onAbort = (): void => {
    interrupted = true;
    for (const c of running) c.kill();
  };
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort);

  /** Each lane's cases sent and not answered yet (its current worker's). */
  const held = new Map<number, readonly Job[]>();
  const maxSlowLanes = Math.max(1, Math.floor(opts.jobs / 2));
  /**
   * Where in the queue a lane's next case is. Slow cases mostly wait (node processes, deliberate delays): while other
   * lanes hold as many of them as allowed (half the lanes), a lane takes the first case that is not slow, so that
   * waiting overlaps computing instead of idling every CPU at once. Slow cases still all start early.
   */
  const nextIndex = (lane: number): number => {
    if (!queue[0]?.entry.slow) return 0;
    const others = [...held].filter(([l, jobs]) => l !== lane && jobs.some((j) => j.entry.slow)).length;
    if (others < maxSlowLanes) return 0;
    const i = queue.findIndex((j) => !j.entry.slow);
    return i < 0 ? 0 : i;
  };

  /** The lane's next queued case to send, after recording as skipped those the stop policy blocks. */
  const take = (lane: number): Job | undefined => {
    while (queue.length && !interrupted && !fatal) {
      const job = queue.splice(nextIndex(lane), 1)[0]!;
      if ((job.repetition ?? 1) > announced) h.onRepetition?.((announced = job.repetition!));
      const why = opts.blocked?.(job.entry);
      if (!why) return job;
      complete(job, { entry: job.entry, status: 'skip', durationMs: 0, message: why, attempts: job.attempt });
    }
    return undefined;
  };

  /**
   * One lane: a long-lived worker pulls cases from the shared queue; a worker that crashed or hung is charged with
   * the case in flight and replaced by a fresh one, which goes on with the queue. While the queue is long, a worker
   * holds cases beyond the one it runs (BATCH), so it never waits on the parent between cases; cases it had not started
   * when it died go back to the front of the queue.
   */
  const lane = async (index: number): Promise<void> => {
    let first = true;
    /** This worker's number in the run (1 = the first started), for a soak's memory trend. */
    let ordinal = 0;
    while (queue.length && !interrupted && !fatal) {
      /** Cases sent to this worker and not answered yet, in the order it runs them. */
      const sent: Job[] = [];
      held.set(index, sent);
      const startedLate = new Set<string>();
      let ended = false;
      let last: WorkerCounters | undefined;
      const fill = (): void => {
        const batched = queue.length > BATCH_MIN_QUEUE * opts.jobs;
        if (batched && sent.length > BATCH) return;
        const depth = batched ? 2 * BATCH : queue.length > PREFETCH_MIN_QUEUE * opts.jobs ? 2 : 1;
        const orders: CaseOrder[] = [];
        while (!ended && sent.length < depth) {
          const job = take(index);
          if (!job) break;
          job.sentAt = performance.now();
          sent.push(job);
          const createOptions = opts.createOptionsFor?.(job.entry);
          orders.push({ id: job.entry.id, timeoutMs: timeoutOf(job.entry), ...(createOptions ? { createOptions } : {}) });
        }
        if (orders.length) w.send({ type: 'cases', cases: orders });
        if (!ended && !sent.length) {
          ended = true;
          w.send({ type: 'end' });
        }
      };
      const init: ToWorker = {
        type: 'init', plugin: opts.plugin, ...files, ...(opts.programs ? { programs: opts.programs } : {}),
        ...(warmupMs !== undefined ? { warmup: { caseMs: opts.defaultTimeoutMs, ms: warmupMs } } : {}),
      };
      const handlers: ChunkHandlers = {
        onStart: (id) => {
          // A case sent ahead may start after the run was stopped or interrupted: it counts as not run.
          if (interrupted || fatal) startedLate.add(id);
          else h.onStart?.(id);
        },
        onIdentity: (i) => h.onIdentity?.(i),
        onReady: fill,
        onWarmup: (wu) => h.onWarmup?.(wu),
        onResult: (id, o, c) => {
          if (c) last = mergeCounters(last, c);
          if (sent[0]?.entry.id !== id) return;
          const job = sent.shift()!;
          if (c && reps) reps.sampleRss(ordinal, job.repetition ?? 1, c.rssKiB);
          if (startedLate.has(id)) return;
          const r: Omit<RawResult, 'attempts' | 'entry'> = { status: o.status, durationMs: o.durationMs };
          if (o.message) r.message = o.message;
          if (o.capabilities) r.capabilities = o.capabilities;
          if (o.details) r.details = o.details;
          if (o.slots) r.slots = o.slots;
          if (o.rule) r.rule = o.rule;
          finish(job, r);
          fill();
        },
      };
      const timeoutOfId = (id: string): number => timeoutOf(byId.get(id)!);
      const kept = adopt.shift();
      const w = kept ? handOver(kept, init, handlers, timeoutOfId) : startWorker(init, env, handlers, timeoutOfId);
      ordinal = ++counters.workersStarted;
      if (!first) counters.workersReplaced++;
      first = false;
      running.add(w);
      const end = await w.done;
      running.delete(w);
      if (last) addWorker(counters, last);
      if (end.fatal) {
        fatal = `${end.fatal}${end.stderrTail.length ? `\n${end.stderrTail.join('\n')}` : ''}`;
        queue.unshift(...sent);
        break;
      }
      if (end.inWarmupMs !== undefined && !end.interrupted && !interrupted) {
        const why = end.timedOut ? `did not finish within ${end.warmupDeadlineMs ?? warmupMs} ms${during(end)}; the worker was killed (SIGKILL)` : `the worker died${during(end)}: ${end.death ?? 'unknown'}`;
        h.onWarmup?.({
          ok: false, ms: end.inWarmupMs, message: `${why}; later workers start without a warm-up`,
          died: { how: end.timedOut ? 'hanging' : 'crashing', ...(end.call ? { call: end.call } : {}) },
        });
        warmupMs = undefined;
      }
      const left = sent.shift();
      if (end.interrupted || interrupted) {
        if (left && end.inFlight === left.entry.id && !startedLate.has(left.entry.id)) complete(left, { entry: left.entry, status: 'skip', durationMs: 0, message: 'interrupted', attempts: left.attempt });
        break;
      }
      if (!left) continue;
      // Cases sent but never started are run by the next worker, as if never sent.
      queue.unshift(...sent);
      // The worker died with a case sent to it: charge that case (also when it had not started yet, so a worker
      // that cannot even start still lets the run progress); a fresh worker goes on with the queue.
      const status = end.timedOut ? 'timeout' : 'crash';
      const prefix = end.inFlight === left.entry.id ? '' : 'the worker died before this case started; ';
      // Charged from its start; when the worker died before its start was seen, from when it was sent.
      const charged = end.inFlightMs ?? (left.sentAt === undefined ? 0 : performance.now() - left.sentAt);
      finish(left, {
        status, durationMs: end.timedOut ? timeoutOf(left.entry) : charged, message: prefix + deathMessage(end, timeoutOf(left.entry)),
        ...(end.call ? { call: end.call } : {}),
      });
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs, queue.length)) }, (_, i) => lane(i)));
  // Not taken (fewer lanes than kept workers, or the run ended first): none may outlive the run.
  for (const w of adopt) w.send({ type: 'end' });
  opts.signal?.removeEventListener('abort', onAbort);
  // A soak interrupted or stopped: the cases with repetitions recorded and more queued are summed up as they stand.
  if (reps) for (const id of reps.pending()) h.onResult(reps.sum(id));
  if (fatal) throw new FatalWorkerError(fatal);
  return { interrupted, counters, ...(reps ? { soak: reps.report() } : {}) };
}

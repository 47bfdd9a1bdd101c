// One worker process seen from the parent: fork, watchdog per case, stderr tail, and how it ended.
import { fork, type ChildProcess } from 'node:child_process';
import type { PluginIdentity } from '../config/results.js';
import type { CaseOutcome } from '../harness/execute.js';
import type { CatalogueEntry } from '../harness/types.js';
import { CALL_FD_ENV } from '../worker/call-record.js';
import { CallFile } from './call-file.js';
import { parseCallMark } from '../ffi/call-stats.js';
import { parentPidEnv } from '../ffi/parent-pid.js';
import { workerEntry } from '../config/paths.js';
import type { FromWorker, ToWorker, WorkerCounters } from '../worker/protocol.js';

const TAIL_LINES = 20;
/** Kill a worker that neither starts a case nor finishes for this long (suite import, exit). */
const IDLE_MS = 60_000;
/** After `done`, the worker has this long to exit before it is killed. */
const EXIT_GRACE_MS = 5_000;

export interface ChunkHandlers {
  onStart?(id: string): void;
  onResult(id: string, outcome: CaseOutcome, counters?: WorkerCounters): void;
  onIdentity?(identity: Partial<PluginIdentity>): void;
  /** A long-lived worker is initialized and ready for its first cases. */
  onReady?(): void;
  /** The worker's warm-up ended (it did not die in it). */
  onWarmup?(w: { ok: boolean; ms: number; message?: string }): void;
  /** A list worker answered the catalogue. */
  onCatalogue?(cases: CatalogueEntry[]): void;
}

export interface ChunkEnd {
  completed: Set<string>;
  /** The case in flight when the worker died or was killed. */
  inFlight?: string;
  timedOut: boolean;
  /** How the worker died, when it did not end normally. */
  death?: string;
  stderrTail: string[];
  fatal?: string;
  interrupted: boolean;
  catalogue?: CatalogueEntry[];
  /** Set when a probe worker answered: the problem it found, or '' for none. */
  probe?: string;
  /** What the probe's problem is with, when not the library (protocol.ts). */
  probeAbout?: 'createOptions';
  /** The plugin call in flight when the worker died or was killed (call-trace.ts), if one was. */
  call?: string;
  /** Not in `call` itself: waiting for the callback registered through it (PJRT_Event_OnReady's). */
  callWaiting?: boolean;
  /** How long the case in flight had been running when the worker died or was killed. */
  inFlightMs?: number;
  /** The worker died or was killed in its warm-up (before any case): how long the warm-up had run. */
  inWarmupMs?: number;
  /** The deadline of the warm-up step it was in. */
  warmupDeadlineMs?: number;
}

export interface RunningChunk {
  done: Promise<ChunkEnd>;
  /** Ends the worker as interrupted (SIGKILL). */
  kill(): void;
  /** Sends a message to a long-lived worker (`case`, `end`); ignored once it has exited. */
  send(msg: ToWorker): void;
  /** Hands the worker to a new owner (a list worker kept to become a run worker): its messages go to `handlers`. */
  rebind(handlers: ChunkHandlers, timeoutOf: (id: string) => number): void;
}

class Tail {
  lines: string[] = [];
  private partial = '';
  push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > TAIL_LINES) this.lines.splice(0, this.lines.length - TAIL_LINES);
  }
  take(): string[] {
    const out = this.partial ? [...this.lines, this.partial] : [...this.lines];
    return out.slice(-TAIL_LINES);
  }
  reset(): void {
    this.lines = [];
    this.partial = '';
  }
}

export function startWorker(msg: ToWorker, env: NodeJS.ProcessEnv, handlers: ChunkHandlers, timeoutOf: (id: string) => number): RunningChunk {
  let owner = { handlers, timeoutOf };
  const calls = new CallFile();
  const child: ChildProcess = fork(workerEntry(), [], {
    env: { ...env, ...CALL_FD_ENV, ...parentPidEnv() },
    serialization: 'advanced',
    // stdio[4]: the call record (call-record.ts), naming the plugin call in flight.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc', calls.fd],
    execArgv: [],
    // Own process group: a terminal's Ctrl-C reaches the parent only, which then records the case in flight
    // as interrupted (not crashed) and kills the worker itself.
    detached: true,
  });
  const tail = new Tail();
  child.stderr?.setEncoding('utf8').on('data', (d: string) => tail.push(d));
  child.stdout?.setEncoding('utf8').on('data', (d: string) => tail.push(d));
  let startedAt = 0;
  let warmupAt: number | undefined;
  const end: ChunkEnd = { completed: new Set(), timedOut: false, stderrTail: [], interrupted: false };
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const arm = (ms: number, onFire: () => void): void => {
    clearTimeout(timer);
    timer = setTimeout(onFire, ms);
  };
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  arm(IDLE_MS, kill);
  const started = (id: string): void => {
    end.inFlight = id;
    startedAt = performance.now();
    tail.reset();
    owner.handlers.onStart?.(id);
    arm(owner.timeoutOf(id), () => {
      end.timedOut = true;
      kill();
    });
  };
  child.on('message', (raw) => {
    const m = raw as FromWorker;
    switch (m.type) {
      case 'start':
        started(m.id);
        break;
      case 'result':
        end.completed.add(m.id);
        if (end.inFlight === m.id) delete end.inFlight;
        arm(IDLE_MS, kill);
        owner.handlers.onResult(m.id, m.outcome, m.counters);
        if (m.next !== undefined) started(m.next);
        break;
      case 'ready':
        owner.handlers.onReady?.();
        break;
      case 'warmup-start':
        // The warm-up's own deadlines (a long one for first-use JIT caches): no case is charged if one runs out.
        warmupAt ??= performance.now();
        end.warmupDeadlineMs = m.deadlineMs;
        arm(m.deadlineMs, () => {
          end.timedOut = true;
          kill();
        });
        break;
      case 'warmup':
        warmupAt = undefined;
        arm(IDLE_MS, kill);
        owner.handlers.onWarmup?.({ ok: m.ok, ms: m.ms, ...(m.message ? { message: m.message } : {}) });
        break;
      case 'identity':
        owner.handlers.onIdentity?.(m.identity);
        break;
      case 'catalogue':
        end.catalogue = m.cases;
        arm(IDLE_MS, kill);
        owner.handlers.onCatalogue?.(m.cases);
        break;
      case 'fatal':
        end.fatal = m.message;
        break;
      case 'probe':
        end.probe = m.problem ?? '';
        if (m.about) end.probeAbout = m.about;
        break;
      case 'done':
        finished = true;
        // Exiting is bounded too: a plugin thread or destructor that blocks process exit must not stall the run.
        arm(EXIT_GRACE_MS, kill);
        break;
    }
  });
  const done = new Promise<ChunkEnd>((resolve) => {
    let spawnError: Error | undefined;
    child.on('error', (e) => (spawnError = e));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      end.stderrTail = tail.take();
      const { call, waiting } = parseCallMark(calls.read());
      calls.close();
      if (call) end.call = call;
      if (call && waiting) end.callWaiting = true;
      if (end.inFlight) end.inFlightMs = performance.now() - startedAt;
      if (warmupAt !== undefined) end.inWarmupMs = performance.now() - warmupAt;
      if (spawnError) end.fatal ??= `cannot start a worker: ${spawnError.message}`;
      if (!finished || code !== 0) end.death = signal ? `killed by ${signal}` : `exited with code ${code ?? '?'}`;
      if (finished && code === 0) delete end.death;
      resolve(end);
    });
  });
  const send = (m: ToWorker): void => {
    if (child.connected) child.send(m, (e) => void e);
  };
  send(msg);
  return {
    done,
    kill: () => {
      end.interrupted = true;
      kill();
    },
    send,
    rebind: (h, t) => {
      owner = { handlers: h, timeoutOf: t };
    },
  };
}

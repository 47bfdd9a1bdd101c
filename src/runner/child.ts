// One worker process seen from the parent: fork, watchdog per case, stderr tail, and how it ended.
import { fork, type ChildProcess } from 'node:child_process';
import type { PluginIdentity } from '../config/results.js';
import type { CaseOutcome } from '../harness/execute.js';
import type { CatalogueEntry } from '../harness/types.js';
import { workerEntry } from './paths.js';
import type { ResolvedPlugin } from './plugins.js';
import type { FromWorker, ToWorker } from './protocol.js';

const TAIL_LINES = 20;
/** Kill a worker that neither starts a case nor finishes for this long (suite import, exit). */
const IDLE_MS = 60_000;

export interface ChunkHandlers {
  onStart?(id: string): void;
  onResult(id: string, outcome: CaseOutcome): void;
  onIdentity?(identity: Partial<PluginIdentity>): void;
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
}

export interface RunningChunk { done: Promise<ChunkEnd>; kill(): void }

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
  const child: ChildProcess = fork(workerEntry(), [], {
    env,
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    execArgv: [],
    // Own process group: a terminal's Ctrl-C reaches the parent only, which then records the case in flight
    // as interrupted (not crashed) and kills the worker itself.
    detached: true,
  });
  const tail = new Tail();
  child.stderr?.setEncoding('utf8').on('data', (d: string) => tail.push(d));
  child.stdout?.setEncoding('utf8').on('data', (d: string) => tail.push(d));
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
  child.on('message', (raw) => {
    const m = raw as FromWorker;
    switch (m.type) {
      case 'start':
        end.inFlight = m.id;
        tail.reset();
        handlers.onStart?.(m.id);
        arm(timeoutOf(m.id), () => {
          end.timedOut = true;
          kill();
        });
        break;
      case 'result':
        end.completed.add(m.id);
        if (end.inFlight === m.id) delete end.inFlight;
        arm(IDLE_MS, kill);
        handlers.onResult(m.id, m.outcome);
        break;
      case 'identity':
        handlers.onIdentity?.(m.identity);
        break;
      case 'catalogue':
        end.catalogue = m.cases;
        break;
      case 'fatal':
        end.fatal = m.message;
        break;
      case 'probe':
        end.probe = m.problem ?? '';
        break;
      case 'done':
        finished = true;
        clearTimeout(timer);
        break;
    }
  });
  const done = new Promise<ChunkEnd>((resolve) => {
    let spawnError: Error | undefined;
    child.on('error', (e) => (spawnError = e));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      end.stderrTail = tail.take();
      if (spawnError) end.fatal ??= `cannot start a worker: ${spawnError.message}`;
      if (!finished || code !== 0) end.death = signal ? `killed by ${signal}` : `exited with code ${code ?? '?'}`;
      if (finished && code === 0) delete end.death;
      resolve(end);
    });
  });
  child.send(msg);
  return {
    done,
    kill: () => {
      end.interrupted = true;
      kill();
    },
  };
}

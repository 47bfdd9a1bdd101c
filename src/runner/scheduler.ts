// Spreads cases over worker processes: --jobs at a time, a fresh worker after a crash or timeout, retries for flakes.
import type { PluginIdentity } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { startWorker, type ChunkEnd, type RunningChunk } from './child.js';
import type { ResolvedPlugin } from './plugins.js';

/** A case's final outcome before expectations are applied. */
export interface RawResult {
  entry: CatalogueEntry;
  status: 'pass' | 'fail' | 'crash' | 'timeout' | 'unsupported' | 'skip' | 'flaky';
  durationMs: number;
  message?: string;
  attempts: number;
  capabilities?: Record<string, boolean>;
}

export interface ScheduleOptions {
  cases: readonly CatalogueEntry[];
  plugin: ResolvedPlugin;
  jobs: number;
  retries: number;
  defaultTimeoutMs: number;
  programs?: string;
  signal?: AbortSignal;
}

export interface ScheduleHandlers {
  onResult(r: RawResult): void;
  onStart?(id: string): void;
  onIdentity?(identity: Partial<PluginIdentity>): void;
}

export class FatalWorkerError extends Error {
  override readonly name = 'FatalWorkerError';
}

/** The suite files a chunk needs; every file when some case has none (corpus cases). */
function filesFor(chunk: readonly Job[]): { files?: string[] } {
  if (chunk.some((j) => !j.entry.file)) return {};
  return { files: [...new Set(chunk.map((j) => j.entry.file!))] };
}

interface Job { entry: CatalogueEntry; attempt: number; first?: Omit<RawResult, 'attempts'> }

function deathMessage(end: ChunkEnd, timeoutMs: number): string {
  const head = end.timedOut ? `no result within ${timeoutMs} ms; the worker was killed (SIGKILL)` : `the worker process died: ${end.death ?? 'unknown'}`;
  return end.stderrTail.length ? `${head}\n--- last output of the worker ---\n${end.stderrTail.join('\n')}` : head;
}

export async function schedule(opts: ScheduleOptions, h: ScheduleHandlers): Promise<{ interrupted: boolean }> {
  const timeoutOf = (e: CatalogueEntry): number => e.timeoutMs ?? opts.defaultTimeoutMs;
  const byId = new Map(opts.cases.map((e) => [e.id, e]));
  const queue: Job[] = opts.cases.map((entry) => ({ entry, attempt: 1 }));
  const jobsOf = new Map<string, Job>();
  const running = new Set<RunningChunk>();
  const env = { ...process.env, ...opts.plugin.env };
  let interrupted = false;
  let fatal: string | undefined;
  const chunkSize = (): number => (opts.jobs <= 1 ? queue.length : Math.max(1, Math.ceil(queue.length / (opts.jobs * 3))));

  const finish = (job: Job, r: Omit<RawResult, 'attempts' | 'entry'>): void => {
    const failed = r.status === 'fail' || r.status === 'crash' || r.status === 'timeout';
    const base = { ...r, entry: job.entry };
    if (failed && job.attempt <= opts.retries) {
      queue.push({ entry: job.entry, attempt: job.attempt + 1, first: job.first ?? base });
      return;
    }
    if (job.first && r.status === 'pass') {
      const msg = `failed on attempt 1 (${job.first.status}), passed on attempt ${job.attempt}` + (job.first.message ? `: ${job.first.message}` : '');
      h.onResult({ ...base, status: 'flaky', message: msg, attempts: job.attempt });
      return;
    }
    h.onResult({ ...(job.first && failed ? job.first : base), attempts: job.attempt });
  };

  const onAbort = (): void => {
    interrupted = true;
    for (const c of running) c.kill();
  };
  opts.signal?.addEventListener('abort', onAbort);

  const launch = async (): Promise<void> => {
    while (queue.length && !interrupted && !fatal) {
      const chunk = queue.splice(0, chunkSize());
      for (const j of chunk) jobsOf.set(j.entry.id, j);
      const ids = chunk.map((j) => j.entry.id);
      const running1 = startWorker(
        { type: 'run', plugin: opts.plugin, ids, timeouts: chunk.map((j) => timeoutOf(j.entry)), ...filesFor(chunk), ...(opts.programs ? { programs: opts.programs } : {}) },
        env,
        {
          onStart: (id) => h.onStart?.(id),
          onIdentity: (i) => h.onIdentity?.(i),
          onResult: (id, o) => {
            const job = jobsOf.get(id);
            if (!job) return;
            const r: Omit<RawResult, 'attempts' | 'entry'> = { status: o.status, durationMs: o.durationMs };
            if (o.message) r.message = o.message;
            if (o.capabilities) r.capabilities = o.capabilities;
            finish(job, r);
          },
        },
        (id) => timeoutOf(byId.get(id)!),
      );
      running.add(running1);
      const end = await running1.done;
      running.delete(running1);
      if (end.fatal) {
        fatal = `${end.fatal}${end.stderrTail.length ? `\n${end.stderrTail.join('\n')}` : ''}`;
        break;
      }
      const left = chunk.filter((j) => !end.completed.has(j.entry.id));
      if (end.interrupted || interrupted) {
        const inflight = left.find((j) => j.entry.id === end.inFlight);
        if (inflight) h.onResult({ entry: inflight.entry, status: 'skip', durationMs: 0, message: 'interrupted', attempts: inflight.attempt });
        break;
      }
      if (!left.length) continue;
      // The worker died: charge the case in flight (or, if none had started, the first one, so a worker that
      // cannot even start still lets the run progress), and give the rest to a fresh worker.
      const charged = left.find((j) => j.entry.id === end.inFlight) ?? left[0]!;
      const status = end.timedOut ? 'timeout' : 'crash';
      const prefix = end.inFlight === charged.entry.id ? '' : 'the worker died before this case started; ';
      finish(charged, { status, durationMs: end.timedOut ? timeoutOf(charged.entry) : 0, message: prefix + deathMessage(end, timeoutOf(charged.entry)) });
      queue.unshift(...left.filter((j) => j !== charged));
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, () => launch()));
  opts.signal?.removeEventListener('abort', onAbort);
  if (fatal) throw new FatalWorkerError(fatal);
  return { interrupted };
}

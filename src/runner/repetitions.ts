// `run --repeat N` / `--soak MS`: the same selection again and again in the same workers. Each case's repetitions are
// kept until its last one, then summed up into one result: its status when every repetition agreed, else `flaky`
// (some passed, some failed) or the first failing status, with each repetition's verdict in `repetitions` and a
// message that says which repetitions differed. The workers' resident sets are sampled per repetition.
import { FAILING, type SoakReport } from '../config/results.js';
import type { RawResult } from './scheduler.js';

export interface SoakOptions {
  /** the most repetitions of a case */
  readonly repeat: number;
  /** no repetition starts after this time (Date.now()) */
  readonly until?: number;
}

/** The most repetitions a --soak without --repeat runs: bounded, whatever the duration. */
export const SOAK_MAX_REPETITIONS = 1000;

type Repetition = NonNullable<RawResult['repetitions']>[number];

export class Repetitions {
  private readonly done = new Map<string, { reps: Repetition[]; first: RawResult; firstFailing?: RawResult }>();
  /** worker ordinal → repetition → RSS KiB at its last result in that repetition */
  private readonly rss = new Map<number, Map<number, number>>();
  private highest = 0;
  private readonly changedIds: string[] = [];

  constructor(private readonly opts: SoakOptions) {}

  /** Whether a case that just ended repetition `n` runs again. */
  another(n: number): boolean {
    return n < this.opts.repeat && (this.opts.until === undefined || Date.now() < this.opts.until);
  }

  /** Records repetition `n` of a case (its final outcome, after any retries). */
  record(r: RawResult, n: number): void {
    this.highest = Math.max(this.highest, n);
    const d = this.done.get(r.entry.id);
    const rep: Repetition = { status: r.status, durationMs: r.durationMs, ...(r.message ? { message: r.message } : {}) };
    if (!d) this.done.set(r.entry.id, { reps: [rep], first: r, ...(FAILING.has(r.status) ? { firstFailing: r } : {}) });
    else {
      d.reps.push(rep);
      if (!d.firstFailing && FAILING.has(r.status)) d.firstFailing = r;
    }
  }

  sampleRss(worker: number, n: number, rssKiB: number): void {
    let m = this.rss.get(worker);
    if (!m) this.rss.set(worker, (m = new Map()));
    m.set(n, rssKiB);
  }

  /** Ids whose repetitions are recorded and not yet summed up. */
  pending(): string[] {
    return [...this.done.keys()];
  }

  /** The case's one result over its repetitions (and forgets them). */
  sum(id: string): RawResult {
    const d = this.done.get(id)!;
    this.done.delete(id);
    const statuses = d.reps.map((r) => r.status);
    const base = d.firstFailing ?? d.first;
    const out: RawResult = { ...base, durationMs: d.reps.reduce((a, r) => a + r.durationMs, 0), repetitions: d.reps };
    if (statuses.every((s) => s === statuses[0])) return out;
    this.changedIds.push(id);
    const tally = statuses.map((s, i) => `${i + 1} ${s}`).join(', ');
    const status = statuses.includes('pass') && d.firstFailing ? 'flaky' : (d.firstFailing?.status ?? base.status);
    const why = d.firstFailing?.message ?? base.message;
    return { ...out, status, message: `verdict changed between repetitions (${tally})${why ? `: ${why}` : ''}` };
  }

  report(): SoakReport {
    const workers = [...this.rss.entries()].sort(([a], [b]) => a - b).map(([worker, m]) => ({
      worker,
      rssMiB: Array.from({ length: this.highest }, (_, i) => {
        const kib = m.get(i + 1);
        return kib === undefined ? null : Math.round(kib / 1024);
      }),
    }));
    return { repetitions: Math.max(1, this.highest), changed: [...this.changedIds], workers };
  }
}

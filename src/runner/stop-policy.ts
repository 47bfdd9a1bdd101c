// When a run stops early, or stops running some cases. Fed each raw result in the order results arrive, and each
// worker's warm-up that crashed or hung (a hang there is a hang of the plugin like any other):
// - client creation crashing or hanging K times in a row stops the run (no case can run without a client);
// - any other PJRT call crashing or hanging K times in a row (K = maxCallFailures, default 3) blocks that call:
//   the remaining cases that need it are recorded as `skip: blocked by <call> hanging (see <first case>)`, so a
//   plugin that hangs in execute costs K timeouts, not one per executing case, and the gate fails;
// - --max-failures / --bail stops after that many failures.
// A crash or hang the expectations waive (`xfail`) is a known deviation, not a plugin that keeps failing: it neither
// counts nor ends a streak.
import { FAILING, type CaseResult } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { CLIENT_CREATION_CALLS } from '../worker/call-record.js';
import type { RawResult } from './scheduler.js';

interface StopLimits {
  /** Client creation crashing or hanging this many times in a row stops the run (0: never). */
  maxClientFailures: number;
  /** Another PJRT call crashing or hanging this many times in a row blocks it (0: never). */
  maxCallFailures: number;
  /** Stop after this many failures (fail, crash, timeout). */
  maxFailures?: number;
}

/** A call that crashed or hung in K cases in a row: the cases that need it are not run. */
export interface BlockedCall { call: string; how: 'hanging' | 'crashing'; firstCase: string; cases: number }

interface Streak { n: number; first: string; how: BlockedCall['how'] }

/** Where a crash or hang happened: a case (its id) or a worker's warm-up. */
const WARMUP = 'a worker\'s warm-up';

export class StopPolicy {
  private failures = 0;
  private clientStreak = 0;
  private lastClientDeath = '';
  private readonly streaks = new Map<string, Streak>();
  readonly blocked = new Map<string, BlockedCall>();
  stopped: string | undefined;

  constructor(readonly limits: StopLimits) {}

  /** The reason a case is not run: it needs a blocked call. */
  blockedReason(e: CatalogueEntry): string | undefined {
    for (const slot of e.requires.slots ?? []) {
      const b = this.blocked.get(slot);
      if (b) {
        b.cases++;
        return `blocked by ${b.call} ${b.how} (see ${b.firstCase}): it ${b.how === 'hanging' ? 'hung' : 'crashed'} ${this.limits.maxCallFailures} time(s) in a row`;
      }
    }
    return undefined;
  }

  /** Takes one result; returns the reason to stop the run when it is time to. */
  observe(raw: RawResult, judged: CaseResult): string | undefined {
    if (this.stopped) return undefined;
    if (judged.status === 'xfail') return undefined; // waived: known, neither a new failure nor a sign of health
    const died = raw.status === 'crash' || raw.status === 'timeout';
    const how = raw.status === 'timeout' ? 'hanging' : 'crashing';
    if (died && raw.call && CLIENT_CREATION_CALLS.has(raw.call)) this.clientDied(raw.call, how, raw.message);
    else if (raw.status !== 'skip' && raw.status !== 'unsupported') this.clientStreak = 0;
    if (died && raw.call && !CLIENT_CREATION_CALLS.has(raw.call)) this.callDied(raw.call, how, raw.entry.id);
    // A case that needs a call and got through it ends that call's streak.
    else if (raw.status === 'pass' || raw.status === 'fail') for (const slot of raw.entry.requires.slots ?? []) this.streaks.delete(slot);
    if (FAILING.has(judged.status)) this.failures++;
    return this.decide();
  }

  /** A worker's warm-up crashed or hung (in `call`, if a traced one was in flight); returns the reason to stop, if any. */
  observeWarmup(how: BlockedCall['how'], call: string | undefined): string | undefined {
    if (this.stopped || !call) return undefined;
    if (CLIENT_CREATION_CALLS.has(call)) this.clientDied(call, how, undefined);
    else this.callDied(call, how, WARMUP);
    return this.decide();
  }

  private clientDied(call: string, how: BlockedCall['how'], message: string | undefined): void {
    this.clientStreak++;
    this.lastClientDeath = `${call} ${how === 'crashing' ? (/killed by (SIG\w+)|exited with code \d+/.exec(message ?? '')?.[0] ?? 'crashed') : 'hung'}`;
  }

  private callDied(call: string, how: BlockedCall['how'], where: string): void {
    const k = this.limits.maxCallFailures;
    if (k <= 0) return;
    const s = this.streaks.get(call);
    const next: Streak = s && s.how === how ? { ...s, n: s.n + 1 } : { n: 1, first: where, how };
    this.streaks.set(call, next);
    if (next.n >= k && !this.blocked.has(call)) this.blocked.set(call, { call, how, firstCase: next.first, cases: 0 });
  }

  private decide(): string | undefined {
    const { maxClientFailures, maxFailures } = this.limits;
    if (maxClientFailures > 0 && this.clientStreak >= maxClientFailures) {
      this.stopped = `client creation failed ${this.clientStreak} times in a row (${this.lastClientDeath}); no case can run until the plugin can create a client`;
    } else if (maxFailures !== undefined && this.failures >= maxFailures) {
      this.stopped = `stopped after ${this.failures} failure(s) (${maxFailures === 1 ? '--bail' : `--max-failures ${maxFailures}`})`;
    }
    return this.stopped;
  }
}

// When a run stops early, or stops running some cases. Fed each raw result in the order results arrive:
// - client creation crashing or hanging in K cases in a row stops the run (no case can run without a client);
// - any other PJRT call crashing or hanging in K cases in a row (K = maxCallFailures, default 3) blocks that call:
//   the remaining cases that need it are recorded as `skip: blocked by <call> hanging (see <first case>)`, so a
//   plugin that hangs in execute costs K timeouts, not one per executing case, and the gate fails;
// - --max-failures / --bail stops after that many failures.
import { FAILING, type CaseResult } from '../config/results.js';
import type { CatalogueEntry } from '../harness/types.js';
import { CLIENT_CREATION_CALLS } from '../worker/call-record.js';
import type { RawResult } from './scheduler.js';

interface StopLimits {
  /** Client creation crashing or hanging in this many cases in a row stops the run (0: never). */
  maxClientFailures: number;
  /** Another PJRT call crashing or hanging in this many cases in a row blocks it (0: never). */
  maxCallFailures: number;
  /** Stop after this many failures (fail, crash, timeout). */
  maxFailures?: number;
}

/** A call that crashed or hung in K cases in a row: the cases that need it are not run. */
export interface BlockedCall { call: string; how: 'hanging' | 'crashing'; firstCase: string; cases: number }

interface Streak { n: number; first: string; how: BlockedCall['how'] }

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
        return `blocked by ${b.call} ${b.how} (see ${b.firstCase}): ${this.limits.maxCallFailures} case(s) in a row ${b.how === 'hanging' ? 'timed out' : 'crashed'} in it`;
      }
    }
    return undefined;
  }

  /** Takes one result; returns the reason to stop the run when it is time to. */
  observe(raw: RawResult, judged: CaseResult): string | undefined {
    if (this.stopped) return undefined;
    const died = raw.status === 'crash' || raw.status === 'timeout';
    const call = raw.call;
    if (died && call && CLIENT_CREATION_CALLS.has(call)) {
      this.clientStreak++;
      this.lastClientDeath = `${call} ${raw.status === 'crash' ? (/killed by (SIG\w+)|exited with code \d+/.exec(raw.message ?? '')?.[0] ?? 'crashed') : 'hung'}`;
    } else if (raw.status !== 'skip' && raw.status !== 'unsupported') {
      this.clientStreak = 0;
    }
    this.trackCall(raw, died);
    if (FAILING.has(judged.status)) this.failures++;
    const { maxClientFailures, maxFailures } = this.limits;
    if (maxClientFailures > 0 && this.clientStreak >= maxClientFailures) {
      this.stopped = `client creation failed in ${this.clientStreak} cases in a row (${this.lastClientDeath}); no case can run until the plugin can create a client`;
    } else if (maxFailures !== undefined && this.failures >= maxFailures) {
      this.stopped = `stopped after ${this.failures} failure(s) (${maxFailures === 1 ? '--bail' : `--max-failures ${maxFailures}`})`;
    }
    return this.stopped;
  }

  private trackCall(raw: RawResult, died: boolean): void {
    const k = this.limits.maxCallFailures;
    if (k <= 0) return;
    if (died && raw.call && !CLIENT_CREATION_CALLS.has(raw.call)) {
      const how = raw.status === 'timeout' ? 'hanging' : 'crashing';
      const s = this.streaks.get(raw.call);
      const next: Streak = s && s.how === how ? { ...s, n: s.n + 1 } : { n: 1, first: raw.entry.id, how };
      this.streaks.set(raw.call, next);
      if (next.n >= k && !this.blocked.has(raw.call)) this.blocked.set(raw.call, { call: raw.call, how, firstCase: next.first, cases: 0 });
      return;
    }
    // A case that needs a call and got through it ends that call's streak.
    if (raw.status === 'pass' || raw.status === 'fail') for (const slot of raw.entry.requires.slots ?? []) this.streaks.delete(slot);
  }
}

// Node's timers hold a signed 32-bit count of milliseconds: a longer delay fires at once (with a
// TimeoutOverflowWarning), so a deadline the person asked for would never apply. Every timeout the CTS reads
// (options and environment variables) is refused above this, in one line naming where it came from.

/** The longest delay setTimeout honours: 2^31 − 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Why `ms` cannot be a timer's delay, or undefined when it can. */
export function timerProblem(ms: number): string | undefined {
  return ms > MAX_TIMER_MS ? `at most ${MAX_TIMER_MS} ms (about 24.8 days: Node's timers cannot wait longer, and a longer one would fire at once)` : undefined;
}

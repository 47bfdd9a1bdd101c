// How often each PJRT slot was called and how long the calls took (wall time of the call itself; for calls on a
// worker thread, until the call returned). The run's counters and phase times are derived from these.
import { performance } from 'node:perf_hooks';

export interface SlotStat { calls: number; ms: number }

const stats = new Map<string, SlotStat>();
/** Slots called since beginCaseCalls. */
const inCase = new Set<string>();
/** Slots whose stats changed since takeChangedStats. */
const changed = new Set<string>();

export function recordCall(slot: string, startedAt: number): void {
  const ms = performance.now() - startedAt;
  const s = stats.get(slot);
  if (s) {
    s.calls++;
    s.ms += ms;
  } else stats.set(slot, { calls: 1, ms });
  inCase.add(slot);
  changed.add(slot);
}

/** A snapshot of every slot called so far in this process. */
export function callStats(): Record<string, SlotStat> {
  return Object.fromEntries([...stats].map(([k, v]) => [k, { ...v }]));
}

/** The stats (totals so far) of the slots called since the last call of this function. */
export function takeChangedStats(): Record<string, SlotStat> {
  const out: Record<string, SlotStat> = {};
  for (const k of changed) out[k] = { ...stats.get(k)! };
  changed.clear();
  return out;
}

/** Starts the list of slots a case calls (caseCalls); waits an earlier case left behind are forgotten. */
export function beginCaseCalls(): void {
  inCase.clear();
  forgetWaits();
}

/** The slots called since beginCaseCalls, sorted. */
export function caseCalls(): string[] {
  return [...inCase].sort();
}

export const now = (): number => performance.now();

/**
 * Names each PJRT call in flight to whoever listens (a worker marks them in its call record, so a crash or a hang
 * names the call: src/worker/call-trace.ts). '' when none is. An asynchronous call stays named until it settles, and
 * so does a wait for a callback the plugin was given (PJRT_Event_OnReady's): marked `waitMark(slot)`, so a plugin that
 * never calls back is named as hanging in that slot, not as "no call in flight".
 */
let marker: ((slot: string) => void) | undefined;
const asyncInFlight: string[] = [];

const WAITING = ' (waiting for its callback)';
/** How a report names a wait for a callback (a hang or crash while the plugin was being waited on to call back). */
export const CALLBACK_WAIT = 'waiting for the plugin to call the callback registered with it';
/** The mark of a wait for the callback registered through `slot`. */
export const waitMark = (slot: string): string => `${slot}${WAITING}`;
/** A mark read back: the slot, and whether the plugin was being waited on for a callback rather than in the call. */
export function parseCallMark(mark: string): { call: string; waiting: boolean } {
  return mark.endsWith(WAITING) ? { call: mark.slice(0, -WAITING.length), waiting: true } : { call: mark, waiting: false };
}

export function setCallMarker(f: ((slot: string) => void) | undefined): void {
  marker = f;
}

export function callStarts(slot: string, async = false): void {
  if (!marker) return;
  if (async) asyncInFlight.push(slot);
  marker(slot);
}

export function callEnds(slot: string, async = false): void {
  if (!marker) return;
  if (async) {
    const i = asyncInFlight.lastIndexOf(slot);
    if (i >= 0) asyncInFlight.splice(i, 1);
  }
  marker(asyncInFlight.at(-1) ?? '');
}

/** A callback registered through `slot` is awaited from now on (until waitEnds). */
export function waitStarts(slot: string): void {
  callStarts(waitMark(slot), true);
}

export function waitEnds(slot: string): void {
  callEnds(waitMark(slot), true);
}

/** Forgets waits left over from an earlier case (a callback that never came): they must not name a later crash. */
export function forgetWaits(): void {
  const before = asyncInFlight.length;
  for (let i = asyncInFlight.length - 1; i >= 0; i--) if (parseCallMark(asyncInFlight[i]!).waiting) asyncInFlight.splice(i, 1);
  if (marker && asyncInFlight.length !== before) marker(asyncInFlight.at(-1) ?? '');
}

// Asynchronous calls in flight (dispatched to a libuv thread, not yet returned): how many at most, and for how long two
// or more were, since the last takeAsyncOverlap. Measured from dispatch to the return's callback on the main thread,
// so an upper bound of the plugin-side overlap (the concurrency area reports it: docs/concurrency.md).
let asyncInFlightCount = 0;
let maxAsyncInFlight = 0;
let overlapSince = 0;
let overlapMs = 0;

export function asyncCallBegins(): void {
  if (++asyncInFlightCount === 2) overlapSince = performance.now();
  if (asyncInFlightCount > maxAsyncInFlight) maxAsyncInFlight = asyncInFlightCount;
}

export function asyncCallEnds(): void {
  if (asyncInFlightCount-- === 2) overlapMs += performance.now() - overlapSince;
}

export interface AsyncOverlap {
  /** the most asynchronous calls in flight at once */
  maxInFlight: number;
  /** milliseconds during which two or more were */
  overlapMs: number;
}

/** The overlap since the last call (which starts a new measurement). */
export function takeAsyncOverlap(): AsyncOverlap {
  const now = performance.now();
  if (asyncInFlightCount >= 2) {
    overlapMs += now - overlapSince;
    overlapSince = now;
  }
  const r = { maxInFlight: maxAsyncInFlight, overlapMs };
  maxAsyncInFlight = asyncInFlightCount;
  overlapMs = 0;
  return r;
}

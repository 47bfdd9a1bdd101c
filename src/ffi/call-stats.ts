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

/** Starts the list of slots a case calls (caseCalls). */
export function beginCaseCalls(): void {
  inCase.clear();
}

/** The slots called since beginCaseCalls, sorted. */
export function caseCalls(): string[] {
  return [...inCase].sort();
}

export const now = (): number => performance.now();

/**
 * Names each PJRT call in flight to whoever listens (a worker marks them in its call record, so a crash or a hang
 * names the call: src/worker/call-trace.ts). '' when none is. An asynchronous call stays named until it settles.
 */
let marker: ((slot: string) => void) | undefined;
const asyncInFlight: string[] = [];

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

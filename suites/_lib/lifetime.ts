// Create/destroy cycles and what they leave behind: the plugin's own accounting (bytes_in_use), the process's native
// heap and resident set, and its threads. A cycle runs `warmup` times first (caches, pools, lazily created state and
// the JavaScript compiler's tiers settle), then the measured cycles run in WINDOWS windows with a reading before and
// after each. A reading is the lowest of SETTLE_READINGS readings (each after a full garbage collection, a cycle
// apart): what the process holds only for a moment (a compiler's zone, a buffer in flight) is left out. A leak of an
// object per cycle grows every window by its size × the window's cycles; the allocator's and the engine's own
// movements step the heap up or down in a window or two. So the heap is judged on the median window.
// docs/lifetime.md has the figures.
import type { CaseContext } from '../../src/harness/index.js';
import type { LifetimeGrowth } from '../../src/config/results.js';
import type { Device } from '../../src/pjrt/index.js';
import { processMemory, type ProcessMemory } from '../../src/ffi/process-memory.js';
import { mallocIsLibcs } from '../../src/ffi/libc.js';
import * as check from './check.js';

/** Native heap growth per cycle a clean plugin stays under (with HEAP_SLACK_PER_WINDOW a window): a leaked object of a few dozen bytes per cycle is caught given enough cycles. */
export const HEAP_BYTES_PER_CYCLE = 32;
/** Resident-set growth per cycle when the C library cannot say what malloc holds: a page per cycle. */
export const RSS_BYTES_PER_CYCLE = 4096;
/**
 * What a window may grow by beyond the per-cycle bound: the allocator's own movements (an arena's top chunk, a thread's
 * new arena) and the JavaScript engine's, which no number of cycles averages away. A leak is caught when a window's
 * cycles leak more than this, so each case runs windows of enough cycles for its smallest leak (docs/lifetime.md).
 */
export const HEAP_SLACK_PER_WINDOW = 32 * 1024;
const WINDOWS = 5;
const SETTLE_READINGS = 3;


/**
 * The measured cycles' share of a case's time: a plugin whose cycle is slow (a compiler of seconds, a device's
 * client) runs fewer cycles, each window at least MIN_WINDOW_CYCLES; the result's `details.lifetime.cycles` says how many ran.
 */
export const CYCLE_BUDGET_MS = 8_000;
const MIN_WINDOW_CYCLES = 3;
const MEMORY_STATS = 'PJRT_Device_MemoryStats';
const UNIMPLEMENTED_STATS = `${MEMORY_STATS}: "Implementations may also return PJRT_Error_Code_UNIMPLEMENTED", so the plugin's accounting cannot be read`;

/** The device's bytes_in_use; a plugin whose MemoryStats is UNIMPLEMENTED makes the case unsupported. */
export function deviceBytesInUse(ctx: CaseContext<unknown>, device: Device): Promise<bigint> {
  return check.unimplementedIsUnsupported(ctx, UNIMPLEMENTED_STATS, () => device.memoryStats().bytesInUse);
}

export interface Cycles {
  /** cycles run before the first reading (at least one: their time sizes the measured cycles) */
  readonly warmup: number;
  /** cycles measured, at most (fewer when they would take more than CYCLE_BUDGET_MS) */
  readonly cycles: number;
  /** the device whose bytes_in_use is read (none: the plugin's accounting is not read) */
  readonly device?: Device;
  /**
   * The case judges the native heap (hostMemoryBounded). Under a preloaded allocator, whose heap malloc_info does not
   * see, only the first PRELOADED_ALLOCATOR_CYCLES cycles run (the sanitizer runs still watch the path) and the case
   * is skipped.
   */
  readonly judgesHeap?: boolean;
}

const PRELOADED_ALLOCATOR_CYCLES = 20;

interface Reading {
  readonly process: ProcessMemory;
  readonly deviceBytes: bigint | undefined;
}

/** The lowest heap and resident set of SETTLE_READINGS readings, one cycle apart. */
async function settledReading(device: Device | undefined, cycle: () => Promise<void>): Promise<Reading> {
  let low = await processMemory();
  for (let k = 1; k < SETTLE_READINGS; k++) {
    await cycle();
    const r = await processMemory();
    low = {
      heapInUse: low.heapInUse === null || r.heapInUse === null ? null : Math.min(low.heapInUse, r.heapInUse),
      rss: Math.min(low.rss, r.rss),
      threads: r.threads,
    };
  }
  return { process: low, deviceBytes: device?.memoryStats().bytesInUse };
}

/**
 * Runs `cycle` warmup + cycles (+ a few between readings) times and records what grew (the result's
 * `details.lifetime`): device bytes and threads from the first reading to the last, heap and resident set per cycle
 * in the median window, times all cycles counted. A plugin whose MemoryStats is UNIMPLEMENTED while a device
 * is named: the case is unsupported.
 */
export async function measureCycles(ctx: CaseContext<unknown>, opts: Cycles, cycle: (i: number) => Promise<void>): Promise<LifetimeGrowth> {
  let i = 0;
  const next = (): Promise<void> => cycle(i++);
  if (opts.judgesHeap === true && !mallocIsLibcs()) {
    // A sanitizer's runtime (the ASan and ThreadSanitizer runs), tcmalloc, jemalloc: malloc_info does not see their heap.
    while (i < PRELOADED_ALLOCATOR_CYCLES) await next();
    return ctx.skip(`the native heap: not judged — a preloaded allocator serves malloc (LD_PRELOAD), so the C library's malloc_info does not see the process's heap and the resident set holds that allocator's own reserves (its quarantine, its shadow); ${i} cycles ran`);
  }
  const t0 = performance.now();
  while (i < Math.max(1, opts.warmup)) await next();
  const cycleMs = (performance.now() - t0) / i;
  const readings: Reading[] = [];
  const counted: number[] = [];
  readings.push(await check.unimplementedIsUnsupported(ctx, UNIMPLEMENTED_STATS, () => settledReading(opts.device, next)));
  const affordable = Math.floor(CYCLE_BUDGET_MS / Math.max(cycleMs, 1e-3) / WINDOWS);
  const perWindow = Math.max(MIN_WINDOW_CYCLES, Math.min(Math.ceil(opts.cycles / WINDOWS), affordable));
  for (let w = 0; w < WINDOWS; w++) {
    const from = i;
    for (let k = 0; k < perWindow; k++) await next();
    readings.push(await settledReading(opts.device, next));
    counted.push(i - from);
  }
  const first = readings[0]!, last = readings[readings.length - 1]!;
  const total = counted.reduce((a, b) => a + b, 0);
  /** Growth per cycle in the median window (null when a reading lacks the measure). */
  const medianPerCycle = (f: (r: Reading) => number | null): number | null => {
    const slopes: number[] = [];
    for (let w = 0; w < WINDOWS; w++) {
      const a = f(readings[w]!), b = f(readings[w + 1]!);
      if (a === null || b === null) return null;
      slopes.push((b - a) / counted[w]!);
    }
    return slopes.sort((x, y) => x - y)[Math.floor(WINDOWS / 2)]!;
  };
  const heap = medianPerCycle((r) => r.process.heapInUse);
  const growth: LifetimeGrowth = {
    cycles: total,
    ...(first.deviceBytes !== undefined && last.deviceBytes !== undefined ? { deviceBytesInUse: Number(last.deviceBytes - first.deviceBytes) } : {}),
    ...(heap !== null ? { heapBytes: Math.round(heap * total) } : {}),
    rssBytes: Math.round(medianPerCycle((r) => r.process.rss)! * total),
    threads: last.process.threads - first.process.threads,
  };
  ctx.detail('lifetime', growth);
  return growth;
}

const perCycle = (bytes: number, cycles: number): string => `${bytes} bytes over ${cycles} cycles (${Math.round(bytes / cycles)} per cycle)`;

/**
 * The plugin's bytes_in_use is back where it was: it grew by less than one cycle's own allocation (`cycleBytes`), so
 * a cache the plugin keeps passes and a per-cycle leak (cycles × its size) does not.
 */
export function deviceMemoryReturned(g: LifetimeGrowth, cycleBytes: number, rule: string): void {
  const grown = g.deviceBytesInUse ?? 0;
  check.ok(grown < cycleBytes, `${MEMORY_STATS}: bytes_in_use must return to its level before the cycles: ${rule}`,
    `growth below ${cycleBytes} bytes (one cycle's allocation)`, perCycle(grown, g.cycles));
}

/**
 * The native heap (or, without malloc_info, the resident set) grew by less than the bound per cycle in some window.
 * `heapPerCycle` raises the heap's bound for a cycle whose host side churns more (a case derives it from the size of
 * what the cycle makes, so that leaking that is still caught). The cycles are measured with `judgesHeap`, so that a
 * preloaded allocator's heap is never judged here (measureCycles skips the case first).
 */
export function hostMemoryBounded(g: LifetimeGrowth, rule: string, heapPerCycle = HEAP_BYTES_PER_CYCLE): void {
  const slack = HEAP_SLACK_PER_WINDOW * WINDOWS;
  if (g.heapBytes !== undefined) {
    check.ok(g.heapBytes <= heapPerCycle * g.cycles + slack, `${rule}: the native heap must not grow with every cycle (the median window of cycles)`,
      `≤ ${heapPerCycle} bytes per cycle (+ ${HEAP_SLACK_PER_WINDOW / 1024} KiB per window)`, perCycle(g.heapBytes, g.cycles));
  } else {
    check.ok(g.rssBytes <= RSS_BYTES_PER_CYCLE * g.cycles + slack, `${rule}: the resident set must not grow with every cycle (the median window; no malloc_info here, so the resident set is read)`,
      `≤ ${RSS_BYTES_PER_CYCLE} bytes per cycle (+ ${HEAP_SLACK_PER_WINDOW / 1024} KiB per window)`, perCycle(g.rssBytes, g.cycles));
  }
}

/** The process has no more threads than before the cycles. */
export function threadsReturned(g: LifetimeGrowth, rule: string): void {
  check.ok(g.threads <= 0, `${rule}: every thread the cycles started must have ended`, 'no more threads than before', `${g.threads} more after ${g.cycles} cycles`);
}

// Tier 1 — PJRT_Device_MemoryStats: the statistics must agree with each other and with what the case allocated.
// "All returned stats except `bytes_in_use` are optional … Implementations may also return
// PJRT_Error_Code_UNIMPLEMENTED", so UNIMPLEMENTED is unsupported and an unset `_is_set` stat is never judged.
import { area, type CaseContext } from '../../src/harness/index.js';
import { layoutOf, structDef } from '../../src/abi/index.js';
import type { Buffer, MemoryStats } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { dtype, pattern } from '../_lib/patterns.js';

const t = area('tier1.memory_stats', { tier: 1, requires: { slots: ['PJRT_Device_MemoryStats', 'PJRT_Client_BufferFromHostBuffer'] } });

const SLOT = 'PJRT_Device_MemoryStats';
const OPTIONAL = `${SLOT}: "Implementations may also return PJRT_Error_Code_UNIMPLEMENTED"`;
/** A buffer large enough to show in any allocator's statistics. */
const LIVE_BYTES = 1 << 20;

type Ctx = CaseContext<unknown>;
const optional = (body: (ctx: Ctx) => Promise<void>) => (ctx: Ctx) => check.unimplementedIsUnsupported(ctx, OPTIONAL, () => body(ctx));

/** A live LIVE_BYTES buffer on the case's device, so that something is in use. */
function liveBuffer(ctx: Ctx): Promise<Buffer> {
  return ctx.client.upload(pattern(dtype('u8'), [LIVE_BYTES]), { dtype: 'u8', dims: [LIVE_BYTES], device: ctx.device });
}

/** `lo` ≤ `hi` when both statistics are set. */
function atMost(s: MemoryStats, lo: string, hi: string, why: string): void {
  const a = s[lo], b = s[hi];
  if (a === undefined || b === undefined) return;
  check.ok(a <= b, `${lo} ≤ ${hi}: ${why}`, `${lo} ≤ ${b}`, `${lo} = ${a}, ${hi} = ${b}`);
}

t.case('amounts_consistent', {
  source: 'header',
  cite: 'PJRT_Device_MemoryStats_Args: "Number of bytes in use", "The peak bytes in use", "The largest single allocation seen", "Number of bytes reserved" / "The peak number of bytes reserved", pool_bytes / peak_pool_bytes — amounts and counts are never negative, a peak is never below the current amount, and the largest allocation was once in use (peak_allocated_bytes, which the header leaves undocumented, is judged by peak_allocated_covers_in_use)',
  catches: ['memory_stats_peak_below_in_use'],
}).run(optional(async (ctx) => {
  const live = await liveBuffer(ctx);
  const s = ctx.device.memoryStats();
  for (const [name, v] of Object.entries(s)) {
    if (v !== undefined) check.ok(v >= 0n, `${SLOT}: ${name} is an amount or a count`, 'a value ≥ 0', `${v}`);
  }
  atMost(s, 'bytesInUse', 'peakBytesInUse', 'the peak bytes in use include the bytes in use now');
  atMost(s, 'largestAllocSize', 'peakBytesInUse', 'the largest single allocation was in use at some point');
  atMost(s, 'bytesReserved', 'peakBytesReserved', 'the peak reservation includes the current one');
  atMost(s, 'poolBytes', 'peakPoolBytes', 'the peak pool size includes the current one');
  live.destroy();
}));

t.case('peak_allocated_covers_in_use', {
  source: 'quality',
  cite: 'PJRT_Device_MemoryStats_Args.peak_allocated_bytes (0.113) has no doc comment in the header; the tsl::AllocatorStats field it reports is the "Peak of reserved and in-use bytes", so a user reading it expects at least the bytes in use now — but XLA\'s GPU client sets peak_allocated_bytes_is_set always while no allocator fills the field (it reads 0 with 1 MiB in use), so this is quality only',
  catches: ['memory_stats_peak_below_in_use'],
}).run(optional(async (ctx) => {
  const live = await liveBuffer(ctx);
  atMost(ctx.device.memoryStats(), 'bytesInUse', 'peakAllocatedBytes', 'the bytes in use now were allocated, so the peak allocated bytes should include them');
  live.destroy();
}));

t.case('in_use_counts_live_buffer', {
  source: 'header',
  cite: 'PJRT_Device_MemoryStats_Args.bytes_in_use: "Number of bytes in use" (the one statistic every implementation returns) — while a 1 MiB buffer lives on the device, at least its bytes are in use there',
  catches: ['memory_stats_in_use_stale'],
}).run(optional(async (ctx) => {
  const live = await liveBuffer(ctx);
  const s = ctx.device.memoryStats();
  check.ok(s.bytesInUse >= BigInt(LIVE_BYTES), `${SLOT}: bytes_in_use must count a live buffer on the device`, `≥ ${LIVE_BYTES}`, `${s.bytesInUse}`);
  live.destroy();
}));

const PEAK_ALLOCATED_SINCE = structDef('PJRT_Device_MemoryStats_Args').fields.find((f) => f.name === 'peak_allocated_bytes')?.since ?? 0;

t.case('older_struct_size_untouched', {
  source: 'header',
  cite: `PJRT_Device_MemoryStats_Args gained peak_allocated_bytes and peak_allocated_bytes_is_set in 0.${PEAK_ALLOCATED_SINCE}; a caller built against an older header passes the struct_size of its struct (PJRT_DEFINE_STRUCT_TRAITS), so the plugin must accept it and write nothing past it`,
  catches: ['misreads_older_struct_size'],
}).run(optional(async (ctx) => {
  const live = await liveBuffer(ctx);
  const full = layoutOf('PJRT_Device_MemoryStats_Args');
  // The older struct ends right after peak_pool_bytes_is_set (PJRT_DEFINE_STRUCT_TRAITS: offsetof + sizeof).
  const end = full.field('peak_pool_bytes_is_set').offset + 1;
  const a = ctx.client.api.args(SLOT, end).ptr('device', ctx.device.ptr);
  const SENTINEL = 0xcd;
  a.buf.fill(SENTINEL, end);
  ctx.client.api.call(SLOT, a);
  const changed = a.buf.subarray(end).findIndex((b) => b !== SENTINEL);
  check.ok(changed < 0, `${SLOT} must not write past the caller's struct_size ${end}`, `bytes ${end}… untouched`, () => `byte ${end + changed} changed`);
  check.ok(a.getI64('bytes_in_use') >= 0n, `${SLOT} through the older struct still reports bytes_in_use`, '≥ 0', `${a.getI64('bytes_in_use')}`);
  live.destroy();
}));

// Totals, capability matrix and the exit code of a run, computed from the final case results.
import { FAILING, NOT_EXECUTED, type CapabilityValue, type CaseResult, type Status } from '../config/results.js';

/** 130: interrupted by SIGINT (128 + 2); 143: terminated by SIGTERM (128 + 15). */
export const EXIT = { ok: 0, gateFailed: 1, usage: 2, internal: 3, interrupted: 130, terminated: 143 } as const;

export function totals(results: readonly CaseResult[]): { byStatus: Record<string, number>; byTier: Record<string, Record<string, number>> } {
  const byStatus: Record<string, number> = {};
  const byTier: Record<string, Record<string, number>> = {};
  for (const r of results) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const t = (byTier[String(r.tier)] ??= {});
    t[r.status] = (t[r.status] ?? 0) + 1;
  }
  return { byStatus, byTier };
}

/** 'row/column' → true; false when a gating case recorded it lacking; 'warn' when only `quality` cases did. */
export function capabilityMatrix(results: readonly CaseResult[]): Record<string, CapabilityValue> {
  const out: Record<string, CapabilityValue> = {};
  const rank = (v: CapabilityValue): number => (v === true ? 0 : v === 'warn' ? 1 : 2);
  for (const r of results) {
    for (const [k, ok] of Object.entries(r.capabilities ?? {})) {
      const v: CapabilityValue = ok ? true : r.source === 'quality' ? 'warn' : false;
      const prev = out[k];
      out[k] = prev === undefined || rank(v) > rank(prev) ? v : prev;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

interface Verdict { code: number; text: string }

/**
 * With a gate: 1 if a case of tier ≤ gate failed, crashed or timed out unwaived, or none of those tiers executed.
 * Without a gate: 1 if any case failed. Interrupted runs: 130.
 */
export function verdict(results: readonly CaseResult[], opts: { gate?: number; interrupted: boolean }): Verdict {
  if (opts.interrupted) return { code: EXIT.interrupted, text: 'interrupted' };
  const inGate = opts.gate === undefined ? results : results.filter((r) => r.tier <= opts.gate!);
  const bad = inGate.filter((r) => FAILING.has(r.status));
  const executed = inGate.filter((r) => !NOT_EXECUTED.has(r.status)).length;
  const label = opts.gate === undefined ? 'run' : `gate tier${opts.gate}`;
  if (bad.length) return { code: EXIT.gateFailed, text: `${label} FAILED: ${bad.length} case(s) failed, crashed or timed out` };
  if (opts.gate !== undefined && executed === 0) return { code: EXIT.gateFailed, text: `${label} FAILED: no case of tiers ≤ ${opts.gate} executed` };
  return { code: EXIT.ok, text: `${label} passed` };
}

export const count = (results: readonly CaseResult[], ...s: Status[]): number => results.filter((r) => s.includes(r.status)).length;

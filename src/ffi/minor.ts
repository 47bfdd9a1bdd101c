// The API minor the CTS speaks: by default the newest its ABI table describes; `run --api-minor N` makes it behave as a
// framework compiled against header 0.N (Args struct sizes and layouts of 0.N, no PJRT_Api slot newer than 0.N).
// Set process-wide before the plugin loads: the parent passes it to its workers as $PJRT_CTS_API_MINOR.
import { API_SLOTS, PJRT_API_MINOR, structDef } from '../abi/index.js';

export const API_MINOR_ENV = 'PJRT_CTS_API_MINOR';
/** The oldest minor the ABI table can describe: its `since` 0 means "present before the changelog began at 0.29". */
export const OLDEST_API_MINOR = 29;

/** Why `n` cannot be spoken, or undefined when it can. */
export function apiMinorProblem(n: number): string | undefined {
  if (!Number.isInteger(n) || n <= 0) return 'expected a positive integer minor, e.g. 100';
  if (n > PJRT_API_MINOR) return `expected a minor ≤ ${PJRT_API_MINOR}, the newest this CTS's ABI table describes`;
  if (n < OLDEST_API_MINOR) return `expected a minor ≥ ${OLDEST_API_MINOR}: the ABI table cannot describe headers older than 0.${OLDEST_API_MINOR}`;
  return undefined;
}

function fromEnv(): number {
  const v = process.env[API_MINOR_ENV];
  if (v === undefined || v === '') return PJRT_API_MINOR;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  const problem = apiMinorProblem(n);
  if (problem) throw new Error(`$${API_MINOR_ENV}=${v}: ${problem}`);
  return n;
}

let spoken: number | undefined;

/** The minor the CTS speaks in this process (read from $PJRT_CTS_API_MINOR on first use). */
export function spokenMinor(): number {
  return (spoken ??= fromEnv());
}

/** Changes the spoken minor (for tests; workers take it from $PJRT_CTS_API_MINOR). Call before the plugin loads. */
export function setSpokenMinor(n: number): void {
  const problem = apiMinorProblem(n);
  if (problem) throw new Error(`API minor ${n}: ${problem}`);
  spoken = n;
}

const SLOT_SINCE = new Map(API_SLOTS.map((s) => [s.name, s.since]));

/** The minor that added a PJRT_Api slot (0: before 0.29). */
export function slotSince(slot: string): number {
  return SLOT_SINCE.get(slot) ?? 0;
}

/** The minor that added a struct's field (searched in anonymous unions too), or undefined when it has none so named. */
export function fieldSince(struct: string, field: string): number | undefined {
  for (const f of structDef(struct).fields) {
    if (f.name === field) return f.since;
    if (f.anonymous) {
      const inner = fieldSince(f.type.trim().replace(/^const\s+/, '').replace(/^struct\s+/, ''), field);
      if (inner !== undefined) return Math.max(inner, f.since);
    }
  }
  return undefined;
}

/** "needs 0.M (the CTS speaks 0.N)". */
export function needsMinor(m: number): string {
  return `needs 0.${m} (the CTS speaks 0.${spokenMinor()})`;
}

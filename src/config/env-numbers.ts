// Every number the CTS reads from its environment, checked in one place: a value that is not a positive integer
// (or, since each is a timer's delay, one above what a timer can wait) is bad input (exit 2 naming the variable),
// never silently replaced by the default.
import { ConfigError } from './errors.js';
import { MAX_TIMER_MS } from './timer.js';

/** The numeric variables a person may set, with what each one is (for the message). */
export const NUMERIC_ENV = {
  PJRT_CTS_PREFLIGHT_TIMEOUT_MS: "the preflight's deadline in ms",
  PJRT_CTS_INFO_TIMEOUT_MS: "info's deadline in ms",
  PJRT_CTS_NODES_WAIT_MS: 'how long the coordinator waits for external nodes, in ms',
} as const;

type NumericEnvName = keyof typeof NUMERIC_ENV;

/** The variable's value, undefined when unset or empty; throws ConfigError when it is not an integer ≥ 1. */
export function envNumber(name: NumericEnvName, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const v = raw.trim();
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_TIMER_MS) {
    throw new ConfigError(`$${name}`, JSON.stringify(raw), `expected ${NUMERIC_ENV[name]}, an integer from 1 to ${MAX_TIMER_MS} (Node's timers cannot wait longer than about 24.8 days)`);
  }
  return Number(v);
}

/** Checks every numeric variable (before any command runs). */
export function checkNumericEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.keys(NUMERIC_ENV) as NumericEnvName[]) envNumber(name, env);
}

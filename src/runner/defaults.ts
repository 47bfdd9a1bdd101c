// The run's default limits (--max-client-failures, --max-call-failures, --warmup-timeout).

/** Default K: client creation crashing or hanging K times in a row stops the run. */
export const DEFAULT_MAX_CLIENT_FAILURES = 3;
/** Default K: another PJRT call crashing or hanging K times in a row blocks the cases that need it. */
export const DEFAULT_MAX_CALL_FAILURES = 3;
/** Default deadline of a worker's warm-up compile (first-use JIT caches may take minutes). */
export const DEFAULT_WARMUP_TIMEOUT_MS = 300_000;

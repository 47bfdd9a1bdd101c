// Ranges of the numeric PJRT_NamedValue kinds: kInt64 (int64_t) and kFloat (a C float). A value outside them would
// reach the plugin as something else (18446744073709551618 as 2, 1e39 as inf), so it is refused where it is written.

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;
/** FLT_MAX: the largest finite float32. */
const MAX_FLOAT32 = 3.4028234663852886e38;

/** Why an integer does not fit a kInt64 value, or undefined when it does. */
export function int64Problem(v: bigint): string | undefined {
  return v < MIN_INT64 || v > MAX_INT64 ? `${v} does not fit in int64 (${MIN_INT64} … ${MAX_INT64})` : undefined;
}

/** Why a finite number does not fit a kFloat value (a C float), or undefined when it does. */
export function float32Problem(v: number): string | undefined {
  return Number.isFinite(v) && Math.abs(v) > MAX_FLOAT32 ? `${v} does not fit in a float (largest ±${MAX_FLOAT32})` : undefined;
}

/** A JSON number that is an integer but beyond 2^53: JSON.parse already changed it, so it must be written as a string. */
export function unsafeIntegerProblem(v: number): string | undefined {
  return Number.isInteger(v) && !Number.isSafeInteger(v) ? `${v} is beyond 2^53 and loses digits as a JSON number: write {"int64": "<digits>"}` : undefined;
}

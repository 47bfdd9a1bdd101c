// Create options as a results file keeps them (JSON) back to named values: whole numbers are int64, other numbers
// float, arrays int64 lists (the types the CTS passed; a float that happened to be whole reads back as an int64).
import type { NamedValue } from '../config/named-value.js';

export function namedValueOfJson(v: string | number | boolean | (string | number)[]): NamedValue {
  if (Array.isArray(v)) return v.map((x) => BigInt(x));
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  return v;
}

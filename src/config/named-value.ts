// Create-option values as the object model takes them (src/pjrt NamedValue), converted from plugins.json spelling.
import type { CreateOptionValue } from './plugins.js';

export type NamedValue = string | bigint | number | boolean | bigint[];
export type NamedValues = Record<string, NamedValue>;

export function fromJson(v: CreateOptionValue): NamedValue {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map((x) => BigInt(x));
  if (typeof v === 'object') return 'float' in v ? v.float : BigInt(v.int64);
  return v;
}

/**
 * The plugins.json spelling of a value, which fromJson reads back as the same NamedValue type: a float stays a float
 * ({"float": 1} for an integral one), an int64 outside JSON's exact range is a string ({"int64": "…"}). For passing
 * create options through JSON (a tier-3 node's argv, an etcd task), where a type must not change on the way.
 */
export function toWire(v: NamedValue): CreateOptionValue {
  const exact = (b: bigint): boolean => b <= BigInt(Number.MAX_SAFE_INTEGER) && b >= BigInt(Number.MIN_SAFE_INTEGER);
  if (typeof v === 'bigint') return exact(v) ? Number(v) : { int64: v.toString() };
  if (typeof v === 'number') return Number.isInteger(v) ? { float: v } : v;
  if (Array.isArray(v)) return v.map((b) => Number(b));
  return v;
}

/** JSON-safe rendering (bigint → number when exact, else string) for reports. */
export function toJsonValue(v: NamedValue): string | number | boolean | (string | number)[] {
  const one = (b: bigint): string | number => (b <= BigInt(Number.MAX_SAFE_INTEGER) && b >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(b) : b.toString());
  if (typeof v === 'bigint') return one(v);
  if (Array.isArray(v)) return v.map(one);
  return v;
}

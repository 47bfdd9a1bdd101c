// `--create-option k=v` strings → PJRT_NamedValue values. Types are inferred (123 → int64, 1.5 → float,
// true/false → bool, [1,2] → int64 list, anything else → string) or given: k:string=…, k:int64=…, k:float=…,
// k:bool=…, k:int64list=….
import type { NamedValue, NamedValues } from '../ffi/index.js';
import { float32Problem, int64Problem } from '../config/int64.js';

export class CreateOptionError extends Error {
  override readonly name = 'CreateOptionError';
}

const CREATE_OPTION_TYPES = ['string', 'int64', 'float', 'bool', 'int64list'] as const;

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const SPECIAL_FLOAT = /^[+-]?(inf|infinity|nan)$/i;

function int64(raw: string, spec: string): bigint {
  const t = raw.trim();
  if (!INT.test(t)) throw new CreateOptionError(`create option '${spec}': '${raw}' is not an integer`);
  const v = BigInt(t);
  const problem = int64Problem(v);
  if (problem) throw new CreateOptionError(`create option '${spec}': ${problem}`);
  return v;
}

function float(raw: string, spec: string): number {
  const t = raw.trim();
  if (SPECIAL_FLOAT.test(t)) {
    const neg = t.startsWith('-');
    return /nan/i.test(t) ? NaN : neg ? -Infinity : Infinity;
  }
  if (!FLOAT.test(t)) throw new CreateOptionError(`create option '${spec}': '${raw}' is not a number`);
  return checkedFloat(Number(t), spec);
}

function checkedFloat(v: number, spec: string): number {
  const problem = float32Problem(v) ?? (Number.isFinite(v) ? undefined : `${v} is not finite (write inf or nan for those)`);
  if (problem) throw new CreateOptionError(`create option '${spec}': ${problem}`);
  return v;
}

function bool(raw: string, spec: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new CreateOptionError(`create option '${spec}': '${raw}' is not true or false`);
}

function int64list(raw: string, spec: string): bigint[] {
  const t = raw.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) {
    throw new CreateOptionError(`create option '${spec}': '${raw}' is not a list like [1,2,3]`);
  }
  const body = t.slice(1, -1).trim();
  return body === '' ? [] : body.split(',').map((x) => int64(x, spec));
}

function typed(type: string, raw: string, spec: string): NamedValue {
  switch (type) {
    case 'string': return raw;
    case 'int64': return int64(raw, spec);
    case 'float': return float(raw, spec);
    case 'bool': return bool(raw, spec);
    case 'int64list': return int64list(raw, spec);
    default:
      throw new CreateOptionError(`create option '${spec}': unknown type '${type}' (use ${CREATE_OPTION_TYPES.join(', ')})`);
  }
}

function inferred(raw: string, spec: string): NamedValue {
  if (INT.test(raw)) return int64(raw, spec);
  if (FLOAT.test(raw)) return checkedFloat(Number(raw), spec);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw.startsWith('[') && raw.endsWith(']')) return int64list(raw, spec);
  return raw;
}

/** One `k=v` / `k:type=v` string → [name, value]. */
export function parseCreateOption(spec: string): [string, NamedValue] {
  const eq = spec.indexOf('=');
  if (eq < 0) throw new CreateOptionError(`create option '${spec}': expected key=value or key:type=value`);
  const lhs = spec.slice(0, eq);
  const raw = spec.slice(eq + 1);
  const colon = lhs.indexOf(':');
  const name = (colon < 0 ? lhs : lhs.slice(0, colon)).trim();
  if (name === '') throw new CreateOptionError(`create option '${spec}': empty key`);
  if (colon < 0) return [name, inferred(raw, spec)];
  return [name, typed(lhs.slice(colon + 1).trim(), raw, spec)];
}

/** Several options; a repeated key is an error. */
export function parseCreateOptions(specs: readonly string[]): NamedValues {
  const out: NamedValues = {};
  for (const s of specs) {
    const [k, v] = parseCreateOption(s);
    if (Object.prototype.hasOwnProperty.call(out, k)) throw new CreateOptionError(`create option '${k}' given twice`);
    out[k] = v;
  }
  return out;
}

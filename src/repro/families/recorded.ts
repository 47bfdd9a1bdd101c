// Reading a case's recorded calls (src/ffi/call-log.ts) for the C families: the calls of a slot, a nested field, a
// byte string's bytes and how they were placed, and the C declarations of recorded data.
import type { LogLine, LoggedBytes, LoggedValue } from '../../ffi/call-log.js';
import { cBytes, cString } from '../c-program.js';

export type CallLine = Extract<LogLine, { at: 'call' }>;

export interface FamilyInput {
  id: string;
  /** the case's own calls, recorded (call lines only, in order; not its worker's setup) */
  calls: readonly CallLine[];
}

/** What a family writes into repro.c, and what it reproduces in words (the README's first line). */
export interface CBody { declarations: string; body: string; shows: string; variants?: { flag: string; what: string }[] }

export interface Family {
  name: string;
  /** id globs of the cases it reproduces */
  covers: readonly string[];
  build(input: FamilyInput): CBody | string;
}

const isBytes = (v: LoggedValue | undefined): v is LoggedBytes => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as LoggedBytes).size === 'number';

/** The bytes of a recorded byte string (undefined when it was not recorded whole). */
export function bytesOf(v: LoggedValue | undefined): Uint8Array | undefined {
  if (!isBytes(v)) return undefined;
  const b = v.text !== undefined ? Buffer.from(v.text, 'utf8') : Buffer.from(v.hex ?? '', 'hex');
  return b.length === v.size ? new Uint8Array(b) : undefined;
}

/** How a recorded byte string was placed, as the C runtime's enum Placement names it. */
export function placementOf(v: LoggedValue | undefined): 'TERMINATED' | 'UNTERMINATED' | 'GUARD_AFTER_CODE' | 'GUARD_AFTER_NUL' {
  if (!isBytes(v)) return 'TERMINATED';
  if (v.guard === 'after_code') return 'GUARD_AFTER_CODE';
  if (v.guard === 'after_nul') return 'GUARD_AFTER_NUL';
  return v.nul ? 'TERMINATED' : 'UNTERMINATED';
}

/** Words for a placement, as a README says it. */
export const PLACEMENT_WORDS: Readonly<Record<ReturnType<typeof placementOf>, string>> = {
  TERMINATED: 'followed by a NUL (as a std::string holds them)',
  UNTERMINATED: 'not NUL-terminated',
  GUARD_AFTER_CODE: 'right before an unreadable page (exactly code_size readable bytes)',
  GUARD_AFTER_NUL: 'followed by a NUL and then an unreadable page',
};

export const field = (o: LoggedValue | undefined, k: string): LoggedValue | undefined =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, LoggedValue>)[k] : undefined;

/** The `back`-th last recorded call of `slot`. */
export const lastCall = (input: FamilyInput, slot: string, back = 0): CallLine | undefined => input.calls.filter((c) => c.slot === slot).at(-1 - back);

export const dataArray = (name: string, b: Uint8Array): string => `static const unsigned char ${name}[${Math.max(b.length, 1)}] = ${b.length ? cBytes(b) : '{ 0 }'};`;

/**
 * A C comment holding a byte string's text, line by line (a program's StableHLO as the case sent it, cut where the case
 * cut it), so a reader sees what the data array below it holds; undefined when the bytes are no text (an artifact).
 */
export function textComment(what: string, b: Uint8Array): string | undefined {
  const text = Buffer.from(b).toString('utf8');
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return undefined;
  const lines = text.replace(/\*\//g, '* /').split('\n');
  return `/* ${what} (${b.length} bytes), as text:\n${lines.map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */`;
}

/** A recorded byte string as a C `Bytes` (data array and placement): the declaration, and the expression. */
export function bytesDecl(name: string, v: LoggedValue | undefined): { decl: string; expr: string } | undefined {
  const b = bytesOf(v);
  if (!b) return undefined;
  return { decl: dataArray(name, b), expr: `(Bytes){ ${name}, ${b.length}, ${placementOf(v)} }` };
}

export { cString };

/**
 * A recorded PJRT_NamedValue list (`[{name: value}, …]`, src/ffi/call-log.ts: a float as `{float: x}`) as a C array
 * `name` and its length; undefined when it is no such list.
 */
export function namedValuesDecl(name: string, v: LoggedValue | undefined): { decl: string; count: number } | undefined {
  if (v === null) return { decl: '', count: 0 };
  if (!Array.isArray(v)) return undefined;
  const inits: string[] = [];
  const lists: string[] = [];
  for (const [k, entry] of v.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    const pairs = Object.entries(entry) as [string, LoggedValue][];
    if (pairs.length !== 1) return undefined;
    const [[key, val]] = pairs as [[string, LoggedValue]];
    const head = `{ .struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = ${cString(key)}, .name_size = ${Buffer.byteLength(key)}`;
    const float = field(val, 'float');
    if (typeof float === 'number') inits.push(`${head}, .type = PJRT_NamedValue_kFloat, .float_value = ${float}f, .value_size = 1 }`);
    else if (typeof val === 'number') inits.push(`${head}, .type = PJRT_NamedValue_kInt64, .int64_value = ${val}LL, .value_size = 1 }`);
    else if (typeof val === 'boolean') inits.push(`${head}, .type = PJRT_NamedValue_kBool, .bool_value = ${val}, .value_size = 1 }`);
    else if (typeof val === 'string') inits.push(`${head}, .type = PJRT_NamedValue_kString, .string_value = ${cString(val)}, .value_size = ${Buffer.byteLength(val)} }`);
    else if (Array.isArray(val) && val.every((x) => typeof x === 'number')) {
      lists.push(`static const int64_t ${name}_list_${k}[] = { ${val.map((x) => `${x}LL`).join(', ') || '0'} };`);
      inits.push(`${head}, .type = PJRT_NamedValue_kInt64List, .int64_array_value = ${name}_list_${k}, .value_size = ${val.length} }`);
    } else return undefined;
  }
  return { decl: [...lists, `static const PJRT_NamedValue ${name}[${Math.max(inits.length, 1)}] = {\n${inits.map((i) => `  ${i},`).join('\n') || '  { 0 },'}\n};`].join('\n'), count: inits.length };
}

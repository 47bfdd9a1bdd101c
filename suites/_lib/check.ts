// Assertions for suite files. Every failure says what was expected, what came back and which API rule it breaks.
import { ERROR_CODES, codeName, isPjrtError, isUnsupported, type PjrtErrorLike } from './errors.js';

/**
 * A rule a check enforces: its text (shown to people, may carry values) or the text with an explicit stable key
 * (for a check whose text starts with values the key cannot be derived from, e.g. a program's name).
 */
type Rule = string | { key: string; text: string };

const PJRT_FUNCTION = /PJRT_[A-Za-z]+(?:_[A-Za-z0-9]+)*/;

/**
 * The stable key of a rule text: the first PJRT function it names plus the property it states, with values
 * (numbers, dtypes, quoted strings, parenthesised detail) left out, e.g.
 * `PJRT_Client_BufferFromHostBuffer:host-device-host-must-be-bit-exact`. Failures group by it.
 */
function ruleKey(rule: Rule): string {
  if (typeof rule !== 'string') return rule.key;
  const fn = PJRT_FUNCTION.exec(rule)?.[0] ?? 'check';
  let text = rule.replace(/"[^"]*"|`[^`]*`|(?<![A-Za-z])'[^']*'/g, ' ');
  for (let prev = ''; prev !== text;) {
    prev = text;
    text = text.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ');
  }
  const words = text.replace(new RegExp(PJRT_FUNCTION.source, 'g'), ' ').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !/\d/.test(w));
  return `${fn}:${words.slice(0, 8).join('-') || 'check'}`;
}

const ruleText = (rule: Rule): string => (typeof rule === 'string' ? rule : rule.text);

export class ConformanceFailure extends Error {
  /** The stable key of the rule (ruleKey): failures of one rule group together whatever their values. */
  readonly key: string;
  readonly rule: string;
  constructor(
    rule: Rule,
    readonly expected: string,
    readonly actual: string,
    cause?: unknown,
  ) {
    super(`${ruleText(rule)}: expected ${expected}, got ${actual}`, cause === undefined ? undefined : { cause });
    this.name = 'ConformanceFailure';
    this.rule = ruleText(rule);
    this.key = ruleKey(rule);
  }
}

/** An object-model handle (Buffer, Event, LoadedExecutable, …) shown by its class, never by its fields. */
function handleName(x: unknown): string | undefined {
  if (!x || typeof x !== 'object' || !('ptr' in x) || !('api' in x)) return undefined;
  return `<${(x as { constructor: { name: string } }).constructor.name}>`;
}

export function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  const h = handleName(v);
  if (h) return h;
  try {
    const s = JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? `<${x.length} bytes>` : (handleName(x) ?? x));
    return s === undefined ? String(v) : s.length > 200 ? `${s.slice(0, 200)}…` : s;
  } catch {
    return String(v);
  }
}

export function fail(rule: Rule, expected: string, actual: string, cause?: unknown): never {
  throw new ConformanceFailure(rule, expected, actual, cause);
}

export function ok(cond: boolean, rule: Rule, expected: string, actual: string | (() => string)): asserts cond {
  if (!cond) fail(rule, expected, typeof actual === 'function' ? actual() : actual);
}

/**
 * Every promise's outcome once all have settled, or a failure naming how many had not settled after `ms` (a wait the
 * plugin must end: a callback never called, an await that never returns). The case's own timeout stays the outer bound.
 */
export async function allSettleWithin<T>(ps: readonly Promise<T>[], ms: number, rule: Rule): Promise<PromiseSettledResult<T>[]> {
  let settled = 0;
  const all = Promise.allSettled(ps.map((p) => p.finally(() => void settled++)));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), ms); });
  try {
    const r = await Promise.race([all, late]);
    if (r === 'late') fail(rule, `all ${ps.length} settled within ${ms} ms`, `${ps.length - settled} of ${ps.length} had not`);
    return r;
  } finally {
    clearTimeout(timer);
  }
}

export function equal<T>(actual: T, expected: T, rule: Rule): void {
  if (!deepEqual(actual, expected)) fail(rule, show(expected), show(actual));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint') return typeof a === typeof b && a === b;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return firstDiff(a, b) < 0;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return deepEqual(ka, kb) && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

function firstDiff(a: Uint8Array, b: Uint8Array): number {
  // Equal arrays (the usual case, up to hundreds of MiB) are told by memcmp; the loop only looks for the place.
  if (a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length))) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

const hex = (b: Uint8Array, at: number) =>
  Array.from(b.subarray(Math.max(0, at - 4), at + 8), (x) => x.toString(16).padStart(2, '0')).join(' ');

/** Bit-exact comparison with the first differing byte in the message. */
export function bytes(actual: Uint8Array, expected: Uint8Array, rule: Rule): void {
  const at = firstDiff(actual, expected);
  if (at < 0) return;
  if (actual.length !== expected.length) fail(rule, `${expected.length} bytes`, `${actual.length} bytes`);
  fail(rule, `byte ${at} = 0x${expected[at]!.toString(16)} (…${hex(expected, at)}…)`, `0x${actual[at]!.toString(16)} (…${hex(actual, at)}…)`);
}

export function unique<T>(xs: readonly T[], rule: string, what: string): void {
  const seen = new Set<T>();
  for (const x of xs) {
    if (seen.has(x)) fail(rule, `unique ${what}`, `${show(x)} twice in ${show(xs)}`);
    seen.add(x);
  }
}

export function nonEmptyString(s: unknown, rule: string): void {
  ok(typeof s === 'string' && s.length > 0, rule, 'a non-empty string', show(s));
}

/**
 * Runs `f` and requires a PJRT error (optionally one of `codes`). An UnsupportedError passes through
 * (the slot is absent: the harness reports `unsupported`). Returns the error for further checks.
 */
export async function rejects(
  f: () => unknown,
  rule: string,
  codes?: readonly string[],
): Promise<PjrtErrorLike> {
  let result: unknown;
  try {
    result = await f();
  } catch (e) {
    if (isUnsupported(e)) throw e;
    if (!isPjrtError(e)) throw e;
    checkErrorShape(e, rule);
    if (codes && !codes.includes(e.codeName)) fail(rule, `error code ${codes.join(' or ')}`, `${e.codeName} ("${e.message}")`);
    return e;
  }
  fail(rule, codes ? `an error (${codes.join(' or ')})` : 'an error', `success (${show(result)})`);
}

/** Every PJRT_Error must carry a code in range and a non-empty message. */
function checkErrorShape(e: PjrtErrorLike, rule: string): void {
  ok(e.code > 0 && e.code < ERROR_CODES.length, { key: 'PJRT_Error_GetCode:a-code-other-than-ok', text: `${rule} (PJRT_Error_GetCode must return a PJRT_Error_Code other than OK)` }, 'a code in 1..16', `${e.code}`);
  ok(e.message.length > 0, { key: 'PJRT_Error_Message:describes-the-error', text: `${rule} (PJRT_Error_Message must describe the error)` }, 'a non-empty message', `"" (code ${codeName(e.code)})`);
}

/** Accept success or a clean PJRT error; anything else propagates. Returns the error if there was one. */
export async function okOrCleanError<T>(f: () => Promise<T> | T, rule: string): Promise<{ value?: T; error?: PjrtErrorLike }> {
  try {
    return { value: await f() };
  } catch (e) {
    if (!isPjrtError(e)) throw e;
    checkErrorShape(e, rule);
    return { error: e };
  }
}

/**
 * The positive control of a negative check: the same call must succeed on valid input, in the same state, before
 * an error from the invalid call can count. A control that fails ends the case as a failure of the control.
 */
export async function control<T>(what: string, f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (isUnsupported(e)) throw e;
    const got = isPjrtError(e) ? `${e.codeName} "${e.message}" from ${e.slot}` : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    fail(`positive control failed (${what}), so the negative check that follows cannot be judged`, 'success on valid input', got, e);
  }
}

/**
 * Runs `f`; an UNIMPLEMENTED error from a slot whose doc comment lets a platform leave it unimplemented becomes
 * `unsupported` with the plugin's message (`why` says which doc sentence allows it). Other errors propagate. (d3)
 */
export async function unimplementedIsUnsupported<T>(ctx: { unsupported(reason: string): never }, why: string, f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (e) {
    // A positive control that failed carries the slot's error as its cause: UNIMPLEMENTED there is the same answer.
    const err = e instanceof ConformanceFailure && isPjrtError(e.cause) ? e.cause : e;
    if (isPjrtError(err) && err.codeName === 'UNIMPLEMENTED') ctx.unsupported(`${err.slot} returned UNIMPLEMENTED ("${err.message}"): ${why}`);
    throw e;
  }
}

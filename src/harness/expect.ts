// Assertions for case bodies. Each failure message says what was checked, what was expected and what came back.
import { isDeepStrictEqual, inspect } from 'node:util';
import { isPjrtError, type PjrtErrorLike } from './signals.js';

export class ExpectationFailure extends Error {
  override readonly name = 'ExpectationFailure';
}

const show = (v: unknown): string => inspect(v, { depth: 4, maxArrayLength: 16, breakLength: Infinity });
const hex = (b: Uint8Array, from: number, to: number): string =>
  [...b.subarray(Math.max(0, from), Math.min(b.length, to))].map((x) => x.toString(16).padStart(2, '0')).join(' ');

function fail(what: string | undefined, detail: string): never {
  throw new ExpectationFailure(what ? `${what}: ${detail}` : detail);
}

function ok(cond: unknown, what: string): void {
  if (!cond) fail(what, 'expected true, got false');
}

function equal<T>(actual: T, expected: T, what?: string): void {
  if (!isDeepStrictEqual(actual, expected)) fail(what, `expected ${show(expected)}, got ${show(actual)}`);
}

/** Bit-exact equality; reports the first differing byte and the bytes around it. */
function bytes(actual: Uint8Array, expected: Uint8Array, what?: string): void {
  const n = Math.min(actual.length, expected.length);
  let i = 0;
  while (i < n && actual[i] === expected[i]) i++;
  if (i === n && actual.length === expected.length) return;
  const len = actual.length !== expected.length ? `length ${actual.length} (expected ${expected.length}); ` : '';
  if (i === n) fail(what, `${len}the first ${n} bytes agree`);
  fail(what, `${len}first difference at byte ${i}: expected ${hex(expected, i, i + 1)}, got ${hex(actual, i, i + 1)} ` +
    `(expected [${hex(expected, i - 4, i + 8)}], got [${hex(actual, i - 4, i + 8)}] from byte ${Math.max(0, i - 4)})`);
}

export interface Tolerance { abs?: number; rel?: number }

/** Element-wise |a-e| ≤ abs + rel·|e|; NaN matches NaN, infinities must match exactly. */
function near(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: Tolerance = {}, what?: string): void {
  if (actual.length !== expected.length) fail(what, `expected ${expected.length} elements, got ${actual.length}`);
  const abs = tol.abs ?? 0;
  const rel = tol.rel ?? 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i] as number;
    const e = expected[i] as number;
    if (Number.isNaN(e) ? Number.isNaN(a) : !Number.isFinite(e) ? a === e : Math.abs(a - e) <= abs + rel * Math.abs(e)) continue;
    fail(what, `element ${i}: expected ${e} (±${abs}${rel ? ` +${rel}·|e|` : ''}), got ${a}`);
  }
}

/**
 * The call (a promise or a function returning a value or promise) must fail with a PjrtError of the given code name(s).
 * Other errors propagate unchanged (an UnsupportedError still makes the case `unsupported`). Returns the error.
 */
async function pjrtError(call: Promise<unknown> | (() => unknown), code: string | readonly string[], what?: string): Promise<PjrtErrorLike> {
  const codes = typeof code === 'string' ? [code] : code;
  let result: unknown;
  try {
    result = await (typeof call === 'function' ? call() : call);
  } catch (e) {
    if (!isPjrtError(e)) throw e;
    if (!codes.includes(e.codeName)) fail(what, `expected a PJRT error ${codes.join(' or ')}, got ${e.codeName} from ${e.slot}: "${e.message}"`);
    return e;
  }
  const destroy = (result as { destroy?: () => unknown } | null)?.destroy;
  if (typeof destroy === 'function') await destroy.call(result);
  return fail(what, `expected a PJRT error ${codes.join(' or ')}, but the call succeeded`);
}

export const expect = { ok, equal, bytes, near, pjrtError, fail: (what: string, detail: string): never => fail(what, detail) };

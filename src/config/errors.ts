// Errors in a person's input (CLI flags, plugins.json, expectations files). One line each: file, JSON path, what was expected.
import type { z } from 'zod';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly expected: string,
  ) {
    // An empty part is left out: `cannot read FILE: no such file (ENOENT)` has no JSON path.
    super([file, jsonPath, expected].filter((x) => x !== '').join(': ').replace(/\s*\n\s*/g, ' '));
  }
}

/** `$.plugins.cuda.library` from zod's path segments. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

type Issue = z.core.$ZodIssue;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const seg of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg as string] : undefined;
  return v;
}

/** What a person wrote, briefly: `number 5`, `string "pass"`, `an object {"bad":1}`. */
function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'number' && !Number.isFinite(v)) return `number ${v}`;
  const json = JSON.stringify(v) ?? String(v);
  const short = json.length > 60 ? `${json.slice(0, 57)}...` : json;
  if (Array.isArray(v)) return `an array ${short}`;
  if (typeof v === 'object') return `an object ${short}`;
  return `${typeof v} ${short}`;
}

/** A required key of an object alternative is absent (so the value simply has another shape). */
const missingKey = (i: Issue): boolean =>
  i.path.length === 1 && typeof i.path[0] === 'string' && ((i.code === 'invalid_type' && /received undefined/.test(i.message)) || i.code === 'invalid_union');

/** The alternatives of a union, nested unions flattened. */
function branches(i: Issue): Issue[][] {
  if (i.code !== 'invalid_union') return [[i]];
  return (i.errors as Issue[][]).flatMap((b) => (b.length === 1 && b[0]!.code === 'invalid_union' && b[0]!.path.length === 0 ? branches(b[0]!) : [b]));
}

/** A branch that got past the value's own type: its first issue lies deeper and is not a shape mismatch. */
function progress(b: Issue[]): number {
  const first = b[0];
  if (!first || first.path.length === 0) return 0;
  if (b.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0) || b.every(missingKey)) return 0;
  return first.path.length;
}

function expectedOf(b: Issue[]): string {
  const first = b[0]!;
  if (b.some(missingKey)) return `{${b.filter(missingKey).map((i) => `"${String(i.path[0])}": …`).join(', ')}}`;
  if (first.code === 'invalid_type') return String(first.expected);
  if (first.code === 'invalid_value') return first.values.map((v) => JSON.stringify(v)).join(' | ');
  return first.message;
}

/**
 * One issue as (JSON path, what was expected and what was found). Unions, which zod reports as "Invalid input",
 * become the list of what would have been accepted, or the problem in the alternative that came closest.
 */
function describeIssue(issue: Issue, input: unknown, base: readonly PropertyKey[] = []): { path: PropertyKey[]; text: string } {
  const path = [...base, ...issue.path];
  const value = valueAt(input, path);
  // JSON has no Infinity or NaN, but a number beyond a double's range (1e999) parses as Infinity: no type is wrong.
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return { path, text: `expected a finite number; got ${value}${Number.isNaN(value) ? '' : ' (a number beyond ±1.8e308, such as 1e999, reads as Infinity)'}` };
  }
  const got = describeValue(value);
  if (issue.code === 'invalid_union') {
    const bs = branches(issue).filter((b) => b.length);
    const best = bs.reduce<Issue[] | undefined>((a, b) => (progress(b) > (a ? progress(a) : 0) ? b : a), undefined);
    if (best) return describeIssue(best[0]!, input, path);
    const alts = [...new Set(bs.map(expectedOf))];
    return { path, text: `expected ${alts.length > 1 ? `one of: ${alts.join(', ')}` : alts[0] ?? 'a valid value'}; got ${got}` };
  }
  if (issue.code === 'invalid_type') return { path, text: `expected ${issue.expected}; got ${got}` };
  if (issue.code === 'unrecognized_keys') {
    return { path, text: `expected no key ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} here (unknown key${issue.keys.length > 1 ? 's' : ''}; see the schema)` };
  }
  if (issue.code === 'invalid_value') return { path, text: `expected ${issue.values.length > 1 ? 'one of ' : ''}${issue.values.map((v) => JSON.stringify(v)).join(', ')}; got ${got}` };
  if (issue.code === 'invalid_key') {
    const inner = (issue.issues[0]?.message ?? 'a valid key').replace(/^Invalid input: /, '');
    return { path, text: `${/^expected\b/.test(inner) ? inner : `expected ${inner}`} as the key; got ${JSON.stringify(String(path.at(-1)))}` };
  }
  const msg = issue.message.replace(/^Invalid input: /, '').replace(/^Invalid string: must match pattern (.*)$/, 'expected a string matching $1');
  return { path, text: /^expected\b/i.test(msg) ? `${msg}; got ${got}` : `${msg} (got ${got})` };
}

/** The first zod issue as a ConfigError (the first is what a person fixes first; the rest follow on the next run). */
export function fromZod(file: string, error: z.ZodError, input?: unknown): ConfigError {
  const issue = error.issues[0];
  if (!issue) return new ConfigError(file, '$', 'invalid');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  const d = describeIssue(issue, input);
  return new ConfigError(file, jsonPath(d.path), d.text + more);
}

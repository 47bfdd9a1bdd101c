// Reads a JSON input file and validates it with a zod schema; every problem becomes a one-line ConfigError.
import type { z } from 'zod';
import { ConfigError, fromZod, jsonPath } from './errors.js';
import { readRegularFile } from './read-file.js';

/**
 * How deep a JSON input may nest. JSON.parse takes any depth, but what reads the value afterwards (the schemas'
 * validation, messages quoting it) recurses through it and would run out of stack; the inputs the CTS reads nest
 * about ten levels.
 */
export const MAX_JSON_DEPTH = 100;

/** The JSON path of the first value nested deeper than MAX_JSON_DEPTH (cut after a few segments), or undefined. */
function tooDeep(value: unknown): string | undefined {
  const stack: { v: unknown; path: PropertyKey[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH) return `${jsonPath(path.slice(0, 8))}…`;
    for (const [k, child] of Object.entries(v)) stack.push({ v: child, path: [...path, Array.isArray(v) ? Number(k) : k] });
  }
  return undefined;
}

/** JSON.parse of a person's file (a byte order mark allowed), refusing what is too deep to read; `where` names it in errors. */
export function parseJsonText(text: string, file: string, where = '$'): unknown {
  let v: unknown;
  try {
    // A UTF-8 byte order mark (Windows editors write one) is not part of the JSON.
    v = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (e) {
    throw new ConfigError(file, where, `expected JSON: ${(e as Error).message}`);
  }
  return checkDepth(v, file, where);
}

/** Why a parsed JSON value is too deep to read ("expected JSON nested at most …"), or undefined. */
export function jsonTooDeep(v: unknown): string | undefined {
  const deep = tooDeep(v);
  return deep ? `expected JSON nested at most ${MAX_JSON_DEPTH} levels deep; ${deep} is deeper` : undefined;
}

/** `v`, or a ConfigError when it nests deeper than MAX_JSON_DEPTH. */
export function checkDepth<T>(v: T, file: string, where = '$'): T {
  const deep = jsonTooDeep(v);
  if (deep) throw new ConfigError(file, where, deep);
  return v;
}

export function readJson(file: string): unknown {
  return parseJsonText(readInputFile(file, 'a JSON file'), file);
}

/** The text of an input file; a ConfigError (one line) for a missing or unreadable one, or one that is not a regular file. */
export function readInputFile(file: string, expected: string): string {
  const r = readRegularFile(file);
  if ('text' in r) return r.text;
  if (r.notRegular) throw new ConfigError(file, '$', `expected ${expected}, but it is ${r.notRegular}`);
  throw new ConfigError(`cannot read ${file}`, '', r.problem);
}

export function loadJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  const input = readJson(file);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw fromZod(file, parsed.error, input);
  return parsed.data;
}

// Reads a JSON input file and validates it with a zod schema; every problem becomes a one-line ConfigError.
import { readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, fromZod } from './errors.js';

export function readJson(file: string): unknown {
  let text: string;
  try {
    // Not a regular file (a FIFO, a device, a directory): reading it could block forever or mean nothing.
    const st = statSync(file);
    if (!st.isFile()) throw new ConfigError(file, '$', `expected a JSON file, but it is ${st.isDirectory() ? 'a directory' : 'not a regular file'}`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(file, '$', `cannot read the file (${code})`);
  }
  try {
    // A UTF-8 byte order mark (Windows editors write one) is not part of the JSON.
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (e) {
    throw new ConfigError(file, '$', `expected JSON: ${(e as Error).message}`);
  }
}

export function loadJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  const input = readJson(file);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw fromZod(file, parsed.error, input);
  return parsed.data;
}

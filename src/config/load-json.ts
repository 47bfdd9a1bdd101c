// Reads a JSON input file and validates it with a zod schema; every problem becomes a one-line ConfigError.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, fromZod } from './errors.js';

export function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(file, '$', `cannot read the file (${code})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ConfigError(file, '$', `expected JSON: ${(e as Error).message}`);
  }
}

export function loadJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  const parsed = schema.safeParse(readJson(file));
  if (!parsed.success) throw fromZod(file, parsed.error);
  return parsed.data;
}

// Errors in a person's input (CLI flags, plugins.json, expectations files). One line each: file, JSON path, what was expected.
import type { z } from 'zod';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly expected: string,
  ) {
    super(`${file}: ${jsonPath}: ${expected}`.replace(/\s*\n\s*/g, ' '));
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

/** The first zod issue as a ConfigError (the first is what a person fixes first; the rest follow on the next run). */
export function fromZod(file: string, error: z.ZodError): ConfigError {
  const issue = error.issues[0];
  if (!issue) return new ConfigError(file, '$', 'invalid');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  return new ConfigError(file, jsonPath(issue.path), issue.message + more);
}

// Imports compiled suite files in a deterministic order (sorted relative paths; folders starting with '_' hold
// helpers, not suites, and are left to the suites that import them). A worker imports only the files it needs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROGRAMS_ENV } from '../harness/programs.js';
import { setCurrentFile } from '../harness/registry.js';

/** Relative paths ('tier0/api.js'), sorted. */
export function suiteFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !e.name.startsWith('_')) walk(r);
      else if (e.isFile() && e.name.endsWith('.js')) out.push(r);
    }
  };
  walk('');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** only: the relative paths to import (all when undefined). */
export async function loadSuites(dir: string, programs?: string, only?: readonly string[]): Promise<void> {
  const want = only ? new Set(only) : undefined;
  if (programs) process.env[PROGRAMS_ENV] = programs;
  for (const rel of suiteFiles(dir)) {
    if (want && !want.has(rel)) continue;
    setCurrentFile(rel);
    try {
      await import(pathToFileURL(path.join(dir, rel)).href);
    } finally {
      setCurrentFile(undefined);
    }
  }
}

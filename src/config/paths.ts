// Locations inside the installed package (works from src/ via tsx and from dist/ alike).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The directory holding pjrt-cts's package.json. */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj) && (JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'pjrt-cts') return (root = dir);
    const up = path.dirname(dir);
    if (up === dir) throw new Error('pjrt-cts: package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

export function ctsVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** Compiled suites: dist/suites, or the directory named by PJRT_CTS_SUITES (the project's own tests use fake suites). */
export function suitesDir(): string {
  const env = process.env['PJRT_CTS_SUITES'];
  return env ? path.resolve(env) : path.join(packageRoot(), 'dist', 'suites');
}

export function workerEntry(): string {
  return fileURLToPath(new URL('../worker/worker.js', import.meta.url));
}

// Output paths (--junit, --json, its .jsonl stream, --write-expectations, schema --out) are checked before anything
// runs: a report that cannot be written must not cost a vendor a whole run and then end in "internal error".
// Never `mkdirSync(…, { recursive: true })` on a person's path: on some file systems (/proc) Node's recursive
// mkdir loops forever. Directories are created one level at a time, and every failure is a one-line ConfigError.
import { closeSync, mkdirSync, openSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { tempPathFor } from './atomic-write.js';

const why = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

function kind(p: string): 'dir' | 'file' | 'other' | 'denied' | undefined {
  try {
    const s = statSync(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EACCES' || code === 'EPERM') return 'denied';
    return 'other';
  }
}

/** Creates `dir` and its missing parents one level at a time (returned, outermost first). `flag` names the option in errors. */
export function ensureDir(dir: string, flag: string): string[] {
  const abs = path.resolve(dir);
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    const k = kind(cur);
    if (k === 'dir') break;
    if (k === 'denied') throw new ConfigError(flag, dir, `cannot access ${cur} (permission denied)`);
    if (k === 'file' || k === 'other') {
      throw new ConfigError(flag, dir, cur === abs ? `expected a directory, but ${cur} is not one` : `expected a directory path, but ${cur} is a file, not a directory`);
    }
    missing.unshift(cur);
    const up = path.dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  const made: string[] = [];
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && kind(d) === 'dir') continue;
      removeMade(made);
      throw new ConfigError(flag, dir, `cannot create the directory ${d} (${why(e)})`);
    }
  }
  return made;
}

/** Removes directories ensureDir made (still empty), innermost first. */
function removeMade(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      rmdirSync(d);
    } catch { /* something was written into it meanwhile: it stays */ }
  }
}

/**
 * Checks that `file` can be written: not a directory, no regular file in its path, and the file system lets us
 * create it (tried for real: permission bits say nothing to root, and /proc refuses at create time). Missing
 * parent directories are created (the writer would create them anyway). A probe file that did not exist is removed.
 */
export function checkOutputFile(file: string, flag: string): void {
  const abs = path.resolve(file);
  const k = kind(abs);
  if (k === 'dir') throw new ConfigError(flag, file, 'expected a file path, but it is a directory');
  if (k === 'denied') throw new ConfigError(flag, file, 'cannot access the path (permission denied)');
  if (k === 'other') throw new ConfigError(flag, file, 'expected a writable file path, but it is not a regular file (or a path component is a file)');
  ensureDir(path.dirname(abs), flag);
  let fd: number;
  try {
    fd = openSync(abs, 'a');
  } catch (e) {
    throw new ConfigError(flag, file, `cannot write the file (${why(e)})`);
  }
  closeSync(fd);
  if (k === undefined) {
    try {
      unlinkSync(abs);
    } catch { /* left empty; the report overwrites it */ }
  }
  // Reports are written to a temporary file next to the target and renamed (atomic-write.ts): /proc, for one,
  // lets root open /proc/version but creates nothing in /proc.
  const tmp = tempPathFor(abs);
  try {
    closeSync(openSync(tmp, 'w'));
    unlinkSync(tmp);
  } catch (e) {
    throw new ConfigError(flag, file, `cannot write the file: its directory does not let a file be created in it (${why(e)})`);
  }
}

/**
 * Checks a directory that files will be written into (schema --out, repro --output, run --repro-dir): creatable and
 * writable, tried for real and then undone, so a command refused later has created nothing; its writer creates it
 * (ensureDir) when it writes.
 */
export function checkOutputDir(dir: string, flag: string): void {
  const made = ensureDir(dir, flag);
  const probe = path.join(path.resolve(dir), `.pjrt-cts-write-test-${process.pid}`);
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
  } catch (e) {
    throw new ConfigError(flag, dir, `cannot write into the directory (${why(e)})`);
  } finally {
    removeMade(made);
  }
}

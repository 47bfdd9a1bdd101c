// What the CTS derives from files and keeps in the per-user cache (ctsCacheDir): a value stored under a key made from
// the path, size and modification time of every file it was derived from. Any change there is another key; a cache
// that cannot be read or written is only slower, never wrong (the caller derives the value as before). Values are
// kept in V8's serialization (structured clone: -0, NaN and undefined survive, unlike JSON).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { ctsVersion } from './paths.js';
import { ctsCacheDir } from './reference-paths.js';

/** Entries kept per kind; the least recently used are removed when a new one is written. */
const KEEP = 16;
/** Age after which a temporary file is a killed writer's. */
const ORPHAN_MS = 3_600_000;

/** Adds every file under `dir` (relative path, size, mtime) to `hash`; a missing directory adds its absence. */
function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  hash.update(`\0tree ${dir}\n`);
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      hash.update(`missing ${rel}\n`);
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else {
        const st = statSync(path.join(dir, r), { throwIfNoEntry: false });
        hash.update(`${r} ${st?.size ?? -1} ${st?.mtimeMs ?? -1}\n`);
      }
    }
  };
  walk('');
}

/** The key of what is derived from the files under `trees` (each path resolved; duplicates counted once). */
export function treesKey(trees: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`pjrt-cts ${ctsVersion()}\n`);
  for (const t of [...new Set(trees.map((t) => path.resolve(t)))]) hashTree(hash, t);
  return hash.digest('hex').slice(0, 32);
}

/** One kind of derived value (a directory of the cache: `catalogue`, `corpus`). */
export class KeyedCache<T> {
  constructor(private readonly kind: string) {}

  private dir(): string {
    return path.join(ctsCacheDir(), this.kind);
  }

  /** The value kept under `key`, or undefined. A hit marks the entry used, so pruning keeps what is in use. */
  get(key: string): T | undefined {
    try {
      const file = path.join(this.dir(), `${key}.v8`);
      const data = deserialize(readFileSync(file)) as { key?: string; value?: T };
      if (data.key !== key || data.value === undefined) return undefined;
      try { const now = new Date(); utimesSync(file, now, now); } catch { /* a read-only cache still serves */ }
      return data.value;
    } catch {
      return undefined;
    }
  }

  /** Keeps `value` under `key` (written whole, then renamed into place); failures are ignored. */
  set(key: string, value: T): void {
    try {
      const dir = this.dir();
      mkdirSync(dir, { recursive: true });
      const tmp = path.join(dir, `.${key}.${process.pid}.tmp`);
      writeFileSync(tmp, serialize({ key, value }));
      renameSync(tmp, path.join(dir, `${key}.v8`));
      const dated = readdirSync(dir).map((f) => ({ f, t: statSync(path.join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
      const old = dated.filter(({ f }) => f.endsWith('.v8')).sort((a, b) => b.t - a.t).slice(KEEP);
      // A writer killed between write and rename leaves its temporary file: removed once it is an hour old.
      const orphans = dated.filter(({ f, t }) => f.endsWith('.tmp') && Date.now() - t > ORPHAN_MS);
      for (const { f } of [...old, ...orphans]) rmSync(path.join(dir, f), { force: true });
    } catch {
      // a read-only or full cache: the next process derives the value again
    }
  }
}

// The catalogue of a set of inputs, kept in the per-user cache: listing it means importing every suite and decoding
// the corpus in a worker (about 1.7 s of CPU on two cores), which every `run` and `list` paid before its first case.
// The key is every file the catalogue is made from, by path, size and modification time: the compiled suites and
// the code they import (dist/), the built-in corpus and artifact store (fixtures/programs, fixtures/artifacts), and
// an external --programs directory. Any change there is another key; a cache that cannot be read or written is
// only slower, never wrong (the worker lists as before).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { ctsVersion, packageRoot, suitesDir } from '../config/paths.js';
import { ctsCacheDir } from '../config/reference-paths.js';
import type { CatalogueEntry } from '../harness/types.js';

/** Catalogues kept; older ones are removed when a new one is written. */
const KEEP = 16;

const cacheDir = (): string => path.join(ctsCacheDir(), 'catalogue');

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

/** The key of the catalogue listed from the current inputs (and `programs`, an external corpus directory). */
export function catalogueKey(programs?: string): string {
  const hash = createHash('sha256');
  hash.update(`pjrt-cts ${ctsVersion()}\n`);
  const root = packageRoot();
  const trees = [suitesDir(), path.join(root, 'dist', 'src'), path.join(root, 'fixtures', 'programs'), path.join(root, 'fixtures', 'artifacts'), ...(programs ? [path.resolve(programs)] : [])];
  for (const t of [...new Set(trees)]) hashTree(hash, t);
  return hash.digest('hex').slice(0, 32);
}

/** The cached catalogue of `key`, or undefined. */
export function cachedCatalogue(key: string): CatalogueEntry[] | undefined {
  try {
    const data = JSON.parse(readFileSync(path.join(cacheDir(), `${key}.json`), 'utf8')) as { key?: string; cases?: CatalogueEntry[] };
    return data.key === key && Array.isArray(data.cases) ? data.cases : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `cases` as the catalogue of `key` (written whole, then renamed into place); failures are ignored. */
export function storeCatalogue(key: string, cases: readonly CatalogueEntry[]): void {
  try {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.${key}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify({ key, cases }));
    renameSync(tmp, path.join(dir, `${key}.json`));
    const old = readdirSync(dir).filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, t: statSync(path.join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.t - a.t).slice(KEEP);
    for (const { f } of old) rmSync(path.join(dir, f), { force: true });
  } catch {
    // a read-only or full cache: the next run lists again
  }
}

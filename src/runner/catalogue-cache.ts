// The catalogue of a set of inputs, kept in the per-user cache (src/config/keyed-cache.ts): listing it means
// importing every suite and decoding the corpus in a worker (about 1.7 s of CPU on two cores), which every `run` and
// `list` paid before its first case. The key is every file the catalogue is made from: the compiled suites and the
// code they import (dist/), the built-in corpus and artifact store (fixtures/programs, fixtures/artifacts), and an
// external --programs directory.
import path from 'node:path';
import { KeyedCache, treesKey } from '../config/keyed-cache.js';
import { packageRoot, suitesDir } from '../config/paths.js';
import type { CatalogueEntry } from '../harness/types.js';

const catalogues = new KeyedCache<CatalogueEntry[]>('catalogue');

/** The key of the catalogue listed from the current inputs (and `programs`, an external corpus directory). */
export function catalogueKey(programs?: string): string {
  const root = packageRoot();
  return treesKey([suitesDir(), path.join(root, 'dist', 'src'), path.join(root, 'fixtures', 'programs'), path.join(root, 'fixtures', 'artifacts'), ...(programs ? [programs] : [])]);
}

/** The cached catalogue of `key`, or undefined. */
export function cachedCatalogue(key: string): CatalogueEntry[] | undefined {
  const cases = catalogues.get(key);
  return Array.isArray(cases) ? cases : undefined;
}

/** Keeps `cases` as the catalogue of `key`. */
export function storeCatalogue(key: string, cases: readonly CatalogueEntry[]): void {
  catalogues.set(key, [...cases]);
}

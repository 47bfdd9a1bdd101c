// Which cases a run executes: tiers ≤ N, --filter / --exclude id globs, --shard i/n.
import picomatch from 'picomatch';
import type { CatalogueEntry } from '../harness/types.js';
import { ConfigError } from '../config/errors.js';

/** FNV-1a, 32 bit: stable across platforms and Node versions. */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface Shard { index: number; count: number }

/** "i/n", 1 ≤ i ≤ n. */
export function parseShard(s: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new ConfigError('--shard', s, 'expected i/n with 1 ≤ i ≤ n, e.g. 2/4');
  return { index, count };
}

export function inShard(id: string, s: Shard): boolean {
  return idHash(id) % s.count === s.index - 1;
}

export function globMatcher(globs: readonly string[]): (id: string) => boolean {
  if (!globs.length) return () => false;
  return picomatch([...globs], { dot: true });
}

export interface Selection { maxTier: number; filters: readonly string[]; excludes: readonly string[]; shard?: Shard }

export function selectCases(all: readonly CatalogueEntry[], sel: Selection): CatalogueEntry[] {
  const inc = sel.filters.length ? globMatcher(sel.filters) : () => true;
  const exc = globMatcher(sel.excludes);
  return all.filter((e) => e.tier <= sel.maxTier && inc(e.id) && !exc(e.id) && (!sel.shard || inShard(e.id, sel.shard)));
}

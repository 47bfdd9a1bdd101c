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

/** A malformed glob ('[', 'tier1.{a') would silently match nothing: reject it, naming the flag (or file and JSON path). */
export function checkGlobs(where: string, globs: readonly string[], file?: string): void {
  for (const [i, g] of globs.entries()) {
    try {
      picomatch(g, { dot: true, strictBrackets: true });
    } catch (e) {
      const what = `expected a picomatch glob, but ${JSON.stringify(g)} is malformed: ${(e as Error).message}`;
      throw file ? new ConfigError(file, `${where}[${i}]`, what) : new ConfigError(where, g, what);
    }
  }
}

function globMatcher(globs: readonly string[]): (id: string) => boolean {
  if (!globs.length) return () => false;
  return picomatch([...globs], { dot: true });
}

interface Selection { maxTier: number; filters: readonly string[]; excludes: readonly string[]; shard?: Shard }

export function selectCases(all: readonly CatalogueEntry[], sel: Selection): CatalogueEntry[] {
  const inc = sel.filters.length ? globMatcher(sel.filters) : () => true;
  const exc = globMatcher(sel.excludes);
  return all.filter((e) => e.tier <= sel.maxTier && inc(e.id) && !exc(e.id) && (!sel.shard || inShard(e.id, sel.shard)));
}

/**
 * A selection that matches nothing is a false green waiting to happen (a typo in --filter passes every gate):
 * say which option emptied it. Call it on the selection before sharding: an empty shard of a non-empty selection is fine.
 */
export function checkNotEmpty(all: readonly CatalogueEntry[], selected: readonly CatalogueEntry[], sel: Selection): void {
  if (selected.length) return;
  const byTier = all.filter((e) => e.tier <= sel.maxTier);
  const inc = sel.filters.length ? globMatcher(sel.filters) : () => true;
  const exc = globMatcher(sel.excludes);
  const parts = [
    sel.maxTier !== Infinity ? `--tier ${sel.maxTier}` : '', ...sel.filters.map((f) => `--filter '${f}'`), ...sel.excludes.map((x) => `--exclude '${x}'`),
  ].filter(Boolean).join(' ');
  let why: string;
  if (!all.length) why = 'the catalogue is empty';
  else if (!byTier.length) why = `no case has tier ≤ ${sel.maxTier}`;
  else if (!byTier.some((e) => inc(e.id))) why = `no id${sel.maxTier !== Infinity ? ` of tiers ≤ ${sel.maxTier}` : ''} matches ${sel.filters.map((f) => `--filter '${f}'`).join(' ')} (see \`pjrt-cts list\`)`;
  else if (!byTier.some((e) => inc(e.id) && !exc(e.id))) why = `--exclude leaves nothing of the ${byTier.filter((e) => inc(e.id)).length} case(s) selected before it`;
  else why = 'nothing matches';
  throw new ConfigError(parts || '(every case)', 'selects 0 cases', `expected at least one case to run: ${why}`);
}

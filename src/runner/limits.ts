// Values a person may ask for that the suite or the machine cannot give: tiers that do not exist (exit 2 naming the
// ones that do) and more workers than CPUs (capped, with a note).
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { suitesDir } from '../config/paths.js';
import { ConfigError } from '../config/errors.js';
import type { CatalogueEntry } from '../harness/types.js';

/** Throws a ConfigError when `--tier` or `--gate` names a tier no case of the catalogue has. */
export function checkTiers(catalogue: readonly Pick<CatalogueEntry, 'tier'>[], o: { tier?: number; gate?: number }): void {
  const tiers = [...new Set(catalogue.map((c) => c.tier))].sort((a, b) => a - b);
  const known = tiers.map((t) => `tier${t}`).join(', ');
  if (o.gate !== undefined && !tiers.includes(o.gate)) throw new ConfigError('--gate', `tier${o.gate}`, `expected one of the tiers that exist: ${known}`);
  if (o.tier !== undefined && !tiers.includes(o.tier)) throw new ConfigError('--tier', String(o.tier), `expected one of the tiers that exist: ${tiers.join(', ')}`);
}

/** `--jobs` capped at the CPUs this process may use: more workers than that only compete for them. */
export function capJobs(jobs: number, out: NodeJS.WritableStream, cpus = os.availableParallelism()): number {
  if (jobs <= cpus) return jobs;
  out.write(`pjrt-cts: running ${cpus} worker(s) instead of ${jobs}: this machine has ${cpus} CPU(s) for this process (--jobs above that only makes workers wait for each other)\n`);
  return cpus;
}

/** The tiers of the compiled suites (their directories tier0 … tierN), ascending. */
export function suiteTiers(dir = suitesDir()): number[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).map((d) => /^tier(\d+)$/.exec(d)?.[1]).filter((t): t is string => t !== undefined).map(Number).sort((a, b) => a - b) : [];
}

/** The tiers of the compiled suites as "0–3", for help texts. */
export function tierRange(dir = suitesDir()): string {
  const tiers = suiteTiers(dir);
  return tiers.length ? `${tiers[0]}–${tiers.at(-1)}` : 'see list';
}

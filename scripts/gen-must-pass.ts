// Regenerates certification/must-pass-<CTS version>.json from the catalogue and a full run of each personality of
// the reference plugin. Usage:
//   node dist/bin/pjrt-cts.js run -p reference --jobs 2 --json /tmp/ref.json
//   node dist/bin/pjrt-cts.js run -p reference-xla --jobs 2 --json /tmp/xla.json
//   node dist/scripts/gen-must-pass.js --reference /tmp/ref.json --reference-xla /tmp/xla.json
// The review state is kept when the cases and exclusions come out the same, else reset to `pending`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadJson } from '../src/config/load-json.js';
import { MustPassList, type MustPassCase } from '../src/config/must-pass.js';
import { ResultsFile, type CaseResult } from '../src/config/results.js';
import type { CatalogueEntry } from '../src/harness/types.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { ctsVersion } from '../src/config/paths.js';
import { REQUIRED_SLOTS } from '../suites/_lib/required.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PERSONALITIES = ['reference', 'reference-xla'] as const;

const RULE =
  'A case is on the list when its demand comes from the header or a framework (source header/framework; quality cases ' +
  'never fail a gate), it is not a self-test (those run on the reference plugin only), and it is required or passes on ' +
  'both personalities of the reference plugin (a full run each, no expectations). A case that either personality ' +
  'reports unsupported or skip is left off: the header lets a conforming plugin lack it, or it needs configuration. ' +
  'A listed case is optional (unsupported is accepted) when it needs a PJRT_Api slot outside suites/_lib/required.ts, ' +
  'a capability, or an API minor above 0: the header lets a plugin leave those out.';

function arg(name: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (!v) {
    console.error(`gen-must-pass: expected ${name} <results.json> (a full run of that personality)`);
    process.exit(2);
  }
  return v;
}

/** Why unsupported is acceptable for a case, or undefined when it must run. */
function optionalReason(c: CatalogueEntry): string | undefined {
  const slots = (c.requires.slots ?? []).filter((s) => !REQUIRED_SLOTS.includes(s));
  const why = [
    ...(slots.length ? [`needs ${slots.join(', ')}, which a plugin may leave null`] : []),
    ...(c.requires.capabilities?.length ? [`needs the capability ${c.requires.capabilities.join(', ')}`] : []),
    ...(c.requires.minMinor ? [`needs API minor ≥ ${c.requires.minMinor}`] : []),
  ];
  return why.length ? why.join('; ') : undefined;
}

function exclusionReason(c: CatalogueEntry, runs: Record<string, Map<string, CaseResult>>): string | undefined {
  if (c.selfTest) return `self-test (reference plugin only): ${c.selfTest}`;
  if (c.required) return undefined;
  for (const p of PERSONALITIES) {
    const r = runs[p]!.get(c.id);
    if (!r) return `not run on ${p}`;
    if (r.status !== 'pass') return `${r.status} on ${p}: ${(r.message ?? '').split('\n')[0]!.slice(0, 160)}`.trimEnd();
  }
  return undefined;
}

const catalogue = (await loadCatalogue()).filter((c) => c.source !== 'quality');
const files = { reference: arg('--reference'), 'reference-xla': arg('--reference-xla') };
const from: MustPassList['generated']['from'] = {};
const runs: Record<string, Map<string, CaseResult>> = {};
for (const p of PERSONALITIES) {
  const f = loadJson(files[p], ResultsFile);
  if (f.run.filters.length || f.run.excludes.length || f.run.expectations || f.run.shard) {
    console.error(`gen-must-pass: ${files[p]}: expected a full run (no --filter, --exclude, --shard or expectations)`);
    process.exit(2);
  }
  runs[p] = new Map(f.results.map((r) => [r.id, r]));
  from[p] = { cases: f.results.length, pass: f.results.filter((r) => r.status === 'pass').length, startedAt: f.startedAt };
}

const cases: MustPassCase[] = [];
const exclusions: MustPassList['exclusions'] = [];
for (const c of catalogue) {
  const excluded = exclusionReason(c, runs);
  if (excluded) exclusions.push({ id: c.id, reason: excluded });
  else {
    const optional = optionalReason(c);
    cases.push({ id: c.id, ...(optional ? { optional } : {}) });
  }
}

const version = ctsVersion();
const out = path.join(root, 'certification', `must-pass-${version}.json`);
const previous = existsSync(out) ? MustPassList.parse(JSON.parse(readFileSync(out, 'utf8'))) : undefined;
const same = previous && JSON.stringify([previous.cases, previous.exclusions]) === JSON.stringify([cases, exclusions]);
const list: MustPassList = {
  ctsVersion: version,
  generated: {
    by: 'scripts/gen-must-pass.ts',
    regenerate: 'npm run build:ts && npm run gen:must-pass -- --reference <full run of -p reference, --json> --reference-xla <full run of -p reference-xla, --json>',
    rule: RULE,
    from,
  },
  review: same ? previous.review : { state: 'pending', note: 'regenerated; a maintainer reviews the diff of cases and exclusions, then sets state "reviewed" and "by"' },
  cases,
  exclusions,
};
writeFileSync(out, JSON.stringify(list, null, 1) + '\n');
console.log(`${path.relative(root, out)}: ${cases.length} must-pass case(s) (${cases.filter((c) => c.optional).length} optional), ${exclusions.length} exclusion(s)${same ? '' : '; review reset to pending'}`);

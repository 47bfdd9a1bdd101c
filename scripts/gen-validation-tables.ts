// The data sections of a validation page (docs/validation/<plugin>.md), from a run's results file and the plugin's
// expectations file: the case set the run was made with (its hash: src/harness/case-set.ts), counts per tier and
// status, every waived case with the deviation that waives it, every warning, and the unsupported/skipped cases
// grouped by the reason the run gives. The page's prose stays hand-written; the sections between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` are replaced.
// Usage: node dist/scripts/gen-validation-tables.js PAGE.md RESULTS.json EXPECTATIONS.json
import { readFileSync, writeFileSync } from 'node:fs';
import picomatch from 'picomatch';
import { ExpectationsFile, globList } from '../src/config/expectations.js';
import { caseSet, caseSetLine } from '../src/harness/case-set.js';
import { ResultsFile, STATUSES, type CaseResult } from '../src/config/results.js';

const [page, resultsPath, expectationsPath] = process.argv.slice(2);
if (!page || !resultsPath || !expectationsPath) {
  console.error('usage: gen-validation-tables PAGE.md RESULTS.json EXPECTATIONS.json');
  process.exit(2);
}
const results = ResultsFile.parse(JSON.parse(readFileSync(resultsPath, 'utf8'))).results;
const expectations = ExpectationsFile.parse(JSON.parse(readFileSync(expectationsPath, 'utf8'))).expectations;

const SHOWN: readonly string[] = STATUSES.filter((s) => s !== 'flaky');
const cell = (s: string, max = 260): string => {
  const one = s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
};
const tierOf = (id: string): string => id.split('.')[0]!.replace(/^tier/, '');

function countsTable(): string[] {
  const byTier = new Map<string, Map<string, number>>();
  for (const r of results) {
    const t = byTier.get(tierOf(r.id)) ?? byTier.set(tierOf(r.id), new Map()).get(tierOf(r.id))!;
    t.set(r.status, (t.get(r.status) ?? 0) + 1);
  }
  const row = (name: string, c: Map<string, number>) =>
    `| ${name} | ${SHOWN.map((s) => c.get(s) ?? 0).join(' | ')} | ${[...c.values()].reduce((a, b) => a + b, 0)} |`;
  const all = new Map<string, number>();
  for (const c of byTier.values()) for (const [s, n] of c) all.set(s, (all.get(s) ?? 0) + n);
  return [
    `| tier | ${SHOWN.join(' | ')} | total |`,
    `|---|${SHOWN.map(() => '---|').join('')}---|`,
    ...[...byTier.keys()].sort().map((t) => row(t, byTier.get(t)!)),
    row('all', all),
  ];
}

/** D1, D2, …: the expectations entries in file order. */
const deviationOf = (r: CaseResult): number =>
  expectations.findIndex((e) => (!e.tests || picomatch.isMatch(r.id, globList(e.tests), { dot: true }))
    && (!e.rules || (r.rule !== undefined && picomatch.isMatch(r.rule, globList(e.rules), { dot: true }))));

function deviationsTable(): string[] {
  const waived = results.filter((r) => r.status === 'xfail');
  return [
    '| id | cases | the rule and what was observed |',
    '|---|---|---|',
    ...expectations.map((e, k) => `| D${k + 1} | ${waived.filter((r) => deviationOf(r) === k).length} | ${cell(e.reason, 2000)} |`),
    '',
    'Every waived case, with the first finding of the run:',
    '',
    '| case | verdict | evidence (first finding) |',
    '|---|---|---|',
    ...waived.map((r) => `| \`${r.id}\` | plugin deviation D${deviationOf(r) + 1} | ${cell(r.message ?? '')} |`),
  ];
}

/** Cases with one of `statuses`, grouped by their message (ids listed up to four). */
function grouped(statuses: readonly string[]): string[] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of results.filter((x) => statuses.includes(x.status))) {
    const key = `${r.status}\u0000${cell(r.message ?? '', 200)}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
  }
  return [
    '| status | cases | ids | reason |',
    '|---|---|---|---|',
    ...[...groups.entries()]
      .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
      .map(([key, rs]) => {
        const [status, reason] = key.split('\u0000');
        const ids = `${rs.slice(0, 4).map((r) => `\`${r.id}\``).join(', ')}${rs.length > 4 ? ' …' : ''}`;
        return `| ${status} | ${rs.length} | ${ids} | ${reason} |`;
      }),
  ];
}

const sections: Record<string, string[]> = {
  // The case set the run was made with (test/validation-records.test.ts compares it with today's catalogue).
  'case-set': [caseSetLine(caseSet(results.map((r) => ({ id: r.id, source: r.source, catches: r.faultsCaught ?? [] }))))],
  counts: countsTable(),
  deviations: deviationsTable(),
  warnings: grouped(['warn']),
  unsupported: grouped(['unsupported', 'skip']),
};

let text = readFileSync(page, 'utf8');
for (const [name, lines] of Object.entries(sections)) {
  const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
  if (!re.test(text)) {
    console.error(`gen-validation-tables: ${page} has no <!-- generated:${name} --> … <!-- /generated:${name} --> section`);
    process.exit(2);
  }
  text = text.replace(re, (_m, open: string, close: string) => `${open}${lines.join('\n')}\n${close}`);
}
writeFileSync(page, text);

// The data sections of a validation record measured on hardware this project's machines lack (docs/validation/cuda.md):
// what the run on hardware measured (from the run's results, kept in the repository as a TSV extract), every non-pass
// with its reading and the verdict today's CTS is expected to give it, and today's case set projected: each case's
// measured verdict where nothing changed, the reading's expected one where a reading says the CTS changed it, and
// "not yet measured" for cases the hardware run did not have. Expected verdicts are labelled as such: only a new run on
// hardware measures them.
// Usage:
//   node dist/scripts/gen-measured-record.js extract DEFAULT_STACKS.json[.gz] RESULTS.json[.gz] OUT.tsv
//   node dist/scripts/gen-measured-record.js PAGE.md DATA.tsv READINGS.json EXPECTATIONS.json [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import picomatch from 'picomatch';
import { z } from 'zod';
import { ExpectationsFile, globList } from '../src/config/expectations.js';
import { ResultsFile, STATUSES } from '../src/config/results.js';
import { caseSet, caseSetLine } from '../src/harness/case-set.js';
import { loadCatalogue } from '../src/runner/catalogue.js';

const FAILING = new Set(['fail', 'crash', 'timeout', 'warn']);
const Status = z.enum(STATUSES);

const Readings = z.strictObject({
  $comment: z.string(),
  readings: z.array(z.strictObject({
    ids: z.array(z.string().min(1)).min(1),
    measured: Status,
    /** a regular expression the measured message must match (a group of one status and area, split by reason) */
    message: z.string().min(1).optional(),
    reading: z.string().min(1),
    now: Status,
    why: z.string().min(1),
  })),
  newCases: z.array(z.strictObject({ ids: z.array(z.string().min(1)).min(1), expected: Status, why: z.string().min(1) })),
});
type Readings = z.infer<typeof Readings>;

interface Measured { id: string; before: string; status: string; message: string }

const cell = (s: string, max = 600): string => {
  const one = s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
};
const matches = (id: string, globs: readonly string[]): boolean => picomatch.isMatch(id, globList(globs), { dot: true });
const readJson = (file: string): unknown => JSON.parse((file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file)).toString('utf8'));
const firstLine = (m: string | undefined): string => (m ?? '').split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';

function extract(beforeFile: string, afterFile: string, out: string): void {
  const before = ResultsFile.parse(readJson(beforeFile));
  const after = ResultsFile.parse(readJson(afterFile));
  const was = new Map(before.results.map((r) => [r.id, r.status]));
  const set = caseSet(after.results.map((r) => ({ id: r.id, source: r.source, catches: r.faultsCaught ?? [] })));
  const p = after.plugin;
  const lines = [
    `# ${p.name} ${p.platformVersion ?? ''}, PJRT API ${p.apiVersion?.major}.${p.apiVersion?.minor}, sha256 ${p.sha256 ?? '?'}; run ${after.startedAt}; ${caseSetLine(set)}`,
    '# id\tstatus (koffi default stacks)\tstatus (16 MiB stacks)\tfirst message line of a non-pass (16 MiB stacks)',
    ...after.results.map((r) => [r.id, was.get(r.id) ?? '', r.status, r.status === 'pass' ? '' : cell(firstLine(r.message), 400)].join('\t')),
  ];
  writeFileSync(out, `${lines.join('\n')}\n`);
}

function readData(file: string): { header: string; cases: Measured[] } {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const header = lines[0]!.replace(/^# /, '');
  const cases = lines.filter((l) => !l.startsWith('#')).map((l) => {
    const [id, before, status, message] = l.split('\t') as [string, string, string, string?];
    return { id, before, status, message: message ?? '' };
  });
  return { header, cases };
}

function counts(statuses: readonly string[]): Map<string, number> {
  const c = new Map<string, number>();
  for (const s of statuses) c.set(s, (c.get(s) ?? 0) + 1);
  return c;
}
const ORDER = [...STATUSES, 'unmeasured'];
function countsRow(name: string, c: Map<string, number>, columns: readonly string[]): string {
  return `| ${name} | ${columns.map((s) => c.get(s) ?? 0).join(' | ')} | ${[...c.values()].reduce((a, b) => a + b, 0)} |`;
}
function countsTable(rows: [string, Map<string, number>][]): string[] {
  const columns = ORDER.filter((s) => rows.some(([, c]) => (c.get(s) ?? 0) > 0));
  return [`| run | ${columns.join(' | ')} | total |`, `|---|${columns.map(() => '---|').join('')}---|`, ...rows.map(([n, c]) => countsRow(n, c, columns))];
}

function replaceSection(page: string, name: string, body: string[]): string {
  const begin = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const a = page.indexOf(begin);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error(`the page lacks its ${begin} … ${end} section`);
  return `${page.slice(0, a)}${begin}\n${body.join('\n')}\n${page.slice(b)}`;
}

async function generate(pageFile: string, dataFile: string, readingsFile: string, expectationsFile: string, check: boolean): Promise<void> {
  const { header, cases } = readData(dataFile);
  const readings: Readings = Readings.parse(JSON.parse(readFileSync(readingsFile, 'utf8')));
  const expectations = ExpectationsFile.parse(JSON.parse(readFileSync(expectationsFile, 'utf8'))).expectations;
  type Reading = Readings['readings'][number];
  const reads = (r: Reading, m: Measured): boolean => r.measured === m.status && matches(m.id, r.ids) && (r.message === undefined || new RegExp(r.message).test(m.message));
  const readingOf = (m: Measured) => readings.readings.findIndex((r) => reads(r, m));

  const unread = cases.filter((m) => FAILING.has(m.status) && readingOf(m) < 0).map((m) => `${m.id} (${m.status})`);
  if (unread.length) throw new Error(`every measured non-pass needs a reading in ${readingsFile}; none for: ${unread.join(', ')}`);
  const unused = readings.readings.filter((r) => !cases.some((m) => reads(r, m))).map((r) => r.ids.join(' '));
  if (unused.length) throw new Error(`readings that match no measured case: ${unused.join('; ')}`);

  const measuredSection = [
    `Measured: ${header}`,
    '',
    ...countsTable([
      ['koffi\'s default stacks (the CTS as landed)', counts(cases.map((m) => m.before))],
      ['16 MiB stacks', counts(cases.map((m) => m.status))],
    ]),
  ];

  const readingRows = readings.readings.map((r) => {
    const ids = cases.filter((m) => readingOf(m) === readings.readings.indexOf(r));
    const shown = ids.length <= 6 ? ids.map((m) => `\`${m.id}\``).join(', ') : `${ids.slice(0, 3).map((m) => `\`${m.id}\``).join(', ')} … (${r.ids.map((g) => `\`${g}\``).join(', ')})`;
    return `| ${ids.length} | ${r.measured} | ${cell(shown, 2000)} | ${cell(r.reading, 2000)} | **${r.now}**: ${cell(r.why, 2000)} |`;
  });
  const readingSection = ['| cases | measured | ids | reading | today (expected, not measured) |', '|---|---|---|---|---|', ...readingRows];

  const catalogue = await loadCatalogue();
  const measured = new Map(cases.map((m) => [m.id, m]));
  const waived = (id: string, status: string): boolean => expectations.some((e) => globList(e.status).includes(status) && e.tests !== undefined && matches(id, globList(e.tests)));
  const projected = catalogue.map((c) => {
    const m = measured.get(c.id);
    const reading = m ? readings.readings[readingOf(m)] : undefined;
    const added = m ? undefined : readings.newCases.find((n) => matches(c.id, n.ids));
    const status = reading ? reading.now : m ? m.status : added ? added.expected : 'unmeasured';
    const how = reading ? 'expected' : m ? 'measured' : added ? 'expected' : 'unmeasured';
    return { id: c.id, status: waived(c.id, status) ? 'xfail' : status, how };
  });
  const byHow = counts(projected.map((p) => p.how));
  const newRows = readings.newCases.map((n) => {
    const ids = catalogue.filter((c) => !measured.has(c.id) && matches(c.id, n.ids)).map((c) => c.id);
    return `| ${ids.length} | ${cell(ids.map((i) => `\`${i}\``).join(', '), 1500)} | **${n.expected}**: ${cell(n.why, 2000)} |`;
  });
  const unlisted = catalogue.filter((c) => !measured.has(c.id) && !readings.newCases.some((n) => matches(c.id, n.ids))).map((c) => c.id);
  const projectionSection = [
    `Today's ${catalogue.length} cases: ${byHow.get('measured') ?? 0} with the verdict measured on hardware, ${byHow.get('expected') ?? 0} with the verdict a reading expects (not measured), ${byHow.get('unmeasured') ?? 0} never run there; with expectations/cuda.json applied:`,
    '',
    ...countsTable([['today, projected', counts(projected.map((p) => p.status))]]),
    '',
    'Cases the hardware run did not have, and the verdict expected of them:',
    '',
    '| cases | ids | expected |',
    '|---|---|---|',
    ...newRows,
    ...(unlisted.length ? [`| ${unlisted.length} | ${cell(unlisted.map((i) => `\`${i}\``).join(', '), 1500)} | not yet measured |`] : []),
  ];

  const page = readFileSync(pageFile, 'utf8');
  let text = replaceSection(page, 'measured', measuredSection);
  text = replaceSection(text, 'readings', readingSection);
  text = replaceSection(text, 'case-set', [caseSetLine(caseSet(catalogue))]);
  text = replaceSection(text, 'projection', projectionSection);
  if (text === page) return;
  if (check) {
    console.error(`gen-measured-record: ${pageFile} is out of date: run node dist/scripts/gen-measured-record.js ${pageFile} ${dataFile} ${readingsFile} ${expectationsFile}`);
    process.exit(1);
  }
  writeFileSync(pageFile, text);
}

const args = process.argv.slice(2);
try {
  if (args[0] === 'extract' && args.length === 4) extract(args[1]!, args[2]!, args[3]!);
  else if (args.length >= 4 && args[0] !== 'extract') await generate(args[0]!, args[1]!, args[2]!, args[3]!, args.includes('--check'));
  else {
    console.error('usage: gen-measured-record extract DEFAULT.json RESULTS.json OUT.tsv | gen-measured-record PAGE.md DATA.tsv READINGS.json EXPECTATIONS.json [--check]');
    process.exit(2);
  }
} catch (e) {
  console.error(`gen-measured-record: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}

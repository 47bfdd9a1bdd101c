// docs/api-coverage.md: for every PJRT_Api slot of the ABI table, the cases that call it (recorded by runs with
// --record-slots against the reference plugin in both personalities, one worker each so the order is fixed) and the
// faults those cases claim (the fault matrix proves each claim).
// Usage: node dist/scripts/gen-api-coverage.js [--check] [--results-dir DIR]
// --check: exit 1 when the set of called slots differs from the committed page (call counts may vary with timing).
// --results-dir: read the runs from DIR/<personality>.json (made with --record-slots, tier 4 left out) instead of
// making them: npm test's shared clean runs (test/clean-runs.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_SLOTS, PJRT_API_MINOR } from '../src/abi/index.js';
import type { ResultsFile } from '../src/config/results.js';
import type { CatalogueEntry } from '../src/harness/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist', 'bin', 'pjrt-cts.js');
const page = path.join(root, 'docs', 'api-coverage.md');
const NOT_CALLED = 'not called';

/** The plugins.json entries whose passing cases count: the reference plugin in each of its personalities. */
const PERSONALITIES = ['reference', 'reference-xla'] as const;

/** One recorded run per personality, both at once (each is one worker process). */
async function runRecorded(plugin: string): Promise<ResultsFile> {
  const json = path.join(mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-coverage-')), 'r.json');
  // Tier 4 is left out: its cases call no slot from the worker (JAX calls the plugin in a process of its own).
  const child = spawn(process.execPath, [cli, 'run', '--plugin', plugin, '--record-slots', '--jobs', '1', '--exclude', 'tier4.**', '--json', json], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`gen-api-coverage: the ${plugin} run failed (exit ${code}):\n${output}`);
  return JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
}

function catalogue(): Map<string, CatalogueEntry> {
  const r = spawnSync(process.execPath, [cli, 'list', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return new Map((JSON.parse(r.stdout) as CatalogueEntry[]).map((c) => [c.id, c]));
}

/** A case's id without its parameter rows, so one line names a case, not its hundreds of expansions. */
const caseOf = (e: CatalogueEntry): string => `${e.area}.${e.id.slice(e.area.length + 1).split('.')[0]}`;

/**
 * Slots the harness itself calls for every case before its body runs, so no case body can be the first caller. A
 * passing case that requires such a slot and checks the call's outcome covers it; the page says so.
 */
const HARNESS_CALLED: Readonly<Record<string, string>> = {
  PJRT_Plugin_Initialize: 'called by the harness when it loads the plugin, before any case (as frameworks do: "Must be called before any other functions"); a case requiring it checks its outcome',
};

/** Per slot, the cases of one run with `status` that called it (unsupported ones with their reasons). */
function callers(res: ResultsFile, cat: Map<string, CatalogueEntry>, status: 'pass' | 'unsupported'): Map<string, { entry: CatalogueEntry; message?: string }[]> {
  const bySlot = new Map<string, { entry: CatalogueEntry; message?: string }[]>();
  for (const r of res.results) {
    if (r.status !== status) continue;
    const entry = cat.get(r.id);
    if (!entry) continue;
    const slots = new Set([...(r.slots ?? []), ...(entry.requires.slots ?? []).filter((s) => s in HARNESS_CALLED)]);
    for (const s of slots) (bySlot.get(s) ?? bySlot.set(s, []).get(s)!).push({ entry, message: r.message });
  }
  return bySlot;
}

const listed = (xs: readonly string[], shown: number, quote: boolean): string =>
  `${xs.slice(0, shown).map((x) => (quote ? `\`${x}\`` : x)).join(', ')}${xs.length > shown ? ` and ${xs.length - shown} more` : ''}`;

function render(runs: readonly ResultsFile[], cat: Map<string, CatalogueEntry>): string {
  const passing = runs.map((res) => callers(res, cat, 'pass'));
  const unsupported = runs.map((res) => callers(res, cat, 'unsupported'));
  const statusById = runs.map((res) => new Map(res.results.map((r) => [r.id, r])));
  const rows = API_SLOTS.map((slot) => {
    const cases = (passing[0]!.get(slot.name) ?? []).map((c) => c.entry);
    const names = [...new Set(cases.map(caseOf))];
    const faults = [...new Set(cases.flatMap((c) => c.catches.map((f) => f.split('=')[0]!)))].sort();
    // Another personality: its passing callers, else the reason its callers were unsupported (a personality that
    // answers as XLA's plugin does may lack the slot's feature by design).
    const others = runs.slice(1).map((_, k) => {
      const pass = passing[k + 1]!.get(slot.name) ?? [];
      if (pass.length) return { covered: true, text: String(pass.length) };
      const unsup = unsupported[k + 1]!.get(slot.name) ?? [];
      // The reference personality's callers may stop before this slot there (an earlier call of the case is unsupported).
      const stopped = cases.map((c) => statusById[k + 1]!.get(c.id)).find((r) => r?.status === 'unsupported');
      const reason = unsup[0]?.message ?? stopped?.message;
      if (reason !== undefined) return { covered: true, text: `unsupported: ${reason.replace(/\|/g, '\\|').slice(0, 140)}` };
      return { covered: false, text: NOT_CALLED };
    });
    return { slot, cases, names, faults, others };
  });
  const calledRef = rows.filter((r) => r.cases.length);
  const calledAll = calledRef.filter((r) => r.others.every((o) => o.covered));
  const proven = calledAll.filter((r) => r.faults.length);
  const others = PERSONALITIES.slice(1);
  const passEverywhere = rows.filter((r) => r.cases.length && r.others.every((o) => o.covered && !o.text.startsWith('unsupported')));
  return [
    '# PJRT API coverage',
    '',
    '<!-- Generated by `node dist/scripts/gen-api-coverage.js` from runs with --record-slots against the reference plugin in both personalities; a test checks the set of called slots. -->',
    '',
    `Every slot of the ABI table (PJRT C API 0.${PJRT_API_MINOR}), the cases that call it and pass on the reference plugin, and the`,
    'faults those cases claim (the fault matrix shows each claimed fault makes the case fail). A slot is counted only',
    'where a case body calls it; the harness\'s own calls (loading, the shared client) are not, except where no case body',
    `can call the slot first: ${Object.entries(HARNESS_CALLED).map(([k, v]) => `\`${k}\` is ${v}`).join('; ')}.`,
    `The cases are those of the \`${PERSONALITIES[0]}\` personality; the ${others.map((p) => `\`${p}\``).join(', ')} column counts the passing cases`,
    'that call the slot in that personality, or says why they are `unsupported` there: that personality answers as XLA\'s',
    'CPU plugin does, and where that plugin lacks a feature (UNIMPLEMENTED, no compiler registered) so does it.',
    '',
    `**${calledAll.length} of ${API_SLOTS.length} slots are called by a passing case; ${proven.length} of them by a case that claims a fault.**`,
    `${passEverywhere.length} pass in every personality; ${calledAll.length - passEverywhere.length} are unsupported in ${others.join(', ')} as in XLA's CPU plugin.`,
    '',
    `| slot | since | cases (ids) | ${others.map((p) => `${p} (cases)`).join(' | ')} | claimed faults |`,
    `|---|---|---|${others.map(() => '---|').join('')}---|`,
    ...rows.map((r) => `| \`${r.slot.name}\` | 0.${r.slot.since} | ${r.cases.length ? `${listed(r.names, 3, true)} (${r.cases.length})` : NOT_CALLED} | ${r.others.map((o) => o.text).join(' | ')} | ${listed(r.faults, 6, false)} |`),
    '',
  ].join('\n');
}

/** The slots a page shows as called in every personality. */
const calledSet = (md: string): string[] =>
  md.split('\n').filter((l) => /^\| `PJRT_/.test(l) && !l.includes(`| ${NOT_CALLED} |`)).map((l) => /`(PJRT_\w+)`/.exec(l)![1]!);

const resultsDirArg = process.argv.indexOf('--results-dir');
const resultsDir = resultsDirArg >= 0 ? process.argv[resultsDirArg + 1] : undefined;
const recordedRun = (plugin: string): Promise<ResultsFile> =>
  resultsDir ? Promise.resolve(JSON.parse(readFileSync(path.join(resultsDir, `${plugin}.json`), 'utf8')) as ResultsFile) : runRecorded(plugin);
const text = render(await Promise.all(PERSONALITIES.map(recordedRun)), catalogue());
if (process.argv.includes('--check')) {
  const committed = calledSet(readFileSync(page, 'utf8'));
  const now = calledSet(text);
  const added = now.filter((s) => !committed.includes(s));
  const lost = committed.filter((s) => !now.includes(s));
  if (added.length || lost.length) {
    console.error(`gen-api-coverage: docs/api-coverage.md is out of date (newly called: ${added.join(', ') || 'none'}; no longer called: ${lost.join(', ') || 'none'}): run node dist/scripts/gen-api-coverage.js`);
    process.exit(1);
  }
} else {
  writeFileSync(page, text);
}

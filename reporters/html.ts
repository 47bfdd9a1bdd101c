// `pjrt-cts report`: one self-contained HTML page for the people who certify or ship a plugin. The page is
// rendered by Eta templates (reporters/templates/, autoescaping on) from a view model built here; it has inline
// CSS only: no scripts, fonts or images are fetched when it is viewed.
import { profileHeadline } from '../src/runner/profile.js';
import { writeFileAtomic } from '../src/runner/atomic-write.js';
import path from 'node:path';
import { Eta } from 'eta';
import { loadJson } from '../src/config/load-json.js';
import { FAILING, ResultsFile, STATUSES, type CaseResult, type Status } from '../src/config/results.js';
import { CompatReport } from '../src/config/version-compat.js';
import { compareResults, type Change, type Comparison } from '../src/runner/run-diff.js';
import { checkOutputs, named } from '../src/runner/output-paths.js';
import { loadResultsOrStream } from '../src/runner/stream-results.js';
import { matrixAxes } from './matrix.js';
import type { Reporter, RunEnd } from '../src/runner/reporter.js';
import { packageRoot } from '../src/config/paths.js';
import { ruleOfResult } from '../src/runner/root-causes.js';

interface HtmlReportInput {
  results: ResultsFile;
  /** The file the results came from (shown in the header). */
  resultsFile?: string;
  /** `--compare OLD.json`: the older run and compareResults(old, new). */
  compare?: { old: ResultsFile; file?: string; comparison: Comparison };
  /** `--compat COMPAT.json` (the JSON of `pjrt-cts compat`): the cases × API minors matrix. */
  compat?: { report: CompatReport; file?: string };
  /** When the page was generated (default: now); fixed in tests. */
  generatedAt?: Date;
}

/** Root causes listed open; the rest are folded. */
const ROOT_CAUSES_SHOWN = 6;
/** Order of statuses in tables: what needs attention first. */
const ORDER: readonly Status[] = ['crash', 'timeout', 'fail', 'warn', 'flaky', 'xpass', 'xfail', 'unsupported', 'skip', 'pass'];
/** Groups of non-pass results that are open on the page; the rest are folded (<details>). */
const OPEN: ReadonlySet<Status> = new Set<Status>([...FAILING, 'warn', 'flaky', 'xpass']);

const STATUS_NOTE: Record<Status, string> = {
  pass: 'passed',
  fail: 'a check failed',
  warn: 'a quality check failed: reported, never fails a gate',
  crash: 'the worker died during the case',
  timeout: 'no result within the case\'s timeout',
  unsupported: 'the plugin lacks what the case needs',
  skip: 'not applicable, or not run',
  xfail: 'a failure waived by an expectation',
  xpass: 'waived, but passed: the expectation can go',
  flaky: 'failed, then passed on a retry',
};

export interface RootCause { rule: string; count: number; status: Status; message: string; ids: string[]; foundation?: string; repro?: string; following: { rule: string; count: number; ids: string[]; repro?: string }[]; followingCount: number }
export interface Row { label: string; value: string; mono?: boolean }
interface CountsTable { statuses: Status[]; rows: { tier: string; cells: number[]; total: number }[]; total: { cells: number[]; total: number } }
interface NonPassGroup { status: Status; note: string; open: boolean; count: number; rules: RuleItems[] }
/** The cases of one status that broke one rule; each citation is shown once for the rule, not on every row. */
interface RuleItems { rule: string; cites: string[]; items: NonPassItem[] }
interface NonPassItem { id: string; tier: number; source: string; cite?: string; message: string; selfTest?: string; expectation?: string; attempts?: number }
interface MatrixView { cols: string[]; rows: { name: string; cells: { cls: string; mark: string; title: string }[] }[]; legend: { cls: string; mark: string; text: string }[] }
interface ChangeGroup { title: string; cls: string; open: boolean; items: { id: string; from: string; to: string; message: string }[] }
interface CompareView {
  oldFile?: string;
  old: Row[];
  summary: string;
  regressed: boolean;
  groups: ChangeGroup[];
  added: { id: string; status: string }[];
  removed: { id: string; status: string }[];
}

interface CompatView {
  file?: string;
  minors: string[];
  selection: string;
  counts: { status: Status; cells: number[] }[];
  cases: { id: string; cells: { status: Status | ''; message: string }[] }[];
  violations: { id: string; minor: string; status: Status; message: string }[];
}

interface ReportView {
  title: string;
  verdict: { ok: boolean; text: string };
  resultsFile?: string;
  identity: Row[];
  attributes: Row[];
  run: Row[];
  counts: CountsTable;
  nonPass: NonPassGroup[];
  rootCauses: RootCause[];
  moreRootCauses: RootCause[];
  counters?: { rows: Row[]; phases: { phase: string; ms: string }[]; resets: string[] };
  matrix?: MatrixView;
  compare?: CompareView;
  compat?: CompatView;
  stale: { tests: string; reason: string }[];
  generated: string;
  ctsVersion: string;
}

const fmtValue = (v: unknown): string => (Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

function fmtMs(ms: number): string {
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function devicesText(r: ResultsFile): string {
  const ds = r.plugin.devices ?? [];
  if (!ds.length) return 'not reported';
  const kinds = new Map<string, number>();
  for (const d of ds) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
  const procs = new Set(ds.map((d) => d.processIndex ?? 0));
  const ids = ds.map((d) => d.id).join(', ');
  return `${ds.length}: ${[...kinds].map(([k, n]) => `${n} × ${k}`).join(', ')} (ids ${ids}; ${procs.size} process${procs.size > 1 ? 'es' : ''})`;
}

function identityRows(r: ResultsFile): Row[] {
  const p = r.plugin;
  const rows: Row[] = [
    { label: 'Plugin', value: p.name },
    { label: 'Library', value: p.path, mono: true },
    { label: 'SHA-256', value: p.sha256 ?? 'not recorded', mono: true },
    { label: 'PJRT C API', value: p.apiVersion ? `${p.apiVersion.major}.${p.apiVersion.minor}` : 'not reported' },
  ];
  if (p.structSize !== undefined) rows.push({ label: 'PJRT_Api struct_size', value: String(p.structSize) });
  if (p.platformName !== undefined || p.platformVersion !== undefined) {
    rows.push({ label: 'Platform', value: `${p.platformName ?? '?'} ${p.platformVersion ?? ''}`.trim() });
  }
  rows.push({ label: 'Devices', value: devicesText(r) });
  const opts = Object.entries(p.createOptions ?? {});
  rows.push({ label: 'Create options', value: opts.length ? opts.map(([k, v]) => `${k}=${fmtValue(v)}`).join(', ') : 'none', mono: opts.length > 0 });
  const env = Object.entries(p.env ?? {});
  rows.push({ label: 'Environment', value: env.length ? env.map(([k, v]) => `${k}=${v}`).join(' ') : p.env ? 'none set' : 'not recorded', mono: env.length > 0 });
  return rows;
}

function runRows(r: ResultsFile): Row[] {
  const o = r.run;
  const sel: string[] = [];
  if (o.strict) sel.push('--strict');
  if (o.gate !== undefined) sel.push(`--gate tier${o.gate}`);
  sel.push(`tiers ≤ ${o.maxTier}`);
  for (const f of o.filters) sel.push(`--filter ${f}`);
  for (const x of o.excludes) sel.push(`--exclude ${x}`);
  if (o.shard) sel.push(`--shard ${o.shard}`);
  if (o.expectations) sel.push(`--expectations ${o.expectations}`);
  if (o.programs) sel.push(`--programs ${o.programs}`);
  sel.push(`--jobs ${o.jobs}`, `--retries ${o.retries}`);
  if (o.timeoutMs !== undefined) sel.push(`--timeout ${o.timeoutMs}`);
  if (o.warmupTimeoutMs !== undefined) sel.push(`--warmup-timeout ${o.warmupTimeoutMs}`);
  if (o.maxFailures !== undefined) sel.push(`--max-failures ${o.maxFailures}`);
  if (o.maxClientFailures !== undefined) sel.push(`--max-client-failures ${o.maxClientFailures}`);
  if (o.maxCallFailures !== undefined) sel.push(`--max-call-failures ${o.maxCallFailures}`);
  const rows: Row[] = [
    { label: 'CTS version', value: r.cts.version },
    { label: 'Started', value: r.startedAt },
    { label: 'Duration', value: fmtMs(r.durationMs) },
    { label: 'Options', value: sel.join(' '), mono: true },
    { label: 'API minor spoken', value: o.apiMinor !== undefined ? `0.${o.apiMinor}` : 'the CTS\'s newest (not recorded)' },
  ];
  if (o.profile) rows.push({ label: 'Profile', value: profileHeadline(r) });
  if (r.coverage) rows.push({ label: 'Selected', value: `${r.coverage.selected} case(s), ${r.coverage.selfTests} of them self-tests of the reference plugin` });
  const e = r.environment;
  rows.push({ label: 'Host', value: `${e.hostname} (${e.platform} ${e.arch}, ${e.cpus} CPUs, Node ${e.node})` });
  rows.push({ label: 'Exit code', value: String(r.exitCode) });
  return rows;
}

function counts(r: ResultsFile): CountsTable {
  const tiers = Object.keys(r.totals.byTier).sort((a, b) => Number(a) - Number(b));
  const seen = new Set<string>(Object.keys(r.totals.byStatus));
  for (const t of tiers) for (const s of Object.keys(r.totals.byTier[t]!)) seen.add(s);
  // pass, fail and warn always have a column; the other statuses when they occur.
  const statuses = ORDER.filter((s) => s === 'pass' || s === 'fail' || s === 'warn' || seen.has(s));
  statuses.sort((a, b) => (a === 'pass' ? -1 : b === 'pass' ? 1 : 0));
  const rows = tiers.map((t) => {
    const c = r.totals.byTier[t]!;
    const cells = statuses.map((s) => c[s] ?? 0);
    return { tier: `tier ${t}`, cells, total: Object.values(c).reduce((a, b) => a + b, 0) };
  });
  const cells = statuses.map((s) => r.totals.byStatus[s] ?? 0);
  return { statuses, rows, total: { cells, total: Object.values(r.totals.byStatus).reduce((a, b) => a + b, 0) } };
}

/** Statuses whose cases are listed by the rule they broke (with each citation once per rule). */
const BY_RULE: ReadonlySet<Status> = new Set<Status>([...FAILING, 'warn', 'xfail']);

function nonPass(results: readonly CaseResult[]): NonPassGroup[] {
  const groups: NonPassGroup[] = [];
  for (const status of ORDER) {
    if (status === 'pass') continue;
    const cases = results.filter((c) => c.status === status).sort((a, b) => a.id.localeCompare(b.id));
    if (!cases.length) continue;
    const byRule = BY_RULE.has(status);
    const rules = new Map<string, CaseResult[]>();
    for (const c of cases) {
      const k = byRule ? ruleOfResult(c) : '';
      (rules.get(k) ?? rules.set(k, []).get(k)!).push(c);
    }
    groups.push({
      status, note: STATUS_NOTE[status], open: OPEN.has(status), count: cases.length,
      rules: [...rules].sort(([, a], [, b]) => b.length - a.length).map(([rule, list]) => ({
        rule,
        cites: byRule ? [...new Set(list.map((c) => c.cite))] : [],
        items: list.map((c): NonPassItem => ({
          id: c.id, tier: c.tier, source: c.source, message: c.message ?? '', ...(byRule ? {} : { cite: c.cite }),
          ...(c.selfTest ? { selfTest: c.selfTest } : {}),
          ...(c.expectation ? { expectation: `${c.expectation.reason}${c.expectation.issue ? ` (${c.expectation.issue})` : ''}` } : {}),
          ...(c.attempts && c.attempts > 1 ? { attempts: c.attempts } : {}),
        })),
      })),
    });
  }
  return groups;
}

function matrix(m: ResultsFile['capabilities']): MatrixView | undefined {
  const { rows, cols } = matrixAxes(m);
  if (!rows.length) return undefined;
  return {
    cols,
    rows: rows.map((name) => ({
      name,
      cells: cols.map((c) => {
        const key = c ? `${name}/${c}` : name;
        const v = m[key];
        if (v === undefined) return { cls: 'cap-none', mark: '', title: `${key}: not tested` };
        if (v === 'warn') return { cls: 'cap-warn', mark: '!', title: `${key}: only quality checks found it lacking` };
        return v ? { cls: 'cap-yes', mark: '✓', title: `${key}: works` } : { cls: 'cap-no', mark: '✗', title: `${key}: lacking` };
      }),
    })),
    legend: [
      { cls: 'cap-yes', mark: '✓', text: 'works' },
      { cls: 'cap-no', mark: '✗', text: 'lacking' },
      { cls: 'cap-warn', mark: '!', text: 'only quality checks found it lacking' },
      { cls: 'cap-none', mark: '', text: 'not tested' },
    ],
  };
}

function compareView(c: NonNullable<HtmlReportInput['compare']>): CompareView {
  const x = c.comparison;
  // The first line of each message: the whole message is in the non-pass section.
  const ch = (xs: Change[]): ChangeGroup['items'] => xs.map((v) => ({ id: v.id, from: v.from, to: v.to, message: (v.message ?? '').split('\n')[0]! }));
  const groups: ChangeGroup[] = [
    { title: 'Regressions', cls: 'bad', open: true, items: ch(x.regressions) },
    { title: 'Fixes', cls: 'good', open: true, items: ch(x.fixes) },
    { title: 'New warnings (quality checks)', cls: 'warn', open: true, items: ch(x.newWarnings) },
    { title: 'Newly unsupported', cls: 'neutral', open: false, items: ch(x.newlyUnsupported) },
    { title: 'Other changes', cls: 'neutral', open: false, items: ch(x.otherChanges) },
  ];
  return {
    ...(c.file ? { oldFile: c.file } : {}),
    old: [...identityRows(c.old).filter((r) => ['Plugin', 'SHA-256', 'PJRT C API', 'Platform'].includes(r.label)),
      { label: 'CTS version', value: c.old.cts.version }, { label: 'Started', value: c.old.startedAt }],
    summary: `${x.regressions.length} regression(s), ${x.fixes.length} fix(es), ${x.newlyUnsupported.length} newly unsupported, ` +
      `${x.newWarnings.length} new warning(s), ${x.otherChanges.length} other change(s), ${x.added.length} new id(s), ${x.removed.length} removed`,
    regressed: x.regressions.length > 0,
    groups,
    added: x.added.map((a) => ({ id: a.id, status: a.status })),
    removed: x.removed.map((a) => ({ id: a.id, status: a.status })),
  };
}

function compatView(c: NonNullable<HtmlReportInput['compat']>): CompatView {
  const r = c.report;
  const keys = r.minors.map(String);
  const seen = new Set<string>(keys.flatMap((m) => Object.keys(r.counts[m] ?? {})));
  const sel = [`tiers ≤ ${r.selection.maxTier}`, ...r.selection.filters.map((f) => `--filter ${f}`), ...r.selection.excludes.map((x) => `--exclude ${x}`)];
  return {
    ...(c.file ? { file: c.file } : {}),
    minors: keys.map((m) => `0.${m}`),
    selection: sel.join(' '),
    counts: ORDER.filter((s) => seen.has(s)).map((status) => ({ status, cells: keys.map((m) => r.counts[m]?.[status] ?? 0) })),
    cases: r.cases.map((x) => ({
      id: x.id,
      cells: keys.map((m) => ({ status: x.statuses[m] ?? '', message: (x.messages?.[m] ?? '').split('\n')[0]! })),
    })),
    violations: r.windowViolations.map((w) => ({ id: w.id, minor: `0.${w.minor}`, status: w.status, message: (w.message ?? '').split('\n')[0]! })),
  };
}

function verdict(r: ResultsFile): ReportView['verdict'] {
  const failed = STATUSES.filter((s) => FAILING.has(s)).reduce((a, s) => a + (r.totals.byStatus[s] ?? 0), 0);
  const passed = r.totals.byStatus['pass'] ?? 0;
  const parts = [`${passed} passed`, `${failed} failed`];
  for (const s of ['warn', 'unsupported', 'skip', 'xfail', 'flaky'] as const) if (r.totals.byStatus[s]) parts.push(`${r.totals.byStatus[s]} ${s}`);
  let head = r.exitCode === 0 ? 'Run passed' : 'Run failed';
  if (r.interrupted) head = 'Run interrupted';
  else if (r.stopped) head = `Run stopped: ${r.stopped}`;
  const profile = profileHeadline(r);
  if (profile) head = `${head} (${profile})`;
  return { ok: r.exitCode === 0 && !r.interrupted && !r.stopped, text: `${head} — ${parts.join(', ')}` };
}

/** Everything the templates show, computed here so the templates only lay it out. */
function reportView(input: HtmlReportInput): ReportView {
  const r = input.results;
  const c = r.counters;
  return {
    title: `pjrt-cts report: ${r.plugin.name}`,
    verdict: verdict(r),
    ...(input.resultsFile ? { resultsFile: input.resultsFile } : {}),
    identity: identityRows(r),
    attributes: Object.entries(r.plugin.attributes ?? {}).map(([k, v]) => ({ label: k, value: fmtValue(v) })),
    run: runRows(r),
    counts: counts(r),
    nonPass: nonPass(r.results),
    ...(() => {
      // Causes shared by several cases first (the list is sorted largest first); past ROOT_CAUSES_SHOWN, folded.
      const all = (r.rootCauses ?? []).map((x): RootCause => ({
        rule: x.rule ?? x.message, count: x.count, status: x.status, message: x.message, ids: x.ids, ...(x.foundation ? { foundation: x.foundation } : {}), ...(x.repro ? { repro: x.repro } : {}),
        following: x.following ?? [], followingCount: (x.following ?? []).reduce((a, f) => a + f.count, 0),
      }));
      return { rootCauses: all.slice(0, ROOT_CAUSES_SHOWN), moreRootCauses: all.slice(ROOT_CAUSES_SHOWN) };
    })(),
    ...(c ? {
      counters: {
        rows: [
          { label: 'Workers', value: `${c.workersStarted} started, ${c.workersReplaced} replaced` },
          { label: 'Clients', value: `${c.clientsCreated} created, ${c.sharedClientsCreated} of them shared` },
          { label: 'Programs compiled', value: String(c.programsCompiled) },
          { label: 'Peak worker memory', value: `${c.peakWorkerRssMiB} MiB` },
        ],
        phases: Object.entries(c.phaseMs).map(([phase, ms]) => ({ phase, ms: fmtMs(ms) })),
        resets: c.sharedClientResets,
      },
    } : {}),
    ...(() => {
      const m = matrix(r.capabilities);
      return m ? { matrix: m } : {};
    })(),
    ...(input.compare ? { compare: compareView(input.compare) } : {}),
    ...(input.compat ? { compat: compatView(input.compat) } : {}),
    stale: r.staleExpectations.map((s) => ({ tests: [...s.tests, ...(s.rules ?? []).map((k) => `rule ${k}`)].join(', '), reason: s.reason })),
    generated: (input.generatedAt ?? new Date()).toISOString(),
    ctsVersion: r.cts.version,
  };
}

export function templatesDir(): string {
  return path.join(packageRoot(), 'reporters', 'templates');
}

let eta: Eta | undefined;

/** The report as one HTML document. Every value is escaped by Eta (autoEscape); templates never print raw data. */
export function renderHtmlReport(input: HtmlReportInput): string {
  eta ??= new Eta({ views: templatesDir(), autoEscape: true, cache: true, autoTrim: [false, 'nl'] });
  return eta.render('report', { v: reportView(input) });
}

interface ReportCommandOptions { compare?: string; compat?: string; output: string }

/**
 * `pjrt-cts report RESULTS.json [--compare OLD.json] [--compat COMPAT.json] -o report.html`: inputs are validated against the results
 * schema and the output path is checked before anything is rendered (each problem is one ConfigError line).
 * Returns the absolute path written.
 */
export function writeHtmlReport(resultsFile: string, o: ReportCommandOptions): string {
  checkOutputs([named('--output', o.output)], [named('<results>', resultsFile), named('--compare', o.compare), named('--compat', o.compat)]);
  const results = loadResultsOrStream(resultsFile);
  const old = o.compare !== undefined ? loadResultsOrStream(o.compare) : undefined;
  const compat = o.compat !== undefined ? loadJson(o.compat, CompatReport) : undefined;
  const html = renderHtmlReport({
    results, resultsFile,
    ...(compat && o.compat !== undefined ? { compat: { report: compat, file: o.compat } } : {}),
    ...(old && o.compare !== undefined ? { compare: { old, file: o.compare, comparison: compareResults(old, results) } } : {}),
  });
  const abs = path.resolve(o.output);
  writeFileAtomic(abs, html);
  return abs;
}

/** `run --html FILE`: the report of this run, written when it ends. */
export class HtmlReporter implements Reporter {
  constructor(readonly file: string) {}
  begin(): void {}
  result(): void {}
  end(e: RunEnd): void {
    e.outputs.write('HTML report', this.file, () => writeFileAtomic(this.file, renderHtmlReport({ results: e.file })));
  }
}

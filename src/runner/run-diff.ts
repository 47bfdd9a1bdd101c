// Two runs side by side: read a run (results file or .jsonl stream, as a RunView) and sort what changed between
// two lists of case results (regression, fix, newly unsupported, ...). Used by `compare` (src/cli/compare.ts),
// `report --compare` (reporters/html.ts) and the stream reader (stream-results.ts).
import { PJRT_API_MINOR } from '../abi/index.js';
import { ConfigError, fromZod } from '../config/errors.js';
import { checkDepth, loadJson, readInputFile } from '../config/load-json.js';
import { CaseResult, FAILING, ResultsFile, StreamHeader, type Status } from '../config/results.js';

const GOOD: ReadonlySet<Status> = new Set(['pass', 'xpass', 'flaky']);
const NOT_RUN: ReadonlySet<Status> = new Set(['unsupported', 'skip']);

export interface Change { id: string; from: Status; to: Status; message?: string }
export interface Comparison {
  regressions: Change[];
  fixes: Change[];
  newlyUnsupported: Change[];
  /** Quality checks that held before and warn now (never a regression of the gate). */
  newWarnings: Change[];
  otherChanges: Change[];
  added: { id: string; status: Status }[];
  removed: { id: string; status: Status }[];
  old: { plugin: string; version?: string; sha256?: string };
  new: { plugin: string; version?: string; sha256?: string };
}

export interface CompareOptions {
  /** pass → unsupported/skip is a newly-unsupported change, not a regression. */
  allowNewUnsupported?: boolean;
}

/** A run as compare sees it: from a results file, or from a .jsonl stream (header + case records). */
export interface RunView {
  file: string;
  cts: string;
  apiMinor: number;
  run: ResultsFile['run'];
  plugin: { name: string; path: string; version?: string; sha256?: string; createOptions?: Record<string, unknown>; topologyOptions?: Record<string, unknown> };
  results: CaseResult[];
  /** When the run began (the stream's header, the results file's startedAt). */
  startedAt?: string;
  /** Why the run's record is incomplete: "interrupted …" or "truncated at line N …" (absent: complete). */
  incomplete?: string;
}

export function who(r: Pick<RunView, 'plugin'>): Comparison['old'] {
  return { plugin: r.plugin.name, ...(r.plugin.version ? { version: r.plugin.version } : {}), ...(r.plugin.sha256 ? { sha256: r.plugin.sha256 } : {}) };
}

function viewOf(file: string, r: ResultsFile): RunView {
  const p = r.plugin;
  return {
    file, cts: r.cts.version, apiMinor: r.run.apiMinor ?? PJRT_API_MINOR, run: r.run, results: r.results, startedAt: r.startedAt,
    ...(r.interrupted ? { incomplete: 'interrupted (the results file says so)' } : {}),
    plugin: { name: p.name, path: p.path, ...(p.platformVersion ? { version: p.platformVersion } : {}), ...(p.sha256 ? { sha256: p.sha256 } : {}), ...(p.createOptions ? { createOptions: p.createOptions } : {}), ...(p.topologyOptions ? { topologyOptions: p.topologyOptions } : {}) },
  };
}

export function changes(before: readonly CaseResult[], after: readonly CaseResult[], opts: CompareOptions): Omit<Comparison, 'old' | 'new'> {
  const old = new Map(before.map((r) => [r.id, r]));
  const now = new Map(after.map((r) => [r.id, r]));
  const out: Omit<Comparison, 'old' | 'new'> = { regressions: [], fixes: [], newlyUnsupported: [], newWarnings: [], otherChanges: [], added: [], removed: [] };
  for (const [id, n] of now) {
    const o = old.get(id);
    if (!o) {
      out.added.push({ id, status: n.status });
      continue;
    }
    if (o.status === n.status) continue;
    const ch: Change = { id, from: o.status, to: n.status, ...(n.message ? { message: n.message } : {}) };
    if (GOOD.has(o.status) && FAILING.has(n.status)) out.regressions.push(ch);
    else if (GOOD.has(o.status) && NOT_RUN.has(n.status) && !opts.allowNewUnsupported) out.regressions.push(ch);
    else if (FAILING.has(o.status) && GOOD.has(n.status)) out.fixes.push(ch);
    else if (NOT_RUN.has(n.status)) out.newlyUnsupported.push(ch);
    else if (n.status === 'warn') out.newWarnings.push(ch);
    else out.otherChanges.push(ch);
  }
  for (const [id, o] of old) if (!now.has(id)) out.removed.push({ id, status: o.status });
  return out;
}

export function compareResults(a: ResultsFile, b: ResultsFile, opts: CompareOptions = {}): Comparison {
  return { ...changes(a.results, b.results, opts), old: who(viewOf('', a)), new: who(viewOf('', b)) };
}

export function loadResults(file: string): ResultsFile {
  return loadJson(file, ResultsFile);
}

/** A results file, or a `.jsonl` stream whose first line is the run's header (a stream cut short loses its last line only). */
export function loadRun(file: string): RunView {
  if (!file.endsWith('.jsonl')) return viewOf(file, loadResults(file));
  const text = readInputFile(file, 'a JSON Lines file');
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let truncatedAt: number | undefined;
  const parse = (l: string, i: number): unknown => {
    let v: unknown;
    try {
      v = JSON.parse(l) as unknown;
    } catch (e) {
      if (i === lines.length - 1 && i > 0) {
        truncatedAt = i + 1; // the last line of a stream cut short (a killed run, a full disk)
        return undefined;
      }
      throw new ConfigError(file, `line ${i + 1}`, `expected JSON: ${(e as Error).message}`);
    }
    return checkDepth(v, file, `line ${i + 1}`);
  };
  const first = lines.length ? parse(lines[0]!, 0) : undefined;
  const h = StreamHeader.safeParse(first);
  if (!h.success) {
    if (first === undefined || (typeof first === 'object' && first !== null && typeof (first as { id?: unknown }).id === 'string')) {
      throw new ConfigError(file, 'line 1', 'expected a header record {"type": "header", …} with the run\'s identity (streams written before pjrt-cts had one cannot be compared)');
    }
    throw fromZod(`${file}: line 1`, h.error, first);
  }
  // A later record of the same id is an amendment (reporters/jsonl.ts): it replaces the earlier one in place.
  const byId = new Map<string, CaseResult>();
  for (let i = 1; i < lines.length; i++) {
    const rec = parse(lines[i]!, i);
    if (typeof rec !== 'object' || rec === null || typeof (rec as { id?: unknown }).id !== 'string') continue;
    const r = CaseResult.safeParse(rec);
    if (!r.success) throw fromZod(`${file}: line ${i + 1}`, r.error, rec);
    byId.set(r.data.id, r.data);
  }
  const results = [...byId.values()];
  const hd = h.data;
  const incomplete = truncatedAt !== undefined
    ? `truncated at line ${truncatedAt} (its last line is cut short: the run was killed or its disk filled up)`
    : hd.selected !== undefined && results.length < hd.selected ? `interrupted: ${results.length} of the ${hd.selected} selected case(s) recorded` : undefined;
  return {
    file, cts: hd.cts.version, apiMinor: hd.apiMinor, run: hd.run, results, startedAt: hd.startedAt, ...(incomplete ? { incomplete } : {}),
    plugin: { name: hd.plugin.name, path: hd.plugin.path, ...(hd.plugin.createOptions ? { createOptions: hd.plugin.createOptions } : {}), ...(hd.plugin.topologyOptions ? { topologyOptions: hd.plugin.topologyOptions } : {}) },
  };
}


// A case's PJRT calls, recorded by running the case once more in a worker with the call log on ($PJRT_CTS_CALL_LOG,
// src/ffi/call-log.ts), and their readable form (calls.txt of a reproducer). Several cases are recorded in one
// schedule: each worker writes a `case` line before each case it runs, and a case's recording is its worker's setup
// (the calls before that worker's first case) and its own calls.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NamedValues } from '../config/named-value.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { CALL_LOG_ENV, optionsKey, type LoggedValue, type LogLine } from '../ffi/call-log.js';
import type { CatalogueEntry } from '../harness/types.js';
import { schedule } from '../runner/scheduler.js';

type CallLine = Extract<LogLine, { at: 'call' }>;
type Answer = Exclude<LogLine, { at: 'case' } | { at: 'worker' }>;

export interface Recording {
  /** the calls of the worker before its first case (loading the plugin, creating the client), shared by its cases */
  setup: Answer[];
  /** the case's own calls */
  lines: Answer[];
  /** the case's status and message in the recording run */
  status: string;
  message?: string;
  /** where it was recorded: the plugin's library and why that one */
  plugin: string;
  why: string;
}

/** One case to record; `createOptions` replace the plugin's for it (the reference plugin's `faults`). */
export interface RecordRequest { entry: CatalogueEntry; createOptions?: NamedValues }

interface Section { id: string; options?: string; setup: Answer[]; lines: Answer[] }

/** The log of one lane cut into its cases (each worker's lines start with its `worker` line). */
function sections(text: string): Section[] {
  const out: Section[] = [];
  let setup: Answer[] = [];
  let current: Section | undefined;
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    let l: LogLine;
    try {
      l = JSON.parse(raw) as LogLine;
    } catch {
      continue; // a line cut by the worker's death
    }
    if (l.at === 'case') {
      current = { id: l.id, ...(l.options !== undefined ? { options: l.options } : {}), setup, lines: [] };
      out.push(current);
      continue;
    }
    if (l.at === 'worker') {
      setup = [];
      current = undefined;
      continue;
    }
    (current ? current.lines : setup).push(l);
  }
  return out;
}

/**
 * Runs the requested cases with the call log on, `lanes` workers at a time (one log each), each case once; a crash
 * costs its worker, the next case gets a fresh one. The recordings come back in the order of the requests.
 */
export async function recordCases(requests: readonly RecordRequest[], plugin: ResolvedPlugin, why: string, opts: { programs?: string; lanes?: number; timeoutMs?: number } = {}): Promise<Recording[]> {
  const { programs, lanes = 1 } = opts;
  const out: Recording[] = new Array(requests.length);
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-calls-'));
  try {
    const n = Math.max(1, Math.min(lanes, requests.length));
    await Promise.all(Array.from({ length: n }, async (_, lane) => {
      const mine = requests.map((r, i) => ({ r, i })).filter((x) => x.i % n === lane);
      const file = path.join(dir, `calls-${lane}.jsonl`);
      // one entry object per request: the result names its request even when an id is asked twice
      const own = new Map(mine.map((x) => [{ ...x.r.entry, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) }, x] as const));
      const results = new Map<number, { status: string; message?: string }>();
      await schedule(
        {
          cases: [...own.keys()], plugin: { ...plugin, env: { ...plugin.env, [CALL_LOG_ENV]: file } }, jobs: 1, retries: 0,
          defaultTimeoutMs: opts.timeoutMs ?? 60000, ...(programs ? { programs } : {}),
          ...(mine.some((x) => x.r.createOptions) ? { createOptionsFor: (e: CatalogueEntry) => own.get(e)?.r.createOptions ?? plugin.createOptions } : {}),
        },
        { onResult: (r) => { const x = own.get(r.entry); if (x) results.set(x.i, { status: r.status, ...(r.message !== undefined ? { message: r.message } : {}) }); } },
      );
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch { /* no case made a call */ }
      // each request takes the first unclaimed section of its id and options, in the order they ran
      const left = sections(text);
      for (const { r, i } of mine) {
        const key = r.createOptions ? optionsKey(r.createOptions) : undefined;
        const k = left.findIndex((s) => s.id === r.entry.id && (key === undefined || s.options === key));
        const s = k === -1 ? undefined : left.splice(k, 1)[0];
        const res = results.get(i) ?? { status: 'missing' };
        out[i] = { setup: s?.setup ?? [], lines: s?.lines ?? [], ...res, plugin: plugin.library, why };
      }
    }));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `entry` once with the call log on; the log survives a crash of the worker. */
export async function recordCase(entry: CatalogueEntry, plugin: ResolvedPlugin, why: string, programs?: string): Promise<Recording> {
  const [r] = await recordCases([{ entry }], plugin, why, programs ? { programs } : {});
  return r!;
}

/** The case's own calls (not its worker's setup), in order. */
export const callLines = (r: Recording): CallLine[] => r.lines.filter((l): l is CallLine => l.at === 'call');

function show(v: LoggedValue, depth = 0): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => show(x, depth + 1)).join(', ')}]`;
  if (typeof v.size === 'number' && typeof v.nul === 'boolean') {
    const after = v.guard === 'after_code' ? ', then an unreadable page' : v.guard === 'after_nul' ? ', NUL after them, then an unreadable page' : v.nul ? ', NUL after them' : ', no NUL after them';
    const tail = `${v.size} bytes${after}`;
    if (typeof v.text === 'string') return `${JSON.stringify(v.text.length > 160 ? `${v.text.slice(0, 160)}…` : v.text)} (${tail})`;
    const hex = typeof v.hex === 'string' ? v.hex : '';
    return `<${hex.slice(0, 64)}${hex.length > 64 ? '…' : ''}> (${tail})`;
  }
  return `{${Object.entries(v).map(([k, x]) => `${k}=${x === undefined ? '' : show(x, depth + 1)}`).join(', ')}}`;
}

/** One line per call: `#12 PJRT_X(a=…, b=…) → out=…` or `→ error CODE: message`; the last call without an answer is marked. */
function renderLines(lines: readonly Answer[]): string[] {
  const out: string[] = [];
  const answered = new Set<number>();
  for (const l of lines) if (l.at === 'return') answered.add(l.seq);
  const byReturn = new Map(lines.filter((l): l is Extract<LogLine, { at: 'return' }> => l.at === 'return').map((l) => [l.seq, l]));
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.at !== 'call') continue;
    const args = Object.entries(l.args).map(([k, v]) => `${k}=${show(v)}`).join(', ');
    const ret = byReturn.get(l.seq);
    const err = lines.slice(i + 1).find((x): x is Extract<LogLine, { at: 'error' }> => x.at === 'error' && x.slot === l.slot);
    const nextCall = lines.slice(i + 1).find((x) => x.at === 'call');
    const erred = err && (!nextCall || lines.indexOf(err) < lines.indexOf(nextCall));
    const outs = ret ? Object.entries(ret.out).map(([k, v]) => `${k}=${show(v)}`).join(', ') : '';
    const tail = !answered.has(l.seq) ? '   <- no return: in flight when the worker ended' : erred ? ` -> error ${err.code}: ${err.message.split('\n')[0]}` : outs ? ` -> ${outs}` : '';
    out.push(`#${l.seq} ${l.slot}(${args})${tail}`);
  }
  return out;
}

/** The worker's setup, then the case's calls, each under a heading line. */
export function renderCalls(r: Recording): string {
  const setup = renderLines(r.setup);
  return [
    ...(setup.length ? ['# the worker\'s setup (loading the plugin, creating its client), before the case', ...setup, ''] : []),
    '# the case',
    ...renderLines(r.lines),
    '',
  ].join('\n');
}

// A case's PJRT calls, recorded by running the case once more in a worker with the call log on ($PJRT_CTS_CALL_LOG,
// src/ffi/call-log.ts), and their readable form (calls.txt of a reproducer).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { CALL_LOG_ENV, type LoggedValue, type LogLine } from '../ffi/call-log.js';
import type { CatalogueEntry } from '../harness/types.js';
import { schedule } from '../runner/scheduler.js';

export interface Recording {
  lines: LogLine[];
  /** the case's status and message in the recording run */
  status: string;
  message?: string;
  /** where it was recorded: the plugin's library and why that one */
  plugin: string;
  why: string;
}

/** Runs `entry` once in a fresh worker with the call log on; the log survives a crash of the worker. */
export async function recordCase(entry: CatalogueEntry, plugin: ResolvedPlugin, why: string, programs?: string): Promise<Recording> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-calls-'));
  const file = path.join(dir, 'calls.jsonl');
  let status = 'missing';
  let message: string | undefined;
  try {
    await schedule(
      { cases: [entry], plugin: { ...plugin, env: { ...plugin.env, [CALL_LOG_ENV]: file } }, jobs: 1, retries: 0, defaultTimeoutMs: entry.timeoutMs ?? 60000, ...(programs ? { programs } : {}) },
      { onResult: (r) => { status = r.status; message = r.message; } },
    );
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch { /* the case made no call */ }
    const lines = text.split('\n').filter(Boolean).flatMap((l) => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return []; // a line cut by the worker's death
      }
    });
    return { lines, status, ...(message !== undefined ? { message } : {}), plugin: plugin.library, why };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const callLines = (r: Recording): Extract<LogLine, { at: 'call' }>[] => r.lines.filter((l): l is Extract<LogLine, { at: 'call' }> => l.at === 'call');

function show(v: LoggedValue, depth = 0): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => show(x, depth + 1)).join(', ')}]`;
  if (typeof v.size === 'number' && typeof v.nul === 'boolean') {
    const tail = `${v.size} bytes${v.nul ? ', NUL after them' : ', no NUL after them'}`;
    if (typeof v.text === 'string') return `${JSON.stringify(v.text.length > 160 ? `${v.text.slice(0, 160)}…` : v.text)} (${tail})`;
    const hex = typeof v.hex === 'string' ? v.hex : '';
    return `<${hex.slice(0, 64)}${hex.length > 64 ? '…' : ''}> (${tail})`;
  }
  return `{${Object.entries(v).map(([k, x]) => `${k}=${x === undefined ? '' : show(x, depth + 1)}`).join(', ')}}`;
}

/** One line per call: `#12 PJRT_X(a=…, b=…) → out=…` or `→ error CODE: message`; the last call without an answer is marked. */
export function renderCalls(r: Recording): string {
  const out: string[] = [];
  const answered = new Set<number>();
  for (const l of r.lines) if (l.at === 'return') answered.add(l.seq);
  const byReturn = new Map(r.lines.filter((l): l is Extract<LogLine, { at: 'return' }> => l.at === 'return').map((l) => [l.seq, l]));
  const lines = r.lines;
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
  return `${out.join('\n')}\n`;
}

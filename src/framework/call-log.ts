// Reads the call-trace shim's log (the format is described at the top of native/call-trace/call_trace.cc): which
// PJRT calls a framework made, which failed, and which never returned — the call behind a crash, a hang or an error.
import { errorCodeName } from '../abi/index.js';

/** One PJRT call: `returned` once its E line is there; then `code` (0: no error) and, for an error, `message`. */
export interface CallRecord {
  seq: number;
  tid: number;
  slot: string;
  code?: number;
  message?: string;
  returned: boolean;
}

/** A program compiled (PJRT_Client_Compile, PJRT_Compile), saved with its compile options (serialized proto). */
export interface ProgramRecord {
  seq: number;
  slot: string;
  format: string;
  file: string;
  options: string;
}

/** A log's process and plugin (from its first header line) and its records, calls in the order they began. */
export interface CallLog {
  pid?: number;
  plugin?: string;
  calls: CallRecord[];
  programs: ProgramRecord[];
}

const MAGIC = 'pjrt-cts-call-trace';

/** A PJRT_Error_Code's name (unknown codes spelled out). */
export const codeName: (code: number) => string = errorCodeName;

const unescape = (s: string): string => s.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));

function count(field: string | undefined): number | undefined {
  return field !== undefined && /^-?\d+$/.test(field) ? Number(field) : undefined;
}

/**
 * The records of a log. Tolerant: a torn last line (the process died while writing it) and lines that are not
 * records are left out. A call is matched to its end by seq and thread, so a log several processes appended to
 * still pairs every call.
 */
export function parseCallLog(text: string): CallLog {
  const log: CallLog = { calls: [], programs: [] };
  const open = new Map<string, CallRecord>();
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a line cut short
  for (const line of lines) {
    const f = line.split('\t');
    const [tag, , , slot] = f;
    const seq = count(f[1]);
    const tid = count(f[2]);
    if (tag === '#' && f[1] === MAGIC) {
      log.plugin ??= f[3] === undefined ? undefined : unescape(f[3]);
      log.pid ??= count(f[4]);
    } else if (tag === 'B' && seq !== undefined && tid !== undefined && slot) {
      const call: CallRecord = { seq, tid, slot, returned: false };
      log.calls.push(call);
      open.set(`${seq}:${tid}`, call);
    } else if (tag === 'E' && seq !== undefined && tid !== undefined && slot && count(f[4]) !== undefined) {
      const code = count(f[4])!;
      const key = `${seq}:${tid}`;
      const call = open.get(key) ?? { seq, tid, slot, returned: false }; // its B line lost
      if (!open.delete(key)) log.calls.push(call);
      Object.assign(call, { returned: true, code }, code === 0 ? {} : { message: unescape(f[5] ?? '') });
    } else if (tag === 'P' && seq !== undefined && f.length >= 6) {
      log.programs.push({ seq, slot: f[2]!, format: unescape(f[3]!), file: unescape(f[4]!), options: unescape(f[5]!) });
    }
  }
  return log;
}

/** Calls that began and never returned: what a crash or a hang was in. */
export function inFlight(log: CallLog): CallRecord[] {
  return log.calls.filter((c) => !c.returned);
}

/** Calls that returned an error. */
export function errors(log: CallLog): CallRecord[] {
  return log.calls.filter((c) => c.returned && c.code !== undefined && c.code !== 0);
}

/**
 * The call to blame, in one line: the call(s) in flight ("during PJRT_LoadedExecutable_Execute"), else the last
 * error ("PJRT_Client_Compile returned UNIMPLEMENTED: …"), else undefined.
 */
export function describeBlame(log: CallLog): string | undefined {
  const flying = inFlight(log);
  if (flying.length) return `during ${[...new Set(flying.map((c) => c.slot))].join(', ')}`;
  const last = errors(log).at(-1);
  if (!last) return undefined;
  const message = last.message?.replace(/\s*\n\s*/g, ' ').trim();
  return `${last.slot} returned ${codeName(last.code!)}${message ? `: ${message}` : ''}`;
}

/**
 * Where a wrong value came from, in one line: the executions whose results JAX read back, and the read-backs
 * ("from PJRT_LoadedExecutable_Execute (3 calls), read with PJRT_Buffer_ToHostBuffer (5 calls)"); undefined when
 * the log has neither.
 */
export function describeValuePath(log: CallLog): string | undefined {
  const counted = (slots: readonly string[]): string[] => slots.flatMap((slot) => {
    const n = log.calls.filter((c) => c.slot === slot).length;
    return n ? [`${slot} (${n} call${n === 1 ? '' : 's'})`] : [];
  });
  const made = counted(['PJRT_LoadedExecutable_Execute', 'PJRT_Buffer_CopyToDevice', 'PJRT_Buffer_CopyToMemory']);
  const read = counted(['PJRT_Buffer_ToHostBuffer']);
  if (!made.length && !read.length) return undefined;
  return [made.length ? `from ${made.join(', ')}` : '', read.length ? `read with ${read.join(', ')}` : ''].filter(Boolean).join(', ');
}

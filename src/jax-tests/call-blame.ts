// The PJRT call behind a JAX test's failure, from the call record the trace shim wrote (native/call-trace:
// PJRT_CTS_TRACE_PLUGIN=<real library>, PJRT_CTS_TRACE_LOG=<file>), read with src/framework/call-log.ts.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { codeName, describeBlame, errors, inFlight, parseCallLog } from '../framework/call-log.js';

export interface Blame {
  /** `PJRT_Client_Compile:INVALID_ARGUMENT`, `PJRT_LoadedExecutable_Execute:crash` */
  rule: string;
  /** One line for people. */
  text: string;
}

/** The bytes [from, to) of a log (to EOF when `to` is null). */
export function logSlice(file: string, from: number | null | undefined, to: number | null | undefined): string {
  if (!existsSync(file)) return '';
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const a = Math.min(from ?? 0, size);
    const b = Math.min(to ?? size, size);
    const buf = Buffer.alloc(Math.max(0, b - a));
    readSync(fd, buf, 0, buf.length, a);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** What the call log of one test says: the call in flight at a crash or hang, else the last call that returned an error. */
export function blameOf(text: string, died: 'crash' | 'timeout' | undefined): Blame | undefined {
  if (!text.trim()) return undefined;
  const log = parseCallLog(text);
  const line = describeBlame(log);
  if (died) {
    const first = inFlight(log)[0];
    return first ? { rule: `${first.slot}:${died}`, text: line ?? `${died} during ${first.slot}` } : undefined;
  }
  const last = errors(log).at(-1);
  if (!last) return undefined;
  const code = codeName(last.code!);
  return { rule: `${last.slot}:${code}`, text: line ?? `${last.slot} returned ${code}` };
}

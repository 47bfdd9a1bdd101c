// The PJRT call behind a JAX test's failure, from the call record the trace shim wrote (build/call-trace/
// libpjrt_cts_trace.so: PJRT_CTS_TRACE_PLUGIN=<real library>, PJRT_CTS_TRACE_LOG=<file>) and read with
// src/framework/call-log.ts (parseCallLog, inFlight, errors, describeBlame). That module comes from another branch;
// it is loaded at run time, so this command builds and runs without it and says so when --call-trace asks for it.
import { existsSync, openSync, readSync, closeSync, fstatSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../config/paths.js';

/** The interface of src/framework/call-log.ts this command relies on (its results are read defensively). */
interface CallLogModule {
  parseCallLog(text: string): unknown;
  inFlight(log: unknown): unknown;
  errors(log: unknown): unknown;
  describeBlame(log: unknown): unknown;
}

export interface Blame {
  /** `PJRT_Client_Compile:INVALID_ARGUMENT`, `PJRT_LoadedExecutable_Execute:crash` */
  rule: string;
  /** One line for people. */
  text: string;
}

/** The trace shim of a development checkout, when it has been built. */
export function traceShimPath(): string {
  return path.join(packageRoot(), 'build', 'call-trace', 'libpjrt_cts_trace.so');
}

const MODULE = new URL('../framework/call-log.js', import.meta.url);

/** The call-log reader, or why it is not available. */
export async function loadCallLog(): Promise<CallLogModule | string> {
  if (!existsSync(fileURLToPath(MODULE))) return 'src/framework/call-log.ts is not part of this build (it comes with the call-trace shim)';
  return (await import(MODULE.href)) as CallLogModule;
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

const field = (v: unknown, ...names: string[]): string | undefined => {
  if (!v || typeof v !== 'object') return undefined;
  for (const n of names) {
    const x = (v as Record<string, unknown>)[n];
    if (typeof x === 'string' || typeof x === 'number') return String(x);
  }
  return undefined;
};

/** What the call log of one test says: the call in flight at a crash or hang, else the first call that returned an error. */
export function blameOf(mod: CallLogModule, text: string, died: 'crash' | 'timeout' | undefined): Blame | undefined {
  if (!text.trim()) return undefined;
  const log = mod.parseCallLog(text);
  const described = mod.describeBlame(log);
  const line = typeof described === 'string' ? described : field(described, 'text', 'message', 'line');
  if (died) {
    const call = mod.inFlight(log);
    const first = Array.isArray(call) ? call[0] : call;
    const name = typeof first === 'string' ? first : field(first, 'slot', 'call', 'name', 'fn');
    return name ? { rule: `${name}:${died}`, text: line ?? `${died} during ${name}` } : undefined;
  }
  const errs = mod.errors(log);
  const e = Array.isArray(errs) ? errs[0] : undefined;
  const name = field(e, 'slot', 'call', 'name', 'fn');
  if (!name) return undefined;
  const code = field(e, 'code', 'codeName', 'status') ?? 'error';
  return { rule: `${name}:${code}`, text: line ?? `${name} returned ${code}` };
}

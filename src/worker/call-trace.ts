// "Which plugin call is in flight": a child that loads a plugin writes the name of each risky call into the call
// record its parent gave it (call-record.ts) before making it, and '' after it returns; a crash or a hang then names
// the call. Without a record (a child started some other way, or `runInfo` in a test's own process) marking is a
// no-op, so nothing stray is ever written.
import { fstatSync } from 'node:fs';
import { dlopen, mapSharedFile, RTLD_GLOBAL, RTLD_NODELETE, RTLD_NOW } from '../ffi/libc.js';
import type { Client, Plugin } from '../pjrt/index.js';
import { CALL_FD, CALL_RECORD_BYTES, callRecordWriter } from './call-record.js';

function openRecord(): ((name: string) => void) | undefined {
  if (process.env['PJRT_CTS_CALL_FD'] !== String(CALL_FD)) return undefined;
  delete process.env['PJRT_CTS_CALL_FD']; // not for this process's own children
  try {
    const st = fstatSync(CALL_FD);
    if (!st.isFile() || st.size < CALL_RECORD_BYTES) return undefined;
    return callRecordWriter(mapSharedFile(CALL_FD, CALL_RECORD_BYTES));
  } catch {
    return undefined;
  }
}

const record = openRecord();

/** Names the plugin call about to be made ('' when none is in flight). */
export function markCall(name: string): void {
  record?.(name);
}

/** Runs a synchronous plugin call with its name marked. */
export function traced<T>(name: string, f: () => T): T {
  markCall(name);
  try {
    return f();
  } finally {
    markCall('');
  }
}

/** Runs an asynchronous plugin call with its name marked until it settles. */
export async function tracedAsync<T>(name: string, f: () => Promise<T>): Promise<T> {
  markCall(name);
  try {
    return await f();
  } finally {
    markCall('');
  }
}

/** Loading a library: dlopen (its static constructors run here) and GetPjrtApi, marked separately. */
export async function tracedLoad(library: string, global: boolean, load: () => Plugin): Promise<Plugin> {
  // The same flags as the loader's own dlopen, so its second dlopen only takes another reference.
  traced('dlopen', () => dlopen(library, RTLD_NOW | RTLD_NODELETE | (global ? RTLD_GLOBAL : 0)));
  return traced('GetPjrtApi', load);
}

/**
 * Marks PJRT_Plugin_Initialize and PJRT_Client_Create on a loaded plugin object, for every caller (the harness's
 * session and the cases alike). Idempotent.
 */
export function traceClientCreation(p: Plugin): Plugin {
  const t = p as Plugin & { __ctsTraced?: boolean };
  if (t.__ctsTraced) return p;
  t.__ctsTraced = true;
  const init = p.initialize.bind(p);
  const create = p.createClient.bind(p);
  p.initialize = () => traced('PJRT_Plugin_Initialize', init);
  p.createClient = (opts?: Parameters<Plugin['createClient']>[0]): Promise<Client> => tracedAsync('PJRT_Client_Create', () => create(opts));
  return p;
}

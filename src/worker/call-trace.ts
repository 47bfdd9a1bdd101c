// "Which plugin call is in flight": a child that loads a plugin writes the name of each risky call to a pipe on
// fd CALL_FD, synchronously, before making it (and an empty line after it returns). A crash or a hang then names
// the call: the bytes are in the pipe before the plugin gets the chance to die. The parent (startWorker, `info`)
// keeps the last line. The parent names the descriptor in $PJRT_CTS_CALL_FD; without it (a child started some
// other way, or `runInfo` in a test's own process) marking is a no-op, so no stray descriptor is ever written to.
import { fstatSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Client, Plugin } from '../pjrt/index.js';

/** stdio index of the call pipe in a child: [stdin, stdout, stderr, ipc, calls]. */
const CALL_FD = 4;

/** The environment a parent gives a child whose stdio[CALL_FD] is a pipe. */
export const CALL_FD_ENV = { PJRT_CTS_CALL_FD: String(CALL_FD) };

function callPipe(): boolean {
  if (process.env['PJRT_CTS_CALL_FD'] !== String(CALL_FD)) return false;
  delete process.env['PJRT_CTS_CALL_FD']; // not for this process's own children
  try {
    const st = fstatSync(CALL_FD);
    return st.isSocket() || st.isFIFO();
  } catch {
    return false;
  }
}

let broken = !callPipe();

/** Names the plugin call about to be made ('' when none is in flight). */
export function markCall(name: string): void {
  if (broken) return;
  try {
    writeSync(CALL_FD, `${name.replace(/\n/g, ' ')}\n`);
  } catch {
    broken = true;
  }
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
  const { dlopen, RTLD_GLOBAL, RTLD_NODELETE, RTLD_NOW } = await import('../ffi/libc.js');
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

/** Calls that make up creating a client: a crash or hang in one of these means no case can run. */
export const CLIENT_CREATION_CALLS: ReadonlySet<string> = new Set(['dlopen', 'GetPjrtApi', 'PJRT_Plugin_Initialize', 'PJRT_Client_Create']);

/** Parent side: follows the call pipe and remembers the call in flight. */
export class CallFollower {
  current = '';
  private partial = '';
  constructor(stream: Readable | null | undefined) {
    stream?.setEncoding('utf8').on('data', (d: string) => {
      const parts = (this.partial + d).split('\n');
      this.partial = parts.pop() ?? '';
      if (parts.length) this.current = parts.at(-1)!;
    });
  }
}

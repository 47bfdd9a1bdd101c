// The worker thread behind EtcdKvStore: it owns the etcd clients and answers one request at a time, while the
// calling thread waits in Atomics.wait (synckit). It never waits on the calling thread, so the caller cannot
// deadlock it; every request is answered by its own deadline, whether etcd answers or not.
import { runAsWorker } from 'synckit';
import type { Etcd3 } from 'etcd3';
import { errText, openEtcd, within } from './etcd.js';

export type EtcdRequest =
  | { op: 'get'; host: string; key: string; timeoutMs: number }
  | { op: 'tryGet'; host: string; key: string }
  | { op: 'put'; host: string; key: string; value: Uint8Array };

/** A failure carries the PJRT error code the callback should return. */
export type EtcdAnswer = { ok: true; value?: Uint8Array } | { ok: false; code: 'NOT_FOUND' | 'DEADLINE_EXCEEDED' | 'UNAVAILABLE'; message: string };

/** How long one etcd call may take; past it the request fails UNAVAILABLE. */
const CALL_MS = 2000;
/** Between two reads of a key that is not there yet. */
const POLL_MS = 10;

const clients = new Map<string, Etcd3>();
const clientFor = (host: string): Etcd3 => {
  let c = clients.get(host);
  if (!c) clients.set(host, (c = openEtcd(host, CALL_MS)));
  return c;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function read(host: string, key: string): Promise<Uint8Array | null> {
  const v = await within(clientFor(host).get(key).buffer(), CALL_MS, `etcd ${host}`);
  return v === null ? null : new Uint8Array(v);
}

async function serve(req: EtcdRequest): Promise<EtcdAnswer> {
  try {
    if (req.op === 'put') {
      await within(clientFor(req.host).put(req.key).value(Buffer.from(req.value)).exec(), CALL_MS, `etcd ${req.host}`);
      return { ok: true };
    }
    if (req.op === 'tryGet') {
      const v = await read(req.host, req.key);
      return v === null ? { ok: false, code: 'NOT_FOUND', message: `key '${req.key}' not found` } : { ok: true, value: v };
    }
    const end = Date.now() + req.timeoutMs;
    for (;;) {
      const v = await read(req.host, req.key);
      if (v !== null) return { ok: true, value: v };
      if (Date.now() >= end) return { ok: false, code: 'DEADLINE_EXCEEDED', message: `key '${req.key}' not found within ${req.timeoutMs} ms` };
      await sleep(Math.min(POLL_MS, Math.max(0, end - Date.now())));
    }
  } catch (e) {
    return { ok: false, code: 'UNAVAILABLE', message: `etcd unreachable: ${errText(e)}` };
  }
}

runAsWorker(serve);

// A key-value store in etcd that answers synchronously, as PJRT's key-value callbacks must (the plugin calls them
// from inside PJRT_Client_Create and waits for the answer). The etcd client runs in a worker thread; the calling
// thread posts a request and blocks in Atomics.wait on a SharedArrayBuffer until the worker answers (synckit),
// with a deadline. Callbacks that arrive on plugin threads reach JS through koffi's relay, which runs them on the
// JS thread one at a time (src/ffi/kv.ts); the worker never needs the JS thread, so no plugin thread can leave the
// JS thread waiting for ever: every request ends by its deadline, answered or not.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSyncFn } from 'synckit';
import type { KeyValueStore } from '../ffi/kv.js';
import type { EtcdAnswer, EtcdRequest } from './etcd-worker.js';
import type { EtcdEndpoint } from './url.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'etcd-worker.js');

/** The longest a get may wait for its key, whatever the plugin asks (ms). */
const MAX_GET_MS = 120000;
/** What the worker may add to a request's own deadline before the calling thread stops waiting (ms). */
const WORKER_SLACK_MS = 10000;

let syncFn: ((req: EtcdRequest) => EtcdAnswer) | undefined;
const call = (req: EtcdRequest): EtcdAnswer => (syncFn ??= createSyncFn<(req: EtcdRequest) => Promise<EtcdAnswer>>(WORKER, { timeout: MAX_GET_MS + WORKER_SLACK_MS }))(req);

class KvError extends Error {
  constructor(readonly codeName: string, message: string) {
    super(message);
  }
}

function answer(a: EtcdAnswer): Uint8Array | undefined {
  if (a.ok) return a.value;
  throw new KvError(a.code, a.message);
}

export class EtcdKvStore implements KeyValueStore {
  /**
   * `namespace` prefixes every key (a run's and a launch's own space: runs sharing one etcd never see each
   * other's keys). `getCapMs`: a get gives up (DEADLINE_EXCEEDED) after at most this long.
   */
  constructor(
    readonly endpoint: EtcdEndpoint,
    readonly namespace: string,
    readonly getCapMs?: number,
  ) {}
  private k(key: string): string {
    return `${this.namespace}${key}`;
  }
  put(key: string, value: Uint8Array): void {
    answer(call({ op: 'put', host: this.endpoint.host, key: this.k(key), value }));
  }
  tryGet(key: string): Uint8Array | undefined {
    try {
      return answer(call({ op: 'tryGet', host: this.endpoint.host, key: this.k(key) }));
    } catch (e) {
      if (e instanceof KvError && e.codeName === 'NOT_FOUND') return undefined;
      throw e;
    }
  }
  get(key: string, timeoutMs: number): Uint8Array {
    const ms = Math.max(0, Math.min(timeoutMs, this.getCapMs ?? MAX_GET_MS, MAX_GET_MS));
    return answer(call({ op: 'get', host: this.endpoint.host, key: this.k(key), timeoutMs: ms })) ?? new Uint8Array();
  }
}

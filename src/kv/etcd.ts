// Asynchronous etcd helpers (etcd3, the etcd v3 gRPC client) for the parts of the CTS that may await: the
// connectivity check at the start of a run, the coordinator's tasks and reports, listing a launch's keys.
// The plugin's synchronous key-value callbacks go through EtcdKvStore (etcd-sync.ts) instead.
import { Etcd3 } from 'etcd3';
import type { EtcdEndpoint } from './url.js';

/** How long one etcd call may take before it counts as failed (etcd answers on loopback in milliseconds). */
export const ETCD_CALL_MS = 3000;

export function openEtcd(host: string, callMs = ETCD_CALL_MS): Etcd3 {
  return new Etcd3({ hosts: host, dialTimeout: callMs, defaultCallOptions: (c) => (c.isStream ? {} : { deadline: Date.now() + callMs }) });
}

/** Rejects after `ms` with `what`, whatever the promise does (a dead etcd must never hang a caller). */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

export const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/\s*Resolution note:.*$/, '').trim();

/** Resolves with null when etcd answers a status request within `ms`, else with why not. */
export async function etcdProblem(ep: EtcdEndpoint, ms = ETCD_CALL_MS): Promise<string | null> {
  const client = openEtcd(ep.host, ms);
  try {
    await within(client.maintenance.status(), ms, `${ep.host}`);
    return null;
  } catch (e) {
    return errText(e);
  } finally {
    client.close();
  }
}

/** Keys below `prefix` (without it). */
export async function listKeys(client: Etcd3, prefix: string): Promise<string[]> {
  return within(client.namespace(prefix).getAll().keys(), ETCD_CALL_MS, 'etcd: listing keys');
}

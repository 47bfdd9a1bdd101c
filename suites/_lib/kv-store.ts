// The node key-value store of tier 3, behind one interface with two back ends: a directory shared by the node
// processes of one host (the default), or etcd (`run --kv etcd://host:port`, and `pjrt-cts node` on other hosts).
import type { KeyValueStore } from '../../src/ffi/kv.js';
import { DirKvStore } from './kv-dir.js';

/** Where a node finds its store: JSON, so it travels in a node's argv and in an etcd task. */
export type NodeKvSpec = { kind: 'dir'; dir: string } | { kind: 'etcd'; url: string; namespace: string };

/**
 * `getCapMs`: a get gives up (DEADLINE_EXCEEDED) after at most this long, whatever timeout the plugin asked for.
 * The etcd client is imported only for an etcd store: a node process on a directory store starts without it.
 */
export async function openNodeStore(spec: NodeKvSpec, getCapMs?: number): Promise<KeyValueStore> {
  if (spec.kind === 'dir') return new DirKvStore(spec.dir, getCapMs);
  const [{ EtcdKvStore }, { parseKvUrl }] = await Promise.all([import('../../src/kv/etcd-sync.js'), import('../../src/kv/url.js')]);
  return new EtcdKvStore(parseKvUrl(spec.url), spec.namespace, getCapMs);
}

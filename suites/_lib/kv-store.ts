// The node key-value store of tier 3, behind one interface with two back ends: a directory shared by the node
// processes of one host (the default), or etcd (`run --kv etcd://host:port`, and `pjrt-cts node` on other hosts).
import type { KeyValueStore } from '../../src/ffi/kv.js';
import { EtcdKvStore } from '../../src/kv/etcd-sync.js';
import { parseKvUrl } from '../../src/kv/url.js';
import { DirKvStore } from './kv-dir.js';

/** Where a node finds its store: JSON, so it travels in a node's argv and in an etcd task. */
export type NodeKvSpec = { kind: 'dir'; dir: string } | { kind: 'etcd'; url: string; namespace: string };

/** `getCapMs`: a get gives up (DEADLINE_EXCEEDED) after at most this long, whatever timeout the plugin asked for. */
export function openNodeStore(spec: NodeKvSpec, getCapMs?: number): KeyValueStore {
  return spec.kind === 'dir' ? new DirKvStore(spec.dir, getCapMs) : new EtcdKvStore(parseKvUrl(spec.url), spec.namespace, getCapMs);
}

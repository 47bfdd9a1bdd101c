// Tier 3 across hosts: the coordinator (`run --kv etcd://… --nodes-external N`) and the node processes
// (`pjrt-cts node --kv etcd://… --node-id I --num-nodes N`) meet in etcd, below the run's root
// `pjrt-cts/<run id>/`:
//   nodes/<i>            a node registered (its host and pid)
//   tasks/<task id>      a launch the coordinator wants: the nodes of `start` each bring up one client
//   reports/<task id>/<i> node i's report of that launch
//   kv/<launch id>/…     the plugin's own keys during a launch (one namespace per launch)
//   coordinator          held under a lease while the coordinator runs: when it vanishes, the nodes exit
//   done                 the coordinator is finished: the nodes exit
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Etcd3 } from 'etcd3';
import { errText, ETCD_CALL_MS, openEtcd, within } from './etcd.js';
import { runRoot } from './url.js';
import type { CreateOptionValue } from '../config/plugins.js';

export interface NodeTask {
  id: string;
  numNodes: number;
  /** the node ids that take part */
  start: number[];
  /** create options common to every node (node id / count are added by each node) */
  options: Record<string, CreateOptionValue>;
  nodeIdOption: string;
  numNodesOption: string;
  /** a node kills its share after this long */
  deadlineMs: number;
  kvGetCapMs?: number;
  /** etcd namespace of the plugin's keys in this launch */
  namespace: string;
}

/** What a node sends back for one task (the launcher's NodeResult without the node id). */
export interface TaskReport {
  nodeId: number;
  reported: boolean;
  timedOut: boolean;
  exitCode: number | null;
  stderr: string;
  report: { ok: boolean; error?: string; [k: string]: unknown };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POLL_MS = 50;
/** TTL of a node's registration (s). */
const NODE_LEASE_S = 10;

export const launchNamespace = (runId: string): string => `${runRoot(runId)}kv/${randomBytes(6).toString('hex')}/`;

const putJson = (c: Etcd3, key: string, v: unknown) => within(c.put(key).value(JSON.stringify(v)).exec(), ETCD_CALL_MS, 'etcd');

/** Coordinator: posts a launch and collects a report from every node of `start`, or says which did not answer. */
export async function runTask(host: string, runId: string, t: Omit<NodeTask, 'id'>, slackMs = 10000): Promise<TaskReport[]> {
  const root = runRoot(runId);
  const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const c = openEtcd(host);
  try {
    const missing = (nodeId: number, why: string): TaskReport => ({ nodeId, reported: false, timedOut: true, exitCode: null, stderr: '', report: { ok: false, error: why } });
    try {
      await putJson(c, `${root}tasks/${id}`, { ...t, id });
    } catch (e) {
      return t.start.map((n) => missing(n, `cannot post the launch to etcd: ${errText(e)}`));
    }
    const got = new Map<number, TaskReport>();
    const end = Date.now() + t.deadlineMs + slackMs;
    let lastError = '';
    while (got.size < t.start.length && Date.now() < end) {
      try {
        const all = await within(c.getAll().prefix(`${root}reports/${id}/`).strings(), ETCD_CALL_MS, 'etcd');
        for (const v of Object.values(all)) {
          const r = JSON.parse(v) as TaskReport;
          got.set(r.nodeId, r);
        }
        lastError = '';
      } catch (e) {
        lastError = errText(e);
      }
      if (got.size < t.start.length) await sleep(POLL_MS);
    }
    return t.start.map((n) => got.get(n) ?? missing(n, `node ${n} sent no report within ${t.deadlineMs + slackMs} ms${lastError ? ` (etcd: ${lastError})` : ` (is \`pjrt-cts node --node-id ${n} --run-id ${runId}\` running?)`}`));
  } finally {
    c.close();
  }
}

/** Coordinator, before any case: clears what an earlier run of this id left, and waits for the N nodes to register. */
export async function awaitNodes(host: string, runId: string, n: number, waitMs: number): Promise<number[]> {
  const root = runRoot(runId);
  const c = openEtcd(host);
  try {
    for (const p of ['tasks/', 'reports/', 'kv/']) await within(c.delete().prefix(`${root}${p}`).exec(), ETCD_CALL_MS, 'etcd');
    const end = Date.now() + waitMs;
    for (;;) {
      const keys = await within(c.getAll().prefix(`${root}nodes/`).keys(), ETCD_CALL_MS, 'etcd');
      const have = new Set(keys.map((k) => Number(k.slice(`${root}nodes/`.length))));
      const absent = Array.from({ length: n }, (_, i) => i).filter((i) => !have.has(i));
      if (absent.length === 0 || Date.now() >= end) return absent;
      await sleep(200);
    }
  } finally {
    c.close();
  }
}

/** TTL of the coordinator's presence key (s): a coordinator that dies without finishing frees its nodes this soon. */
const COORDINATOR_LEASE_S = 10;

/** Coordinator: announces itself under a lease kept alive while it runs; `release` revokes it. */
export async function holdCoordinator(host: string, runId: string): Promise<{ release: () => Promise<void> }> {
  const c = openEtcd(host);
  const lease = c.lease(COORDINATOR_LEASE_S);
  lease.on('lost', () => undefined);
  try {
    await within(lease.put(`${runRoot(runId)}coordinator`).value(String(process.pid)).exec(), ETCD_CALL_MS, 'etcd');
  } catch (e) {
    c.close();
    throw e;
  }
  return {
    release: async () => {
      await within(lease.revoke(), ETCD_CALL_MS, 'etcd').catch(() => undefined);
      c.close();
    },
  };
}

/** Coordinator, after the run: removes the run's keys and tells the nodes to exit. */
export async function finishRun(host: string, runId: string, external: boolean): Promise<void> {
  const root = runRoot(runId);
  const c = openEtcd(host);
  try {
    if (!external) {
      await within(c.delete().prefix(root).exec(), ETCD_CALL_MS, 'etcd');
      return;
    }
    for (const p of ['tasks/', 'reports/', 'kv/', 'nodes/']) await within(c.delete().prefix(`${root}${p}`).exec(), ETCD_CALL_MS, 'etcd');
    await within(c.put(`${root}done`).value(randomBytes(8).toString('hex')).exec(), ETCD_CALL_MS, 'etcd');
  } finally {
    c.close();
  }
}

class CoordinatorGone extends Error {}

/**
 * Node: registers, then runs its share of every launch posted after it started, until the coordinator says done.
 * `share` brings up this node's client for a task (in a child process) and resolves with its report.
 * Rejects when etcd stays unreachable for `lostMs`.
 */
export async function serveNode(
  host: string, runId: string, nodeId: number, numNodes: number,
  share: (t: NodeTask) => Promise<TaskReport>, log: (s: string) => void, lostMs = 30000,
): Promise<void> {
  const root = runRoot(runId);
  const c = openEtcd(host);
  try {
    const doneAtStart = await within(c.get(`${root}done`).string(), ETCD_CALL_MS, 'etcd');
    const seen = new Set(await within(c.getAll().prefix(`${root}tasks/`).keys(), ETCD_CALL_MS, 'etcd'));
    // Registered under a lease: a node that dies drops out of nodes/ within the lease's TTL.
    const lease = c.lease(NODE_LEASE_S);
    lease.on('lost', () => undefined);
    await within(lease.put(`${root}nodes/${nodeId}`).value(JSON.stringify({ host: hostname(), pid: process.pid, numNodes })).exec(), ETCD_CALL_MS, 'etcd');
    log(`node ${nodeId} of ${numNodes}: registered under run id '${runId}', waiting for launches`);
    const running = new Set<Promise<void>>();
    let lastOk = Date.now();
    let sawCoordinator = false;
    for (;;) {
      try {
        const done = await within(c.get(`${root}done`).string(), ETCD_CALL_MS, 'etcd');
        if (done !== null && done !== doneAtStart) break;
        const coordinator = await within(c.get(`${root}coordinator`).string(), ETCD_CALL_MS, 'etcd');
        if (coordinator !== null) sawCoordinator = true;
        else if (sawCoordinator) throw new CoordinatorGone(`the coordinator of run '${runId}' went away without finishing`);
        const tasks = await within(c.getAll().prefix(`${root}tasks/`).strings(), ETCD_CALL_MS, 'etcd');
        for (const [k, v] of Object.entries(tasks)) {
          if (seen.has(k)) continue;
          seen.add(k);
          const t = JSON.parse(v) as NodeTask;
          if (!t.start.includes(nodeId)) continue;
          const p = share(t)
            .then((r) => putJson(c, `${root}reports/${t.id}/${nodeId}`, r))
            .then(() => log(`node ${nodeId}: launch ${t.id} (${t.numNodes} nodes) reported`))
            .catch((e: unknown) => log(`node ${nodeId}: launch ${t.id}: ${errText(e)}`))
            .finally(() => running.delete(p));
          running.add(p);
        }
        lastOk = Date.now();
      } catch (e) {
        if (e instanceof CoordinatorGone) throw e;
        if (Date.now() - lastOk > lostMs) throw new Error(`etcd ${host} unreachable for ${lostMs} ms: ${errText(e)}`);
      }
      await sleep(POLL_MS);
    }
    await Promise.all(running);
    log(`node ${nodeId}: the coordinator is done`);
  } finally {
    c.close();
  }
}

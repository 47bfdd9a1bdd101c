// Launches N node processes (dist/suites/_lib/multinode-child.js) that share a key-value store directory
// owned by the calling test, and collects each node's JSON report (or its timeout).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKvFromEnv, type RunKv } from '../../src/kv/run-env.js';
import type { NodeTask, TaskReport } from '../../src/kv/tasks.js';
import { parentPidEnv } from '../../src/ffi/parent-pid.js';
import { DirKvStore } from './kv-dir.js';
import type { NodeReport, NodeSpec } from './multinode-child.js';
import { toWire, type NamedValues } from '../../src/config/named-value.js';
import type { CreateOptionValue } from '../../src/config/plugins.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'multinode-child.js');

export interface NodeResult extends NodeReport {
  nodeId: number;
  /** whether the node printed its report (false: it crashed or was killed) */
  reported: boolean;
  timedOut: boolean;
  exitCode: number | null;
  stderr: string;
}

interface LaunchSpec {
  pluginPath: string;
  global?: boolean;
  /** options common to every node (plugin config + per-run ones) */
  options: Record<string, CreateOptionValue>;
  nodeIdOption: string;
  numNodesOption: string;
  numNodes: number;
  /** node ids to start (default: all); leaving one out simulates a missing peer */
  start?: number[];
  /** kill a node that has not reported after this long */
  deadlineMs: number;
  /** the store's get gives up after at most this long (a missing peer then surfaces as a callback error) */
  kvGetCapMs?: number;
}

function runNode(spec: NodeSpec, nodeId: number, deadlineMs: number): Promise<NodeResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...parentPidEnv() } });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      let report: NodeReport = { ok: false, error: timedOut ? `no report within ${deadlineMs} ms` : `exited with ${code} without a report` };
      let reported = false;
      try {
        if (line) {
          report = JSON.parse(line) as NodeReport;
          reported = true;
        }
      } catch {
        /* keep the default */
      }
      resolve({ ...report, nodeId, reported, timedOut, exitCode: code, stderr: err.slice(-2000) });
    });
  });
}

/** The keys of one launch's etcd namespace (an unreachable etcd lists none). */
async function etcdKeys(kv: RunKv, namespace: string): Promise<string[]> {
  const { listKeys, openEtcd } = await import('../../src/kv/etcd.js');
  const c = openEtcd(kv.endpoint.host);
  try {
    return await listKeys(c, namespace);
  } catch {
    return [];
  } finally {
    c.close();
  }
}

const fromTask = (r: TaskReport): NodeResult => ({ ...r.report, nodeId: r.nodeId, reported: r.reported, timedOut: r.timedOut, exitCode: r.exitCode, stderr: r.stderr });

/**
 * Starts the nodes, waits for all, returns their reports and the keys written to the store. The store is a fresh
 * directory, unless the run was given `--kv etcd://…`: then a fresh namespace of the run in etcd, and with
 * `--nodes-external` the nodes are `pjrt-cts node` processes (any host) that take the launch from etcd.
 */
export async function launchNodes(s: LaunchSpec): Promise<{ nodes: NodeResult[]; keys: string[] }> {
  const kv = runKvFromEnv();
  if (kv) return launchEtcd(s, kv);
  const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-kv-'));
  try {
    const ids = s.start ?? Array.from({ length: s.numNodes }, (_, i) => i);
    const nodes = await Promise.all(
      ids.map((nodeId) =>
        runNode(
          {
            pluginPath: s.pluginPath,
            global: s.global ?? false,
            options: { ...s.options, [s.nodeIdOption]: nodeId, [s.numNodesOption]: s.numNodes },
            kvDir: dir,
            ...(s.kvGetCapMs !== undefined ? { kvGetCapMs: s.kvGetCapMs } : {}),
          },
          nodeId,
          s.deadlineMs,
        ),
      ),
    );
    return { nodes, keys: new DirKvStore(dir).keys() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The etcd client (gRPC) is imported here, by a run given `--kv etcd://…`: every other process starts without it. */
async function launchEtcd(s: LaunchSpec, kv: RunKv): Promise<{ nodes: NodeResult[]; keys: string[] }> {
  const { launchNamespace, runTask } = await import('../../src/kv/tasks.js');
  const ids = s.start ?? Array.from({ length: s.numNodes }, (_, i) => i);
  const namespace = launchNamespace(kv.runId);
  let nodes: NodeResult[];
  if (kv.external !== undefined) {
    const task: Omit<NodeTask, 'id'> = {
      numNodes: s.numNodes, start: ids, options: s.options, nodeIdOption: s.nodeIdOption, numNodesOption: s.numNodesOption,
      deadlineMs: s.deadlineMs, namespace, ...(s.kvGetCapMs !== undefined ? { kvGetCapMs: s.kvGetCapMs } : {}),
    };
    nodes = (await runTask(kv.endpoint.host, kv.runId, task)).map(fromTask);
  } else {
    nodes = await Promise.all(ids.map((nodeId) => runNode(nodeSpec(s.pluginPath, s.global ?? false, kv.endpoint.url, { ...s, namespace }, nodeId), nodeId, s.deadlineMs)));
  }
  return { nodes, keys: await etcdKeys(kv, namespace) };
}

type Share = Pick<NodeTask, 'options' | 'nodeIdOption' | 'numNodesOption' | 'numNodes' | 'kvGetCapMs' | 'namespace'>;

function nodeSpec(pluginPath: string, global: boolean, url: string, t: Share, nodeId: number): NodeSpec {
  return {
    pluginPath, global,
    options: { ...t.options, [t.nodeIdOption]: nodeId, [t.numNodesOption]: t.numNodes },
    kv: { kind: 'etcd', url, namespace: t.namespace },
    ...(t.kvGetCapMs !== undefined ? { kvGetCapMs: t.kvGetCapMs } : {}),
  };
}

/** What `pjrt-cts node` does for each launch: brings up this node's client in a child process, with its own plugin. */
export function nodeShare(pluginPath: string, global: boolean, url: string, nodeId: number): (t: NodeTask) => Promise<TaskReport> {
  return async (t) => {
    const { nodeId: _id, reported, timedOut, exitCode, stderr, ...report } = await runNode(nodeSpec(pluginPath, global, url, t, nodeId), nodeId, t.deadlineMs);
    return { nodeId, reported, timedOut, exitCode, stderr, report };
  };
}

/** The JSON spelling of create options for a child's argv or an etcd task, every value keeping its type (toWire). */
export function jsonOptions(o: NamedValues): Record<string, CreateOptionValue> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toWire(v)]));
}

// `run --kv etcd://… [--run-id R] [--nodes-external N]` and `pjrt-cts node`: tier 3 over etcd (see tasks.ts).
// The etcd client (gRPC) is imported only when `--kv` is used, so other commands start as fast as before.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { z } from 'zod';
import { envNumber } from '../config/env-numbers.js';
import { ConfigError } from '../config/errors.js';
import { resolvePluginArg } from '../runner/plugins.js';
import { setRunKvEnv, type RunKv } from '../kv/run-env.js';
import type { NodeTask, TaskReport } from '../kv/tasks.js';
import { parseKvUrl, parseRunId } from '../kv/url.js';

/** How long the coordinator waits for the external nodes to register ($PJRT_CTS_NODES_WAIT_MS). */
export const NODES_WAIT_MS = 60000;

interface RunKvOptions {
  kv?: string;
  runId?: string;
  nodesExternal?: number;
}

/** Validates the run's key-value options (before anything runs). */
export function runKvOptions(o: RunKvOptions): RunKv | undefined {
  if (o.kv === undefined) {
    if (o.nodesExternal !== undefined) throw new ConfigError('--nodes-external', String(o.nodesExternal), 'needs --kv etcd://host:port (the nodes meet in etcd)');
    if (o.runId !== undefined) throw new ConfigError('--run-id', o.runId, 'needs --kv etcd://host:port');
    return undefined;
  }
  const endpoint = parseKvUrl(o.kv);
  const runId = o.runId !== undefined ? parseRunId(o.runId) : o.nodesExternal !== undefined ? 'default' : `run-${randomBytes(6).toString('hex')}`;
  return { endpoint, runId, ...(o.nodesExternal !== undefined ? { external: o.nodesExternal } : {}) };
}

/** The coordinator's presence in etcd while a --nodes-external run goes on. */
let coordinator: { release: () => Promise<void> } | undefined;

/**
 * Before any case: etcd must answer (else exit 2, one line), and with --nodes-external every node must have
 * registered. Then the workers learn the store through the environment.
 */
export async function prepareRunKv(kv: RunKv | undefined, log: (s: string) => void): Promise<void> {
  setRunKvEnv(undefined);
  if (!kv) return;
  const { errText, etcdProblem } = await import('../kv/etcd.js');
  const { awaitNodes } = await import('../kv/tasks.js');
  const problem = await etcdProblem(kv.endpoint);
  if (problem !== null) throw new ConfigError('--kv', kv.endpoint.url, `cannot reach etcd: ${problem}`);
  if (kv.external !== undefined) {
    const waitMs = envNumber('PJRT_CTS_NODES_WAIT_MS') ?? NODES_WAIT_MS;
    log(`pjrt-cts: waiting for ${kv.external} node(s) under run id '${kv.runId}' (pjrt-cts node --kv ${kv.endpoint.url} --run-id ${kv.runId} --num-nodes ${kv.external} --node-id I)\n`);
    let absent: number[];
    try {
      absent = await awaitNodes(kv.endpoint.host, kv.runId, kv.external, waitMs);
    } catch (e) {
      throw new ConfigError('--kv', kv.endpoint.url, `cannot reach etcd: ${errText(e)}`);
    }
    if (absent.length > 0) throw new ConfigError('--nodes-external', String(kv.external), `node(s) ${absent.join(', ')} did not register under run id '${kv.runId}' within ${waitMs} ms (start pjrt-cts node on each host)`);
    const { holdCoordinator } = await import('../kv/tasks.js');
    coordinator = await holdCoordinator(kv.endpoint.host, kv.runId);
  }
  setRunKvEnv(kv);
}

/** After the run: removes the run's keys and, with external nodes, tells them to exit (best effort). */
export async function endRunKv(kv: RunKv | undefined, log: (s: string) => void): Promise<void> {
  setRunKvEnv(undefined);
  if (!kv) return;
  const { errText } = await import('../kv/etcd.js');
  const { finishRun } = await import('../kv/tasks.js');
  try {
    await finishRun(kv.endpoint.host, kv.runId, kv.external !== undefined);
  } catch (e) {
    log(`pjrt-cts: warning: could not clean up etcd keys of run '${kv.runId}': ${errText(e)}\n`);
  }
  // After `done`: a node that sees the coordinator's key gone before `done` would take it for a crash.
  await coordinator?.release();
  coordinator = undefined;
}

const nodeArgs = z.object({
  kv: z.string(),
  nodeId: z.number().int().min(0),
  numNodes: z.number().int().min(1).max(1024),
  runId: z.string().optional(),
}).refine((o) => o.nodeId < o.numNodes, { path: ['nodeId'], message: 'must be below --num-nodes' });

const intArg = (flag: string) => (v: string): number => {
  if (!/^\d+$/.test(v)) throw new ConfigError(flag, v, 'expected a non-negative integer');
  return Number(v);
};

type ShareFactory = (pluginPath: string, global: boolean, url: string, nodeId: number) => Promise<(t: NodeTask) => Promise<TaskReport>>;

/** `pjrt-cts node`: one node's share of tier 3, on any host, for a coordinator `run --kv … --nodes-external N`. */
export function registerNodeCommand(program: Command, share: ShareFactory): void {
  program.command('node').description('serve one node of a multi-host tier-3 run over etcd (see run --nodes-external)')
    .requiredOption('--kv <url>', 'the etcd the coordinator uses: etcd://host:port')
    .requiredOption('--node-id <i>', 'this node\'s id, 0 … N-1', intArg('--node-id'))
    .requiredOption('--num-nodes <n>', 'how many nodes the coordinator expects (its --nodes-external)', intArg('--num-nodes'))
    .option('--run-id <id>', 'the coordinator\'s --run-id (default: default)')
    .option('-p, --plugin <name|path>', 'plugins.json entry or path to this host\'s plugin library (default: the default entry)')
    .option('-c, --config <file>', 'plugins.json to use')
    .action(async (o: { kv: string; nodeId: number; numNodes: number; runId?: string; plugin?: string; config?: string }) => {
      const r = nodeArgs.safeParse(o);
      if (!r.success) {
        const i = r.error.issues[0]!;
        const flag = `--${String(i.path[0] ?? 'node-id').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
        throw new ConfigError(flag, String((o as Record<string, unknown>)[String(i.path[0])]), i.message);
      }
      const endpoint = parseKvUrl(o.kv);
      const runId = parseRunId(o.runId ?? 'default');
      const plugin = resolvePluginArg(o.config, o.plugin);
      Object.assign(process.env, plugin.env);
      const { errText, etcdProblem } = await import('../kv/etcd.js');
      const { serveNode } = await import('../kv/tasks.js');
      const problem = await etcdProblem(endpoint);
      if (problem !== null) throw new ConfigError('--kv', endpoint.url, `cannot reach etcd: ${problem}`);
      const log = (s: string) => void process.stderr.write(`pjrt-cts: ${s}\n`);
      try {
        await serveNode(endpoint.host, runId, o.nodeId, o.numNodes, await share(plugin.library, plugin.rtldGlobal, endpoint.url, o.nodeId), log);
      } catch (e) {
        process.stderr.write(`pjrt-cts: error: node ${o.nodeId}: ${errText(e)}\n`);
        process.exitCode = 1;
      }
    });
}

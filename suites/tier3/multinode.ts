// Tier 3 — multi-node: N processes each create a client with node id / node count and key-value callbacks
// served from a store this test owns; they must agree on the global topology and own only their devices.
// The node options are plugin-specific (XLA's GPU plugin: node_id/num_nodes; its CPU plugin has none): the plugins.json
// entry must name them (nodeIdOption, numNodesOption), and a plugin whose PJRT_Client_Create rejects them even for a
// single node does not do multi-node — both make every case unsupported, with the reason. The cases that only read
// what a complete group reports share one bring-up per worker and size (completeGroup); the cases that need a group
// of their own (a missing peer) launch it themselves.
import { randomBytes } from 'node:crypto';
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { createOptionsOf, declaredNodeOptions, kvPrefixOption, kvTimeoutOption } from '../_lib/config.js';
import { jsonOptions, launchNodes, type NodeResult } from '../_lib/multinode.js';
import { runKvFromEnv } from '../../src/kv/run-env.js';

// slow: the cases start node processes and wait for their key-value exchange.
const t = area('tier3.multinode', { tier: 3, requires: { slots: ['PJRT_Client_Create'] }, timeoutMs: 90000, slow: true });

const KV_TIMEOUT_MS = 4000;
/** How long a node may take beyond its key-value timeout (process start, plugin load) before it counts as hung. */
const NODE_SLACK_MS = 20000;

/** Per worker: the answer of the single-node probe, keyed by plugin and options. */
const probes = new Map<string, string | null>();

/**
 * The declared node options, after a one-node probe (num_nodes = 1) in a child process: a clean rejection of the
 * node options means the plugin has no multi-node support → unsupported with its message. A probe that crashes or
 * hangs is not judged here: the real launch shows it.
 */
async function nodeOptions(ctx: CaseContext<unknown>) {
  const common = jsonOptions(createOptionsOf(ctx.config));
  const declared = declaredNodeOptions(ctx.config);
  if (!declared) {
    const missing = ctx.config.nodeIdOption ? 'numNodesOption' : 'nodeIdOption';
    return ctx.needsConfig(missing, 'multi-node create options are plugin-specific, so a multi-node run needs the entry to name both nodeIdOption and numNodesOption');
  }
  const key = JSON.stringify([ctx.plugin.path, common, declared]);
  if (!probes.has(key)) {
    const { nodes } = await launchNodes({
      pluginPath: ctx.plugin.path, global: ctx.config.rtldGlobal, options: common,
      nodeIdOption: declared.nodeId, numNodesOption: declared.numNodes, numNodes: 1, deadlineMs: NODE_SLACK_MS,
    });
    const n = nodes[0]!;
    // A store that failed (run --kv etcd://… and etcd went away) says nothing about the plugin's node options.
    if (n.reported && !n.ok && /etcd unreachable/.test(n.error ?? '')) throw new Error(`the key-value store failed during the single-node probe: ${n.error}`);
    probes.set(key, n.reported && !n.ok ? (n.error ?? 'an error') : null);
  }
  const rejected = probes.get(key);
  if (rejected) return ctx.unsupported(`PJRT_Client_Create rejects the node options (${declared.nodeId} = 0, ${declared.numNodes} = 1): ${rejected}`);
  return declared;
}

interface LaunchOpts {
  start?: number[];
  kvTimeoutMs?: number;
  slackMs?: number;
  kvGetCapMs?: number;
}

async function launch(ctx: CaseContext<unknown>, numNodes: number, o: LaunchOpts = {}) {
  const external = runKvFromEnv()?.external;
  if (external !== undefined && numNodes > external) return ctx.skip(`needs ${numNodes} nodes; the run has ${external} external nodes (--nodes-external)`);
  const kvTimeoutMs = o.kvTimeoutMs ?? KV_TIMEOUT_MS;
  const prefix = `cts_${randomBytes(6).toString('hex')}`;
  const prefixOpt = kvPrefixOption(ctx.config);
  const timeoutOpt = kvTimeoutOption(ctx.config);
  const options = jsonOptions({
    ...createOptionsOf(ctx.config),
    ...(prefixOpt ? { [prefixOpt]: prefix } : {}),
    ...(timeoutOpt ? { [timeoutOpt]: BigInt(kvTimeoutMs) } : {}),
  });
  const declared = await nodeOptions(ctx);
  const r = await launchNodes({
    pluginPath: ctx.plugin.path,
    global: ctx.config.rtldGlobal,
    options,
    nodeIdOption: declared.nodeId,
    numNodesOption: declared.numNodes,
    numNodes,
    ...(o.start ? { start: o.start } : {}),
    ...(o.kvGetCapMs !== undefined ? { kvGetCapMs: o.kvGetCapMs } : {}),
    deadlineMs: kvTimeoutMs + (o.slackMs ?? NODE_SLACK_MS),
  });
  return { ...r, prefix: prefixOpt ? prefix : undefined };
}

type Launched = Awaited<ReturnType<typeof launch>>;

/** Per worker: complete groups that came up, keyed by plugin, options (faults switched per client included) and size. */
const groups = new Map<string, Launched>();

/**
 * A complete group of N nodes with the entry's options, brought up once per worker and read by every case that only
 * inspects what its nodes report — as a framework brings a group up once (jax.distributed.initialize) and reads the
 * topology, process index and addressable devices off that one bring-up. Only a group in which every node got its
 * client is kept: a failed or partial bring-up is not reused, so each case (and each retry) brings up its own again.
 */
async function completeGroup(ctx: CaseContext<unknown>, numNodes: number): Promise<Launched> {
  const key = JSON.stringify([ctx.plugin.path, ctx.config.rtldGlobal, jsonOptions(createOptionsOf(ctx.config)), numNodes, runKvFromEnv() ?? null]);
  const kept = groups.get(key);
  if (kept) return kept;
  const r = await launch(ctx, numNodes);
  if (r.nodes.every((n) => n.ok)) groups.set(key, r);
  return r;
}

function allOk(nodes: NodeResult[]): void {
  for (const n of nodes) {
    check.ok(n.ok, `node ${n.nodeId} of a complete multi-node group must create its client`, 'a client', n.error ?? `no report (exit code ${n.exitCode}${n.timedOut ? ', killed after its deadline' : ''})`);
  }
}

const SIZES = [{ id: '2', n: 2 }, { id: '3', n: 3 }];
const ids = (n: NodeResult) => n.devices!.map((d) => d.id).sort((a, b) => a - b);

t.case('bring_up', {
  source: 'framework',
  cite: 'JAX (jax/_src/xla_bridge.py, make_c_api_client with jax.distributed) creates one client per process with the plugin\'s node id / node count create options and PJRT_Client_Create\'s kv_get/kv_put callbacks ("KV store access may be necessary to create some multi-node/multi-process clients"); every process of a complete group must get its client',
  catches: ['kv_put_skipped', 'crash_in=PJRT_Client_Create'],
})
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await completeGroup(ctx, ctx.p.n);
    allOk(nodes);
  });

t.case('global_devices_agree', {
  source: 'header',
  cite: 'PJRT_Client_Devices: "Returns a list of all devices visible to the runtime, including addressable and non-addressable devices"; PJRT_DeviceDescription_ProcessIndex: "each client can see devices from all processes" — so every node lists the same global devices, from all N processes',
  catches: ['kv_put_skipped'],
})
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await completeGroup(ctx, ctx.p.n);
    allOk(nodes);
    for (const n of nodes.slice(1)) check.equal(ids(n), ids(nodes[0]!), `node ${n.nodeId} and node 0 must list the same global devices`);
    for (const n of nodes) {
      const procs = [...new Set(n.devices!.map((d) => d.processIndex))].sort((a, b) => a - b);
      check.equal(procs.length, ctx.p.n, `node ${n.nodeId} must see devices of all ${ctx.p.n} processes (process indices seen: ${check.show(procs)})`);
    }
  });

t.case('global_device_ids_unique', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_Id: "IDs are unique among devices of this type … On multi-host platforms, this will be unique across all hosts\' devices"',
  catches: ['duplicate_device_ids'],
})
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await completeGroup(ctx, ctx.p.n);
    allOk(nodes);
    for (const n of nodes) check.unique(ids(n), `node ${n.nodeId}: device ids must be unique across all hosts' devices`, 'device ids');
  });

t.case('process_index_is_node_id', {
  source: 'framework',
  cite: 'PJRT_Client_ProcessIndex ("Return the process index of this client") is what jax.process_index() reports, and JAX passes jax.distributed\'s process_id as the node id (xla_bridge.py make_gpu_client: node_id=distributed process_id), relying on the two being equal (per-process data loading, process_allgather)',
  catches: ['process_index_wrong'],
})
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await completeGroup(ctx, ctx.p.n);
    allOk(nodes);
    for (const n of nodes) check.equal(n.processIndex, n.nodeId, `node ${n.nodeId}: PJRT_Client_ProcessIndex must equal the node id the client was created with`);
  });

t.case('only_own_devices_addressable', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_ProcessIndex: "each client can see devices from all processes, but only a subset of them are addressable and have the same process_index as the client"; PJRT_Client_AddressableDevices: "devices that are addressable from the client"',
  catches: ['all_devices_addressable'],
})
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await completeGroup(ctx, ctx.p.n);
    allOk(nodes);
    for (const n of nodes) {
      for (const d of n.devices!) {
        check.equal(d.addressable, d.processIndex === n.processIndex, `node ${n.nodeId}: device ${d.id} (process ${d.processIndex}) is addressable if and only if its process index is the client's (${n.processIndex})`);
      }
      const own = n.devices!.filter((d) => d.processIndex === n.processIndex).map((d) => d.id).sort((a, b) => a - b);
      check.equal([...n.addressable!].sort((a, b) => a - b), own, `node ${n.nodeId}: AddressableDevices must be exactly the devices with the client's process index`);
    }
  });

t.case('keys_namespaced', {
  source: 'quality',
  cite: 'the header makes the caller responsible for key collisions ("The caller that provides the two callbacks is responsible for avoiding key collisions between different users of key-value store"); a plugin that offers a key-prefix create option should still apply it to every key, so that runs sharing a store do not collide',
  selfTest: 'needs a create option that prefixes key-value keys (plugins.json kvPrefixOption; the reference plugin\'s kv_prefix)',
  catches: ['kv_keys_not_namespaced'],
}).run(async (ctx) => {
  if (kvPrefixOption(ctx.config) === undefined) return ctx.needsConfig('kvPrefixOption', 'a key prefix to check');
  const { nodes, keys, prefix } = await completeGroup(ctx, 2);
  allOk(nodes);
  check.ok(keys.length > 0, 'a multi-node bring-up must exchange keys through the store', '≥ 1 key', '0');
  const stray = keys.filter((k) => !k.includes(prefix!));
  check.equal(stray, [], `every key-value key should carry the run's prefix '${prefix}'`);
});

/** The store answers a get for a missing key with DEADLINE_EXCEEDED after at most this long. */
const MISSING_PEER_KV_TIMEOUT_MS = 300;
/** How long after that the lone node may take to report before it counts as hung. */
const MISSING_PEER_SLACK_MS = 10000;

t.case('missing_peer_errors', {
  source: 'quality',
  cite: 'the header leaves multi-node bring-up to the plugin, but when the key-value store reports a peer\'s key missing (its get callback returns DEADLINE_EXCEEDED through callback_error), PJRT_Client_Create should fail with an error rather than hang or crash, so a launcher can report the missing process',
  control: 'a complete two-node group brings up (bring_up.2)',
  catches: ['missing_peer_hangs'],
}).run(async (ctx) => {
  await nodeOptions(ctx); // unsupported without multi-node options (before the control, which would count it a failure)
  await check.control('a complete two-node group brings up', async () => allOk((await completeGroup(ctx, 2)).nodes));
  const { nodes } = await launch(ctx, 2, { start: [0], kvTimeoutMs: MISSING_PEER_KV_TIMEOUT_MS, kvGetCapMs: MISSING_PEER_KV_TIMEOUT_MS, slackMs: MISSING_PEER_SLACK_MS });
  const n = nodes[0]!;
  const within = `an error within ${MISSING_PEER_KV_TIMEOUT_MS} ms (+ ${MISSING_PEER_SLACK_MS} ms slack) of the store reporting the key missing`;
  check.ok(!n.timedOut, 'with a peer missing, PJRT_Client_Create should fail once the store reports the key missing, not hang', within, 'no answer (killed)');
  check.ok(n.reported, 'with a peer missing, PJRT_Client_Create should return an error, not crash the process', within, () => `exit code ${n.exitCode}: ${n.stderr.slice(-300)}`);
  check.ok(!n.ok, 'with a peer missing, PJRT_Client_Create should fail', 'an error', 'a client');
});

// Tier 3 — multi-node: N processes each create a client with node id / node count and key-value callbacks
// served from a store this test owns; they must agree on the global topology and own only their devices.
import { randomBytes } from 'node:crypto';
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { createOptionsOf, kvPrefixOption, kvTimeoutOption, nodeIdOption, numNodesOption } from '../_lib/config.js';
import { jsonOptions, launchNodes, type NodeResult } from '../_lib/multinode.js';

const t = area('tier3.multinode', { tier: 3, requires: { slots: ['PJRT_Client_Create'] }, timeoutMs: 90000 });

const KV_TIMEOUT_MS = 4000;
/** How long a node may take beyond its key-value timeout (process start, plugin load) before it counts as hung. */
const NODE_SLACK_MS = 20000;

async function launch(ctx: CaseContext<unknown>, numNodes: number, start?: number[], kvTimeoutMs = KV_TIMEOUT_MS, slackMs = NODE_SLACK_MS) {
  const platform = ctx.client.platformName();
  const prefix = `cts_${randomBytes(6).toString('hex')}`;
  const prefixOpt = kvPrefixOption(ctx.config, platform);
  const timeoutOpt = kvTimeoutOption(ctx.config, platform);
  const options = jsonOptions({
    ...createOptionsOf(ctx.config),
    ...(prefixOpt ? { [prefixOpt]: prefix } : {}),
    ...(timeoutOpt ? { [timeoutOpt]: kvTimeoutMs } : {}),
  });
  const r = await launchNodes({
    pluginPath: ctx.plugin.path,
    global: ctx.config.rtldGlobal,
    options,
    nodeIdOption: nodeIdOption(ctx.config),
    numNodesOption: numNodesOption(ctx.config),
    numNodes,
    ...(start ? { start } : {}),
    deadlineMs: kvTimeoutMs + slackMs,
  });
  return { ...r, prefix: prefixOpt ? prefix : undefined };
}

function allOk(nodes: NodeResult[]): void {
  for (const n of nodes) {
    check.ok(n.ok, `node ${n.nodeId} of a complete multi-node group must create its client`, 'a client', n.error ?? 'no report');
  }
}

const SIZES = [{ id: '2', n: 2 }, { id: '3', n: 3 }];

t.case('bring_up', { catches: ['kv_put_skipped', 'crash_in=PJRT_Client_Create'] })
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await launch(ctx, ctx.p.n);
    allOk(nodes);
  });

t.case('global_devices_agree', { catches: ['kv_put_skipped'] })
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await launch(ctx, ctx.p.n);
    allOk(nodes);
    const ids = (n: NodeResult) => n.devices!.map((d) => d.id).sort((a, b) => a - b);
    for (const n of nodes.slice(1)) check.equal(ids(n), ids(nodes[0]!), `node ${n.nodeId} and node 0 must list the same global devices`);
    check.unique(ids(nodes[0]!), 'global device ids must be unique across nodes', 'device ids');
    for (const n of nodes) {
      const procs = new Set(n.devices!.map((d) => d.processIndex));
      check.equal(procs.size, ctx.p.n, `node ${n.nodeId} must see devices of all ${ctx.p.n} processes`);
    }
  });

t.case('process_index_is_node_id', { catches: ['process_index_wrong'] })
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await launch(ctx, ctx.p.n);
    allOk(nodes);
    for (const n of nodes) check.equal(n.processIndex, n.nodeId, 'PJRT_Client_ProcessIndex must equal the node id the client was created with');
  });

t.case('only_own_devices_addressable', { catches: ['all_devices_addressable'] })
  .params(SIZES)
  .run(async (ctx) => {
    const { nodes } = await launch(ctx, ctx.p.n);
    allOk(nodes);
    for (const n of nodes) {
      for (const d of n.devices!) {
        check.equal(d.addressable, d.processIndex === n.processIndex, `node ${n.nodeId}: device ${d.id} (process ${d.processIndex}) addressable only if local`);
      }
      const own = n.devices!.filter((d) => d.processIndex === n.processIndex).map((d) => d.id).sort((a, b) => a - b);
      check.equal([...n.addressable!].sort((a, b) => a - b), own, `node ${n.nodeId}: AddressableDevices must be exactly its own devices`);
    }
  });

t.case('keys_namespaced', { catches: ['kv_keys_not_namespaced'] }).run(async (ctx) => {
  const { nodes, keys, prefix } = await launch(ctx, 2);
  if (prefix === undefined) return ctx.skip('the plugin config names no key-prefix option');
  allOk(nodes);
  check.ok(keys.length > 0, 'a multi-node bring-up must exchange keys through the store', '≥ 1 key', '0');
  const stray = keys.filter((k) => !k.includes(prefix));
  check.equal(stray, [], `every key-value key must carry the run's prefix '${prefix}'`);
});

/** A short key-value timeout: the case waits for it to run out (and, if the plugin hangs, for the slack too). */
const MISSING_PEER_KV_TIMEOUT_MS = 1000;
const MISSING_PEER_SLACK_MS = 10000;

t.case('missing_peer_errors', { catches: ['missing_peer_hangs'] }).run(async (ctx) => {
  if (!kvTimeoutOption(ctx.config, ctx.client.platformName())) return ctx.skip('the plugin config names no key-value timeout option');
  const { nodes } = await launch(ctx, 2, [0], MISSING_PEER_KV_TIMEOUT_MS, MISSING_PEER_SLACK_MS);
  const n = nodes[0]!;
  const within = `an error within ${MISSING_PEER_KV_TIMEOUT_MS} ms (+ ${MISSING_PEER_SLACK_MS} ms slack)`;
  check.ok(!n.timedOut, 'with a peer missing, PJRT_Client_Create must fail after its timeout, not hang', within, 'no answer (killed)');
  check.ok(n.reported, 'with a peer missing, PJRT_Client_Create must return an error, not crash the process', within, () => `exit code ${n.exitCode}: ${n.stderr.slice(-300)}`);
  check.ok(!n.ok, 'with a peer missing, PJRT_Client_Create must fail', 'an error', 'a client');
});

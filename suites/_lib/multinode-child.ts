// One node of a multi-node run: loads the plugin, creates a client with node options and a key-value store
// shared with its peers, prints what it sees as one JSON line, and exits. Run by suites/_lib/multinode.ts.
import { Plugin } from '../../src/pjrt/index.js';
import { exitWithParent } from '../../src/ffi/exit-with-parent.js';
import type { NamedValues } from '../../src/pjrt/index.js';
import { openNodeStore, type NodeKvSpec } from './kv-store.js';
import { fromJson } from '../../src/config/named-value.js';
import type { CreateOptionValue } from '../../src/config/plugins.js';

export interface NodeSpec {
  pluginPath: string;
  global: boolean;
  /** create options as plugins.json spells them (src/config/named-value.ts toWire), node id and count as integers */
  options: Record<string, CreateOptionValue>;
  /** the store shared with the peers: a directory (`kvDir`) or `kv` */
  kvDir?: string;
  kv?: NodeKvSpec;
  /** cap on how long the store's get waits (see DirKvStore) */
  kvGetCapMs?: number;
}

export interface NodeReport {
  ok: boolean;
  error?: string;
  processIndex?: number;
  devices?: { id: number; processIndex: number; addressable: boolean }[];
  addressable?: number[];
}

function revive(o: NodeSpec['options']): NamedValues {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fromJson(v)]));
}

async function main(): Promise<void> {
  exitWithParent(); // a node blocked in PJRT_Client_Create (a missing peer) must not outlive its launcher
  const spec = JSON.parse(process.argv[2]!) as NodeSpec;
  let report: NodeReport;
  try {
    const plugin = Plugin.load(spec.pluginPath, { global: spec.global });
    plugin.initialize();
    const client = await plugin.createClient({ options: revive(spec.options), kv: await openNodeStore(spec.kv ?? { kind: 'dir', dir: spec.kvDir! }, spec.kvGetCapMs) });
    report = {
      ok: true,
      processIndex: client.processIndex(),
      devices: client.devices().map((d) => ({ id: d.id, processIndex: d.processIndex, addressable: d.isAddressable() })),
      addressable: client.addressableDevices().map((d) => d.id),
    };
  } catch (e) {
    report = { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0); // peers may still be running; do not wait for the client's threads
}

void main();

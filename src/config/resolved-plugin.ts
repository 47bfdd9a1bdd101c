// The configuration a worker loads: `--plugin <name|path>` plus plugins.json, resolved (src/runner/plugins.ts).
import type { NamedValues } from './named-value.js';

export interface ResolvedPlugin {
  name: string;
  library: string;
  createOptions: NamedValues;
  env: Record<string, string>;
  rtldGlobal: boolean;
  expectations?: string;
  nodeIdOption?: string;
  numNodesOption?: string;
  kvPrefixOption?: string;
  kvTimeoutOption?: string;
  completionDelayOption?: string;
  strictCreateOptions?: boolean;
  maxLiveClients?: number;
  exclusiveDevices?: boolean;
  parallelCreateOptions?: NamedValues;
  programForms?: ('text' | 'artifact')[];
  /** The topology name of a compile-only run (plugins.json `topology`, or --topology). */
  topology?: string;
  /** JAX loads this plugin through its own route for that platform (plugins.json `jaxPlatform`). */
  jaxPlatform?: 'tpu';
  /** Options for PJRT_TopologyDescription_Create only, over createOptions (plugins.json `topologyOptions`). */
  topologyOptions?: NamedValues;
  /** `run --compile-only`: no client is created; the cases that need one are skipped (src/harness/compile-only.ts). */
  compileOnly?: boolean;
  /** Given by path (`--plugin ./lib.so`): no plugins.json entry, so none of the entry's optional fields. */
  byPath?: boolean;
}

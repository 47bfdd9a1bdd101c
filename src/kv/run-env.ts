// How `run --kv …` reaches the tier-3 cases in the worker processes: the CLI sets these variables before the
// workers start (workers inherit the environment), and clears them when `--kv` is not given.
import { parseKvUrl, type EtcdEndpoint } from './url.js';

const KV_ENV = 'PJRT_CTS_KV';
const RUN_ID_ENV = 'PJRT_CTS_RUN_ID';
const NODES_EXTERNAL_ENV = 'PJRT_CTS_NODES_EXTERNAL';

export interface RunKv {
  endpoint: EtcdEndpoint;
  runId: string;
  /** number of external nodes (`--nodes-external`): tier-3 launches go to `pjrt-cts node` processes */
  external?: number;
}

/** The run's etcd store, or undefined for the directory store (one host, the default). */
export function runKvFromEnv(env: NodeJS.ProcessEnv = process.env): RunKv | undefined {
  const url = env[KV_ENV];
  const runId = env[RUN_ID_ENV];
  if (!url || !runId) return undefined;
  const ext = Number(env[NODES_EXTERNAL_ENV] ?? '');
  return { endpoint: parseKvUrl(url), runId, ...(Number.isInteger(ext) && ext > 0 ? { external: ext } : {}) };
}

export function setRunKvEnv(kv: RunKv | undefined, env: NodeJS.ProcessEnv = process.env): void {
  delete env[KV_ENV];
  delete env[RUN_ID_ENV];
  delete env[NODES_EXTERNAL_ENV];
  if (!kv) return;
  env[KV_ENV] = kv.endpoint.url;
  env[RUN_ID_ENV] = kv.runId;
  if (kv.external !== undefined) env[NODES_EXTERNAL_ENV] = String(kv.external);
}

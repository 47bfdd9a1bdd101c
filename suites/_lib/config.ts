// What the suites need to know about the plugin under test beyond its API: option names and policies from
// its plugins.json entry. Fields the config schema does not (yet) carry fall back to the reference plugin's
// documented behaviour when the platform is `reference`, and to "not available" otherwise.
export type NamedValue = string | bigint | number | boolean | bigint[];
export type NamedValues = Record<string, NamedValue>;

export interface SuiteConfigView {
  createOptions: NamedValues;
  nodeIdOption?: string;
  numNodesOption?: string;
}

function field(config: unknown, name: string): unknown {
  return config && typeof config === 'object' ? (config as Record<string, unknown>)[name] : undefined;
}
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

export function createOptionsOf(config: unknown): NamedValues {
  const v = field(config, 'createOptions');
  return v && typeof v === 'object' ? { ...(v as NamedValues) } : {};
}

/** Whether unknown / wrong-typed create options must be rejected (the XLA behaviour; default true). */
export function strictCreateOptions(config: unknown): boolean {
  return field(config, 'strictCreateOptions') !== false;
}

const REFERENCE = 'reference';

/** Create option that delays every asynchronous completion (ms), so not-yet-ready states can be observed. */
export function completionDelayOption(config: unknown, platform: string): string | undefined {
  return str(field(config, 'completionDelayOption')) ?? (platform === REFERENCE ? 'completion_delay_ms' : undefined);
}

export function nodeIdOption(config: unknown): string {
  return str(field(config, 'nodeIdOption')) ?? 'node_id';
}
export function numNodesOption(config: unknown): string {
  return str(field(config, 'numNodesOption')) ?? 'num_nodes';
}
/** Create option that namespaces key-value keys per run (so concurrent runs cannot collide). */
export function kvPrefixOption(config: unknown, platform: string): string | undefined {
  return str(field(config, 'kvPrefixOption')) ?? (platform === REFERENCE ? 'kv_prefix' : undefined);
}
/** Create option bounding how long a node waits for its peers (ms). */
export function kvTimeoutOption(config: unknown, platform: string): string | undefined {
  return str(field(config, 'kvTimeoutOption')) ?? (platform === REFERENCE ? 'kv_timeout_ms' : undefined);
}

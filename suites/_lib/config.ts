// What the suites need to know about the plugin under test beyond its API: option names and policies from its
// plugins.json entry (the worker's view of it), never guessed from what the plugin reports about itself.
export type NamedValue = string | bigint | number | boolean | bigint[];
export type NamedValues = Record<string, NamedValue>;

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

/** Create option that delays every asynchronous completion (ms), so not-yet-ready states can be observed. */
export function completionDelayOption(config: unknown): string | undefined {
  return str(field(config, 'completionDelayOption'));
}

export function nodeIdOption(config: unknown): string {
  return str(field(config, 'nodeIdOption')) ?? 'node_id';
}
export function numNodesOption(config: unknown): string {
  return str(field(config, 'numNodesOption')) ?? 'num_nodes';
}
/** Create option that namespaces key-value keys per run (so concurrent runs cannot collide). */
export function kvPrefixOption(config: unknown): string | undefined {
  return str(field(config, 'kvPrefixOption'));
}
/** Create option bounding how long a node waits for its peers (ms). */
export function kvTimeoutOption(config: unknown): string | undefined {
  return str(field(config, 'kvTimeoutOption'));
}

/** The node-id and node-count create options only when the plugins.json entry names both (no default): multi-node
 *  runs need a plugin that has such options, and only its entry can say what they are called. (d3) */
export function declaredNodeOptions(config: unknown): { nodeId: string; numNodes: string } | undefined {
  const nodeId = str(field(config, 'nodeIdOption'));
  const numNodes = str(field(config, 'numNodesOption'));
  return nodeId && numNodes ? { nodeId, numNodes } : undefined;
}

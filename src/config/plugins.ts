// plugins.json: named plugin configurations and the default one.
import { z } from 'zod';
import { float32Problem, int64Problem, unsafeIntegerProblem } from './int64.js';

/** The places `{"discover": "<kind>:<name>"}` looks (src/runner/plugins.ts has a finder for each). */
export const DISCOVER_KINDS = ['jax_plugins', 'torch_xla', 'python', 'env'] as const;
export type DiscoverKind = typeof DISCOVER_KINDS[number];
const DISCOVER = new RegExp(`^(${DISCOVER_KINDS.join('|')}):[A-Za-z0-9_.-]+$`);

export const LibrarySource = z.union([
  z.string().min(1).describe('a path (relative to this file) or "$ENV_VAR" naming an environment variable that holds the path'),
  z.strictObject({
    discover: z.string().regex(DISCOVER, 'expected "jax_plugins:<name part>", "torch_xla:<entry point>", "python:<package>" or "env:<plugin name>"')
      .describe('"jax_plugins:cuda": the first jax_plugins package of python3 (PJRT_CTS_PYTHON) whose name contains "cuda"; "torch_xla:cuda": the torch_xla.plugins entry point named cuda (any case) of that python, a PyTorch/XLA DevicePlugin whose library_path() is the library and whose client_create_options() are create options under this entry\'s own; "python:libtpu": the installed libtpu package\'s libtpu/libtpu.so, where JAX finds it; "env:cuda": the entry named cuda in PJRT_NAMES_AND_LIBRARY_PATHS'),
  }),
]);
export type LibrarySource = z.infer<typeof LibrarySource>;

/** JSON spelling of a PJRT_NamedValue: integers are kInt64, other numbers kFloat, {"float": 1} forces kFloat, {"int64": "…"} a 64-bit integer. */
export const CreateOptionValue = z.union([
  z.string(),
  z.boolean(),
  z.number(),
  z.array(z.number().int()).describe('kInt64List'),
  z.strictObject({ float: z.number() }),
  z.strictObject({ int64: z.union([z.number().int(), z.string().regex(/^-?\d+$/)]) }),
]).superRefine((v, ctx) => {
  const problem = numberProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: `expected a value the plugin receives unchanged: ${problem}` });
});

/** Why a create option's number would not reach the plugin as written (int64 and float ranges, JSON precision). */
function numberProblem(v: CreateOptionValue): string | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? int64Problem(BigInt(v)) ?? unsafeIntegerProblem(v) : float32Problem(v);
  if (Array.isArray(v)) return v.map(unsafeIntegerProblem).find(Boolean);
  if (typeof v !== 'object') return undefined;
  if ('float' in v) return float32Problem(v.float);
  if (typeof v.int64 === 'number') return int64Problem(BigInt(v.int64)) ?? unsafeIntegerProblem(v.int64);
  // Digits only: anything else ("12abc") is already reported by the schema's pattern.
  return /^-?\d+$/.test(v.int64) ? int64Problem(BigInt(v.int64)) : undefined;
}
export type CreateOptionValue = z.infer<typeof CreateOptionValue>;

export const PluginConfig = z.strictObject({
  description: z.string().optional(),
  library: z.union([LibrarySource, z.array(LibrarySource).min(1)])
    .describe('where the shared library is; with a list, the first alternative that resolves to an existing file wins'),
  createOptions: z.record(z.string().min(1), CreateOptionValue).default({}),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name'), z.string()).default({})
    .describe('environment of the child processes that load the plugin'),
  rtldGlobal: z.boolean().default(false).describe('dlopen with RTLD_GLOBAL'),
  expectations: z.string().optional().describe('expectations file (relative to this file) applied unless --expectations or --strict'),
  nodeIdOption: z.string().optional().describe('create option that carries the node id in multi-node runs'),
  numNodesOption: z.string().optional().describe('create option that carries the number of nodes in multi-node runs'),
  kvPrefixOption: z.string().optional().describe('create option that namespaces key-value keys per run (multi-node)'),
  kvTimeoutOption: z.string().optional().describe('create option that bounds how long a node waits for its peers (ms)'),
  completionDelayOption: z.string().optional()
    .describe('create option that delays asynchronous completions (ms), so tests can observe not-yet-ready events'),
  strictCreateOptions: z.boolean().optional()
    .describe('false if the plugin documents that it ignores unknown or wrongly typed create options'),
  maxLiveClients: z.number().int().min(1).optional()
    .describe('how many clients the plugin allows alive in one process (1: a case that needs its own client first drops the shared one; cases that need two live clients are unsupported)'),
  exclusiveDevices: z.boolean().optional()
    .describe('true if the devices can be held by one process at a time (TPU-like): the run uses one worker whatever --jobs says'),
  parallelCreateOptions: z.record(z.string().min(1), CreateOptionValue).optional()
    .describe('create options added when more than one worker runs at once (e.g. GPU: {"preallocate": false})'),
  topology: z.string().min(1).optional()
    .describe('the topology name PJRT_TopologyDescription_Create is given (the AOT cases\' compile target; `run --compile-only`\'s whole profile; --topology overrides it), e.g. "v4:2x2x1" for TPU; with the entry\'s createOptions and topologyOptions as the topology\'s create options'),
  topologyOptions: z.record(z.string().min(1), CreateOptionValue).optional()
    .describe('create options given to PJRT_TopologyDescription_Create only, over createOptions: options PJRT_Client_Create would reject, e.g. the GPU plugin\'s {"topology": "1x1x4"} (slices x hosts x devices) for ahead-of-time compiles for more devices than the host has'),
  jaxPlatform: z.enum(['tpu']).optional()
    .describe('how JAX loads this plugin in the framework tier (tier4), when not as any plugin (PJRT_NAMES_AND_LIBRARY_PATHS): "tpu", as JAX loads libtpu — TPU_LIBRARY_PATH names the library and the platform is "tpu" (jax/_src/xla_bridge.py get_tpu_library_path, make_pjrt_tpu_topology, which also calls PJRT_Plugin_Initialize first)'),
  programForms: z.array(z.enum(['text', 'artifact'])).min(1).optional()
    .describe('the forms of a format "mlir" program the plugin compiles: "text" (StableHLO text), "artifact" (a StableHLO portable artifact, VHLO bytecode, as JAX sends); absent: probed by compiling a trivial program in each form'),
});
export type PluginConfig = z.infer<typeof PluginConfig>;

export const PluginsFile = z.strictObject({
  $schema: z.string().optional(),
  default: z.string().min(1),
  plugins: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a plugin name of letters, digits, _ . -'), PluginConfig),
}).refine((f) => f.default in f.plugins, { message: 'expected "default" to name an entry of "plugins"', path: ['default'] });
export type PluginsFile = z.infer<typeof PluginsFile>;

// The compile-only profile (`run --compile-only`): no client is created. Cases that declare a client are skipped
// with one reason (the plugin lacks nothing: the run chose not to make one); cases without one run, and the AOT
// cases compile against a topology created from the entry's `topology` name and create options.
import type { NamedValues, TopologyDescription, Plugin } from '../pjrt/index.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import type { ClientNeed } from './types.js';
import { isUnsupportedError } from './signals.js';

export const COMPILE_ONLY_SKIP = 'compile-only profile: needs a client';

/** The skip reason of a case in this worker's profile, or undefined when it runs. */
export function profileSkip(client: ClientNeed, config: Pick<ResolvedPlugin, 'compileOnly'>): string | undefined {
  return config.compileOnly && client !== 'none' ? COMPILE_ONLY_SKIP : undefined;
}

/**
 * The options PJRT_TopologyDescription_Create is given: the entry's create options with its `topologyOptions` over
 * them (the GPU plugin takes its topology's shape from a `topology` option that PJRT_Client_Create rejects).
 */
export function topologyCreateOptions(config: Pick<ResolvedPlugin, 'createOptions' | 'topologyOptions'>): NamedValues {
  return { ...config.createOptions, ...config.topologyOptions };
}

let created = new WeakMap<Plugin, TopologyDescription>();

/** The next case creates the compile target anew: the create options (the reference plugin's `faults`) changed. */
export function forgetCompileTopology(): void {
  created = new WeakMap();
}

/**
 * The worker's compile target: PJRT_TopologyDescription_Create of the entry's `topology` name (empty when none: the
 * plugin's default topology) with its create and topology options, as JAX's make_pjrt_tpu_topology passes them. Created once per
 * plugin and kept for the worker's life (cases compile against it; a case never destroys it).
 */
export function compileTopology(plugin: Plugin, config: Pick<ResolvedPlugin, 'topology' | 'createOptions' | 'topologyOptions'>): TopologyDescription {
  let t = created.get(plugin);
  if (!t) {
    t = plugin.createTopology({ name: config.topology ?? '', options: topologyCreateOptions(config) });
    created.set(plugin, t);
  }
  return t;
}

/**
 * The compile-only preflight: the plugin loads and creates its compile topology. Returns the problem (one line),
 * or undefined. `describe` renders the plugin's error.
 */
export function topologyProblem(plugin: () => Plugin, config: Pick<ResolvedPlugin, 'topology' | 'createOptions' | 'topologyOptions' | 'library'>): string | undefined {
  try {
    const t = compileTopology(plugin(), config);
    if (t.deviceDescriptions().length === 0) return `${config.library}: PJRT_TopologyDescription_Create("${config.topology ?? ''}") describes no devices: nothing to compile for (--compile-only)`;
    return undefined;
  } catch (e) {
    // A plugin without AOT compilation (XLA's CPU plugin: UNIMPLEMENTED) is no bad input: its cases are unsupported.
    if (isUnsupportedError(e) || (e instanceof Error && 'codeName' in e && e.codeName === 'UNIMPLEMENTED')) return undefined;
    if (e instanceof Error && e.name === 'PluginLoadError') return e.message;
    const what = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    return `${config.library}: the compile-only profile cannot create its topology: PJRT_TopologyDescription_Create("${config.topology ?? ''}") failed: ${what} (name one with --topology or the entry's "topology")`;
  }
}

// The preflight's question to a plugin whose PJRT_Client_Create failed: can it still create a topology? A device
// plugin on a machine without its device (libtpu without a TPU) cannot make a client but can compile ahead of time
// against a topology, which is what `run --compile-only` checks.
import type { Plugin } from '../pjrt/index.js';
import type { Scope } from '../pjrt/scope.js';
import { traced } from './call-trace.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { topologyCreateOptions } from '../harness/compile-only.js';

/** The entry's topology name (plugins.json `topology`), where the entry has one. */
function topologyName(plugin: ResolvedPlugin): string | undefined {
  return plugin.topology;
}

/** The one line for a client the plugin would not create: its code and message, as the plugin gave them. */
export function clientCreateProblem(plugin: ResolvedPlugin, e: { codeName: string; message: string }): string {
  return `${plugin.library}: PJRT_Client_Create failed: ${e.codeName}: ${e.message.replace(/\s*\n\s*/g, ' ')}`;
}

/**
 * What to suggest after `problem` when PJRT_TopologyDescription_Create works (with the entry's topology name, else
 * none) and the options the client was given: the compile-only profile. Undefined when it does not.
 */
export function compileOnlyHint(plugin: ResolvedPlugin, loaded: Plugin, scope: Scope): string | undefined {
  if (!loaded.has('PJRT_TopologyDescription_Create')) return undefined;
  const name = topologyName(plugin);
  try {
    const topology = traced('PJRT_TopologyDescription_Create', () =>
      loaded.createTopology({ ...(name !== undefined ? { name } : {}), options: topologyCreateOptions(plugin), scope }));
    const devices = topology.deviceDescriptions().length;
    const which = name !== undefined ? `topology "${name}"` : 'a topology';
    return `PJRT_TopologyDescription_Create works, ${which} of ${devices} device(s): \`run --compile-only\` runs the cases that need no client`;
  } catch {
    return undefined; // no topology either: nothing to suggest
  }
}

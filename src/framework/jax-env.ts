// How JAX is pointed at the plugin under test, as JAX loads plugins: PJRT_NAMES_AND_LIBRARY_PATHS=<name>:<file>
// and JAX_PLATFORMS=<name>. The create options reach the plugin the way JAX supports for that variable
// (jax/_src/xla_bridge.py, register_pjrt_plugin_factories_from_env): <file> is a JSON file holding
// {"library_path", "create_options"} instead of the library itself, read by _get_pjrt_plugin_config and handed to
// register_plugin(options=…). With a call trace, JAX loads the trace shim, which forwards to the real library.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { toJsonValue } from '../config/named-value.js';
import { TRACE_ENV } from './trace-shim.js';

/** What runs JAX's tests: a plugin, or JAX's own CPU backend (the referee, no plugin). */
export type JaxTarget = { kind: 'plugin'; plugin: ResolvedPlugin; traceShim?: string } | { kind: 'jax-cpu' };

/** JAX's platform name for the plugin: the entry's name, as a Python identifier (JAX_PLATFORMS splits on commas). */
export const platformNameOf = (p: ResolvedPlugin): string => p.name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1');

export interface TargetEnv {
  env: Record<string, string>;
  /** The platform JAX runs on. */
  platform: string;
  /** A directory of ours the caller removes. */
  tmp: string;
}

/** The environment of every pytest process for `t` (a trace shim's log, one per process, is named by the caller). */
export function targetEnv(t: JaxTarget): TargetEnv {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'pjrt-cts-jax-'));
  if (t.kind === 'jax-cpu') return { env: { JAX_PLATFORMS: 'cpu' }, platform: 'cpu', tmp };
  const p = t.plugin;
  // JAX's own route for TPU: the library by TPU_LIBRARY_PATH, the platform "tpu" (create options are not passed this way).
  if (p.jaxPlatform === 'tpu') return { env: { ...p.env, TPU_LIBRARY_PATH: t.traceShim ?? p.library, ...(t.traceShim ? { [TRACE_ENV.plugin]: p.library } : {}), JAX_PLATFORMS: 'tpu' }, platform: 'tpu', tmp };
  const name = platformNameOf(p);
  const config = path.join(tmp, `${name}.json`);
  const createOptions = Object.fromEntries(Object.entries(p.createOptions).map(([k, v]) => [k, toJsonValue(v)]));
  writeFileSync(config, JSON.stringify({ library_path: t.traceShim ?? p.library, create_options: createOptions }, null, 2));
  return {
    env: {
      ...p.env,
      PJRT_NAMES_AND_LIBRARY_PATHS: `${name}${path.delimiter}${config}`,
      JAX_PLATFORMS: name,
      ...(t.traceShim ? { [TRACE_ENV.plugin]: p.library } : {}),
    },
    platform: name,
    tmp,
  };
}

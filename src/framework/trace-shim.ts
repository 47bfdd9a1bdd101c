// Where the call-trace shim is (native/call-trace: a PJRT plugin that forwards to another and records every call)
// and the environment that drives it. A framework loads the shim as its plugin (PJRT_NAMES_AND_LIBRARY_PATHS), the
// shim loads the plugin under test; src/framework/call-log.ts reads the record.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';
import { buildReference, TRACE_SHIM_LIB } from '../runner/reference-build.js';

/** The shim's environment: the plugin it forwards to, the log file, and (optional) the directory for programs. */
export const TRACE_ENV = {
  plugin: 'PJRT_CTS_TRACE_PLUGIN',
  log: 'PJRT_CTS_TRACE_LOG',
  programs: 'PJRT_CTS_TRACE_PROGRAMS',
} as const;

/** The shim in a development checkout (`npm run build:plugin` builds it there). */
export function checkoutTraceShim(): string {
  return path.join(packageRoot(), 'build', 'call-trace', TRACE_SHIM_LIB);
}

/**
 * The shim's library: the checkout's build, else the per-user cache beside the reference plugin (built there on
 * first use, as the reference plugin is; needs cmake and a C++ compiler).
 */
export function traceShimPath(): string {
  const checkout = checkoutTraceShim();
  if (existsSync(checkout)) return checkout;
  return path.join(path.dirname(buildReference()), TRACE_SHIM_LIB);
}

/** The environment that puts the shim in front of `plugin`, logging to `log` (and programs into `programs`). */
export function traceEnv(plugin: string, log: string, programs?: string): Record<string, string> {
  return { [TRACE_ENV.plugin]: plugin, [TRACE_ENV.log]: log, ...(programs ? { [TRACE_ENV.programs]: programs } : {}) };
}

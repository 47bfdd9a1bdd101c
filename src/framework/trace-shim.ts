// The environment that drives the call-trace shim (native/call-trace: a PJRT plugin that forwards to another and
// records every call). A framework loads the shim as its plugin (PJRT_NAMES_AND_LIBRARY_PATHS), the shim loads the
// plugin under test; call-log.ts reads the record. Where the shim's library is: src/config/reference-paths.ts.

/** The shim's environment: the plugin it forwards to, the log file, and (optional) the directory for programs. */
export const TRACE_ENV = {
  plugin: 'PJRT_CTS_TRACE_PLUGIN',
  log: 'PJRT_CTS_TRACE_LOG',
  programs: 'PJRT_CTS_TRACE_PROGRAMS',
} as const;

/** The environment that puts the shim in front of `plugin`, logging to `log` (and programs into `programs`). */
export function traceEnv(plugin: string, log: string, programs?: string): Record<string, string> {
  return { [TRACE_ENV.plugin]: plugin, [TRACE_ENV.log]: log, ...(programs ? { [TRACE_ENV.programs]: programs } : {}) };
}

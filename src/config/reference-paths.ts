// Where the bundled reference plugin and the call-trace shim live: a development checkout's build folders, or the
// per-user cache a package install builds them into (src/runner/reference-build.ts builds it).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ctsVersion, packageRoot } from './paths.js';

export const REFERENCE_LIB = 'libpjrt_reference.so';
/** The call-trace shim's library (native/call-trace), built beside the reference plugin. */
export const TRACE_SHIM_LIB = 'libpjrt_cts_trace.so';

/** The per-user cache: $PJRT_CTS_CACHE, else $XDG_CACHE_HOME/pjrt-cts, else ~/.cache/pjrt-cts; one directory per CTS version. */
export function ctsCacheDir(): string {
  const base = process.env['PJRT_CTS_CACHE'] || path.join(process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache'), 'pjrt-cts');
  return path.join(path.resolve(base), ctsVersion());
}

/** Where a package install builds the reference plugin (and the call-trace shim beside it). */
export function referenceCacheDir(): string {
  return path.join(ctsCacheDir(), 'reference-plugin');
}

/** The library in a development checkout (build/reference-plugin), as the package's plugins.json names it. */
export function checkoutReference(): string {
  return path.join(packageRoot(), 'build', 'reference-plugin', REFERENCE_LIB);
}

/** The shim in a development checkout (`npm run build:plugin` builds it there). */
export function checkoutTraceShim(): string {
  return path.join(packageRoot(), 'build', 'call-trace', TRACE_SHIM_LIB);
}

/** The shim where it is already built (the checkout, else the cache), without building it. */
export function builtTraceShim(): string | undefined {
  return [checkoutTraceShim(), path.join(referenceCacheDir(), TRACE_SHIM_LIB)].find((f) => existsSync(f));
}

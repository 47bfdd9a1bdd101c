// The bundled reference plugin outside a development checkout: built on first use (or by `pjrt-cts
// build-reference`) from the package's sources into a per-user cache, never into node_modules (which may be
// read-only, shared, or wiped by the next install). The call-trace shim (native/call-trace) is built beside it.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { buildOnce } from './build-once.js';
import { ensureDir } from './outputs.js';
import { packageRoot } from '../config/paths.js';
import { builtTraceShim, checkoutReference, REFERENCE_LIB, referenceCacheDir, TRACE_SHIM_LIB } from '../config/reference-paths.js';

/**
 * Builds the reference plugin and the call-trace shim (Release, no sanitizers) into the cache and returns the
 * plugin library's path (the shim's is beside it). Progress and CMake's output go to stderr, so stdout stays
 * parseable. Needs cmake and a C++ compiler.
 */
export function buildReference(opts: { force?: boolean } = {}): string {
  const dir = referenceCacheDir();
  const lib = path.join(dir, REFERENCE_LIB);
  const shim = path.join(dir, TRACE_SHIM_LIB);
  // A cache filled before the shim existed is rebuilt whole.
  const complete = existsSync(lib) && existsSync(shim);
  if (!opts.force && complete) return lib;
  const src = path.join(packageRoot(), 'fixtures', 'reference-plugin');
  const shimSrc = path.join(packageRoot(), 'native', 'call-trace');
  for (const [source, what] of [[src, 'the reference plugin'], [shimSrc, 'the call-trace shim']] as const) {
    if (!existsSync(path.join(source, 'CMakeLists.txt'))) throw new ConfigError(source, 'CMakeLists.txt', `expected ${what}'s sources in the package`);
  }
  ensureDir(dir, 'reference plugin cache');
  const run = (args: string[]): void => {
    const r = spawnSync('cmake', args, { stdio: ['ignore', 2, 2] });
    if (r.error) throw new ConfigError('cmake', args[0]!, `cannot run cmake to build the reference plugin: ${r.error.message}`);
    if (r.status !== 0) throw new ConfigError('cmake', args.join(' '), `building the reference plugin failed (exit ${r.status ?? r.signal}); see the output above`);
  };
  const jobs = String(Math.max(1, Math.min(os.availableParallelism?.() ?? os.cpus().length, 8)));
  // In a directory of this process's own, under a lock, renamed into place: concurrent first uses never share a
  // build tree nor see half a library.
  return buildOnce(lib, (work) => {
    process.stderr.write(`pjrt-cts: building the reference plugin and the call-trace shim into ${dir} (once per CTS version; needs cmake and a C++ compiler)\n`);
    const build = (source: string, tree: string, name: string, options: string[]): string => {
      run(['-S', source, '-B', tree, '-DCMAKE_BUILD_TYPE=Release', ...options, `-DCMAKE_LIBRARY_OUTPUT_DIRECTORY=${work}`]);
      run(['--build', tree, '-j', jobs]);
      // A CMakeLists that sets its own output directory: take the library from the build tree.
      const built = [path.join(work, name), path.join(tree, name)].find((f) => existsSync(f));
      if (!built) throw new ConfigError(work, name, 'expected the build to produce the library, but it is not there');
      return built;
    };
    // The shim first, renamed into place before the plugin: a cached plugin always has its shim beside it.
    renameSync(build(shimSrc, path.join(work, 'build-call-trace'), TRACE_SHIM_LIB, []), shim);
    return build(src, path.join(work, 'build'), REFERENCE_LIB, ['-DPJRT_REFERENCE_SANITIZE=OFF']);
  }, { force: opts.force || !complete, onWait: () => process.stderr.write(`pjrt-cts: waiting for another process building the reference plugin into ${dir}\n`) });
}

/** Where the package's `reference` entries find their library when the checkout has none: the cache (built on demand). */
export function referenceFallback(wanted: string, build = true): string | undefined {
  if (path.resolve(wanted) !== checkoutReference() || existsSync(wanted)) return undefined;
  const cached = path.join(referenceCacheDir(), REFERENCE_LIB);
  if (existsSync(cached)) return cached;
  return build ? buildReference() : undefined;
}

/**
 * The call-trace shim's library: the checkout's build, else the per-user cache beside the reference plugin (built
 * there on first use, as the reference plugin is; needs cmake and a C++ compiler).
 */
export function traceShimPath(): string {
  return builtTraceShim() ?? path.join(path.dirname(buildReference()), TRACE_SHIM_LIB);
}


// The bundled reference plugin outside a development checkout: built on first use (or by `pjrt-cts
// build-reference`) from the package's sources into a per-user cache, never into node_modules (which may be
// read-only, shared, or wiped by the next install).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { buildOnce } from './build-once.js';
import { ensureDir } from './outputs.js';
import { ctsVersion, packageRoot } from '../config/paths.js';

export const REFERENCE_LIB = 'libpjrt_reference.so';

/** $PJRT_CTS_CACHE, else $XDG_CACHE_HOME/pjrt-cts, else ~/.cache/pjrt-cts; one directory per CTS version. */
export function referenceCacheDir(): string {
  const base = process.env['PJRT_CTS_CACHE'] || path.join(process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache'), 'pjrt-cts');
  return path.join(path.resolve(base), ctsVersion(), 'reference-plugin');
}

/** The library in a development checkout (build/reference-plugin), as the package's plugins.json names it. */
export function checkoutReference(): string {
  return path.join(packageRoot(), 'build', 'reference-plugin', REFERENCE_LIB);
}

/**
 * Builds the reference plugin (Release, no sanitizers) into the cache and returns the library's path. Progress and
 * CMake's output go to stderr, so stdout stays parseable. Needs cmake and a C++ compiler.
 */
export function buildReference(opts: { force?: boolean } = {}): string {
  const dir = referenceCacheDir();
  const lib = path.join(dir, REFERENCE_LIB);
  if (!opts.force && existsSync(lib)) return lib;
  const src = path.join(packageRoot(), 'fixtures', 'reference-plugin');
  if (!existsSync(path.join(src, 'CMakeLists.txt'))) throw new ConfigError(src, 'CMakeLists.txt', 'expected the reference plugin\'s sources in the package');
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
    process.stderr.write(`pjrt-cts: building the reference plugin into ${dir} (once per CTS version; needs cmake and a C++ compiler)\n`);
    const tree = path.join(work, 'build');
    run(['-S', src, '-B', tree, '-DCMAKE_BUILD_TYPE=Release', '-DPJRT_REFERENCE_SANITIZE=OFF', `-DCMAKE_LIBRARY_OUTPUT_DIRECTORY=${work}`]);
    run(['--build', tree, '-j', jobs]);
    // A CMakeLists that sets its own output directory: take the library from the build tree.
    const built = [path.join(work, REFERENCE_LIB), path.join(tree, REFERENCE_LIB)].find((f) => existsSync(f));
    if (!built) throw new ConfigError(work, REFERENCE_LIB, 'expected the build to produce the library, but it is not there');
    return built;
  }, { ...opts, onWait: () => process.stderr.write(`pjrt-cts: waiting for another process building the reference plugin into ${dir}\n`) });
}

/** Where the package's `reference` entries find their library when the checkout has none: the cache (built on demand). */
export function referenceFallback(wanted: string, build = true): string | undefined {
  if (path.resolve(wanted) !== checkoutReference() || existsSync(wanted)) return undefined;
  const cached = path.join(referenceCacheDir(), REFERENCE_LIB);
  if (existsSync(cached)) return cached;
  return build ? buildReference() : undefined;
}

// Turns `--plugin <name|path>` plus plugins.json into the configuration a worker loads.
import { existsSync, statSync } from 'node:fs';
import { fileKind } from '../config/read-file.js';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { loadJson } from '../config/load-json.js';
import { PluginsFile, type CreateOptionValue, type DiscoverKind, type LibrarySource, type PluginConfig } from '../config/plugins.js';
import { envPlugins, jaxPlugins, pythonPackagePlugins, pythonProblem, torchXlaEntryPoints, torchXlaProblem, type DiscoveredPlugin } from './discover.js';
import { fromJson, type NamedValues } from '../config/named-value.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import { packageRoot } from '../config/paths.js';
import { checkoutReference, referenceCacheDir } from '../config/reference-paths.js';
import { referenceFallback } from './reference-build.js';

/** The entry's optional fields that travel unchanged to the workers (the suites read them from `ctx.config`). */
const PASSED_THROUGH = [
  'nodeIdOption', 'numNodesOption', 'kvPrefixOption', 'kvTimeoutOption', 'completionDelayOption', 'strictCreateOptions', 'maxLiveClients',
  'exclusiveDevices', 'programForms', 'topology', 'jaxPlatform',
] as const satisfies readonly (keyof ResolvedPlugin & keyof PluginConfig)[];

/** --config, else $PJRT_CTS_CONFIG, else ./plugins.json, else the package's plugins.json. */
export function pluginsFilePath(explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  const env = process.env['PJRT_CTS_CONFIG'];
  if (env) return path.resolve(env);
  const local = path.resolve('plugins.json');
  return existsSync(local) ? local : path.join(packageRoot(), 'plugins.json');
}

export function loadPluginsFile(file: string): PluginsFile {
  return loadJson(file, PluginsFile);
}

/** The plugin `{"discover": "<kind>:<want>"}` names, or undefined. */
const FINDERS: Record<DiscoverKind, (want: string) => DiscoveredPlugin | undefined> = {
  jax_plugins: (want) => jaxPlugins().find((p) => p.name.includes(want)),
  // PyTorch/XLA names the device by the upper-cased entry point name (register_plugin(ep.name.upper(), …)).
  torch_xla: (want) => torchXlaEntryPoints().find((p) => p.name.toUpperCase() === want.toUpperCase()),
  python: (want) => pythonPackagePlugins(undefined, [want])[0],
  env: (want) => envPlugins().find((p) => p.name === want),
};

/** Where a library source points, with the create options a discovered plugin brings. */
interface ResolvedSource { path?: string; why: string; createOptions?: Record<string, CreateOptionValue> }

function resolveSource(src: LibrarySource, baseDir: string): ResolvedSource {
  if (typeof src === 'string') {
    if (src.startsWith('$')) {
      const v = process.env[src.slice(1)];
      return v ? { path: path.resolve(v), why: `${src}=${v}` } : { why: `environment variable ${src.slice(1)} is not set` };
    }
    return { path: path.resolve(baseDir, src), why: src };
  }
  const [kind, want] = src.discover.split(':') as [DiscoverKind, string];
  const found = FINDERS[kind](want);
  if (found?.problem) return { why: found.problem };
  if (found) return { path: found.path, why: `${src.discover} → ${found.path}`, ...(found.createOptions ? { createOptions: found.createOptions } : {}) };
  const python = kind === 'env' ? undefined : pythonProblem() ?? (kind === 'torch_xla' ? torchXlaProblem() : undefined);
  return { why: `no plugin found by discover "${src.discover}"${python ? `: ${python}` : ''}` };
}

/** Why an existing path is no library to load (a directory; a FIFO would block dlopen and the hash), else undefined. */
function notALibrary(p: string): string | undefined {
  try {
    const st = statSync(p);
    return st.isFile() ? undefined : `expected a shared library file, but ${p} is ${fileKind(st)}`;
  } catch {
    return undefined;
  }
}

/** The entry's library: the first alternative that resolves to an existing file, with the create options it brings. */
function resolveLibrary(cfg: PluginConfig, file: string, name: string, build: boolean): { library: string; createOptions?: Record<string, CreateOptionValue> } {
  const alts = Array.isArray(cfg.library) ? cfg.library : [cfg.library];
  const tried: string[] = [];
  for (const alt of alts) {
    const r = resolveSource(alt, path.dirname(file));
    if (r.path && existsSync(r.path)) {
      const why = notALibrary(r.path);
      if (why) throw new ConfigError(file, `$.plugins.${name}.library`, why);
      return { library: r.path, ...(r.createOptions ? { createOptions: r.createOptions } : {}) };
    }
    // The package's reference entries outside a development checkout: the per-user cache, built on first use.
    const cached = r.path ? referenceFallback(r.path, build) : undefined;
    if (cached) return { library: cached };
    tried.push(r.path ? `${r.path} does not exist` : r.why);
    if (alts.length === 1 && r.path) {
      if (r.path === checkoutReference()) {
        throw new ConfigError(file, `$.plugins.${name}.library`, `expected the reference plugin, which is not built yet: \`pjrt-cts build-reference\` builds it into ${referenceCacheDir()} (\`npm run build:plugin\` in a checkout)`);
      }
      throw new ConfigError(file, `$.plugins.${name}.library`, `expected an existing shared library, but ${r.path} does not exist`);
    }
  }
  throw new ConfigError(file, `$.plugins.${name}.library`, `expected a library that resolves: ${tried.join('; ')} (see \`pjrt-cts discover\`)`);
}

/** `--plugin` names a library rather than a plugins.json entry: it has a '/', or names an existing *.so file. */
export function isLibraryPath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || (/\.(so|dylib|dll)(\.|$)/.test(nameOrPath) && existsSync(nameOrPath));
}

function libraryPlugin(name: string, overrides: NamedValues, file: string | undefined): ResolvedPlugin {
  const lib = path.resolve(name);
  if (!existsSync(lib)) throw new ConfigError('--plugin', name, `expected an existing shared library${file ? ' or a plugin name from ' + file : ''}`);
  const why = notALibrary(lib);
  if (why) throw new ConfigError('--plugin', name, why);
  return { name: path.basename(lib), library: lib, createOptions: { ...overrides }, env: {}, rtldGlobal: false, byPath: true };
}

/**
 * `--plugin` and `--config` as given. An explicit library path never reads a plugins.json (an unrelated, broken
 * ./plugins.json must not stand between a vendor and their library); a name is looked up in pluginsFilePath(config).
 */
export function resolvePluginArg(config: string | undefined, nameOrPath: string | undefined, overrides: NamedValues = {}, opts: { build?: boolean } = {}): ResolvedPlugin {
  if (nameOrPath && isLibraryPath(nameOrPath)) return libraryPlugin(nameOrPath, overrides, undefined);
  return resolvePlugin(pluginsFilePath(config), nameOrPath, overrides, opts);
}

/**
 * `nameOrPath` is a plugins.json entry name, or a path to a shared library (anything with a '/' or ending in .so).
 * `overrides` (from --create-option) replace configured options of the same name.
 */
export function resolvePlugin(file: string, nameOrPath: string | undefined, overrides: NamedValues = {}, opts: { build?: boolean } = {}): ResolvedPlugin {
  const pf = loadPluginsFile(file);
  const name = nameOrPath ?? pf.default;
  const cfg = pf.plugins[name];
  if (!cfg) {
    if (name.includes('/') || /\.(so|dylib|dll)(\.|$)/.test(name)) return libraryPlugin(name, overrides, file);
    throw new ConfigError('--plugin', name, `expected a plugin name from ${file} (${Object.keys(pf.plugins).join(', ')}) or a path to a library`);
  }
  const { library, createOptions: discovered } = resolveLibrary(cfg, file, name, opts.build ?? true);
  // A discovered plugin's own options (torch_xla's client_create_options()), under the entry's, under --create-option.
  const createOptions: NamedValues = {};
  for (const [k, v] of Object.entries({ ...discovered, ...cfg.createOptions })) createOptions[k] = fromJson(v);
  Object.assign(createOptions, overrides);
  const out: ResolvedPlugin = { name, library, createOptions, env: cfg.env, rtldGlobal: cfg.rtldGlobal };
  if (cfg.expectations) out.expectations = path.resolve(path.dirname(file), cfg.expectations);
  for (const k of PASSED_THROUGH) if (cfg[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = cfg[k];
  if (cfg.parallelCreateOptions) out.parallelCreateOptions = Object.fromEntries(Object.entries(cfg.parallelCreateOptions).map(([k, v]) => [k, fromJson(v)]));
  if (cfg.topologyOptions) out.topologyOptions = Object.fromEntries(Object.entries(cfg.topologyOptions).map(([k, v]) => [k, fromJson(v)]));
  return out;
}

// Turns `--plugin <name|path>` plus plugins.json into the configuration a worker loads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/errors.js';
import { loadJson } from '../config/load-json.js';
import { PluginsFile, type LibrarySource, type PluginConfig } from '../config/plugins.js';
import { envPlugins, jaxPlugins } from './discover.js';
import { fromJson, type NamedValues } from './named-value.js';
import { packageRoot } from './paths.js';

export interface ResolvedPlugin {
  name: string;
  library: string;
  createOptions: NamedValues;
  env: Record<string, string>;
  rtldGlobal: boolean;
  expectations?: string;
  nodeIdOption?: string;
  numNodesOption?: string;
}

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

function resolveSource(src: LibrarySource, baseDir: string): { path?: string; why: string } {
  if (typeof src === 'string') {
    if (src.startsWith('$')) {
      const v = process.env[src.slice(1)];
      return v ? { path: path.resolve(v), why: `${src}=${v}` } : { why: `environment variable ${src.slice(1)} is not set` };
    }
    return { path: path.resolve(baseDir, src), why: src };
  }
  const [kind, want] = src.discover.split(':') as [string, string];
  const found = kind === 'env'
    ? envPlugins().find((p) => p.name === want)
    : jaxPlugins().find((p) => p.name.includes(want));
  return found ? { path: found.path, why: `${src.discover} → ${found.path}` } : { why: `no plugin found by discover "${src.discover}"` };
}

function resolveLibrary(cfg: PluginConfig, file: string, name: string): string {
  const alts = Array.isArray(cfg.library) ? cfg.library : [cfg.library];
  const tried: string[] = [];
  for (const alt of alts) {
    const r = resolveSource(alt, path.dirname(file));
    if (r.path && existsSync(r.path)) return r.path;
    tried.push(r.path ? `${r.path} does not exist` : r.why);
    if (alts.length === 1 && r.path) {
      throw new ConfigError(file, `$.plugins.${name}.library`, `expected an existing shared library, but ${r.path} does not exist` +
        (name === 'reference' ? ' (build it with `npm run build:plugin`)' : ''));
    }
  }
  throw new ConfigError(file, `$.plugins.${name}.library`, `expected a library that resolves: ${tried.join('; ')} (see \`pjrt-cts discover\`)`);
}

/**
 * `nameOrPath` is a plugins.json entry name, or a path to a shared library (anything with a '/' or ending in .so).
 * `overrides` (from --create-option) replace configured options of the same name.
 */
export function resolvePlugin(file: string, nameOrPath: string | undefined, overrides: NamedValues = {}): ResolvedPlugin {
  const pf = loadPluginsFile(file);
  const name = nameOrPath ?? pf.default;
  const cfg = pf.plugins[name];
  if (!cfg) {
    if (name.includes('/') || /\.(so|dylib|dll)(\.|$)/.test(name)) {
      const lib = path.resolve(name);
      if (!existsSync(lib)) throw new ConfigError('--plugin', name, 'expected an existing shared library or a plugin name from ' + file);
      return { name: path.basename(lib), library: lib, createOptions: { ...overrides }, env: {}, rtldGlobal: false };
    }
    throw new ConfigError('--plugin', name, `expected a plugin name from ${file} (${Object.keys(pf.plugins).join(', ')}) or a path to a library`);
  }
  const createOptions: NamedValues = {};
  for (const [k, v] of Object.entries(cfg.createOptions)) createOptions[k] = fromJson(v);
  Object.assign(createOptions, overrides);
  const out: ResolvedPlugin = { name, library: resolveLibrary(cfg, file, name), createOptions, env: cfg.env, rtldGlobal: cfg.rtldGlobal };
  if (cfg.expectations) out.expectations = path.resolve(path.dirname(file), cfg.expectations);
  if (cfg.nodeIdOption) out.nodeIdOption = cfg.nodeIdOption;
  if (cfg.numNodesOption) out.numNodesOption = cfg.numNodesOption;
  return out;
}

// The parts of a plugin's identity the parent can learn without loading it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import os from 'node:os';
import type { PluginIdentity, ResultsFile } from '../config/results.js';
import { toJsonValue } from '../config/named-value.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';

export function sha256File(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => h.update(d))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', () => resolve(undefined));
  });
}

export function baseIdentity(p: ResolvedPlugin): PluginIdentity {
  const createOptions: NonNullable<PluginIdentity['createOptions']> = {};
  for (const [k, v] of Object.entries(p.createOptions)) createOptions[k] = toJsonValue(v);
  const out: PluginIdentity = { name: p.name, path: p.library, createOptions, env: pluginEnv(p) };
  if (p.topologyOptions) out.topologyOptions = Object.fromEntries(Object.entries(p.topologyOptions).map(([k, v]) => [k, toJsonValue(v)]));
  return out;
}

/** Variables of the parent's environment that plugins commonly read; the workers inherit them. */
const PLUGIN_ENV = /^(PJRT_|XLA_|TPU_)/;

/** The environment the workers give the plugin: the inherited PJRT_/XLA_/TPU_ variables and the entry's `env`. */
function pluginEnv(p: ResolvedPlugin, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && PLUGIN_ENV.test(k)) out[k] = v;
  return Object.fromEntries(Object.entries({ ...out, ...p.env }).filter(([k]) => !k.startsWith('PJRT_CTS_')).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function environment(): ResultsFile['environment'] {
  return { node: process.version, platform: process.platform, arch: process.arch, cpus: os.cpus().length, hostname: os.hostname() };
}

// The parts of a plugin's identity the parent can learn without loading it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import os from 'node:os';
import type { PluginIdentity, ResultsFile } from '../config/results.js';
import { toJsonValue } from './named-value.js';
import type { ResolvedPlugin } from './plugins.js';

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
  return { name: p.name, path: p.library, createOptions };
}

export function environment(): ResultsFile['environment'] {
  return { node: process.version, platform: process.platform, arch: process.arch, cpus: os.cpus().length, hostname: os.hostname() };
}

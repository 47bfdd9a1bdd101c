// Before any case runs: one short-lived worker loads the plugin and creates a client with the configured options.
// An unusable library or rejected create options is the user's input gone wrong (exit 2, one line), not 1200
// identical failures. A crash or hang here is not judged: the cases themselves will record it.
import { ConfigError } from '../config/errors.js';
import { startWorker } from './child.js';
import type { ResolvedPlugin } from './plugins.js';

export async function preflight(plugin: ResolvedPlugin, timeoutMs: number): Promise<void> {
  const w = startWorker({ type: 'probe', plugin }, { ...process.env, ...plugin.env }, { onResult: () => undefined }, () => timeoutMs);
  const timer = setTimeout(() => w.kill(), timeoutMs);
  const end = await w.done;
  clearTimeout(timer);
  if (end.probe) throw new ConfigError(plugin.library, '--plugin', end.probe.startsWith(`${plugin.library}: `) ? end.probe.slice(plugin.library.length + 2) : end.probe);
}

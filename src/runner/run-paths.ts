// The paths `run` reads and writes, checked against each other before anything runs (src/runner/output-paths.ts).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { named, refuseOverwrites } from './output-paths.js';
import { isLibraryPath, pluginsFilePath, resolvePluginArg } from './plugins.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import type { RunOptions } from './plan.js';

/** The plugins.json a run read: none when `--plugin` named a library. */
export function configRead(o: Pick<RunOptions, 'config' | 'plugin'>): string | undefined {
  return o.plugin && isLibraryPath(o.plugin) ? undefined : pluginsFilePath(o.config);
}

/** Throws a ConfigError (exit 2) when an output of the run would overwrite one of its inputs or another output. */
export function checkRunPaths(o: RunOptions, plugin: ResolvedPlugin, expectations: string | undefined, jsonl: string): void {
  const dir = path.dirname(jsonl);
  if (!o.json && existsSync(dir) && !readdirSync(dir).length) {
    o.stdout.write(`pjrt-cts: without --json the results stream goes to ${jsonl} (the directory ${dir} is new; --json FILE puts it next to FILE)\n`);
  }
  refuseOverwrites(
    [
      named('--plugin', plugin.library), named(o.config ? '--config' : 'plugins.json', configRead(o)), named('--expectations', expectations),
      named('--programs', o.programs, true), named('--rerun-failed', o.rerunFailed),
    ],
    [
      named('--json', o.json), named(o.json ? '--json (its .jsonl stream)' : 'results stream', jsonl),
      named('--junit', o.junit), named('--write-expectations', o.writeExpectations),
    ],
  );
}

/** `compat --json`: the matrix must not overwrite the plugin, its plugins.json or its expectations. */
export function checkCompatPaths(o: Pick<RunOptions, 'config' | 'plugin' | 'createOptions' | 'expectations'>, json: string): void {
  const plugin = resolvePluginArg(o.config, o.plugin, o.createOptions);
  refuseOverwrites(
    [named('--plugin', plugin.library), named(o.config ? '--config' : 'plugins.json', configRead(o)), named('--expectations', o.expectations ?? plugin.expectations)],
    [named('--json', json)],
  );
}

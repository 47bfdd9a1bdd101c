// The paths `run` reads and writes, checked against each other before anything runs (src/runner/output-paths.ts).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { checkOutputs, named, type NamedPath } from './output-paths.js';
import { isLibraryPath, pluginsFilePath, resolvePluginArg } from './plugins.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import type { RunOptions } from './plan.js';

/** The plugins.json a run read: none when `--plugin` named a library. */
export function configRead(o: Pick<RunOptions, 'config' | 'plugin'>): string | undefined {
  return o.plugin && isLibraryPath(o.plugin) ? undefined : pluginsFilePath(o.config);
}

/** Every file a run writes: --json and its .jsonl stream (or the one under .cts-out), --junit, --html, --write-expectations. */
function runOutputs(o: RunOptions, jsonl: string): (NamedPath | undefined)[] {
  return [
    named('--json', o.json), named(o.json ? '--json (its .jsonl stream)' : 'results stream', jsonl),
    named('--junit', o.junit), named('--html', o.html), named('--write-expectations', o.writeExpectations),
  ];
}

/** What the run reads and the file `--certify` names (the default list of the package is an input too). */
export interface RunInputs {
  /** The resolved plugin (its library); absent before it is resolved. */
  plugin?: ResolvedPlugin;
  /** The expectations file in force (--expectations, else the entry's). */
  expectations?: string;
  /** The must-pass list of --certify. */
  certify?: string;
}

/**
 * Throws a ConfigError (exit 2) when an output of the run would overwrite one of its inputs or another output, or
 * cannot be written. Called before the catalogue is listed (with what the options name) and once the plugin is
 * resolved (with the library and expectations its entry names).
 */
export function checkRunPaths(o: RunOptions, jsonl: string, inputs: RunInputs = {}): void {
  const config = inputs.plugin ? configRead(o) : o.config;
  checkOutputs(runOutputs(o, jsonl), [
    named('--plugin', inputs.plugin?.library), named(o.config ? '--config' : 'plugins.json', config),
    named('--expectations', inputs.expectations ?? o.expectations), named('--programs', o.programs, true),
    named('--rerun-failed', o.rerunFailed), named('--certify', inputs.certify),
  ]);
}

/** Without --json the stream goes to .cts-out/run-<time>.jsonl: the first run that creates that directory says so. */
export function noteStreamDirectory(o: RunOptions, jsonl: string, created: boolean): void {
  if (!o.json && created) {
    o.stdout.write(`pjrt-cts: without --json the results stream goes to ${jsonl} (the directory ${path.dirname(jsonl)} is new; --json FILE puts it next to FILE)\n`);
  }
}

/** Whether the stream's directory is missing or empty (before the checks create it). */
export function streamDirectoryIsNew(jsonl: string): boolean {
  const dir = path.dirname(jsonl);
  try {
    return !existsSync(dir) || !readdirSync(dir).length;
  } catch {
    return false; // not a directory: the checks say so
  }
}

/** `compat --json`: the matrix must not overwrite the plugin, its plugins.json or its expectations. */
export function checkCompatPaths(o: Pick<RunOptions, 'config' | 'plugin' | 'createOptions' | 'expectations'>, json: string): void {
  const plugin = resolvePluginArg(o.config, o.plugin, o.createOptions);
  checkOutputs(
    [named('--json', json)],
    [named('--plugin', plugin.library), named(o.config ? '--config' : 'plugins.json', configRead(o)), named('--expectations', o.expectations ?? plugin.expectations)],
  );
}

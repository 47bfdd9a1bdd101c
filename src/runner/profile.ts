// The run's profile as the parent sees it: `run --compile-only [--topology NAME]` turns the plugin configuration
// into a compile-only one, and every report says plainly that such a run was compile-only and how many cases it
// did not run (a compile-only gate never reads as full conformance).
import { ConfigError } from '../config/errors.js';
import type { CaseResult, ResultsFile } from '../config/results.js';
import { COMPILE_ONLY_SKIP } from '../harness/compile-only.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';

export type RunProfile = NonNullable<ResultsFile['run']['profile']>;

/** The plugin configuration of the profile, and the profile record (undefined for a full run). */
export function applyProfile(plugin: ResolvedPlugin, o: { compileOnly?: boolean; topology?: string }): { plugin: ResolvedPlugin; profile?: RunProfile } {
  if (o.topology !== undefined && !o.compileOnly) throw new ConfigError('--topology', o.topology, 'expected --compile-only with it (a full run uses the client\'s own topology)');
  if (!o.compileOnly) return { plugin };
  const topology = o.topology ?? plugin.topology ?? '';
  // exclusiveDevices still holds: libtpu takes a per-host process lock (/tmp/libtpu_lockfile) in
  // PJRT_Plugin_Initialize whether or not a client is made, so a second worker could not even initialize it.
  return { plugin: { ...plugin, compileOnly: true, topology }, profile: { name: 'compile-only', topology } };
}

/** How many cases the profile did not run (skipped because they need a client). */
export const notRunByProfile = (results: readonly Pick<CaseResult, 'status' | 'message'>[]): number =>
  results.filter((r) => r.status === 'skip' && r.message === COMPILE_ONLY_SKIP).length;

/** The words every report puts before its verdict, or '' for a full run. */
export function profileHeadline(file: Pick<ResultsFile, 'run' | 'results'>): string {
  const p = file.run.profile;
  if (!p) return '';
  const topology = p.topology ? ` on topology ${p.topology}` : ' on the plugin\'s default topology';
  return `compile-only run${topology}, not full conformance: ${notRunByProfile(file.results)} case(s) not run (they need a client)`;
}

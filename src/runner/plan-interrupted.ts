// A run interrupted (SIGINT, SIGTERM) before its cases started — while the cases were listed or the preflight ran —
// still ends with its reports: an interrupted run with no results, what it had selected, and the preflight's state
// (still running, for how long and in which plugin call; passed; not started; off).
import type { LoadedMustPass } from '../config/must-pass.js';
import type { PluginIdentity, ResultsFile } from '../config/results.js';
import type { ResolvedPlugin } from '../config/resolved-plugin.js';
import type { CatalogueEntry } from '../harness/types.js';
import { baseIdentity, sha256File } from './identity.js';
import { suiteTiers } from './limits.js';
import type { RunOptions, RunPlan } from './plan.js';
import type { Preflight } from './preflight.js';
import type { RunProfile } from './profile.js';
import { runHeader } from './run-header.js';

/** What a plan knows so far, filled in as it goes. */
export interface PlanProgress {
  phase: 'listing' | 'preflight';
  apiMinor: number;
  startedAt: Date;
  jsonlFile: string;
  certification?: LoadedMustPass;
  plugin?: ResolvedPlugin;
  profile?: RunProfile;
  expectations?: string;
  /** The preflight under way (absent: not started, or switched off). */
  preflight?: Preflight;
  /** --no-preflight (or fake suites): there is none. */
  preflightOff?: boolean;
  catalogue?: CatalogueEntry[];
  selected?: CatalogueEntry[];
}

export type InterruptedBefore = NonNullable<ResultsFile['interruptedBefore']>;

/** Thrown by makePlan when a signal came first: the plan of an interrupted run, for its reports. */
export class PlanInterrupted extends Error {
  override readonly name = 'PlanInterrupted';
  constructor(readonly plan: RunPlan, readonly before: InterruptedBefore) {
    super(`interrupted while ${before.phase === 'listing' ? 'listing the cases' : 'waiting for the preflight'}`);
  }
}

/** Ends the preflight (reading where it was) and makes the plan of the interrupted run from what was known. */
export async function interruptedPlan(o: RunOptions, p: PlanProgress): Promise<PlanInterrupted> {
  const pre = p.preflight ? await p.preflight.stop() : undefined;
  const identity: PluginIdentity = p.plugin ? baseIdentity(p.plugin) : { name: o.plugin ?? '(not resolved yet)', path: '' };
  const plugin: ResolvedPlugin = p.plugin ?? { name: identity.name, library: '', createOptions: o.createOptions, env: {}, rtldGlobal: false };
  const tiers = p.catalogue ? p.catalogue.map((c) => c.tier) : suiteTiers();
  const maxTier = o.strict ? Math.max(0, ...tiers) : (o.tier ?? o.gate ?? Math.max(0, ...tiers));
  const gate = o.strict ? maxTier : o.gate;
  const selected = p.selected ?? [];
  const header = runHeader(o, {
    maxTier, gate, apiMinor: p.apiMinor, ...(p.expectations ? { expectations: p.expectations } : {}), ...(p.profile ? { profile: p.profile } : {}),
    ...(p.certification ? { certification: p.certification } : {}), selected: selected.length, identity, startedAt: p.startedAt,
  });
  const plan: RunPlan = {
    o, catalogue: p.catalogue ?? [], selected, plugin, identity, startedAt: p.startedAt, header, jsonlFile: p.jsonlFile,
    sha: p.plugin ? sha256File(p.plugin.library) : Promise.resolve(undefined), ...(gate !== undefined ? { gate } : {}),
    ...(p.certification ? { certification: p.certification } : {}),
    pluginLabel: p.plugin ? `${plugin.name} (${plugin.library})` : identity.name,
  };
  const preflight: InterruptedBefore['preflight'] = pre
    ? { state: pre.state, ms: pre.ms, ...(pre.call ? { call: pre.call } : {}) }
    : { state: p.preflightOff ? 'off' : 'not started' };
  return new PlanInterrupted(plan, { phase: p.phase, preflight });
}

/** The line that says where the run was, for the verdict. */
export function interruptedBeforeText(b: InterruptedBefore): string {
  const pre = b.preflight;
  const where = b.phase === 'listing' ? `while the cases were being listed${pre.state === 'running' ? ' and the preflight ran' : ''}` : 'while the preflight ran';
  const state = pre.state === 'running'
    ? `the preflight had run ${((pre.ms ?? 0) / 1000).toFixed(1)} s${pre.call ? ` and was in ${pre.call}` : ''}`
    : pre.state === 'off' ? 'no preflight (--no-preflight)' : `the preflight ${pre.state === 'not started' ? 'had not started' : pre.state}`;
  return `before any case ran, ${where} (${state})`;
}

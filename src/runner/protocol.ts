// Messages between the parent and a worker (IPC with 'advanced' serialization, so bigint create options travel).
import type { PluginIdentity } from '../config/results.js';
import type { CaseOutcome } from '../harness/execute.js';
import type { CatalogueEntry } from '../harness/types.js';
import type { ResolvedPlugin } from './plugins.js';

export type ToWorker =
  | { type: 'list'; programs?: string }
  | { type: 'probe'; plugin: ResolvedPlugin }
  | { type: 'run'; plugin: ResolvedPlugin; ids: string[]; timeouts: number[]; files?: string[]; programs?: string };

export type FromWorker =
  | { type: 'catalogue'; cases: CatalogueEntry[] }
  | { type: 'start'; id: string }
  | { type: 'result'; id: string; outcome: CaseOutcome }
  | { type: 'identity'; identity: Partial<PluginIdentity> }
  | { type: 'fatal'; message: string }
  /** The preflight's verdict: a problem is bad input (the library cannot be used, or it rejects the create options). */
  | { type: 'probe'; problem?: string }
  | { type: 'done' };

// The run's counters: what the workers did beyond running case bodies, summed over every worker of the run.
import type { WorkerCounters } from '../worker/protocol.js';

/** Which PJRT slots make up each phase of a run (their calls' wall time is summed per phase). */
const PHASE_SLOTS = {
  create: ['PJRT_Client_Create'],
  compile: ['PJRT_Client_Compile', 'PJRT_Compile', 'PJRT_Executable_DeserializeAndLoad'],
  execute: ['PJRT_LoadedExecutable_Execute'],
  transfer: [
    'PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer', 'PJRT_Buffer_CopyToDevice', 'PJRT_Buffer_CopyToMemory',
    'PJRT_Buffer_CopyRawToHost', 'PJRT_Buffer_CopyRawToHostFuture', 'PJRT_AsyncHostToDeviceTransferManager_TransferData',
    'PJRT_AsyncHostToDeviceTransferManager_TransferLiteral',
  ],
} as const;

export interface RunCounters {
  workersStarted: number;
  /** Workers started to replace one that crashed or timed out. */
  workersReplaced: number;
  clientsCreated: number;
  sharedClientsCreated: number;
  /** Why a worker's shared client was replaced (a case broke or destroyed it, or needed the one live client). */
  sharedClientResets: string[];
  /** A worker found the plugin allows one live client per process though the entry has no maxLiveClients: how. */
  clientLimit?: string;
  programsCompiled: number;
  /** The largest peak resident set size of any worker, MiB. */
  peakWorkerRssMiB: number;
  /** Wall time per phase, ms: loading the plugin (with PJRT_Plugin_Initialize), then the slots of PHASE_SLOTS. */
  phaseMs: { load: number; create: number; compile: number; execute: number; transfer: number };
}

export function emptyCounters(): RunCounters {
  return {
    workersStarted: 0, workersReplaced: 0, clientsCreated: 0, sharedClientsCreated: 0, sharedClientResets: [], programsCompiled: 0, peakWorkerRssMiB: 0,
    phaseMs: { load: 0, create: 0, compile: 0, execute: 0, transfer: 0 },
  };
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** A worker's counters after `next` arrived (`prev` is taken over): every total is the newer one; slots not in `next` did not change. */
export function mergeCounters(prev: WorkerCounters | undefined, next: WorkerCounters): WorkerCounters {
  if (!prev) return next;
  return { ...next, slots: Object.assign(prev.slots, next.slots) };
}

/** Adds one worker's final cumulative counters to the run's. */
export function addWorker(run: RunCounters, w: WorkerCounters): void {
  run.clientsCreated += w.clientsCreated;
  run.sharedClientsCreated += w.sharedClientsCreated;
  run.sharedClientResets.push(...w.sharedClientResets);
  if (w.clientLimit !== undefined) run.clientLimit ??= w.clientLimit;
  run.phaseMs.load = round(run.phaseMs.load + w.loadMs);
  run.peakWorkerRssMiB = Math.max(run.peakWorkerRssMiB, Math.round(w.maxRssKiB / 1024));
  for (const [phase, slots] of Object.entries(PHASE_SLOTS) as [keyof typeof PHASE_SLOTS, readonly string[]][]) {
    for (const s of slots) run.phaseMs[phase] = round(run.phaseMs[phase] + (w.slots[s]?.ms ?? 0));
  }
  for (const s of PHASE_SLOTS.compile) run.programsCompiled += w.slots[s]?.calls ?? 0;
}

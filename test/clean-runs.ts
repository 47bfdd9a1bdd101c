// One clean run per personality of the reference plugin, made once per `npm test` and read by every test that needs
// one: scripts/test-mocha.sh names a directory in PJRT_CTS_TEST_CLEAN_RUNS and runs the fault matrix first, whose
// clean runs (no fault, every call on a deep stack, tier 4 left out) record the slots each case called and the
// programs the run compiled there. A test file run on its own finds no directory and makes its own run.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RECORD_PROGRAMS_ENV } from '../src/pjrt/client.js';

export const CLEAN_RUNS_ENV = 'PJRT_CTS_TEST_CLEAN_RUNS';

export interface CleanRunFiles {
  /** the run's results file (`run --json`), recorded with --record-slots */
  results: string;
  /** the directory of the programs it compiled (RECORD_PROGRAMS_ENV) */
  programs: string;
}

/** Where the shared clean run of `personality` is kept, when this process is part of a test run that shares them. */
function filesOf(personality: string): CleanRunFiles | undefined {
  const dir = process.env[CLEAN_RUNS_ENV];
  return dir ? { results: path.join(dir, `${personality}.json`), programs: path.join(dir, `${personality}.programs`) } : undefined;
}

/** The `run` arguments and environment that make the shared clean run of `personality` (none outside a shared test run). */
export function recordCleanRun(personality: string): { args: string[]; env: Record<string, string> } {
  const f = filesOf(personality);
  return f ? { args: ['--record-slots', '--json', f.results], env: { [RECORD_PROGRAMS_ENV]: f.programs } } : { args: [], env: {} };
}

/** Marks the shared clean run of `personality` as one that passed (the fault matrix, once its assertions hold). */
export function markCleanRunPassed(personality: string): void {
  const f = filesOf(personality);
  if (f) writeFileSync(`${f.results}.ok`, '');
}

/** The shared clean run of `personality`, if one was made and passed (a failed one is the matrix's failure). */
export function sharedCleanRun(personality: string): CleanRunFiles | undefined {
  const f = filesOf(personality);
  return f && existsSync(`${f.results}.ok`) ? f : undefined;
}

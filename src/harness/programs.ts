// --programs <dir>: an external program corpus becomes extra cases. The worker (list and run alike) puts the
// directory in PJRT_CTS_PROGRAMS before importing the suites; the corpus suite (suites/tier1/programs.ts)
// asks for it here and registers `external.program.<name>` cases from it with src/corpus's loader.
export const PROGRAMS_ENV = 'PJRT_CTS_PROGRAMS';

/** The external corpus directory of this run, if any. */
export function externalProgramsDir(): string | undefined {
  return process.env[PROGRAMS_ENV] || undefined;
}

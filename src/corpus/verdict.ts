// How a program case words its failure, in one place for the case and for its reproducer (repro.py prints the same
// line): the rule, what was expected, and the findings — one per output that differs, each labelled with the program
// instance that made it.

/** The rule of a corpus program's case (`tier1.program.run.<name>`, `external.program.run.<name>`). */
export const corpusRule = (name: string, description: string): { key: string; text: string } => ({
  key: 'PJRT_LoadedExecutable_Execute:outputs-as-stablehlo-defines',
  text: `${name} (${description}): every output must have the program's element type and dims (PJRT_Buffer_ElementType/Dimensions, PJRT_Executable_Output*) and the values StableHLO defines (or one the sidecar accepts)`,
});

/** What a corpus case expected, in its failure message. */
export const CORPUS_EXPECTED = 'the sidecar outputs';

/** What a suite case running a declared program (src/harness/suite-programs.ts) expected. */
export const DECLARED_EXPECTED = 'the declared outputs';

/** A program's output findings as a failure's `got`: their count, then each. */
export const findingsText = (problems: readonly string[]): string => `${problems.length} finding(s): ${problems.join('; ')}`;

/** Which program instance made an output: nothing for a single instance, else its replica (and partition). */
export function instanceLabel(instance: number, replicas: number, partitions: number): string {
  if (replicas * partitions === 1) return '';
  return partitions > 1 ? `replica ${Math.floor(instance / partitions)} partition ${instance % partitions}` : `replica ${instance}`;
}

/** An output's label in findings: `output k`, prefixed with the instance that made it. */
export const outputLabel = (who: string, k: number): string => (who ? `${who} output ${k}` : `output ${k}`);

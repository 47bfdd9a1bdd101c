// Where a program case's program, inputs and expected outputs come from: the built-in corpus
// (`tier1.program.run.<name>`), the external corpus a run named with --programs (`external.program.run.<name>`), the
// exhaustive area (`tier2.exhaustive.<op>.<type>`, exhaustive-source.ts) or a suite case that declares its program
// (src/harness/suite-programs.ts, suite-source.ts). Every other case is an API case.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';
import type { ResultsFile } from '../config/results.js';
import { loadEntry, type CorpusEntry, type HostValue } from '../corpus/load.js';
import type { Tolerance } from '../corpus/schema.js';
import type { JudgeTables } from '../corpus/exhaustive.js';
import { CORPUS_EXPECTED, corpusRule } from '../corpus/verdict.js';
import { packValue } from '../corpus/values.js';
import type { CatalogueEntry } from '../harness/types.js';
import { exhaustiveSource, isExhaustiveCase } from './exhaustive-source.js';
import { suiteSource } from './suite-source.js';

export interface ProgramValue {
  dtype: string;
  dims: number[];
  bytes: Uint8Array;
}

/** Every bit pattern the CTS accepts per element, as intervals (src/corpus/exhaustive.ts acceptedSets). */
export interface AcceptedIntervals {
  offsets: Uint32Array;
  lo: Uint32Array;
  hi: Uint32Array;
  notCompared: number;
  /** the bound and comparison rules the intervals come from, in words */
  rule: string;
}

/** How an exhaustive case reports (src/corpus/exhaustive.ts describeReport): the judge's tables and the report's fixed parts. */
export interface ExhaustiveReportData extends JudgeTables {
  op: string;
  /** the bound, as the report ends with it */
  limit: string;
  /** how many mismatches the report lists */
  listed: number;
}

export interface ExpectedValue extends ProgramValue {
  tolerance: Tolerance;
  alternatives: { reason: string; bytes: Uint8Array }[];
  /** flat indices whose value is implementation-defined (not compared) */
  open: number[];
  /** instead of the tolerance: the patterns accepted per element */
  accepted?: AcceptedIntervals;
  /** with `accepted`: what the case's report of the element's results needs */
  report?: ExhaustiveReportData;
  /** the whole value is implementation-defined: why any value passes */
  anyValue?: string;
}

/** How the case words its failure: `<rule>: expected <expected>, got <findings or report>` (src/corpus/verdict.ts). */
export interface ProgramVerdict { rule: string; expected: string }

export interface ProgramSource {
  description: string;
  verdict: ProgramVerdict;
  text: string;
  /** a portable artifact the corpus ships beside the text (`<name>.mlirbc`) */
  artifactFile?: string;
  replicas: number;
  partitions: number;
  /** per program instance (replica · partitions + partition), per argument */
  inputs: ProgramValue[][];
  outputs: ExpectedValue[][];
  /** an elementwise program: element i of the output is computed from element i of each input (shown with it) */
  elementwise?: boolean;
  /** the file or declaration the case's data came from, for the README */
  from: string;
}

const PREFIXES = [
  { prefix: 'tier1.program.run.', dir: (): string => path.join(packageRoot(), 'fixtures', 'programs'), idPrefix: 'tier1.program' },
  { prefix: 'external.program.run.', dir: (programs: string | undefined): string | undefined => programs, idPrefix: 'external.program' },
] as const;

function expected(v: HostValue): ExpectedValue {
  return {
    dtype: v.dtype, dims: [...v.dims], bytes: v.bytes, tolerance: { ...v.tolerance },
    alternatives: v.alternatives.map((a) => ({ reason: a.reason, bytes: packValue({ dtype: v.dtype, dims: v.dims, data: a.data }) })),
    open: v.implementationDefined.flatMap((u) => u.elements),
  };
}

function corpusSource(id: string, programs: string | undefined): ProgramSource | string | undefined {
  const p = PREFIXES.find((x) => id.startsWith(x.prefix));
  if (!p) return undefined;
  const dir = p.dir(programs);
  if (!dir) return `${id} is a program of the run's --programs directory, which the results file does not name`;
  const json = path.join(dir, `${id.slice(p.prefix.length)}.json`);
  if (!existsSync(json)) return `${id}: no sidecar ${json} (the program is not in this checkout's corpus)`;
  const e: CorpusEntry = loadEntry(json, p.idPrefix);
  const mlirbc = e.mlirFile.replace(/\.mlir$/, '.mlirbc');
  return {
    description: e.description, verdict: { rule: corpusRule(e.name, e.description).text, expected: CORPUS_EXPECTED }, text: e.program, replicas: e.replicas, partitions: e.partitions,
    ...(existsSync(mlirbc) ? { artifactFile: mlirbc } : {}),
    inputs: e.inputs.map((vs) => vs.map((v) => ({ dtype: v.dtype, dims: [...v.dims], bytes: v.bytes }))),
    outputs: e.outputs.map((vs) => vs.map(expected)),
    from: json,
  };
}

/** Whether `id` runs a corpus program (built-in or external) or an exhaustive one: known without the suites. */
export const isProgramCase = (id: string): boolean => PREFIXES.some((p) => id.startsWith(p.prefix)) || isExhaustiveCase(id);

/**
 * The program of a program case, a reason why it cannot be had, or undefined for an API case. `programs`: the run's
 * --programs directory; `entry`: the case's catalogue entry (a suite case is looked up in its suite file).
 */
export async function programSource(id: string, programs: string | undefined, run: ResultsFile, entry?: CatalogueEntry): Promise<ProgramSource | string | undefined> {
  return corpusSource(id, programs) ?? exhaustiveSource(id) ?? (entry ? suiteSource(entry, run) : undefined);
}

/** The corpus program of `id` alone (no suites, no exhaustive), for the tests. */
export const corpusProgram = (id: string, programs?: string): ProgramSource | string | undefined => corpusSource(id, programs);

// Where a program case's program, inputs and expected outputs come from: the built-in corpus
// (`tier1.program.run.<name>`) or the external corpus a run named with --programs (`external.program.run.<name>`).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/paths.js';
import { loadEntry, type CorpusEntry, type HostValue } from '../corpus/load.js';
import type { Tolerance } from '../corpus/schema.js';
import { packValue } from '../corpus/values.js';

export interface ProgramValue {
  dtype: string;
  dims: number[];
  bytes: Uint8Array;
}

export interface ExpectedValue extends ProgramValue {
  tolerance: Tolerance;
  alternatives: { reason: string; bytes: Uint8Array }[];
  /** flat indices whose value is implementation-defined (not compared) */
  open: number[];
}

export interface ProgramSource {
  description: string;
  text: string;
  /** a portable artifact the corpus ships beside the text (`<name>.mlirbc`) */
  artifactFile?: string;
  replicas: number;
  partitions: number;
  /** per program instance (replica · partitions + partition), per argument */
  inputs: ProgramValue[][];
  outputs: ExpectedValue[][];
  /** the file the case's data came from, for the README */
  from: string;
}

const PREFIXES = [
  { prefix: 'tier1.program.run.', dir: (): string => path.join(packageRoot(), 'fixtures', 'programs'), idPrefix: 'tier1.program' },
  { prefix: 'external.program.run.', dir: (programs: string | undefined): string | undefined => programs, idPrefix: 'external.program' },
] as const;

/** Whether `id` is a case that runs a corpus program (built-in or external). */
export const isProgramCase = (id: string): boolean => PREFIXES.some((p) => id.startsWith(p.prefix));

function expected(v: HostValue): ExpectedValue {
  return {
    dtype: v.dtype, dims: [...v.dims], bytes: v.bytes, tolerance: { ...v.tolerance },
    alternatives: v.alternatives.map((a) => ({ reason: a.reason, bytes: packValue({ dtype: v.dtype, dims: v.dims, data: a.data }) })),
    open: v.implementationDefined.flatMap((u) => u.elements),
  };
}

/** The program of a program case, or a reason why it cannot be found. `programs`: the run's --programs directory. */
export function programSource(id: string, programs: string | undefined): ProgramSource | string {
  const p = PREFIXES.find((x) => id.startsWith(x.prefix));
  if (!p) return `${id} runs no corpus program`;
  const dir = p.dir(programs);
  if (!dir) return `${id} is a program of the run's --programs directory, which the results file does not name`;
  const json = path.join(dir, `${id.slice(p.prefix.length)}.json`);
  if (!existsSync(json)) return `${id}: no sidecar ${json} (the program is not in this checkout's corpus)`;
  const e: CorpusEntry = loadEntry(json, p.idPrefix);
  const mlirbc = e.mlirFile.replace(/\.mlir$/, '.mlirbc');
  return {
    description: e.description, text: e.program, replicas: e.replicas, partitions: e.partitions,
    ...(existsSync(mlirbc) ? { artifactFile: mlirbc } : {}),
    inputs: e.inputs.map((vs) => vs.map((v) => ({ dtype: v.dtype, dims: [...v.dims], bytes: v.bytes }))),
    outputs: e.outputs.map((vs) => vs.map(expected)),
    from: json,
  };
}

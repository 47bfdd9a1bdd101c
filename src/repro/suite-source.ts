// A suite case's own program, as its suite declares it (src/harness/suite-programs.ts): the suite file is loaded in
// this process and its declaration made for the run's device count.
import { dtype, hostByteSize } from '../abi/dtypes.js';
import type { ResultsFile } from '../config/results.js';
import { suitesDir } from '../config/paths.js';
import { declaredProgram } from '../harness/suite-programs.js';
import type { CatalogueEntry } from '../harness/types.js';
import { loadSuites } from '../worker/load-suites.js';
import { DECLARED_EXPECTED } from '../corpus/verdict.js';
import type { ExpectedValue, ProgramSource } from './program-source.js';

export async function suiteSource(entry: CatalogueEntry, run: ResultsFile): Promise<ProgramSource | string | undefined> {
  if (!entry.file) return undefined;
  await loadSuites(suitesDir(), run.run.programs, [entry.file]);
  const devices = run.plugin.devices?.length ?? 1;
  const p = declaredProgram(entry.id, devices);
  if (p === undefined) return undefined;
  if (typeof p === 'string') return `${entry.id}: its program cannot be made for the run's ${devices} device(s): ${p}`;
  return {
    description: p.description, verdict: { rule: p.rule, expected: DECLARED_EXPECTED }, text: p.text, replicas: p.replicas, partitions: 1,
    inputs: p.inputs.map((vs) => vs.map((v) => ({ dtype: v.dtype, dims: [...v.dims], bytes: v.data }))),
    outputs: p.outputs.map((vs) => vs.map((o): ExpectedValue => {
      const count = o.dims.reduce((a, b) => a * b, 1);
      return {
        dtype: o.dtype, dims: [...o.dims], bytes: o.data ?? new Uint8Array(hostByteSize(dtype(o.dtype), count)), tolerance: {}, alternatives: [],
        open: o.anyValue ? Array.from({ length: count }, (_, i) => i) : [], ...(o.anyValue ? { anyValue: o.anyValue } : {}),
      };
    })),
    from: `${entry.file} (the case's declared program, src/harness/suite-programs.ts)`,
  };
}

// The whole generated corpus, in a fixed order, and its serialisation to files.
import { DTYPES } from '../../abi/dtypes.js';
import { BINARY, UNARY } from '../../oracle/elementwise.js';
import { chloPrograms } from './chlo-specs.js';
import { binaryPrograms, unaryPrograms } from './elementwise-specs.js';
import { collectivePrograms } from './collective-specs.js';
import { complexPrograms } from './complex-specs.js';
import { conversionPrograms } from './conversion-specs.js';
import { convolutionPrograms } from './convolution-specs.js';
import { dynamicPrograms } from './dynamic-specs.js';
import { fftPrograms } from './fft-specs.js';
import { gatherPrograms } from './gather-specs.js';
import { linalgPrograms } from './linalg-specs.js';
import { GENERATED, type Program } from './program.js';
import { precisionPrograms } from './precision-specs.js';
import { reduceWindowPrograms } from './reduce-window-specs.js';
import { scatterPrograms } from './scatter-specs.js';
import { selectAndScatterPrograms } from './select-and-scatter-specs.js';
import { shapePrograms } from './shape-specs.js';
import { smallFloatPrograms } from './small-float-specs.js';
import { sortPrograms } from './sort-specs.js';
import { subBytePrograms } from './sub-byte-specs.js';
import { spmdPrograms } from './spmd-specs.js';
import { sdyPrograms } from './sdy-specs.js';
import { structurePrograms } from './structure-specs.js';
import { tuplePrograms } from './tuple-specs.js';

export type { Program } from './program.js';
import { formatJson } from './json.js';

export function generateCorpus(): Program[] {
  const core = DTYPES.filter((d) => d.core);
  const programs = [
    ...unaryPrograms(Object.keys(UNARY), core),
    ...binaryPrograms(Object.keys(BINARY), core),
    ...conversionPrograms(),
    ...precisionPrograms(),
    ...shapePrograms(),
    ...structurePrograms(),
    ...tuplePrograms(),
    ...complexPrograms(),
    ...sortPrograms(),
    ...gatherPrograms(),
    ...scatterPrograms(),
    ...reduceWindowPrograms(),
    ...convolutionPrograms(),
    ...selectAndScatterPrograms(),
    ...collectivePrograms(),
    ...smallFloatPrograms(),
    ...spmdPrograms(),
    ...sdyPrograms(),
    ...linalgPrograms(),
    ...fftPrograms(),
    ...subBytePrograms(),
    ...dynamicPrograms(),
    ...chloPrograms(),
  ];
  const seen = new Set<string>();
  for (const p of programs) {
    if (seen.has(p.name)) throw new Error(`duplicate corpus program name ${p.name}`);
    seen.add(p.name);
  }
  return programs;
}

/**
 * File contents for one program: `<name>.mlir` and `<name>.json` (2-space JSON, trailing newline). The program's
 * header comment goes last: a first line would shift every op's location, which its portable artifact records.
 */
export function programFiles(p: Program): { mlir: string; json: string } {
  return { mlir: `${p.text}// ${GENERATED}\n`, json: formatJson(p.sidecar) + '\n' };
}

// The outputs of an execution, checked before a case reads them: a plugin that hands back fewer outputs than the
// program has (or NULL in their place) fails the case here with the rule it breaks, never as an exception in the CTS.
import type { Buffer } from '../../src/pjrt/index.js';
import * as check from './check.js';

const OUTPUT_COUNT_RULE = 'PJRT_LoadedExecutable_Execute output count';

/** `result.outputs` after checking that every device's list holds `count` outputs, none NULL. */
export function checkedOutputs(result: { outputs: Buffer[][] }, count: number): Buffer[][] {
  result.outputs.forEach((row, d) => {
    const got = row.filter((b) => b.ptr !== 0n).length;
    check.ok(row.length === count && got === count,
      `${OUTPUT_COUNT_RULE}: output_lists[${d}] must hold one buffer per program output (PJRT_Executable_NumOutputs: "the number of outputs per device")`,
      `${count} output(s)`, `${got} (of ${row.length} slot(s) the plugin's NumOutputs asked for)`);
  });
  return result.outputs;
}

/** The one output of a one-device, one-output execution. */
export const soleOutput = (result: { outputs: Buffer[][] }): Buffer => checkedOutputs(result, 1)[0]![0]!;

// The reference plugin's faults (fixtures/reference-plugin/faults.json) a generated program's values expose, written
// into its sidecar's `catches` (tier1.program claims them; the fault matrix proves each). Two sources: what follows
// from the program itself (below), and what its spec declares (ProgramDef.catches: the kernel and program faults
// whose exposing elements the spec puts in the program).
import { dtype } from '../../abi/dtypes.js';
import type { SidecarInput, Value } from '../schema.js';

/** What the claims follow from: the program's ops and values. */
type Claimed = Pick<SidecarInput, 'ops' | 'outputs' | 'replicas' | 'partitions'>;

/** Whether adding one to every element of `v` changes it (the op_off_by_one fault on a one-op program's result). */
function plusOneShows(v: Value): boolean {
  const d = dtype(v.dtype);
  if (d.kind === 'pred') return v.data.some((x) => x === false);
  if (d.kind === 'float') return v.data.some((x) => x === '-0' || (typeof x === 'number' && Math.abs(x) < 2 ** (d.mantissaBits ?? 0)));
  return (d.kind === 'sint' || d.kind === 'uint') && v.data.length > 0;
}

/** Dims that read differently reversed (the wrong_dims / output_dims_reversed faults report dims reversed). */
const reversalShows = (dims: readonly number[]) => dims.join(',') !== [...dims].reverse().join(',');

/**
 * A one-op program returns that op's result, so `op_off_by_one=<op>` shows wherever +1 does. Other programs
 * (regions, branches, reducers) claim their declared kernel and program faults only; their semantic faults are
 * claimed by tier1.execute (the execute crash is claimed by one-op-less cases elsewhere: each crash costs the fault
 * matrix a fresh worker). Every program checks its outputs' element types (buffer and executable); dims where a
 * reversal shows.
 */
export function catchesOf(s: Claimed, declared: readonly string[]): string[] {
  const perInstance = s.replicas !== undefined && s.replicas * (s.partitions ?? 1) > 1;
  const outputs = (perInstance ? (s.outputs as Value[][]) : [s.outputs as Value[]]);
  const [op] = s.ops;
  const offByOne = s.ops.length === 1 && op && outputs.flat().some(plusOneShows) ? [`op_off_by_one=${op}`] : [];
  const dims = outputs[0]!.some((o) => reversalShows(o.dims)) ? ['wrong_dims', 'output_dims_reversed'] : [];
  return [...new Set([...offByOne, ...declared, 'wrong_element_type', 'output_element_types_wrong', ...dims])];
}

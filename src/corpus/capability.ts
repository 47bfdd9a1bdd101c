// The capability matrix's (op, dtype) cells a corpus program decides, from the ops its sidecar declares.
import type { CorpusEntry } from './load.js';

/** `op/dtype` → supported, for the cells one program run decides. */
type CapabilityCells = Record<string, boolean>;

/**
 * A program that declares one op is that op's probe: it decides the op's cell for each of its element types —
 * supported when it ran and matched, unsupported when it failed or the compiler answered UNIMPLEMENTED. A program of
 * several ops cannot say which of them is lacking: when it passes it marks every (op, dtype) it holds supported, and
 * otherwise marks nothing (its failure is in its own result, not in the matrix).
 */
export function capabilityCells(e: Pick<CorpusEntry, 'ops' | 'dtypes'>, ok: boolean): CapabilityCells {
  if (!ok && e.ops.length !== 1) return {};
  const cells: CapabilityCells = {};
  for (const op of e.ops) for (const d of e.dtypes) cells[`${op}/${d}`] = ok;
  return cells;
}

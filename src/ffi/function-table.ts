// A plugin object that starts with a pointer to a function table: the header's PJRT_Memory (0.105+) and PJRT_Error
// (0.107+) are `{ const <Table>* vtable; }`. Read as the code that uses them reads them: every member at its offset in
// the table the header declares, whatever the table's struct_size says (XLA's readers never look at it). The table
// and each function pointer are first checked against the process's mappings, so garbage is reported, not called.
import { layoutOf } from '../abi/index.js';
import { isCode, isReadable } from './address-map.js';
import { readPtr, readU64, type Ptr } from './mem.js';

export interface TableFunction {
  readonly address: Ptr;
  /** whether the address lies in executable memory (never call it otherwise) */
  readonly isCode: boolean;
}

export interface FunctionTableView {
  readonly address: Ptr;
  /** false: the pointer is no readable memory of the table's size, and nothing else was read */
  readonly readable: boolean;
  /** the table's size_t members (struct_size, instance_size …) by name */
  readonly sizes: Readonly<Record<string, number>>;
  /** the table's function members by name; undefined where NULL */
  readonly functions: Readonly<Record<string, TableFunction | undefined>>;
}

const isFunctionType = (type: string): boolean => type.includes('(*)');

/** The `tableStruct` whose pointer `instance` holds at `vtableOffset`, or null when that member is NULL. */
export function functionTableOf(instance: Ptr, vtableOffset: number, tableStruct: string): FunctionTableView | null {
  const address = readPtr(instance, vtableOffset);
  if (address === null) return null;
  const t = layoutOf(tableStruct);
  if (!isReadable(address, t.structSize)) return { address, readable: false, sizes: {}, functions: {} };
  const sizes: Record<string, number> = {};
  const functions: Record<string, TableFunction | undefined> = {};
  for (const f of t.fields) {
    if (f.type === 'size_t') sizes[f.name] = Number(readU64(address, f.offset));
    else if (isFunctionType(f.type)) {
      const fn = readPtr(address, f.offset);
      functions[f.name] = fn === null ? undefined : { address: fn, isCode: isCode(fn) };
    }
  }
  return { address, readable: true, sizes, functions };
}

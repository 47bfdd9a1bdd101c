// PJRT_Memory's function table (0.105+): the header's PJRT_Memory is `{ const PJRT_Memory_FunctionTable* vtable; }`,
// and XLA's C-API client reads that member of a plugin's memory to keep its own data there (get_user_data /
// set_user_data), each entry at its offset, NULL entries skipped, struct_size never read: read here the same way.
import koffi, { decodeFunction } from './koffi.js';
import { layoutOf } from '../abi/index.js';
import { functionTableOf, type FunctionTableView } from './function-table.js';
import type { Ptr } from './mem.js';

export interface MemoryFunctionTable {
  readonly view: FunctionTableView;
  /** undefined: the entry is NULL or no code (view.functions says which) */
  readonly getUserData: ((memory: Ptr, key: Ptr) => Ptr | null) | undefined;
  readonly setUserData: ((memory: Ptr, key: Ptr, data: Ptr) => void) | undefined;
}

const GetProto = koffi.proto('void *PjrtCtsMemoryGetUserData(void *memory, void *key)');
const SetProto = koffi.proto('void PjrtCtsMemorySetUserData(void *memory, void *key, void *data, void *dtor)');

/** The table `memory` starts with, or null when that member is NULL. */
export function memoryFunctionTable(memory: Ptr): MemoryFunctionTable | null {
  const view = functionTableOf(memory, layoutOf('PJRT_Memory').field('vtable').offset, 'PJRT_Memory_FunctionTable');
  if (view === null) return null;
  const code = (name: string): Ptr | undefined => (view.functions[name]?.isCode ? view.functions[name]!.address : undefined);
  const get = code('get_user_data');
  const set = code('set_user_data');
  const getFn = get === undefined ? undefined : decodeFunction<(m: Ptr, k: Ptr) => Ptr | null>(get, GetProto);
  const setFn = set === undefined ? undefined : decodeFunction<(m: Ptr, k: Ptr, d: Ptr, dtor: null) => void>(set, SetProto);
  return {
    view,
    getUserData: getFn ? (m, k) => getFn(m, k) ?? null : undefined,
    setUserData: setFn ? (m, k, d) => setFn(m, k, d, null) : undefined,
  };
}

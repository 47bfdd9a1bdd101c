// PJRT_Memory's function table (0.105+): the header's PJRT_Memory is `{ const PJRT_Memory_FunctionTable* vtable; }`,
// and XLA's C-API client reads that member of a plugin's memory to keep its own data there (get_user_data /
// set_user_data). Read here as that client reads it, never past the table's struct_size.
import koffi from './koffi.js';
import { layoutOf } from '../abi/index.js';
import { readPtr, readU64, type Ptr } from './mem.js';

export interface MemoryFunctionTable {
  readonly address: Ptr;
  readonly structSize: number;
  /** the table's `instance_struct_size` (the header: "= PJRT_Memory_STRUCT_SIZE"), undefined beyond struct_size */
  readonly instanceStructSize: number | undefined;
  /** undefined: the member lies beyond struct_size or is NULL */
  readonly getUserData: ((memory: Ptr, key: Ptr) => Ptr | null) | undefined;
  readonly setUserData: ((memory: Ptr, key: Ptr, data: Ptr) => void) | undefined;
}

const GetProto = koffi.proto('void *PjrtCtsMemoryGetUserData(void *memory, void *key)');
const SetProto = koffi.proto('void PjrtCtsMemorySetUserData(void *memory, void *key, void *data, void *dtor)');

/** The table `memory` starts with, or null when that member is NULL. */
export function memoryFunctionTable(memory: Ptr): MemoryFunctionTable | null {
  const table = readPtr(memory, layoutOf('PJRT_Memory').field('vtable').offset);
  if (table === null) return null;
  const t = layoutOf('PJRT_Memory_FunctionTable');
  const structSize = Number(readU64(table, t.field('struct_size').offset));
  const within = (name: string): number | undefined => {
    const f = t.field(name);
    return f.offset + f.size <= structSize ? f.offset : undefined;
  };
  const fn = (name: string): Ptr | null => {
    const off = within(name);
    return off === undefined ? null : readPtr(table, off);
  };
  const instanceOff = within('instance_struct_size');
  const get = fn('get_user_data');
  const set = fn('set_user_data');
  const getFn = get === null ? undefined : (koffi.decode(get, GetProto) as (m: Ptr, k: Ptr) => Ptr | null);
  const setFn = set === null ? undefined : (koffi.decode(set, SetProto) as (m: Ptr, k: Ptr, d: Ptr, dtor: null) => void);
  return {
    address: table,
    structSize,
    instanceStructSize: instanceOff === undefined ? undefined : Number(readU64(table, instanceOff)),
    getUserData: getFn ? (m, k) => getFn(m, k) ?? null : undefined,
    setUserData: setFn ? (m, k, d) => setFn(m, k, d, null) : undefined,
  };
}

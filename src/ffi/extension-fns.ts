// Calling into an extension of the PJRT_Api chain: find it by type, check its struct_size covers a member, decode
// the member's function pointer. An absent extension, a member past its struct_size or a null member is an
// UnsupportedError naming the extension, so the case that needs it ends `unsupported`.
import koffi, { decodeFunction } from './koffi.js';
import { enumValue, extensionFunctions, extensionHeader, layoutOf } from '../abi/index.js';
import type { ExtensionEntry, PjrtFn, RawApi } from './api.js';
import { callEnds, callStarts, now, recordCall } from './call-stats.js';
import { UnsupportedError } from './errors.js';
import { readPtr, type Ptr } from './mem.js';

const ArgsFnProto = koffi.proto('void *PjrtCtsExtArgsFn(void *args)');
const VoidArgsFnProto = koffi.proto('void PjrtCtsExtVoidArgsFn(void *args)');

/** The first chain element of an extension type (by PJRT_Extension_Type member name), as pjrt::FindExtension. */
export function findExtension(api: RawApi, typeName: string): ExtensionEntry | undefined {
  const type = enumValue('PJRT_Extension_Type', typeName);
  return api.extensionChain().entries.find((e) => e.type === type);
}

/** The extension's struct (PJRT_Layouts_Extension …) at its address; UnsupportedError when absent. */
export function requireExtension(api: RawApi, typeName: string): { entry: ExtensionEntry; struct: string } {
  const h = extensionHeader(typeName);
  if (!h) throw new Error(`no extension header described for '${typeName}'`);
  const entry = findExtension(api, typeName);
  if (!entry) throw new UnsupportedError(`extension ${typeName}`, 'not in the PJRT_Api extension chain');
  return { entry, struct: h.struct };
}

/** A pointer-sized member of a struct the plugin owns, guarded by a struct_size (UnsupportedError past it). */
export function memberPointer(base: Ptr, struct: string, member: string, structSize: number, what: string): Ptr | null {
  const f = layoutOf(struct).field(member);
  if (f.offset + f.size > structSize) {
    throw new UnsupportedError(`${what}.${member}`, `lies beyond the plugin's ${struct} struct_size ${structSize}`);
  }
  return readPtr(base, f.offset);
}

/** Decodes a function pointer of an extension's table (`void` ones for PLUGIN_Profiler error functions). */
export function decodeFn(p: Ptr, returnsVoid = false): PjrtFn {
  return decodeFunction<PjrtFn>(p, returnsVoid ? VoidArgsFnProto : ArgsFnProto);
}

/** The function `member` of extension `typeName` (UnsupportedError when missing, beyond struct_size or null). */
export function extensionFn(api: RawApi, typeName: string, member: string): { fn: PjrtFn; args: string } {
  const { entry, struct } = requireExtension(api, typeName);
  const m = extensionFunctions(struct).find((x) => x.name === member);
  if (!m) throw new Error(`${struct} has no function member '${member}'`);
  const p = memberPointer(entry.address, struct, member, entry.structSize, `extension ${typeName}`);
  if (p === null) throw new UnsupportedError(`extension ${typeName}.${member}`, 'is null in the plugin\'s extension');
  return { fn: decodeFn(p), args: m.args };
}

/** An extension function as it is named in flight and in the call counts: its Args struct's name without `_Args`
 *  (PJRT_FFI_Register_Handler, PLUGIN_Profiler_Create), as the reference plugin's slot faults name it. */
export const extensionFnName = (args: string): string => args.replace(/_Args$/, '');

/** Calls an extension function as RawApi calls a slot: named while in flight (a crash or hang names it) and counted. */
export function callTraced(fn: PjrtFn, name: string, args: Uint8Array | Ptr): Ptr | null {
  const t0 = now();
  callStarts(name);
  try {
    const r = fn(args);
    return r === 0n ? null : (r ?? null);
  } finally {
    callEnds(name);
    recordCall(name, t0);
  }
}

/** callTraced on a libuv worker thread. */
export function callTracedAsync(fn: PjrtFn, name: string, args: Uint8Array | Ptr): Promise<Ptr | null> {
  const t0 = now();
  callStarts(name, true);
  return new Promise((resolve, reject) => {
    fn.async(args, (e, r) => {
      callEnds(name, true);
      recordCall(name, t0);
      if (e) reject(e instanceof Error ? e : new Error(String(e)));
      else resolve(r === 0n ? null : (r ?? null));
    });
  });
}

export type MemberState = 'present' | 'null' | 'beyond';
export interface ExtensionDescription {
  type: number;
  typeName: string;
  structSize: number;
  /** the struct the CTS knows for this type, and the state of each of its pointer members (functions, tables) */
  struct?: string;
  members?: Record<string, MemberState>;
}

/** Every element of the chain, known or not; never reads past an element's struct_size. */
export function describeExtensions(api: RawApi): { chain: ExtensionDescription[]; loop: boolean } {
  const { entries, loop } = api.extensionChain();
  const chain = entries.map((e): ExtensionDescription => {
    const out: ExtensionDescription = { type: e.type, typeName: e.typeName, structSize: e.structSize };
    const h = extensionHeader(e.typeName);
    if (!h) return out;
    out.struct = h.struct;
    out.members = {};
    for (const f of layoutOf(h.struct).fields.filter((x) => x.name !== 'base' && x.type.includes('*'))) {
      out.members[f.name] = f.offset + f.size > e.structSize ? 'beyond' : readPtr(e.address, f.offset) === null ? 'null' : 'present';
    }
    return out;
  });
  return { chain, loop };
}

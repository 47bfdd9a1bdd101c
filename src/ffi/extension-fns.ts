// Calling into an extension of the PJRT_Api chain: find it by type, check its struct_size covers a member, decode
// the member's function pointer. An absent extension, a member past its struct_size or a null member is an
// UnsupportedError naming the extension, so the case that needs it ends `unsupported`.
import koffi from './koffi.js';
import { enumValue, extensionFunctions, extensionHeader, layoutOf } from '../abi/index.js';
import type { ExtensionEntry, PjrtFn, RawApi } from './api.js';
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
  return koffi.decode(p, returnsVoid ? VoidArgsFnProto : ArgsFnProto) as PjrtFn;
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

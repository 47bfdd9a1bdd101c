// LP64 layout (x86-64 / aarch64 Linux) of every struct in the table, at any API minor.
// Fields added after the requested minor are dropped, so the result is what a header of that minor declared.
// STRUCT_SIZE = offsetof(last field) + sizeof(last field): it excludes tail padding, like PJRT_STRUCT_SIZE.

import { isEnum } from './enums.js';
import { API_SLOTS } from './slots.js';
import { CType, PJRT_API_MINOR, isCallback, isStruct, structDef } from './table.js';

export interface FieldLayout {
  readonly name: string;
  readonly type: CType;
  readonly since: number;
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  /** an anonymous union in C (its members are found through StructLayout.field) */
  readonly anonymous?: boolean;
}

export interface StructLayout {
  readonly name: string;
  readonly minor: number;
  /** offsetof(last field) + sizeof(last field) — the `<name>_STRUCT_SIZE` value at this minor */
  readonly structSize: number;
  readonly sizeof: number;
  readonly align: number;
  /** direct fields in declaration order (anonymous unions appear as one entry) */
  readonly fields: readonly FieldLayout[];
  /** a field by name, also a member of an anonymous union (offset relative to this struct) */
  field(name: string): FieldLayout;
  has(name: string): boolean;
}

const POINTER = { size: 8, align: 8 } as const;
const SCALARS: Readonly<Record<string, { size: number; align: number }>> = {
  bool: { size: 1, align: 1 }, char: { size: 1, align: 1 }, int8_t: { size: 1, align: 1 }, uint8_t: { size: 1, align: 1 },
  int16_t: { size: 2, align: 2 }, uint16_t: { size: 2, align: 2 },
  int: { size: 4, align: 4 }, int32_t: { size: 4, align: 4 }, uint32_t: { size: 4, align: 4 }, float: { size: 4, align: 4 },
  size_t: POINTER, int64_t: POINTER, uint64_t: POINTER, intptr_t: POINTER, uintptr_t: POINTER, double: POINTER,
};
const ENUM = { size: 4, align: 4 } as const;

/** Size and alignment of a C type at `minor` (embedded structs are laid out at the same minor). */
export function typeLayout(type: CType, minor: number = PJRT_API_MINOR): { size: number; align: number } {
  if (type.includes('*')) return POINTER; // data pointers, function pointers, `T* const*` …
  const base = type.trim().replace(/^const\s+/, '').replace(/^struct\s+/, '');
  const scalar = SCALARS[base];
  if (scalar) return scalar;
  if (isEnum(base)) return ENUM;
  if (isCallback(base)) return POINTER;
  if (isStruct(base)) {
    const l = layoutOf(base, minor);
    return { size: l.sizeof, align: l.align };
  }
  throw new Error(`no layout for C type '${type}'`);
}

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

const cache = new Map<string, StructLayout>();

/** Whether `struct` existed at `minor`. */
export function structExists(struct: string, minor: number = PJRT_API_MINOR): boolean {
  return structDef(struct).since <= minor;
}

export function layoutOf(struct: string, minor: number = PJRT_API_MINOR): StructLayout {
  const key = `${struct}@${minor}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const def = structDef(struct);
  if (def.since > minor) throw new Error(`${struct} was added at 0.${def.since}; it does not exist at 0.${minor}`);
  const present = def.fields.filter((f) => f.since <= minor);
  const fields: FieldLayout[] = [];
  let end = 0;
  let align = 1;
  for (const f of present) {
    const t = typeLayout(f.type, minor);
    const offset = def.union ? 0 : alignUp(end, t.align);
    fields.push({ name: f.name, type: f.type, since: f.since, offset, size: t.size, align: t.align,
      ...(f.anonymous ? { anonymous: true } : {}) });
    end = def.union ? Math.max(end, t.size) : offset + t.size;
    align = Math.max(align, t.align);
  }
  const byName = new Map<string, FieldLayout>();
  for (const f of fields) {
    if (!f.anonymous) { byName.set(f.name, f); continue; }
    byName.set(f.name, f);
    for (const m of layoutOf(baseType(f.type), minor).fields) byName.set(m.name, { ...m, offset: f.offset + m.offset });
  }
  const last = fields[fields.length - 1];
  const layout: StructLayout = {
    name: struct,
    minor,
    structSize: last ? last.offset + last.size : 0,
    sizeof: alignUp(end, align),
    align,
    fields,
    field(name: string): FieldLayout {
      const f = byName.get(name);
      if (!f) throw new Error(`${struct} has no field '${name}' at 0.${minor}`);
      return f;
    },
    has: (name: string) => byName.has(name),
  };
  cache.set(key, layout);
  return layout;
}

/**
 * The struct_size a caller built against the header just before the struct's newest field(s) passes, or undefined
 * when the struct never grew (every field is as old as the struct, so no real caller sends a smaller size).
 */
export function previousStructSize(struct: string): { minor: number; structSize: number } | undefined {
  const def = structDef(struct);
  const newest = Math.max(...def.fields.map((f) => f.since));
  if (newest <= def.since) return undefined;
  return { minor: newest - 1, structSize: layoutOf(struct, newest - 1).structSize };
}

function baseType(type: CType): string {
  return type.trim().replace(/^const\s+/, '').replace(/^struct\s+/, '');
}

/** Byte offset of a function slot inside PJRT_Api. */
export function slotOffset(slot: string): number {
  return layoutOf('PJRT_Api').field(slot).offset;
}

/** PJRT_Api_STRUCT_SIZE as a header of `minor` defines it. */
export function apiStructSize(minor: number = PJRT_API_MINOR): number {
  return layoutOf('PJRT_Api', minor).structSize;
}

/** The slots a PJRT_Api of `minor` has, in order. */
export function slotsAt(minor: number = PJRT_API_MINOR): typeof API_SLOTS {
  return API_SLOTS.filter((s) => s.since <= minor);
}

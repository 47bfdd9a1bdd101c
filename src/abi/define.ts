// The building blocks of the ABI table: struct, field and callback definitions and the helpers that spell them.
// Shared by table.ts (pjrt_c_api.h) and extensions.ts (the pjrt_c_api_*_extension.h headers).

/** C spelling of a type: 'size_t', 'const PJRT_NamedValue*', 'PJRT_Device* const*', 'void (*)(char*)' … */
export type CType = string;

export interface FieldDef {
  readonly name: string;
  readonly type: CType;
  readonly since: number;
  readonly comment?: string;
  /** an anonymous union member in C: its members are reached directly (`nv.int64_value`); `name` is ours */
  readonly anonymous?: boolean;
}

export interface StructDef {
  readonly name: string;
  readonly fields: readonly FieldDef[];
  /** starts with `size_t struct_size; PJRT_Extension_Base* extension_start;` (both listed in `fields`) */
  readonly header?: boolean;
  readonly union?: boolean;
  /** only ever appears inline as an anonymous member; no C type of its own */
  readonly inline?: boolean;
  /** minor that introduced the struct */
  readonly since: number;
  readonly comment?: string;
  /** declared by an extension header (extensions.ts: the header's id), not by pjrt_c_api.h */
  readonly extension?: string;
}

/** A function-pointer typedef: `typedef ret (*name)(params);` */
export interface CallbackDef {
  readonly name: string;
  readonly ret: CType;
  readonly params: string;
  readonly since: number;
}

export type F = readonly [name: string, type: CType, since?: number, comment?: string];
interface Opts { union?: boolean; inline?: boolean; comment?: string; extension?: string }

export type Row = F | FieldDef;

export function fields(since: number, rows: readonly Row[]): FieldDef[] {
  return rows.map((r) => {
    if (!Array.isArray(r)) return r as FieldDef;
    const [name, type, s, comment] = r as F;
    return { name, type, since: s ?? since, ...(comment ? { comment } : {}) };
  });
}

/** A struct with the usual struct_size/extension_start header (every Args struct). */
export function args(name: string, since: number, rows: readonly Row[], opts: Opts = {}): StructDef {
  const head: Row[] = [['struct_size', 'size_t'], ['extension_start', 'PJRT_Extension_Base*']];
  return { name, since, header: true, fields: fields(since, [...head, ...rows]), ...opts };
}

/** A struct without the header (or with a partial one, spelled out). */
export function plain(name: string, since: number, rows: readonly Row[], opts: Opts = {}): StructDef {
  return { name, since, fields: fields(since, rows), ...opts };
}

export function anon(name: string, type: CType, since = 0): FieldDef {
  return { name, type, since, anonymous: true };
}

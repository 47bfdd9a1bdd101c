// PJRT C API enums as data. Member names are given without their C prefix;
// the C spelling is `${prefix}${member}` (e.g. PJRT_Buffer_Type_F32).
// `since` is the API minor that added the member (0 = present before the changelog began at 0.29).

export interface EnumMember {
  readonly name: string;
  readonly value: number;
  readonly since: number;
  readonly comment?: string;
}

export interface EnumDef {
  readonly name: string;
  /** declared by an extension header (extensions.ts), not by pjrt_c_api.h */
  readonly extension?: string;
  /** C prefix of every member, e.g. 'PJRT_Buffer_Type_' */
  readonly prefix: string;
  readonly members: readonly EnumMember[];
}

import { EXTENSION_ENUMS } from './extensions.js';

type Row = readonly [name: string, since?: number, comment?: string];

/** Members valued 0, 1, 2… in the order given (the header relies on implicit sequential values). */
function seq(name: string, prefix: string, rows: readonly Row[]): EnumDef {
  return {
    name,
    prefix,
    members: rows.map(([n, since, comment], value) => ({ name: n, value, since: since ?? 0, ...(comment ? { comment } : {}) })),
  };
}

export const ENUMS: readonly EnumDef[] = [
  seq('PJRT_Extension_Type', 'PJRT_Extension_Type_', [
    // Extension types do not change any struct layout; where the changelog is silent, `since` is the minor
    // of the first upstream header (zml/xla mirror history) that declares the type.
    // Gpu_Custom_Call (0.31) and Profiler (0.34) were PJRT_Structure_Type_* until 0.41.
    ['Gpu_Custom_Call', 31], ['Profiler', 34], ['Custom_Partitioner', 47], ['Stream', 49], ['Layouts', 51],
    ['FFI', 53], ['MemoryDescriptions', 59], ['Triton', 65], ['RawBuffer', 67, 'experimental'],
    ['PhaseCompile', 70, 'experimental'], ['Example', 72], ['Unknown', 72], ['CrossHostTransfers', 74],
    ['ExecutableMetadata', 75], ['Callback', 77], ['HostAllocator', 80, 'deprecated'], ['TpuTopology', 81],
    ['TpuExecutable', 90], ['Megascale', 90], ['Shardings', 91], ['AbiVersion', 91], ['Collectives', 94],
    ['MultiSlice', 96], ['HostMemoryAllocator', 103], ['XlaTransform', 110],
  ]),
  seq('PJRT_Error_Code', 'PJRT_Error_Code_', [
    ['OK', 77, 'not an error; before 0.77 code 0 had no name'], ['CANCELLED'], ['UNKNOWN'], ['INVALID_ARGUMENT'], ['DEADLINE_EXCEEDED'], ['NOT_FOUND'],
    ['ALREADY_EXISTS'], ['PERMISSION_DENIED'], ['RESOURCE_EXHAUSTED'], ['FAILED_PRECONDITION'], ['ABORTED'],
    ['OUT_OF_RANGE'], ['UNIMPLEMENTED'], ['INTERNAL'], ['UNAVAILABLE'], ['DATA_LOSS'], ['UNAUTHENTICATED'],
  ]),
  seq('PJRT_NamedValue_Type', 'PJRT_NamedValue_', [['kString'], ['kInt64'], ['kInt64List'], ['kFloat'], ['kBool', 30]]),
  seq('PJRT_ProcessState', 'PJRT_ProcessState_', [
    ['kUnspecified', 73], ['kUninitialized', 73], ['kDisconnected', 73], ['kConnected', 73], ['kError', 73],
  ]),
  seq('PJRT_Buffer_Type', 'PJRT_Buffer_Type_', [
    ['INVALID'], ['PRED'], ['S8'], ['S16'], ['S32'], ['S64'], ['U8'], ['U16'], ['U32'], ['U64'],
    ['F16'], ['F32'], ['F64'], ['BF16'], ['C64'], ['C128'],
    ['F8E5M2'], ['F8E4M3FN'], ['F8E4M3B11FNUZ'], ['F8E5M2FNUZ'], ['F8E4M3FNUZ'], ['S4'], ['U4'],
    ['TOKEN', 50],
    // S2/U2 have no changelog entry; they first appear in a 0.53 header (zml/xla@ff042fb840cb, no minor bump).
    ['S2', 53], ['U2', 53],
    ['F8E4M3', 55], ['F8E3M4', 55], ['F8E8M0FNU', 63], ['F4E2M1FN', 63], ['S1', 94], ['U1', 94],
    ['F6E2M3FN', 114], ['F6E3M2FN', 114],
  ]),
  seq('PJRT_HostBufferSemantics', 'PJRT_HostBufferSemantics_', [
    ['kImmutableOnlyDuringCall'], ['kImmutableUntilTransferCompletes'],
    ['kImmutableZeroCopy', 0, 'named kZeroCopy before 0.47'], ['kMutableZeroCopy', 48],
  ]),
  seq('PJRT_Buffer_MemoryLayout_Type', 'PJRT_Buffer_MemoryLayout_Type_', [['Tiled'], ['Strides']]),
  ...EXTENSION_ENUMS,
];

const byName = new Map(ENUMS.map((e) => [e.name, e]));

export function enumDef(name: string): EnumDef {
  const e = byName.get(name);
  if (!e) throw new Error(`unknown enum '${name}'`);
  return e;
}

export function isEnum(name: string): boolean {
  return byName.has(name);
}

export function enumValue(enumName: string, member: string): number {
  const m = enumDef(enumName).members.find((x) => x.name === member);
  if (!m) throw new Error(`enum ${enumName} has no member '${member}'`);
  return m.value;
}

export function enumMember(enumName: string, value: number): string | undefined {
  return enumDef(enumName).members.find((x) => x.value === value)?.name;
}

/** Every PJRT_Error_Code name, for messages; unknown codes are spelled out. */
export function errorCodeName(code: number): string {
  return enumMember('PJRT_Error_Code', code) ?? `UNKNOWN_CODE_${code}`;
}

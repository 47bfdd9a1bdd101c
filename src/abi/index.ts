// The PJRT C API as data: structs, enums, PJRT_Api slots, element types and their LP64 layout.
export { PJRT_API_MAJOR, PJRT_API_MINOR, STRUCTS, CALLBACKS, OPAQUE_TYPES, structDef, structNames, isStruct } from './table.js';
export type { CType, FieldDef, StructDef, CallbackDef } from './table.js';
export { ENUMS, enumDef, enumValue, enumMember, errorCodeName, isEnum } from './enums.js';
export type { EnumDef, EnumMember } from './enums.js';
export { API_SLOTS, slotIndex } from './slots.js';
export type { SlotDef } from './slots.js';
export { layoutOf, previousStructSize, slotOffset, apiStructSize, slotsAt, structExists, typeLayout } from './layout.js';
export type { FieldLayout, StructLayout } from './layout.js';
export { DTYPES, dtype, dtypeByPjrt, denseByteSize } from './dtypes.js';
export type { DtypeRow, DtypeKind } from './dtypes.js';
export { EXTENSION_HEADERS, EXTENSION_STRUCTS, extensionHeader, extensionFunctions } from './extensions.js';
export type { ExtensionHeaderDef } from './extensions.js';

// The PJRT extensions frameworks look for, as data: the structs of upstream's pjrt_c_api_<name>_extension.h
// (and, for the profiler, xla/backends/profiler/plugin/profiler_c_api.h), at the extension versions of the
// zml/xla mirror (main 84938591e045). An extension grows by its own version macro, not by PJRT_API_MINOR: every
// struct and field here carries the minor of its extension type (enums.ts), and a caller must check the
// extension's base.struct_size before reading a function pointer (an older plugin's table may be shorter).

import { args, plain, type F, type StructDef } from './define.js';
import type { EnumDef } from './enums.js';

export interface ExtensionHeaderDef {
  /** file id: fixtures/reference-plugin/include/pjrt_c_api_<id>_extension.h */
  readonly id: string;
  /** the PJRT_Extension_Type member (without prefix) */
  readonly type: string;
  /** the struct the plugin links into the chain (starts with `PJRT_Extension_Base base`) */
  readonly struct: string;
  readonly versionMacro: string;
  readonly version: number;
  readonly since: number;
  /** opaque types the header declares */
  readonly opaque: readonly string[];
  readonly comment: string;
}

/** `PJRT_Error* (*)(A* args)`: the type of an extension's function-table member. */
const fn = (argsStruct: string, ret = 'PJRT_Error*'): string => `${ret} (*)(${argsStruct}* args)`;
const BASE: F = ['base', 'PJRT_Extension_Base'];

export const EXTENSION_HEADERS: readonly ExtensionHeaderDef[] = [
  { id: 'layouts', type: 'Layouts', struct: 'PJRT_Layouts_Extension', versionMacro: 'PJRT_API_LAYOUTS_EXTENSION_VERSION',
    version: 4, since: 51, opaque: ['PJRT_Layouts_MemoryLayout', 'PJRT_Layouts_SerializedLayout'],
    comment: 'device layouts: client/topology defaults, buffer and executable layouts, serialization' },
  { id: 'memory_descriptions', type: 'MemoryDescriptions', struct: 'PJRT_MemoryDescriptions_Extension',
    versionMacro: 'PJRT_API_MEMORY_DESCRIPTIONS_EXTENSION_VERSION', version: 1, since: 59,
    opaque: ['PJRT_MemoryDescription'], comment: 'the memory kinds of a device description (no client needed)' },
  { id: 'stream', type: 'Stream', struct: 'PJRT_Stream_Extension', versionMacro: 'PJRT_API_STREAM_EXTENSION_VERSION',
    version: 0, since: 49, opaque: [], comment: 'a device stream for external ready events (DLPack consumers)' },
  { id: 'ffi', type: 'FFI', struct: 'PJRT_FFI_Extension', versionMacro: 'PJRT_API_FFI_EXTENSION_VERSION', version: 3,
    since: 53, opaque: [], comment: 'XLA FFI: type ids, user data in an execute context, custom-call handlers' },
  { id: 'profiler', type: 'Profiler', struct: 'PJRT_Profiler_Extension', versionMacro: 'PLUGIN_PROFILER_VERSION',
    version: 1, since: 34, opaque: ['PLUGIN_Profiler', 'PLUGIN_Profiler_Error', 'PLUGIN_Profiler_ConsumeResult'],
    comment: 'the PLUGIN_Profiler_Api table (upstream declares it in xla/backends/profiler/plugin/profiler_c_api.h; ' +
      'PJRT_API_PROFILER_EXTENSION_VERSION is 1 as well)' },
];

const L = 'PJRT_Layouts_';
const LAYOUTS: StructDef[] = [
  args(`${L}MemoryLayout_Destroy_Args`, 51, [['layout', `${L}MemoryLayout*`]]),
  args(`${L}MemoryLayout_Serialize_Args`, 51, [['layout', `${L}MemoryLayout*`], ['serialized_bytes', 'const char*'],
    ['serialized_bytes_size', 'size_t'], ['serialized_layout', `${L}SerializedLayout*`],
    ['serialized_layout_deleter', `void (*)(${L}SerializedLayout* s_layout)`]]),
  args(`${L}PJRT_Buffer_MemoryLayout_Args`, 51, [['buffer', 'PJRT_Buffer*'], ['layout', `${L}MemoryLayout*`]]),
  args(`${L}PJRT_Client_GetDefaultLayout_Args`, 51, [['client', 'PJRT_Client*'], ['type', 'PJRT_Buffer_Type'],
    ['dims', 'const int64_t*'], ['num_dims', 'size_t'], ['layout', `${L}MemoryLayout*`]]),
  args(`${L}PJRT_Topology_GetDefaultLayout_Args`, 51, [['topology_description', 'PJRT_TopologyDescription*'],
    ['type', 'PJRT_Buffer_Type'], ['dims', 'const int64_t*'], ['num_dims', 'size_t'], ['layout', `${L}MemoryLayout*`]]),
  args(`${L}PJRT_Executable_GetOutputLayouts_Args`, 51, [['executable', 'PJRT_Executable*'], ['num_outputs', 'size_t'],
    ['layouts', `${L}MemoryLayout**`]]),
  args(`${L}PJRT_Executable_GetParameterLayouts_Args`, 51, [['executable', 'PJRT_Executable*'],
    ['num_parameters', 'size_t'], ['layouts', `${L}MemoryLayout**`]]),
  plain('PJRT_Layouts_Extension', 51, [BASE,
    ...['MemoryLayout_Destroy', 'MemoryLayout_Serialize', 'PJRT_Client_GetDefaultLayout', 'PJRT_Buffer_MemoryLayout',
      'PJRT_Topology_GetDefaultLayout', 'PJRT_Executable_GetOutputLayouts', 'PJRT_Executable_GetParameterLayouts']
      .map((n): F => [`${L}${n}`, fn(`${L}${n}_Args`)])]),
];

const MEMORY_DESCRIPTIONS: StructDef[] = [
  args('PJRT_DeviceDescription_MemoryDescriptions_Args', 59, [['device_description', 'PJRT_DeviceDescription*'],
    ['memory_descriptions', 'const PJRT_MemoryDescription* const*'], ['num_memory_descriptions', 'size_t'],
    ['default_memory_index', 'size_t', undefined, 'index into memory_descriptions; -1 if there is no default']]),
  args('PJRT_MemoryDescription_Kind_Args', 59, [['memory_description', 'const PJRT_MemoryDescription*'],
    ['kind', 'const char*'], ['kind_size', 'size_t'], ['kind_id', 'int']]),
  plain('PJRT_MemoryDescriptions_Extension', 59, [BASE,
    ['PJRT_DeviceDescription_MemoryDescriptions', fn('PJRT_DeviceDescription_MemoryDescriptions_Args')],
    ['PJRT_MemoryDescription_Kind', fn('PJRT_MemoryDescription_Kind_Args')]]),
];

// The stream extension's Args have struct_size but no extension_start.
const STREAM: StructDef[] = [
  plain('PJRT_Get_Stream_For_External_Ready_Events_Args', 49, [['struct_size', 'size_t'], ['device', 'PJRT_Device*'],
    ['stream', 'intptr_t']]),
  plain('PJRT_Wait_Until_Buffer_Ready_On_Stream_Args', 49, [['struct_size', 'size_t'], ['stream', 'intptr_t'],
    ['buffer', 'PJRT_Buffer*']]),
  plain('PJRT_Stream_Extension', 49, [BASE,
    ['get_stream', fn('PJRT_Get_Stream_For_External_Ready_Events_Args')],
    ['wait_stream', fn('PJRT_Wait_Until_Buffer_Ready_On_Stream_Args')]]),
];

const FFI: StructDef[] = [
  plain('PJRT_FFI_Type_Info', 53, [['deleter', 'void (*)(void* object)'],
    ['serialize', 'void (*)(void)', undefined, 'placeholder'], ['deserialize', 'void (*)(void)', undefined, 'placeholder']]),
  args('PJRT_FFI_Type_Register_Args', 53, [['type_name', 'const char*'], ['type_name_size', 'size_t'],
    ['type_id', 'int64_t', undefined, 'in-out: 0 asks the plugin to assign one'], ['type_info', 'PJRT_FFI_Type_Info*']]),
  plain('PJRT_FFI_UserData', 53, [['type_id', 'int64_t'], ['data', 'void*']]),
  args('PJRT_FFI_UserData_Add_Args', 53, [['context', 'PJRT_ExecuteContext*'], ['user_data', 'PJRT_FFI_UserData']]),
  // No extension_start here either.
  plain('PJRT_FFI_Register_Handler_Args', 53, [['struct_size', 'size_t'], ['target_name', 'const char*'],
    ['target_name_size', 'size_t'], ['handler', 'void*', undefined, 'XLA_FFI_Handler* for typed FFI calls'],
    ['platform_name', 'const char*'], ['platform_name_size', 'size_t'], ['traits', 'PJRT_FFI_Handler_TraitsBits']]),
  plain('PJRT_FFI_Extension', 53, [BASE, ['type_register', fn('PJRT_FFI_Type_Register_Args')],
    ['user_data_add', fn('PJRT_FFI_UserData_Add_Args')], ['register_handler', fn('PJRT_FFI_Register_Handler_Args')]]),
];

// PLUGIN_Profiler_*: `void* priv` where PJRT has extension_start; most Args have struct_size only.
const P = 'PLUGIN_Profiler_';
const PERR = `${P}Error*`;
const PROFILER: StructDef[] = [
  plain(`${P}Error_Destroy_Args`, 34, [['struct_size', 'size_t'], ['priv', 'void*'], ['error', PERR]]),
  plain(`${P}Error_Message_Args`, 34, [['struct_size', 'size_t'], ['priv', 'void*'], ['error', `const ${PERR}`],
    ['message', 'const char*'], ['message_size', 'size_t']]),
  plain(`${P}Error_GetCode_Args`, 34, [['struct_size', 'size_t'], ['priv', 'void*'], ['error', `const ${PERR}`],
    ['code', 'int']]),
  plain(`${P}Create_Args`, 34, [['struct_size', 'size_t'], ['options', 'const char*'], ['options_size', 'size_t'],
    ['profiler', 'PLUGIN_Profiler*']]),
  ...['Destroy', 'Start', 'Stop'].map((n) => plain(`${P}${n}_Args`, 34, [['struct_size', 'size_t'], ['profiler', 'PLUGIN_Profiler*']])),
  plain(`${P}CollectData_Args`, 34, [['struct_size', 'size_t'], ['profiler', 'PLUGIN_Profiler*'],
    ['buffer', 'uint8_t*', undefined, 'in/out: null on the first call'],
    ['buffer_size_in_bytes', 'size_t', undefined, 'out']]),
  plain(`${P}Consume_Args`, 34, [['struct_size', 'size_t'], ['profiler', 'PLUGIN_Profiler*'],
    ['result', `${P}ConsumeResult*`]]),
  plain(`${P}ConsumeResult_Destroy_Args`, 34, [['struct_size', 'size_t'], ['consume_result', `${P}ConsumeResult*`]]),
  plain(`${P}Serialize_Args`, 34, [['struct_size', 'size_t'], ['profiler', 'PLUGIN_Profiler*'],
    ['consume_result', `${P}ConsumeResult*`], ['serialized_bytes', 'const uint8_t*'], ['serialized_size', 'size_t']]),
  plain(`${P}Api`, 34, [['struct_size', 'size_t'], ['priv', 'void*'],
    ['error_destroy', fn(`${P}Error_Destroy_Args`, 'void')], ['error_message', fn(`${P}Error_Message_Args`, 'void')],
    ['error_get_code', fn(`${P}Error_GetCode_Args`, PERR)],
    ...['Create', 'Destroy', 'Start', 'Stop', 'CollectData', 'Consume'].map((n): F =>
      [n === 'CollectData' ? 'collect_data' : n.toLowerCase(), fn(`${P}${n}_Args`, PERR)]),
    ['consume_result_destroy', fn(`${P}ConsumeResult_Destroy_Args`, 'void')],
    ['serialize', fn(`${P}Serialize_Args`, PERR)]]),
  // Described from 0.45, like PJRT_Extension_Base (whose struct_size was inserted then).
  plain('PJRT_Profiler_Extension', 45, [BASE,
    ['profiler_api', `${P}Api*`, undefined, 'may be null when the struct is used as an Args extension'],
    ['traceme_context_id', 'int64_t', undefined, 'valid only as an Args extension']]),
];

const tag = (id: string, structs: StructDef[]): StructDef[] => structs.map((s) => ({ ...s, extension: id }));

export const EXTENSION_STRUCTS: readonly StructDef[] = [
  ...tag('layouts', LAYOUTS), ...tag('memory_descriptions', MEMORY_DESCRIPTIONS), ...tag('stream', STREAM),
  ...tag('ffi', FFI), ...tag('profiler', PROFILER),
];

export const EXTENSION_ENUMS: readonly (EnumDef & { readonly extension: string })[] = [
  { name: 'PJRT_FFI_Handler_TraitsBits', prefix: 'PJRT_FFI_HANDLER_TRAITS_', extension: 'ffi',
    members: [{ name: 'COMMAND_BUFFER_COMPATIBLE', value: 1, since: 53 }] },
];

export function extensionHeader(typeName: string): ExtensionHeaderDef | undefined {
  return EXTENSION_HEADERS.find((h) => h.type === typeName);
}

/** The function-table members of an extension struct (every field after `base` whose type is a function pointer). */
export function extensionFunctions(struct: string): { name: string; args: string }[] {
  const def = EXTENSION_STRUCTS.find((s) => s.name === struct);
  if (!def) throw new Error(`unknown extension struct '${struct}'`);
  return def.fields.flatMap((f) => {
    const m = /\(\*\)\((\w+)\* args\)$/.exec(f.type);
    return m ? [{ name: f.name, args: m[1]! }] : [];
  });
}

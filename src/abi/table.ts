// The PJRT C API structs as data: every struct, each field with its C type and the minor that added it.
// Source: upstream PJRT C API 0.114 — openxla/xla `xla/pjrt/c/pjrt_c_api.h` + `CHANGELOG.md` as mirrored in
// zml/xla@70fe66213b73 (the commit that set PJRT_API_MINOR 114; unchanged at mirror main 84938591e045).
// Compared struct by struct, field by field (order, C type) and slot by slot with that header; `since` values
// come from the CHANGELOG, checked against the first header in the mirror's history (reverts accounted for)
// that declares each struct, field, slot and enum member. Earlier table revisions followed a fork's 0.113
// (NovelAI/xla@964b1dfaaa04, with `execution_stream_id` in PJRT_ExecuteOptions); that field is not upstream.
// `since` 0 means "present before the changelog began at 0.29" (the exact minor is not tracked). Renamed
// fields (`priv` → `extension_start` at 0.42, `memory_kind` → `kind` at 0.48) keep the minor of the field.

import { anon, args, plain, type CallbackDef, type F, type StructDef } from './define.js';
import { EXTENSION_STRUCTS } from './extensions.js';
import { API_SLOTS } from './slots.js';

export type { CType, FieldDef, StructDef, CallbackDef } from './define.js';

export const PJRT_API_MAJOR = 0;
export const PJRT_API_MINOR = 114;

const STR = (p: string): F[] => [[p, 'const char*'], [`${p}_size`, 'size_t']];

/** Opaque handle types (only ever used through pointers). */
export const OPAQUE_TYPES: readonly string[] = [
  // PJRT_Error (0.107+) is a struct whose only member is a function-table pointer in the official header; here it stays
  // opaque, so call logs keep naming errors as handles: the one case that reads its table (tier2.error_paths
  // .error_function_table, src/pjrt/error-handle.ts) takes it at offset 0. PJRT_Memory's (0.105+) is described below:
  // XLA's C-API client reads it (PjRtCApiClient keeps its memory space in the memory's user data through it).
  'PJRT_Error',
  'PJRT_Event', 'PJRT_Client', 'PJRT_Device', 'PJRT_DeviceDescription', 'PJRT_TopologyDescription',
  'PJRT_Executable', 'PJRT_LoadedExecutable', 'PJRT_Buffer', 'PJRT_FulfillAliasBufferCallback',
  'PJRT_AsyncHostToDeviceTransferManager', 'PJRT_PhaseCompiler', 'PJRT_Device_Attributes',
  'PJRT_AsyncTrackingEvent', 'PJRT_ExecuteContext', 'PJRT_DeviceAssignmentSerialized', 'PJRT_CopyToDeviceStream',
  'PJRT_MultiSlice_Config', 'PJRT_SerializedExecutable', 'PJRT_SerializedCompileOptions', 'PJRT_SerializedTopology',
];

/** Function-pointer typedefs, in an order where each only names earlier ones. */
export const CALLBACKS: readonly CallbackDef[] = [
  { name: 'PJRT_Error_PayloadVisitor', ret: 'void', since: 99,
    params: 'const char* key, size_t key_size, const char* value, size_t value_size, void* user_arg' },
  { name: 'PJRT_CallbackError', ret: 'PJRT_Error*', since: 0,
    params: 'PJRT_Error_Code code, const char* message, size_t message_size' },
  { name: 'PJRT_Event_OnReadyCallback', ret: 'void', since: 0, params: 'PJRT_Error* error, void* user_arg' },
  { name: 'PJRT_KeyValueGetCallback_ValueDeleter', ret: 'void', since: 0, params: 'char* value' },
  { name: 'PJRT_KeyValueGetCallback', ret: 'PJRT_Error*', since: 0, params: 'PJRT_KeyValueGetCallback_Args* args' },
  { name: 'PJRT_KeyValueTryGetCallback_ValueDeleter', ret: 'void', since: 61, params: 'char* value' },
  { name: 'PJRT_KeyValueTryGetCallback', ret: 'PJRT_Error*', since: 61,
    params: 'PJRT_KeyValueTryGetCallback_Args* args' },
  { name: 'PJRT_KeyValuePutCallback', ret: 'PJRT_Error*', since: 0, params: 'PJRT_KeyValuePutCallback_Args* args' },
  { name: 'PJRT_SendCallback', ret: 'PJRT_Error*', since: 0,
    params: 'PJRT_Chunk* chunk, PJRT_CallbackError* callback_error, size_t total_size_in_bytes, bool done, void* user_arg' },
  { name: 'PJRT_RecvCallback', ret: 'void', since: 0, params: 'PJRT_CopyToDeviceStream* stream, void* user_arg' },
  { name: 'PJRT_HloOutputCallback', ret: 'void', since: 112,
    params: 'int64_t replica_id, int64_t partition_id, const void* data, const int64_t* shape_dims, ' +
      'size_t shape_num_dims, PJRT_Buffer_Type shape_element_type, int64_t operand_index, void* user_arg' },
];

const DEVICE_STATS: F[] = [
  'peak_bytes_in_use', 'num_allocs', 'largest_alloc_size', 'bytes_limit', 'bytes_reserved', 'peak_bytes_reserved',
  'bytes_reservable_limit', 'largest_free_block_bytes', 'pool_bytes', 'peak_pool_bytes',
].flatMap((s): F[] => [[s, 'int64_t'], [`${s}_is_set`, 'bool']]);

const SHAPE: F[] = [
  ['shape_dims', 'const int64_t*'], ['shape_num_dims', 'size_t'], ['shape_element_type', 'PJRT_Buffer_Type'],
  ['shape_layout', 'PJRT_Buffer_MemoryLayout*'],
];

const ERROR_STATUS: F[] = [['error_code', 'PJRT_Error_Code'], ['error_message', 'const char*'], ['error_message_size', 'size_t']];

const TM = 'PJRT_AsyncHostToDeviceTransferManager';
const tm: F = ['transfer_manager', `${TM}*`];

const DEFINED: StructDef[] = [
  // ------------------------------------------------------------------ shared
  plain('PJRT_Extension_Base', 45, [['struct_size', 'size_t'], ['type', 'PJRT_Extension_Type'],
    ['next', 'PJRT_Extension_Base*']],
  { comment: 'introduced at 0.31; struct_size was inserted at its start at 0.45 (breaking), described from 0.45' }),
  args('PJRT_Api_Version', 0, [['major_version', 'int'], ['minor_version', 'int']]),
  plain('PJRT_Error_FunctionTable', 107, [
    ['struct_size', 'size_t'], ['instance_size', 'size_t'], ['extension_start', 'PJRT_Extension_Base*'],
    ['destroy', 'void (*)(PJRT_Error* error)'],
    ['message', 'void (*)(const PJRT_Error* error, const char** message, size_t* message_size)'],
    ['get_code', 'PJRT_Error_Code (*)(const PJRT_Error* error)'],
    ['for_each_payload', 'void (*)(const PJRT_Error* error, PJRT_Error_PayloadVisitor visitor, void* user_arg)'],
  ]),
  plain('PJRT_Memory_FunctionTable', 105, [
    ['struct_size', 'size_t'], ['extension_start', 'PJRT_Extension_Base*'], ['instance_struct_size', 'size_t'],
    ['get_user_data', 'void* (*)(PJRT_Memory* memory, const void* key)'],
    ['set_user_data', 'void (*)(PJRT_Memory* memory, const void* key, void* data, void (*dtor)(void*))'],
  ]),
  plain('PJRT_Memory', 105, [['vtable', 'const PJRT_Memory_FunctionTable*']]),
  plain('PJRT_NamedValue_Value', 0, [
    ['string_value', 'const char*'], ['int64_value', 'int64_t'], ['int64_array_value', 'const int64_t*'],
    ['float_value', 'float'], ['bool_value', 'bool', 30],
  ], { union: true, inline: true }),
  args('PJRT_NamedValue', 0, [['name', 'const char*'], ['name_size', 'size_t'], ['type', 'PJRT_NamedValue_Type'],
    anon('value', 'PJRT_NamedValue_Value'), ['value_size', 'size_t']]),
  // ------------------------------------------------------------------ errors
  args('PJRT_Error_Destroy_Args', 0, [['error', 'PJRT_Error*']]),
  args('PJRT_Error_Message_Args', 0, [['error', 'const PJRT_Error*'], ['message', 'const char*'], ['message_size', 'size_t']]),
  args('PJRT_Error_GetCode_Args', 0, [['error', 'const PJRT_Error*'], ['code', 'PJRT_Error_Code']]),
  args('PJRT_Error_ForEachPayload_Args', 99, [['error', 'const PJRT_Error*'], ['visitor', 'PJRT_Error_PayloadVisitor'],
    ['user_arg', 'void*']]),
  // ------------------------------------------------------------------ plugin
  args('PJRT_Plugin_Initialize_Args', 0, []),
  args('PJRT_Plugin_Attributes_Args', 0, [['attributes', 'const PJRT_NamedValue*'], ['num_attributes', 'size_t']]),
  // ------------------------------------------------------------------ events
  args('PJRT_Event_Destroy_Args', 0, [['event', 'PJRT_Event*']]),
  args('PJRT_Event_IsReady_Args', 0, [['event', 'PJRT_Event*'], ['is_ready', 'bool']]),
  args('PJRT_Event_Error_Args', 0, [['event', 'PJRT_Event*']]),
  args('PJRT_Event_Await_Args', 0, [['event', 'PJRT_Event*']]),
  args('PJRT_Event_OnReady_Args', 0, [['event', 'PJRT_Event*'], ['callback', 'PJRT_Event_OnReadyCallback'],
    ['user_arg', 'void*']]),
  args('PJRT_Event_Create_Args', 89, [['event', 'PJRT_Event*']]),
  args('PJRT_Event_Set_Args', 89, [['event', 'PJRT_Event*'], ...ERROR_STATUS]),
  // ------------------------------------------------------------------ key-value callbacks
  args('PJRT_KeyValueGetCallback_Args', 0, [['key', 'const char*'], ['key_size', 'size_t'], ['timeout_in_ms', 'int'],
    ['callback_error', 'PJRT_CallbackError*'], ['user_arg', 'void*'], ['value', 'char*'], ['value_size', 'size_t'],
    ['value_deleter_callback', 'PJRT_KeyValueGetCallback_ValueDeleter']]),
  args('PJRT_KeyValueTryGetCallback_Args', 61, [['key', 'const char*'], ['key_size', 'size_t'],
    ['callback_error', 'PJRT_CallbackError*'], ['user_arg', 'void*'], ['value', 'char*'], ['value_size', 'size_t'],
    ['value_deleter_callback', 'PJRT_KeyValueTryGetCallback_ValueDeleter']]),
  args('PJRT_KeyValuePutCallback_Args', 0, [['key', 'const char*'], ['key_size', 'size_t'], ['value', 'const char*'],
    ['value_size', 'size_t'], ['callback_error', 'PJRT_CallbackError*'], ['user_arg', 'void*']]),
  // ------------------------------------------------------------------ client
  args('PJRT_Client_Create_Args', 0, [['create_options', 'const PJRT_NamedValue*'], ['num_options', 'size_t'],
    ['kv_get_callback', 'PJRT_KeyValueGetCallback'], ['kv_get_user_arg', 'void*'],
    ['kv_put_callback', 'PJRT_KeyValuePutCallback'], ['kv_put_user_arg', 'void*'], ['client', 'PJRT_Client*'],
    ['kv_try_get_callback', 'PJRT_KeyValueTryGetCallback', 61], ['kv_try_get_user_arg', 'void*', 61]]),
  args('PJRT_Client_Destroy_Args', 0, [['client', 'PJRT_Client*']]),
  args('PJRT_Client_PlatformName_Args', 0, [['client', 'PJRT_Client*'], ...STR('platform_name')]),
  args('PJRT_Client_ProcessIndex_Args', 0, [['client', 'PJRT_Client*'], ['process_index', 'int']]),
  args('PJRT_Client_PlatformVersion_Args', 0, [['client', 'PJRT_Client*'], ...STR('platform_version')]),
  args('PJRT_Client_TopologyDescription_Args', 36, [['client', 'PJRT_Client*'], ['topology', 'PJRT_TopologyDescription*']]),
  args('PJRT_Client_Devices_Args', 0, [['client', 'PJRT_Client*'], ['devices', 'PJRT_Device* const*'],
    ['num_devices', 'size_t']]),
  args('PJRT_Client_AddressableDevices_Args', 0, [['client', 'PJRT_Client*'],
    ['addressable_devices', 'PJRT_Device* const*'], ['num_addressable_devices', 'size_t']]),
  args('PJRT_Client_LookupDevice_Args', 0, [['client', 'PJRT_Client*'], ['id', 'int'], ['device', 'PJRT_Device*']]),
  args('PJRT_Client_LookupAddressableDevice_Args', 0, [['client', 'PJRT_Client*'], ['local_hardware_id', 'int'],
    ['addressable_device', 'PJRT_Device*']]),
  plain('PJRT_ProcessInfo', 75, [['struct_size', 'size_t'], ['task_id', 'int'], ['incarnation_id', 'uint64_t'],
    ['state', 'PJRT_ProcessState'], ['error_code', 'int'], ['error_message', 'const char*'],
    ['error_message_size', 'size_t']], { comment: 'introduced at 0.73 without struct_size; struct_size was inserted at ' +
    'its start during 0.75 (breaking, no minor bump: zml/xla@d63f4e34886d), described from 0.75' }),
  args('PJRT_Client_UpdateGlobalProcessInfo_Args', 73, [['client', 'PJRT_Client*'],
    ['process_infos', 'PJRT_ProcessInfo*'], ['num_process_infos', 'size_t']]),
  args('PJRT_Client_AddressableMemories_Args', 0, [['client', 'PJRT_Client*'],
    ['addressable_memories', 'PJRT_Memory* const*'], ['num_addressable_memories', 'size_t']]),
  args('PJRT_Program', 0, [['code', 'char*'], ['code_size', 'size_t'], ['format', 'const char*'], ['format_size', 'size_t']]),
  args('PJRT_Client_Compile_Args', 0, [['client', 'PJRT_Client*'], ['program', 'const PJRT_Program*'],
    ['compile_options', 'const char*'], ['compile_options_size', 'size_t'], ['executable', 'PJRT_LoadedExecutable*']]),
  args('PJRT_Client_Load_Args', 95, [['client', 'PJRT_Client*'], ['executable', 'PJRT_Executable*'],
    ['compile_options', 'const char*'], ['compile_options_size', 'size_t'],
    ['loaded_executable', 'PJRT_LoadedExecutable*']]),
  args('PJRT_Client_DefaultDeviceAssignment_Args', 0, [['client', 'PJRT_Client*'], ['num_replicas', 'int'],
    ['num_partitions', 'int'], ['default_assignment_size', 'size_t'], ['default_assignment', 'int*']]),
  args('PJRT_Client_DmaMap_Args', 67, [['client', 'PJRT_Client*'], ['data', 'void*'], ['size', 'size_t']]),
  args('PJRT_Client_DmaUnmap_Args', 67, [['client', 'PJRT_Client*'], ['data', 'void*']]),
  // ------------------------------------------------------------------ memory layouts and shapes
  args('PJRT_Buffer_MemoryLayout_Tiled', 0, [['minor_to_major', 'const int64_t*'], ['minor_to_major_size', 'size_t'],
    ['tile_dims', 'const int64_t*'], ['tile_dim_sizes', 'const size_t*'], ['num_tiles', 'size_t']]),
  args('PJRT_Buffer_MemoryLayout_Strides', 0, [['byte_strides', 'const int64_t*'], ['num_byte_strides', 'size_t']]),
  plain('PJRT_Buffer_MemoryLayout_Union', 0, [['tiled', 'PJRT_Buffer_MemoryLayout_Tiled'],
    ['strides', 'PJRT_Buffer_MemoryLayout_Strides']], { union: true, inline: true }),
  args('PJRT_Buffer_MemoryLayout', 0, [anon('layout', 'PJRT_Buffer_MemoryLayout_Union'),
    ['type', 'PJRT_Buffer_MemoryLayout_Type']]),
  args('PJRT_ShapeSpec', 60, [['dims', 'const int64_t*'], ['num_dims', 'size_t'], ['element_type', 'PJRT_Buffer_Type']]),
  // ------------------------------------------------------------------ async host-to-device transfer manager
  args(`${TM}_Destroy_Args`, 60, [tm]),
  args(`${TM}_TransferData_Args`, 60, [tm, ['buffer_index', 'int'], ['data', 'const void*'], ['offset', 'int64_t'],
    ['transfer_size', 'int64_t'], ['is_last_transfer', 'bool'], ['done_with_h2d_transfer', 'PJRT_Event*']]),
  args(`${TM}_RetrieveBuffer_Args`, 62, [tm, ['buffer_index', 'int'], ['buffer_out', 'PJRT_Buffer*']]),
  args(`${TM}_Device_Args`, 62, [tm, ['device_out', 'PJRT_Device*']]),
  args(`${TM}_BufferCount_Args`, 62, [tm, ['buffer_count', 'size_t']]),
  args(`${TM}_BufferSize_Args`, 62, [tm, ['buffer_index', 'int'], ['buffer_size', 'size_t']]),
  args(`${TM}_SetBufferError_Args`, 62, [tm, ['buffer_index', 'int'], ...ERROR_STATUS]),
  args(`${TM}_AddMetadata_Args`, 62, [tm, ['transfer_metadata', 'const PJRT_NamedValue*'], ['num_metadata', 'size_t']]),
  args(`${TM}_TransferLiteral_Args`, 83, [tm, ['buffer_index', 'int'], ['data', 'const void*'], ...SHAPE,
    ['done_with_h2d_transfer', 'PJRT_Event*']]),
  // ------------------------------------------------------------------ buffer creation
  args('PJRT_Client_CreateUninitializedBuffer_Args', 68, [['client', 'PJRT_Client*'], ...SHAPE,
    ['device', 'PJRT_Device*'], ['memory', 'PJRT_Memory*'], ['buffer', 'PJRT_Buffer*']]),
  args('PJRT_Client_CreateErrorBuffer_Args', 82, [['client', 'PJRT_Client*'], ...ERROR_STATUS, ...SHAPE,
    ['memory', 'PJRT_Memory*'], ['buffer', 'PJRT_Buffer*'], ['payload', 'const PJRT_NamedValue*', 103],
    ['num_payload', 'size_t', 103]]),
  args('PJRT_Client_CreateAliasBuffer_Args', 77, [['client', 'PJRT_Client*'], ['memory', 'PJRT_Memory*'], ...SHAPE,
    ['alias_buffer', 'PJRT_Buffer*'], ['fulfill_alias_buffer_cb', 'PJRT_FulfillAliasBufferCallback*']]),
  args('PJRT_Client_FulfillAliasBuffer_Args', 77, [['client', 'PJRT_Client*'], ['buffer', 'PJRT_Buffer*'],
    ['status_code', 'PJRT_Error_Code'], ['error_message', 'const char*'], ['error_message_size', 'size_t'],
    ['fulfill_alias_buffer_cb', 'PJRT_FulfillAliasBufferCallback*']]),
  args('PJRT_Client_BufferFromHostBuffer_Args', 0, [['client', 'PJRT_Client*'], ['data', 'const void*'],
    ['type', 'PJRT_Buffer_Type'], ['dims', 'const int64_t*'], ['num_dims', 'size_t'],
    ['byte_strides', 'const int64_t*'], ['num_byte_strides', 'size_t'],
    ['host_buffer_semantics', 'PJRT_HostBufferSemantics'], ['device', 'PJRT_Device*'], ['memory', 'PJRT_Memory*'],
    ['device_layout', 'PJRT_Buffer_MemoryLayout*'], ['done_with_host_buffer', 'PJRT_Event*'],
    ['buffer', 'PJRT_Buffer*']]),
  args('PJRT_Client_CreateViewOfDeviceBuffer_Args', 33, [['client', 'PJRT_Client*'], ['device_buffer_ptr', 'void*'],
    ['dims', 'const int64_t*'], ['num_dims', 'size_t'], ['element_type', 'PJRT_Buffer_Type'],
    ['layout', 'PJRT_Buffer_MemoryLayout*'], ['device', 'PJRT_Device*', undefined, 'deprecated: use memory'],
    ['on_delete_callback', 'void (*)(void* device_buffer_ptr, void* user_arg)'], ['on_delete_callback_arg', 'void*'],
    ['stream', 'intptr_t'], ['buffer', 'PJRT_Buffer*'], ['memory', 'PJRT_Memory*', 66]]),
  args('PJRT_Client_CreateBuffersForAsyncHostToDevice_Args', 60, [['client', 'PJRT_Client*'],
    ['shape_specs', 'PJRT_ShapeSpec*'], ['num_shape_specs', 'size_t'],
    ['device_layouts', 'PJRT_Buffer_MemoryLayout**'], ['num_device_layouts', 'size_t'], ['memory', 'PJRT_Memory*'],
    ['transfer_manager', `${TM}*`]]),
  // ------------------------------------------------------------------ device descriptions
  args('PJRT_DeviceDescription_Id_Args', 0, [['device_description', 'PJRT_DeviceDescription*'], ['id', 'int']]),
  args('PJRT_DeviceDescription_ProcessIndex_Args', 0, [['device_description', 'PJRT_DeviceDescription*'],
    ['process_index', 'int']]),
  args('PJRT_DeviceDescription_Attributes_Args', 0, [['device_description', 'PJRT_DeviceDescription*'],
    ['num_attributes', 'size_t'], ['attributes', 'const PJRT_NamedValue*']]),
  args('PJRT_DeviceDescription_Kind_Args', 0, [['device_description', 'PJRT_DeviceDescription*'],
    ...STR('device_kind')]),
  args('PJRT_DeviceDescription_DebugString_Args', 0, [['device_description', 'PJRT_DeviceDescription*'],
    ...STR('debug_string')]),
  args('PJRT_DeviceDescription_ToString_Args', 0, [['device_description', 'PJRT_DeviceDescription*'],
    ...STR('to_string')]),
  // ------------------------------------------------------------------ devices
  args('PJRT_Device_GetDescription_Args', 0, [['device', 'PJRT_Device*'],
    ['device_description', 'PJRT_DeviceDescription*']]),
  args('PJRT_Device_IsAddressable_Args', 0, [['device', 'PJRT_Device*'], ['is_addressable', 'bool']]),
  args('PJRT_Device_LocalHardwareId_Args', 0, [['device', 'PJRT_Device*'], ['local_hardware_id', 'int']]),
  args('PJRT_Device_AddressableMemories_Args', 0, [['device', 'PJRT_Device*'], ['memories', 'PJRT_Memory* const*'],
    ['num_memories', 'size_t']]),
  args('PJRT_Device_DefaultMemory_Args', 0, [['device', 'PJRT_Device*'], ['memory', 'PJRT_Memory*']]),
  args('PJRT_Device_MemoryStats_Args', 0, [['device', 'PJRT_Device*'], ['bytes_in_use', 'int64_t'], ...DEVICE_STATS,
    ['peak_allocated_bytes', 'int64_t', 113], ['peak_allocated_bytes_is_set', 'bool', 113]]),
  args('PJRT_Device_ClearMemoryStats_Args', 106, [['device', 'PJRT_Device*']]),
  args('PJRT_Device_PoisonExecution_Args', 85, [['device', 'PJRT_Device*'], ['launch_id', 'int32_t'], ...ERROR_STATUS,
    ['poisoned', 'bool'], ['payload', 'const PJRT_NamedValue*', 100], ['num_payload', 'size_t', 100]]),
  args('PJRT_Device_GetAttributes_Args', 92, [['device', 'PJRT_Device*'], ['attributes', 'const PJRT_NamedValue*'],
    ['num_attributes', 'size_t'], ['device_attributes', 'PJRT_Device_Attributes*'],
    ['attributes_deleter', 'void (*)(PJRT_Device_Attributes* device_attributes)']]),
  args('PJRT_Device_CreateAsyncTrackingEvent_Args', 86, [['device', 'PJRT_Device*'], ...STR('description'),
    ['event', 'PJRT_AsyncTrackingEvent*']]),
  args('PJRT_AsyncTrackingEvent_Destroy_Args', 86, [['event', 'PJRT_AsyncTrackingEvent*']]),
  // ------------------------------------------------------------------ memories
  args('PJRT_Memory_Id_Args', 0, [['memory', 'PJRT_Memory*'], ['id', 'int']]),
  args('PJRT_Memory_Kind_Args', 0, [['memory', 'PJRT_Memory*'], ...STR('kind')]),
  args('PJRT_Memory_Kind_Id_Args', 48, [['memory', 'PJRT_Memory*'], ['kind_id', 'int']]),
  args('PJRT_Memory_DebugString_Args', 0, [['memory', 'PJRT_Memory*'], ...STR('debug_string')]),
  args('PJRT_Memory_ToString_Args', 0, [['memory', 'PJRT_Memory*'], ...STR('to_string')]),
  args('PJRT_Memory_AddressableByDevices_Args', 0, [['memory', 'PJRT_Memory*'], ['devices', 'PJRT_Device* const*'],
    ['num_devices', 'size_t']]),
  // ------------------------------------------------------------------ execute context
  args('PJRT_ExecuteContext_Create_Args', 52, [['context', 'PJRT_ExecuteContext*']]),
  args('PJRT_ExecuteContext_Destroy_Args', 52, [['context', 'PJRT_ExecuteContext*']]),
  // ------------------------------------------------------------------ executables
  args('PJRT_Executable_Destroy_Args', 0, [['executable', 'PJRT_Executable*']]),
  args('PJRT_LoadedExecutable_Destroy_Args', 0, [['executable', 'PJRT_LoadedExecutable*']]),
  args('PJRT_LoadedExecutable_GetExecutable_Args', 0, [['loaded_executable', 'PJRT_LoadedExecutable*'],
    ['executable', 'PJRT_Executable*']]),
  args('PJRT_LoadedExecutable_GetDeviceAssignment_Args', 79, [['executable', 'PJRT_LoadedExecutable*'],
    ...STR('serialized_bytes'), ['serialized_device_assignment', 'PJRT_DeviceAssignmentSerialized*'],
    ['serialized_device_assignment_deleter', 'void (*)(PJRT_DeviceAssignmentSerialized* da)']]),
  args('PJRT_Executable_Name_Args', 0, [['executable', 'PJRT_Executable*'], ...STR('executable_name')]),
  args('PJRT_Executable_NumReplicas_Args', 0, [['executable', 'PJRT_Executable*'], ['num_replicas', 'size_t']]),
  args('PJRT_Executable_NumPartitions_Args', 0, [['executable', 'PJRT_Executable*'], ['num_partitions', 'size_t']]),
  plain('PJRT_LogicalDeviceIds', 96, [['replica', 'int'], ['partition', 'int']]),
  args('PJRT_LoadedExecutable_AddressableDevices_Args', 0, [['executable', 'PJRT_LoadedExecutable*'],
    ['addressable_devices', 'PJRT_Device* const*'], ['num_addressable_devices', 'size_t']]),
  args('PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args', 96, [['executable', 'PJRT_LoadedExecutable*'],
    ['addressable_device_logical_ids', 'PJRT_LogicalDeviceIds*'], ['num_addressable_device_logical_ids', 'size_t']]),
  args('PJRT_Executable_OptimizedProgram_Args', 0, [['executable', 'PJRT_Executable*'], ['program', 'PJRT_Program*']]),
  args('PJRT_LoadedExecutable_Delete_Args', 0, [['executable', 'PJRT_LoadedExecutable*']]),
  args('PJRT_LoadedExecutable_IsDeleted_Args', 0, [['executable', 'PJRT_LoadedExecutable*'], ['is_deleted', 'bool']]),
  plain('PJRT_Chunk', 0, [['data', 'void*'], ['size', 'size_t'], ['deleter', 'void (*)(void* data, void* deleter_arg)'],
    ['deleter_arg', 'void*']]),
  plain('PJRT_SendCallbackInfo', 0, [['channel_id', 'int64_t'], ['user_arg', 'void*'],
    ['send_callback', 'PJRT_SendCallback']]),
  plain('PJRT_RecvCallbackInfo', 0, [['channel_id', 'int64_t'], ['user_arg', 'void*'],
    ['recv_callback', 'PJRT_RecvCallback']]),
  plain('PJRT_HloOutputCallbackInfo', 112, [['user_arg', 'void*'], ['callback', 'PJRT_HloOutputCallback'],
    ['callback_id', 'int64_t'], ['num_operands', 'size_t']]),
  args('PJRT_ExecuteOptions', 0, [['send_callbacks', 'PJRT_SendCallbackInfo**'],
    ['recv_callbacks', 'PJRT_RecvCallbackInfo**'], ['num_send_ops', 'size_t'], ['num_recv_ops', 'size_t'],
    ['launch_id', 'int'], ['non_donatable_input_indices', 'const int64_t*', 39],
    ['num_non_donatable_input_indices', 'size_t', 39], ['context', 'PJRT_ExecuteContext*', 64],
    ['call_location', 'const char*', 76], ['num_tasks', 'size_t', 78], ['task_ids', 'int*', 78],
    ['incarnation_ids', 'int64_t*', 78], ['multi_slice_config', 'PJRT_MultiSlice_Config*', 97],
    ['use_major_to_minor_data_layout_for_callbacks', 'bool', 108],
    ['hlo_output_callbacks', 'PJRT_HloOutputCallbackInfo*', 112], ['num_hlo_output_callbacks', 'size_t', 112]]),
  args('PJRT_LoadedExecutable_Execute_Args', 0, [['executable', 'PJRT_LoadedExecutable*'],
    ['options', 'PJRT_ExecuteOptions*'], ['argument_lists', 'PJRT_Buffer* const* const*'], ['num_devices', 'size_t'],
    ['num_args', 'size_t'], ['output_lists', 'PJRT_Buffer** const*'], ['device_complete_events', 'PJRT_Event**'],
    ['execute_device', 'PJRT_Device*']]),
  args('PJRT_Executable_NumOutputs_Args', 0, [['executable', 'PJRT_Executable*'], ['num_outputs', 'size_t']]),
  args('PJRT_Executable_SizeOfGeneratedCodeInBytes_Args', 0, [['executable', 'PJRT_Executable*'],
    ['size_in_bytes', 'int64_t']]),
  args('PJRT_Executable_Fingerprint_Args', 35, [['executable', 'PJRT_Executable*'], ...STR('executable_fingerprint')]),
  args('PJRT_Executable_GetCostAnalysis_Args', 0, [['executable', 'PJRT_Executable*'], ['num_properties', 'size_t'],
    ['properties', 'const PJRT_NamedValue*']]),
  args('PJRT_Executable_GetCompiledMemoryStats_Args', 40, [['executable', 'PJRT_Executable*'],
    ...['generated_code_size_in_bytes', 'argument_size_in_bytes', 'output_size_in_bytes', 'alias_size_in_bytes',
      'temp_size_in_bytes'].map((n): F => [n, 'int64_t']),
    ...['host_generated_code_size_in_bytes', 'host_argument_size_in_bytes', 'host_output_size_in_bytes',
      'host_alias_size_in_bytes', 'host_temp_size_in_bytes'].map((n): F => [n, 'int64_t', 43]),
    ['peak_memory_in_bytes', 'int64_t', 72], ['total_size_in_bytes', 'int64_t', 90],
    ...['total_allocation_bytes', 'indefinite_allocations', 'peak_unpadded_heap_bytes'].map((n): F => [n, 'int64_t', 104]),
  ]),
  args('PJRT_Executable_OutputElementTypes_Args', 29, [['executable', 'PJRT_Executable*'],
    ['output_types', 'PJRT_Buffer_Type*'], ['num_output_types', 'size_t']]),
  args('PJRT_Executable_OutputDimensions_Args', 29, [['executable', 'PJRT_Executable*'], ['num_outputs', 'size_t'],
    ['dims', 'const int64_t*'], ['dim_sizes', 'const size_t*']]),
  args('PJRT_Executable_ParameterMemoryKinds_Args', 102, [['executable', 'PJRT_Executable*'],
    ['num_parameters', 'size_t'], ['memory_kinds', 'const char* const*'], ['memory_kind_sizes', 'const size_t*']]),
  args('PJRT_Executable_OutputMemoryKinds_Args', 0, [['executable', 'PJRT_Executable*'], ['num_outputs', 'size_t'],
    ['memory_kinds', 'const char* const*'], ['memory_kind_sizes', 'const size_t*']]),
  args('PJRT_Executable_Serialize_Args', 0, [['executable', 'const PJRT_Executable*'], ...STR('serialized_bytes'),
    ['serialized_executable', 'PJRT_SerializedExecutable*'],
    ['serialized_executable_deleter', 'void (*)(PJRT_SerializedExecutable* exec)']]),
  args('PJRT_Executable_GetCompileOptions_Args', 87, [['executable', 'PJRT_Executable*'], ...STR('serialized_bytes'),
    ['serialized_compile_options', 'PJRT_SerializedCompileOptions*'],
    ['serialized_compile_options_deleter', 'void (*)(PJRT_SerializedCompileOptions* options)']]),
  plain('PJRT_LoadOptions', 111, [['struct_size', 'size_t'], ['computation_origin', 'const int32_t*'],
    ['computation_origin_size', 'size_t'], ['multi_slice_config', 'PJRT_MultiSlice_Config*']]),
  args('PJRT_Executable_DeserializeAndLoad_Args', 0, [['client', 'PJRT_Client*'],
    ...STR('serialized_executable'), ['loaded_executable', 'PJRT_LoadedExecutable*'],
    ['overridden_serialized_compile_options', 'const char*', 71],
    ['overridden_serialized_compile_options_size', 'size_t', 71], ['load_options', 'PJRT_LoadOptions*', 111]]),
  args('PJRT_LoadedExecutable_Fingerprint_Args', 0, [['executable', 'PJRT_LoadedExecutable*'],
    ...STR('executable_fingerprint')], { comment: 'deprecated since 0.35' }),
  // ------------------------------------------------------------------ buffers
  args('PJRT_Buffer_Destroy_Args', 0, [['buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_ElementType_Args', 0, [['buffer', 'PJRT_Buffer*'], ['type', 'PJRT_Buffer_Type']]),
  args('PJRT_Buffer_Dimensions_Args', 0, [['buffer', 'PJRT_Buffer*'], ['dims', 'const int64_t*'], ['num_dims', 'size_t']]),
  args('PJRT_Buffer_UnpaddedDimensions_Args', 0, [['buffer', 'PJRT_Buffer*'], ['unpadded_dims', 'const int64_t*'],
    ['num_dims', 'size_t']]),
  args('PJRT_Buffer_DynamicDimensionIndices_Args', 0, [['buffer', 'PJRT_Buffer*'],
    ['dynamic_dim_indices', 'const size_t*'], ['num_dynamic_dims', 'size_t']]),
  args('PJRT_Buffer_GetMemoryLayout_Args', 0, [['buffer', 'PJRT_Buffer*'], ['layout', 'PJRT_Buffer_MemoryLayout']],
    { comment: 'deprecated since 0.54 (Layouts extension)' }),
  args('PJRT_Buffer_ToHostBuffer_Args', 0, [['src', 'PJRT_Buffer*'], ['host_layout', 'PJRT_Buffer_MemoryLayout*'],
    ['dst', 'void*'], ['dst_size', 'size_t'], ['event', 'PJRT_Event*']]),
  args('PJRT_Buffer_OnDeviceSizeInBytes_Args', 0, [['buffer', 'PJRT_Buffer*'], ['on_device_size_in_bytes', 'size_t']]),
  args('PJRT_Buffer_Delete_Args', 0, [['buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_IsDeleted_Args', 0, [['buffer', 'PJRT_Buffer*'], ['is_deleted', 'bool']]),
  args('PJRT_Buffer_CopyRawToHost_Args', 57, [['buffer', 'PJRT_Buffer*'], ['dst', 'void*'], ['offset', 'int64_t'],
    ['transfer_size', 'int64_t'], ['event', 'PJRT_Event*']]),
  plain('PJRT_Buffer_CopyRawToHostFuture_Callback_Args', 84, [['struct_size', 'size_t'], ['callback_data', 'void*'],
    ...ERROR_STATUS, ['dst', 'void*']]),
  args('PJRT_Buffer_CopyRawToHostFuture_Args', 84, [['buffer', 'PJRT_Buffer*'], ['offset', 'int64_t'],
    ['transfer_size', 'int64_t'], ['event', 'PJRT_Event*'], ['callback_data', 'void*'],
    ['future_ready_callback', 'void (*)(PJRT_Buffer_CopyRawToHostFuture_Callback_Args* args)']]),
  args('PJRT_Buffer_CopyToDevice_Args', 0, [['buffer', 'PJRT_Buffer*'], ['dst_device', 'PJRT_Device*'],
    ['dst_buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_CopyToMemory_Args', 32, [['buffer', 'PJRT_Buffer*'], ['dst_memory', 'PJRT_Memory*'],
    ['dst_buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_Bitcast_Args', 98, [['buffer', 'PJRT_Buffer*'], ['element_type', 'PJRT_Buffer_Type'],
    ['dims', 'const int64_t*'], ['num_dims', 'size_t'], ['device_layout', 'PJRT_Buffer_MemoryLayout*'],
    ['out_buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_IsOnCpu_Args', 0, [['buffer', 'PJRT_Buffer*'], ['is_on_cpu', 'bool']]),
  args('PJRT_Buffer_Device_Args', 0, [['buffer', 'PJRT_Buffer*'], ['device', 'PJRT_Device*']]),
  args('PJRT_Buffer_Memory_Args', 0, [['buffer', 'PJRT_Buffer*'], ['memory', 'PJRT_Memory*']]),
  args('PJRT_Buffer_ReadyEvent_Args', 0, [['buffer', 'PJRT_Buffer*'], ['event', 'PJRT_Event*']]),
  args('PJRT_Buffer_UnsafePointer_Args', 0, [['buffer', 'PJRT_Buffer*'], ['buffer_pointer', 'uintptr_t']]),
  args('PJRT_Buffer_IncreaseExternalReferenceCount_Args', 0, [['buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_DecreaseExternalReferenceCount_Args', 0, [['buffer', 'PJRT_Buffer*']]),
  args('PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args', 0, [['buffer', 'PJRT_Buffer*'], ['device_memory_ptr', 'void*']]),
  plain('PJRT_Buffer_DonateWithControlDependency_Callback_Args', 88, [['struct_size', 'size_t'],
    ['callback_data', 'void*'], ...ERROR_STATUS]),
  args('PJRT_Buffer_DonateWithControlDependency_Args', 88, [['buffer', 'PJRT_Buffer*'], ['callback_data', 'void*'],
    ['dependency_ready_callback', 'void (*)(PJRT_Buffer_DonateWithControlDependency_Callback_Args* args)'],
    ['out_buffer', 'PJRT_Buffer*']]),
  // ------------------------------------------------------------------ copy-to-device streams
  args('PJRT_CopyToDeviceStream_Destroy_Args', 0, [['stream', 'PJRT_CopyToDeviceStream*']]),
  args('PJRT_CopyToDeviceStream_AddChunk_Args', 0, [['stream', 'PJRT_CopyToDeviceStream*'], ['chunk', 'PJRT_Chunk*'],
    ['transfer_complete', 'PJRT_Event*']]),
  args('PJRT_CopyToDeviceStream_TotalBytes_Args', 0, [['stream', 'PJRT_CopyToDeviceStream*'], ['total_bytes', 'int64_t']]),
  args('PJRT_CopyToDeviceStream_GranuleSize_Args', 0, [['stream', 'PJRT_CopyToDeviceStream*'],
    ['granule_size_in_bytes', 'int64_t']]),
  args('PJRT_CopyToDeviceStream_CurrentBytes_Args', 0, [['stream', 'PJRT_CopyToDeviceStream*'],
    ['current_bytes', 'int64_t']]),
  // ------------------------------------------------------------------ topology
  args('PJRT_TopologyDescription_Create_Args', 0, [...STR('topology_name'),
    ['create_options', 'const PJRT_NamedValue*'], ['num_options', 'size_t'], ['topology', 'PJRT_TopologyDescription*']]),
  args('PJRT_TopologyDescription_Destroy_Args', 0, [['topology', 'PJRT_TopologyDescription*']]),
  args('PJRT_TopologyDescription_PlatformVersion_Args', 0, [['topology', 'PJRT_TopologyDescription*'],
    ...STR('platform_version')]),
  args('PJRT_TopologyDescription_PlatformName_Args', 0, [['topology', 'const PJRT_TopologyDescription*'],
    ...STR('platform_name')]),
  args('PJRT_TopologyDescription_GetDeviceDescriptions_Args', 0, [['topology', 'const PJRT_TopologyDescription*'],
    ['descriptions', 'PJRT_DeviceDescription* const*'], ['num_descriptions', 'size_t']]),
  args('PJRT_TopologyDescription_Serialize_Args', 0, [['topology', 'PJRT_TopologyDescription*'],
    ...STR('serialized_bytes'), ['serialized_topology', 'PJRT_SerializedTopology*'],
    ['serialized_topology_deleter', 'void (*)(PJRT_SerializedTopology* serialized_topology)']]),
  args('PJRT_TopologyDescription_Deserialize_Args', 75, [...STR('serialized_topology'),
    ['topology', 'PJRT_TopologyDescription*']]),
  args('PJRT_TopologyDescription_Attributes_Args', 0, [['topology', 'PJRT_TopologyDescription*'],
    ['attributes', 'const PJRT_NamedValue*'], ['num_attributes', 'size_t']]),
  args('PJRT_TopologyDescription_Fingerprint_Args', 101, [['topology', 'const PJRT_TopologyDescription*'],
    ['fingerprint', 'uint64_t']]),
  args('PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace_Args', 109, [
    ['topology', 'const PJRT_TopologyDescription*'], ['memory_space_kind_id', 'int'], ['dims', 'const int64_t*'],
    ['num_dims', 'size_t'], ['element_type', 'PJRT_Buffer_Type'], ['layout', 'const PJRT_Buffer_MemoryLayout*'],
    ...STR('serialized_shape'), ['serialized_shape_deleter', 'void (*)(const char*)']]),
  args('PJRT_TopologyDescription_GetMemorySpaceKindIds_Args', 110, [['topology', 'const PJRT_TopologyDescription*'],
    ['memory_space_kind_ids', 'const int*'], ['num_memory_space_kind_ids', 'size_t']]),
  args('PJRT_Compile_Args', 0, [['topology', 'const PJRT_TopologyDescription*'], ['program', 'const PJRT_Program*'],
    ['compile_options', 'const char*'], ['compile_options_size', 'size_t'], ['client', 'PJRT_Client*'],
    ['executable', 'PJRT_Executable*']]),
];

/** PJRT_Api: the header, the embedded version struct, then one function pointer per slot. */
const API: StructDef = {
  name: 'PJRT_Api',
  since: 0,
  header: true,
  fields: args('PJRT_Api', 0, [
    ['pjrt_api_version', 'PJRT_Api_Version'],
    ...API_SLOTS.map((s): F => [s.name, `${s.name}*`, s.since]),
  ]).fields,
};

/** pjrt_c_api.h's structs, then those of the extension headers (`extension` set). */
export const STRUCTS: readonly StructDef[] = [...DEFINED, API, ...EXTENSION_STRUCTS];

const structByName = new Map(STRUCTS.map((s) => [s.name, s]));

export function structDef(name: string): StructDef {
  const s = structByName.get(name);
  if (!s) throw new Error(`unknown struct '${name}'`);
  return s;
}

export function isStruct(name: string): boolean {
  return structByName.has(name);
}

/** Names of the structs that are real C types (not inline-only unions). */
export function structNames(): string[] {
  return STRUCTS.filter((s) => !s.inline).map((s) => s.name);
}

const callbackNames = new Set(CALLBACKS.map((c) => c.name));
export function isCallback(name: string): boolean {
  return callbackNames.has(name);
}

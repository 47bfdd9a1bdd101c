// The PJRT_Api slots a plugin cannot leave null. The header marks no slot optional or required; these are the
// slots XLA's C-API client (xla/pjrt/c_api_client/pjrt_c_api_client.cc, pjrt_c_api_helpers.cc, pjrt_api.cc) —
// the client JAX, PyTorch/XLA and TensorFlow drive plugins through — calls without a null check, so a null one
// crashes the framework. Everything else is optional and its absence makes tests `unsupported`.
export const REQUIRED_SLOTS: readonly string[] = [
  'PJRT_Error_Destroy', 'PJRT_Error_Message', 'PJRT_Error_GetCode',
  'PJRT_Plugin_Initialize', 'PJRT_Plugin_Attributes',
  'PJRT_Event_Destroy', 'PJRT_Event_IsReady', 'PJRT_Event_Error', 'PJRT_Event_Await', 'PJRT_Event_OnReady',
  'PJRT_Client_Create', 'PJRT_Client_Destroy', 'PJRT_Client_PlatformName', 'PJRT_Client_ProcessIndex',
  'PJRT_Client_PlatformVersion', 'PJRT_Client_Devices', 'PJRT_Client_AddressableDevices',
  'PJRT_Client_LookupDevice', 'PJRT_Client_LookupAddressableDevice', 'PJRT_Client_AddressableMemories',
  'PJRT_Client_Compile', 'PJRT_Client_DefaultDeviceAssignment', 'PJRT_Client_BufferFromHostBuffer',
  'PJRT_DeviceDescription_Id', 'PJRT_DeviceDescription_ProcessIndex', 'PJRT_DeviceDescription_Attributes',
  'PJRT_DeviceDescription_Kind', 'PJRT_DeviceDescription_DebugString', 'PJRT_DeviceDescription_ToString',
  'PJRT_Device_GetDescription', 'PJRT_Device_IsAddressable', 'PJRT_Device_LocalHardwareId',
  'PJRT_Device_AddressableMemories', 'PJRT_Device_DefaultMemory',
  'PJRT_Memory_Id', 'PJRT_Memory_Kind', 'PJRT_Memory_DebugString', 'PJRT_Memory_ToString',
  'PJRT_Memory_AddressableByDevices',
  'PJRT_Executable_Destroy', 'PJRT_Executable_Name', 'PJRT_Executable_NumReplicas',
  'PJRT_Executable_NumPartitions', 'PJRT_Executable_NumOutputs',
  'PJRT_LoadedExecutable_Destroy', 'PJRT_LoadedExecutable_GetExecutable', 'PJRT_LoadedExecutable_AddressableDevices',
  'PJRT_LoadedExecutable_Delete', 'PJRT_LoadedExecutable_IsDeleted', 'PJRT_LoadedExecutable_Execute',
  'PJRT_Buffer_Destroy', 'PJRT_Buffer_ElementType', 'PJRT_Buffer_Dimensions', 'PJRT_Buffer_UnpaddedDimensions',
  'PJRT_Buffer_OnDeviceSizeInBytes', 'PJRT_Buffer_Device', 'PJRT_Buffer_Memory', 'PJRT_Buffer_Delete',
  'PJRT_Buffer_IsDeleted', 'PJRT_Buffer_ToHostBuffer', 'PJRT_Buffer_IsOnCpu', 'PJRT_Buffer_ReadyEvent',
];

/** Required slots that no framework calls (XLA's C-API client waits with PJRT_Event_OnReady/IsReady): their
 *  presence is a `quality` demand — simple C hosts without callback machinery need a blocking wait. */
export const QUALITY_SLOTS: readonly string[] = ['PJRT_Event_Await'];

// Every PJRT_Api function slot, in header order. Slot i sits at byte 40 + 8*i (see layout.ts).
// `since` is the minor that appended the slot; 0 = the original block (before the changelog began at 0.29).
// Source: upstream PJRT C API 0.114 (openxla/xla `xla/pjrt/c/pjrt_c_api.h` + CHANGELOG as mirrored in
// zml/xla@70fe66213b73); order and `since` checked against the header and the mirror's history. 0.113 and 0.114
// added no slot.

export interface SlotDef {
  readonly name: string;
  readonly since: number;
  /** the Args struct the function takes (every slot has one) */
  readonly args: string | null;
  /** Error_Destroy and Error_Message return void; every other slot returns PJRT_Error* */
  readonly returnsVoid: boolean;
}

type Row = readonly [name: string, since?: number];

const ROWS: readonly Row[] = [
  ['PJRT_Error_Destroy'], ['PJRT_Error_Message'], ['PJRT_Error_GetCode'],
  ['PJRT_Plugin_Initialize'], ['PJRT_Plugin_Attributes'],
  ['PJRT_Event_Destroy'], ['PJRT_Event_IsReady'], ['PJRT_Event_Error'], ['PJRT_Event_Await'], ['PJRT_Event_OnReady'],
  ['PJRT_Client_Create'], ['PJRT_Client_Destroy'], ['PJRT_Client_PlatformName'], ['PJRT_Client_ProcessIndex'],
  ['PJRT_Client_PlatformVersion'], ['PJRT_Client_Devices'], ['PJRT_Client_AddressableDevices'],
  ['PJRT_Client_LookupDevice'], ['PJRT_Client_LookupAddressableDevice'], ['PJRT_Client_AddressableMemories'],
  ['PJRT_Client_Compile'], ['PJRT_Client_DefaultDeviceAssignment'], ['PJRT_Client_BufferFromHostBuffer'],
  ['PJRT_DeviceDescription_Id'], ['PJRT_DeviceDescription_ProcessIndex'], ['PJRT_DeviceDescription_Attributes'],
  ['PJRT_DeviceDescription_Kind'], ['PJRT_DeviceDescription_DebugString'], ['PJRT_DeviceDescription_ToString'],
  ['PJRT_Device_GetDescription'], ['PJRT_Device_IsAddressable'], ['PJRT_Device_LocalHardwareId'],
  ['PJRT_Device_AddressableMemories'], ['PJRT_Device_DefaultMemory'], ['PJRT_Device_MemoryStats'],
  ['PJRT_Memory_Id'], ['PJRT_Memory_Kind'], ['PJRT_Memory_DebugString'], ['PJRT_Memory_ToString'],
  ['PJRT_Memory_AddressableByDevices'],
  ['PJRT_Executable_Destroy'], ['PJRT_Executable_Name'], ['PJRT_Executable_NumReplicas'],
  ['PJRT_Executable_NumPartitions'], ['PJRT_Executable_NumOutputs'], ['PJRT_Executable_SizeOfGeneratedCodeInBytes'],
  ['PJRT_Executable_GetCostAnalysis'], ['PJRT_Executable_OutputMemoryKinds'], ['PJRT_Executable_OptimizedProgram'],
  ['PJRT_Executable_Serialize'],
  ['PJRT_LoadedExecutable_Destroy'], ['PJRT_LoadedExecutable_GetExecutable'],
  ['PJRT_LoadedExecutable_AddressableDevices'], ['PJRT_LoadedExecutable_Delete'], ['PJRT_LoadedExecutable_IsDeleted'],
  ['PJRT_LoadedExecutable_Execute'], ['PJRT_Executable_DeserializeAndLoad'], ['PJRT_LoadedExecutable_Fingerprint'],
  ['PJRT_Buffer_Destroy'], ['PJRT_Buffer_ElementType'], ['PJRT_Buffer_Dimensions'], ['PJRT_Buffer_UnpaddedDimensions'],
  ['PJRT_Buffer_DynamicDimensionIndices'], ['PJRT_Buffer_GetMemoryLayout'], ['PJRT_Buffer_OnDeviceSizeInBytes'],
  ['PJRT_Buffer_Device'], ['PJRT_Buffer_Memory'], ['PJRT_Buffer_Delete'], ['PJRT_Buffer_IsDeleted'],
  ['PJRT_Buffer_CopyToDevice'], ['PJRT_Buffer_ToHostBuffer'], ['PJRT_Buffer_IsOnCpu'], ['PJRT_Buffer_ReadyEvent'],
  ['PJRT_Buffer_UnsafePointer'], ['PJRT_Buffer_IncreaseExternalReferenceCount'],
  ['PJRT_Buffer_DecreaseExternalReferenceCount'], ['PJRT_Buffer_OpaqueDeviceMemoryDataPointer'],
  ['PJRT_CopyToDeviceStream_Destroy'], ['PJRT_CopyToDeviceStream_AddChunk'], ['PJRT_CopyToDeviceStream_TotalBytes'],
  ['PJRT_CopyToDeviceStream_GranuleSize'], ['PJRT_CopyToDeviceStream_CurrentBytes'],
  ['PJRT_TopologyDescription_Create'], ['PJRT_TopologyDescription_Destroy'], ['PJRT_TopologyDescription_PlatformName'],
  ['PJRT_TopologyDescription_PlatformVersion'], ['PJRT_TopologyDescription_GetDeviceDescriptions'],
  ['PJRT_TopologyDescription_Serialize'], ['PJRT_TopologyDescription_Attributes'],
  ['PJRT_Compile'],
  // Append-only area.
  ['PJRT_Executable_OutputElementTypes', 29], ['PJRT_Executable_OutputDimensions', 29],
  ['PJRT_Buffer_CopyToMemory', 32],
  ['PJRT_Client_CreateViewOfDeviceBuffer', 33],
  ['PJRT_Executable_Fingerprint', 35],
  ['PJRT_Client_TopologyDescription', 36],
  ['PJRT_Executable_GetCompiledMemoryStats', 40],
  ['PJRT_Memory_Kind_Id', 48],
  ['PJRT_ExecuteContext_Create', 52], ['PJRT_ExecuteContext_Destroy', 52],
  // Added at 0.56, which is ABI-unstable; its place was fixed at 0.57.
  ['PJRT_Buffer_CopyRawToHost', 57],
  ['PJRT_AsyncHostToDeviceTransferManager_Destroy', 60], ['PJRT_AsyncHostToDeviceTransferManager_TransferData', 60],
  ['PJRT_Client_CreateBuffersForAsyncHostToDevice', 60],
  ['PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer', 62], ['PJRT_AsyncHostToDeviceTransferManager_Device', 62],
  ['PJRT_AsyncHostToDeviceTransferManager_BufferCount', 62], ['PJRT_AsyncHostToDeviceTransferManager_BufferSize', 62],
  ['PJRT_AsyncHostToDeviceTransferManager_SetBufferError', 62],
  ['PJRT_AsyncHostToDeviceTransferManager_AddMetadata', 62],
  ['PJRT_Client_DmaMap', 67], ['PJRT_Client_DmaUnmap', 67],
  // Changelog says 0.69; the official ABI test gates it at 0.68, which is what plugins are checked against.
  ['PJRT_Client_CreateUninitializedBuffer', 68],
  ['PJRT_Client_UpdateGlobalProcessInfo', 73],
  ['PJRT_TopologyDescription_Deserialize', 75],
  ['PJRT_Client_CreateAliasBuffer', 77], ['PJRT_Client_FulfillAliasBuffer', 77],
  ['PJRT_LoadedExecutable_GetDeviceAssignment', 79],
  ['PJRT_Client_CreateErrorBuffer', 82],
  ['PJRT_AsyncHostToDeviceTransferManager_TransferLiteral', 83],
  ['PJRT_Buffer_CopyRawToHostFuture', 84],
  ['PJRT_Device_PoisonExecution', 85],
  ['PJRT_Device_CreateAsyncTrackingEvent', 86], ['PJRT_AsyncTrackingEvent_Destroy', 86],
  ['PJRT_Executable_GetCompileOptions', 87],
  ['PJRT_Buffer_DonateWithControlDependency', 88],
  ['PJRT_Event_Create', 89], ['PJRT_Event_Set', 89],
  ['PJRT_Device_GetAttributes', 92],
  ['PJRT_Client_Load', 95],
  ['PJRT_LoadedExecutable_AddressableDeviceLogicalIds', 96],
  ['PJRT_Buffer_Bitcast', 98],
  ['PJRT_Error_ForEachPayload', 99],
  ['PJRT_TopologyDescription_Fingerprint', 101],
  ['PJRT_Executable_ParameterMemoryKinds', 102],
  ['PJRT_Device_ClearMemoryStats', 106],
  ['PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace', 109],
  ['PJRT_TopologyDescription_GetMemorySpaceKindIds', 110],
];

const VOID_SLOTS = new Set(['PJRT_Error_Destroy', 'PJRT_Error_Message']);

export const API_SLOTS: readonly SlotDef[] = ROWS.map(([name, since]) => ({
  name,
  since: since ?? 0,
  args: `${name}_Args`,
  returnsVoid: VOID_SLOTS.has(name),
}));

const indexByName = new Map(API_SLOTS.map((s, i) => [s.name, i]));

/** Position of a slot in PJRT_Api (0-based), or throws for an unknown name. */
export function slotIndex(slot: string): number {
  const i = indexByName.get(slot);
  if (i === undefined) throw new Error(`unknown PJRT_Api slot '${slot}'`);
  return i;
}

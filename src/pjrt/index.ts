// The typed object model a test author uses.
export { Plugin } from './plugin.js';
export { Client, type BufferSpec, type ClientCreateOptions, type HostBufferSemantics } from './client.js';
export type { CodePlacement, Program } from './program-args.js';
export { Device, DeviceDescription, type MemoryStats } from './device.js';
export { Memory, MEMORY_TABLE_SINCE } from './memory.js';
export { Buffer } from './buffer.js';
export { DeviceBufferView, type ViewSpec } from './view.js';
export { NativeMemory, allocateHostMemory, readNative } from './native-memory.js';
export { spokenMinor, needsMinor, slotSince, callStacks, viewDeleteTracker } from '../ffi/index.js';
export { strayOnReadyCalls, strayViewDeleteCalls, drainRelayedCallbacks, waitForRelayedCallbacks, callStats, beginCaseCalls, caseCalls, takeAsyncOverlap, takeChangedStats, type AsyncOverlap } from '../ffi/index.js';
export { Event } from './event.js';
export { Executable, LoadedExecutable, type ExecuteOptions, type ExecuteResult } from './executable.js';
export { TopologyDescription } from './topology.js';
export { ErrorHandle, ERROR_TABLE_SINCE, type ErrorFunctionTable, type ErrorPayload } from './error-handle.js';
export { ExecuteContext } from './execute-context.js';
export { CopyToDeviceStream, HostCallbackSet, type RecvCallback, type RecvHandler, type SendCallback, type SendHandler } from './host-callbacks.js';
export {
  AsyncTrackingEvent, clearMemoryStats, createAsyncTrackingEvent, deviceAttributeList, poisonExecution, queryDescription,
  updateGlobalProcessInfo, type ProcessInfo, type ProcessState,
} from './device-control.js';
export { Scope, type Destroyable } from './scope.js';
export { PjrtError, UnsupportedError, PluginLoadError, type PluginLoadErrorKind } from './errors.js';
export { bufferTypeOf, dtypeNameOf } from './dtype.js';
export type { NamedValue, NamedValues, NamedValueEntry, KeyValueStore, RawApi, Args, SlotState, SlotStat } from '../ffi/index.js';
export type { CompileOptions } from '../proto/index.js';
export { Layouts, MemoryDescriptions, Stream, Ffi, ProfilerApi, argsExtension, parseLayoutText, type MemoryDescriptionInfo } from './extensions.js';
export { TransferManager, type ShapeSpec } from './transfer-manager.js';
export {
  copyRawToHost,
  copyRawToHostFuture,
  bitcast,
  donateWithControlDependency,
  memoryLayout,
  createAliasBuffer,
  dmaMap,
  dmaUnmap,
  type RawCopyFuture,
  type ControlledDonation,
  type MemoryLayout,
  type AliasBuffer,
  type ErrorStatus,
} from './buffer-ops.js';
export { denseLayout, memoryLayoutArgs, toHostWithLayout, type LayoutSpec } from './layout.js';

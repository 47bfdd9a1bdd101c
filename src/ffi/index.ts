// The koffi binding of the PJRT C API. Import this (not koffi) from src/pjrt.
import './env.js';
export { callStacks, NATIVE_CALL_STACK_BYTES, FRAMEWORK_THREAD_STACK_BYTES, type CallStacks } from './koffi.js';
export { loadApi, apiHeaderSize, MAX_API_STRUCT_SIZE, type LoadedApi } from './loader.js';
export { beginCaseCalls, callStats, caseCalls, takeAsyncOverlap, takeChangedStats, type AsyncOverlap, type SlotStat } from './call-stats.js';
export { findExtension, requireExtension, extensionFn, memberPointer, decodeFn, describeExtensions, callTraced, callTracedAsync, extensionFnName, type ExtensionDescription, type MemberState } from './extension-fns.js';
export { RawApi, errorCodeName, callDeleter, type PjrtFn, type SlotState, type ExtensionEntry } from './api.js';
export { Args, ArgsLayout, argsLayout, makeArgs, type FieldInfo } from './args.js';
export { PjrtError, UnsupportedError, PluginLoadError, type PluginLoadErrorKind } from './errors.js';
export { onReady, pendingOnReady, strayOnReadyCalls } from './events.js';
export { viewDeleteTracker, strayViewDeleteCalls, type ViewDeleteTracker } from './view-deleter.js';
export { drainRelayedCallbacks, waitForRelayedCallbacks } from './relay.js';
export { alignedAlloc, free as freeNative, guardedBytes, isGuardPage, type GuardedBytes } from './libc.js';
export { memoryFunctionTable, type MemoryFunctionTable } from './memory-table.js';
export { functionTableOf, type FunctionTableView, type TableFunction } from './function-table.js';
export { hold, release, pendingHolds } from './keepalive.js';
export {
  encodeNamedValues,
  encodeNamedValueList,
  decodeNamedValues,
  decodeNamedValueList,
  type NamedValue,
  type NamedValues,
  type NamedValueEntry,
  type NamedValueKind,
  type EncodedNamedValues,
} from './named-values.js';
export { API_MINOR_ENV, OLDEST_API_MINOR, apiMinorProblem, spokenMinor, setSpokenMinor, slotSince, fieldSince, needsMinor } from './minor.js';
export { kvCallbacks, type KeyValueStore, type KvCallbacks } from './kv.js';
export * as mem from './mem.js';
export type { Ptr } from './mem.js';

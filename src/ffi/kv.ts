// Key-value store callbacks for PJRT_Client_Create (multi-process clients). Registered once per process;
// user_arg selects the store. Only safe with PJRT_Client_Create called through `.async`: the plugin thread
// that calls them blocks until the main thread has run the JS function.
import koffi, { decodeFunction } from './koffi.js';
import { enumValue } from '../abi/index.js';
import { argsLayout } from './args.js';
import { FREE_PTR } from './libc.js';
import { readPtr, readString, readU64, readI32, readBytes, writePtr, writeU64, type Ptr } from './mem.js';

export interface KeyValueStore {
  /** Must answer synchronously to be usable (a Promise cannot be waited for inside a native callback). */
  get(key: string, timeoutMs: number): Promise<Uint8Array> | Uint8Array;
  tryGet(key: string): Uint8Array | undefined;
  put(key: string, value: Uint8Array): void;
}

export interface KvCallbacks {
  readonly get: Ptr;
  readonly tryGet: Ptr;
  readonly put: Ptr;
  readonly userArg: bigint;
  /** Forget the store (the callbacks stay registered for the life of the process). */
  release(): void;
}

const CallbackErrorProto = koffi.proto('void *PjrtCtsCallbackError(int code, const char *msg, size_t msg_size)');
const KvProto = koffi.proto('void *PjrtCtsKvCallback(void *args)');

const stores = new Map<bigint, KeyValueStore>();
let nextId = 1n;
let registered: { get: Ptr; tryGet: Ptr; put: Ptr } | null = null;

class KvFailure extends Error {
  constructor(readonly codeName: string, message: string) {
    super(message);
  }
}

/** Builds a PJRT_Error through the plugin-provided function: the args field is a `PJRT_CallbackError*`,
 *  a pointer to the function pointer. */
function callbackError(slot: Ptr | null, codeName: string, message: string): Ptr | null {
  const fnPtr = slot === null ? null : readPtr(slot, 0);
  if (fnPtr === null) return null;
  const f = decodeFunction<(c: number, m: Buffer, n: number) => Ptr | null>(fnPtr, CallbackErrorProto);
  const msg = Buffer.from(message, 'utf8');
  return f(enumValue('PJRT_Error_Code', codeName), msg, msg.byteLength);
}

function writeValue(p: Ptr, struct: string, v: Uint8Array): void {
  const l = argsLayout(struct);
  const mem = koffi.alloc('uint8_t', Math.max(1, v.byteLength)) as Ptr;
  if (v.byteLength > 0) new Uint8Array(koffi.view(mem, v.byteLength)).set(v);
  writePtr(p, l.offset('value'), mem);
  writeU64(p, l.offset('value_size'), v.byteLength);
  writePtr(p, l.offset('value_deleter_callback'), FREE_PTR);
}

function handler(struct: string, body: (p: Ptr, store: KeyValueStore, key: string) => void): (p: Ptr) => Ptr | null {
  return (p: Ptr) => {
    const l = argsLayout(struct);
    const errFn = readPtr(p, l.offset('callback_error'));
    try {
      const store = stores.get(readU64(p, l.offset('user_arg')));
      if (store === undefined) throw new KvFailure('INTERNAL', 'pjrt-cts: key-value store was released');
      const key = readString(readPtr(p, l.offset('key')), readU64(p, l.offset('key_size')));
      body(p, store, key);
      return null;
    } catch (e) {
      if (e instanceof KvFailure) return callbackError(errFn, e.codeName, e.message);
      return callbackError(errFn, 'INTERNAL', `pjrt-cts key-value store: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

function register(): { get: Ptr; tryGet: Ptr; put: Ptr } {
  if (registered !== null) return registered;
  const G = 'PJRT_KeyValueGetCallback_Args';
  const T = 'PJRT_KeyValueTryGetCallback_Args';
  const P = 'PJRT_KeyValuePutCallback_Args';
  const get = handler(G, (p, store, key) => {
    const v = store.get(key, readI32(p, argsLayout(G).offset('timeout_in_ms')));
    if (!(v instanceof Uint8Array)) {
      throw new KvFailure('INTERNAL', `KeyValueStore.get('${key}') returned a Promise; it must answer synchronously`);
    }
    writeValue(p, G, v);
  });
  const tryGet = handler(T, (p, store, key) => {
    const v = store.tryGet(key);
    if (v === undefined) throw new KvFailure('NOT_FOUND', `key '${key}' not found`);
    writeValue(p, T, v);
  });
  const put = handler(P, (p, store, key) => {
    const l = argsLayout(P);
    store.put(key, readBytes(readPtr(p, l.offset('value')), Number(readU64(p, l.offset('value_size')))));
  });
  const type = koffi.pointer(KvProto);
  registered = { get: koffi.register(get, type), tryGet: koffi.register(tryGet, type), put: koffi.register(put, type) };
  return registered;
}

export function kvCallbacks(store: KeyValueStore): KvCallbacks {
  const r = register();
  const id = nextId++;
  stores.set(id, store);
  return { ...r, userArg: id, release: () => void stores.delete(id) };
}

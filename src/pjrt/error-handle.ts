// A PJRT_Error the caller holds on to (not turned into a PjrtError at once): its code, message and payloads can be
// read, and PJRT_Error_Destroy is called explicitly — or, for a plugin of 0.107 or later, all of that through the
// error's own function table.
import koffi, { decodeFunction } from '../ffi/koffi.js';
import { errorCodeName, functionTableOf, mem, type Args, type FunctionTableView, type Ptr, type RawApi } from '../ffi/index.js';

/** The API minor from which a PJRT_Error starts with its function table (pjrt_c_api.h CHANGELOG 0.107). */
export const ERROR_TABLE_SINCE = 107;
/** PJRT_Error stays opaque in src/abi (OPAQUE_TYPES); the header's has the table pointer as its only member. */
const ERROR_VTABLE_OFFSET = 0;

export interface ErrorPayload {
  /** null when the plugin passed a NULL key (or value) pointer. */
  key: string | null;
  keySize: number;
  value: string | null;
  valueSize: number;
}

const VisitorProto = koffi.proto('void PjrtCtsPayloadVisitor(void *key, size_t key_size, void *value, size_t value_size, void *user_arg)');
let visited: ErrorPayload[] | null = null;
let visitor: Ptr | null = null;

const text = (p: Ptr | null, n: number | bigint): string | null => (p === null || p === 0n ? null : mem.readString(p, n));

// Registered once, never unregistered: the plugin calls it inline during PJRT_Error_ForEachPayload.
function payloadVisitor(): Ptr {
  visitor ??= koffi.register((k: Ptr | null, ks: number | bigint, v: Ptr | null, vs: number | bigint) => {
    visited?.push({ key: text(k, ks), keySize: Number(ks), value: text(v, vs), valueSize: Number(vs) });
  }, koffi.pointer(VisitorProto)) as Ptr;
  return visitor;
}

const MessageProto = koffi.proto('void PjrtCtsErrorTableMessage(void *error, void *message_out, void *message_size_out)');
const GetCodeProto = koffi.proto('int PjrtCtsErrorTableGetCode(void *error)');
const ForEachProto = koffi.proto('void PjrtCtsErrorTableForEachPayload(void *error, void *visitor, void *user_arg)');
const DestroyProto = koffi.proto('void PjrtCtsErrorTableDestroy(void *error)');

/**
 * The error's PJRT_Error_FunctionTable, called as code without the PJRT_Api calls it (XLA's
 * PjrtErrorToStatus(PJRT_Error*)); each function undefined where its entry is NULL or no code (`view` says which).
 */
/** The payloads `visit` makes the plugin visit (through payloadVisitor), in order. */
function collectPayloads(visit: () => void): ErrorPayload[] {
  const out: ErrorPayload[] = [];
  visited = out;
  try {
    visit();
  } finally {
    visited = null;
  }
  return out;
}

export interface ErrorFunctionTable {
  readonly view: FunctionTableView;
  readonly message: (() => string) | undefined;
  readonly code: (() => string) | undefined;
  readonly payloads: (() => ErrorPayload[]) | undefined;
  /** frees the error: the handle is destroyed */
  readonly destroy: (() => void) | undefined;
}

export class ErrorHandle {
  private destroyed = false;
  constructor(
    readonly api: RawApi,
    readonly ptr: Ptr,
    /** The slot that returned it. */
    readonly slot: string,
  ) {}

  /** Calls `slot`; its PJRT_Error (null on success) is handed back undestroyed. */
  static fromCall(api: RawApi, slot: string, args: Args): ErrorHandle | null {
    const e = api.callRaw(slot, args);
    return e === null ? null : new ErrorHandle(api, e, slot);
  }

  private alive(): Ptr {
    if (this.destroyed) throw new Error('ErrorHandle used after destroy()');
    return this.ptr;
  }
  code(): string {
    const a = this.api.args('PJRT_Error_GetCode').ptr('error', this.alive());
    this.api.call('PJRT_Error_GetCode', a);
    return errorCodeName(a.getI32('code'));
  }
  message(): string {
    const a = this.api.args('PJRT_Error_Message').ptr('error', this.alive());
    this.api.call('PJRT_Error_Message', a);
    return a.str('message');
  }
  /** PJRT_Error_ForEachPayload: every (key, value) the plugin visits, in order. */
  payloads(): ErrorPayload[] {
    const a = this.api.args('PJRT_Error_ForEachPayload').ptr('error', this.alive()).ptr('visitor', payloadVisitor());
    return collectPayloads(() => this.api.call('PJRT_Error_ForEachPayload', a));
  }
  /** The table this error starts with (null: NULL there); undefined for a plugin older than 0.107, which has none. */
  functionTable(): ErrorFunctionTable | null | undefined {
    if (this.api.minor < ERROR_TABLE_SINCE) return undefined;
    const view = functionTableOf(this.alive(), ERROR_VTABLE_OFFSET, 'PJRT_Error_FunctionTable');
    if (view === null) return null;
    const fn = <F>(name: string, proto: ReturnType<typeof koffi.proto>): F | undefined => {
      const f = view.functions[name];
      return f?.isCode ? decodeFunction<F>(f.address, proto) : undefined;
    };
    const message = fn<(e: Ptr, m: BigUint64Array, n: BigUint64Array) => void>('message', MessageProto);
    const getCode = fn<(e: Ptr) => number>('get_code', GetCodeProto);
    const forEach = fn<(e: Ptr, v: Ptr, u: null) => void>('for_each_payload', ForEachProto);
    const destroy = fn<(e: Ptr) => void>('destroy', DestroyProto);
    return {
      view,
      message: message && (() => {
        const [m, n] = [new BigUint64Array(1), new BigUint64Array(1)];
        message(this.alive(), m, n);
        return mem.readString(m[0] === 0n ? null : m[0]!, n[0]!);
      }),
      code: getCode && (() => errorCodeName(getCode(this.alive()))),
      payloads: forEach && (() => collectPayloads(() => forEach(this.alive(), payloadVisitor(), null))),
      destroy: destroy && (() => {
        destroy(this.alive());
        this.destroyed = true;
      }),
    };
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.api.callRaw('PJRT_Error_Destroy', this.api.args('PJRT_Error_Destroy').ptr('error', this.ptr));
  }
}

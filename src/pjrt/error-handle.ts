// A PJRT_Error the caller holds on to (not turned into a PjrtError at once): its code, message and payloads can be
// read, and PJRT_Error_Destroy is called explicitly.
import koffi from '../ffi/koffi.js';
import { errorCodeName, mem, type Args, type Ptr, type RawApi } from '../ffi/index.js';

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
    const out: ErrorPayload[] = [];
    visited = out;
    try {
      this.api.call('PJRT_Error_ForEachPayload', a);
    } finally {
      visited = null;
    }
    return out;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.api.callRaw('PJRT_Error_Destroy', this.api.args('PJRT_Error_Destroy').ptr('error', this.ptr));
  }
}

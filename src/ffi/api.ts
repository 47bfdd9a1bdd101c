// RawApi: the plugin's function table, guarded by struct_size and null checks, with PJRT_Error → PjrtError.
import koffi, { decodeFunction } from './koffi.js';
import { API_SLOTS, enumMember, errorCodeName, layoutOf, slotOffset } from '../abi/index.js';
import { Args, makeArgs } from './args.js';
import { asyncCallBegins, asyncCallEnds, callEnds, callStarts, now, recordCall } from './call-stats.js';
import { callLog } from './call-log.js';
import { PjrtError, UnsupportedError } from './errors.js';
import type { LoadedApi } from './loader.js';
import { readPtr, readU64, readI32, type Ptr } from './mem.js';
import { needsMinor, slotSince, spokenMinor } from './minor.js';

export type SlotState = 'present' | 'null' | 'beyond';

/** A decoded `PJRT_Error* fn(Args*)`. */
export interface PjrtFn {
  (args: Uint8Array | Ptr): Ptr | null;
  async: (args: Uint8Array | Ptr, cb: (err: unknown, res: Ptr | null) => void) => void;
}

const ArgsFnProto = koffi.proto('void *PjrtCtsArgsFn(void *args)');
const VoidArgsFnProto = koffi.proto('void PjrtCtsVoidArgsFn(void *args)');
const VOID_SLOTS = new Set(API_SLOTS.filter((s) => s.returnsVoid).map((s) => s.name));

const slotArgs = new Map(API_SLOTS.map((s) => [s.name, s.args]));

export interface ExtensionEntry {
  readonly address: Ptr;
  readonly type: number;
  readonly typeName: string;
  readonly structSize: number;
}

export { errorCodeName };

export class RawApi {
  readonly path: string;
  readonly apiPtr: Ptr;
  readonly structSize: number;
  readonly major: number;
  readonly minor: number;
  private readonly fns = new Map<string, PjrtFn>();

  constructor(loaded: LoadedApi) {
    this.path = loaded.path;
    this.apiPtr = loaded.apiPtr;
    this.structSize = loaded.structSize;
    this.major = loaded.major;
    this.minor = loaded.minor;
  }

  /**
   * Whether a slot is callable, null, or lies beyond the plugin's struct_size or beyond the PJRT_Api of the minor the
   * CTS speaks (never read then).
   */
  slotState(slot: string): SlotState {
    const off = slotOffset(slot);
    if (off + 8 > this.structSize || slotSince(slot) > spokenMinor()) return 'beyond';
    return readPtr(this.apiPtr, off) === null ? 'null' : 'present';
  }
  has(slot: string): boolean {
    return this.slotState(slot) === 'present';
  }
  /** Raw function pointer of a slot (null when absent or beyond). */
  slotPointer(slot: string): Ptr | null {
    const off = slotOffset(slot);
    if (off + 8 > this.structSize || slotSince(slot) > spokenMinor()) return null;
    return readPtr(this.apiPtr, off);
  }

  /** The decoded function of a slot; throws UnsupportedError when the slot is null or beyond struct_size. */
  fn(slot: string): PjrtFn {
    let f = this.fns.get(slot);
    if (f !== undefined) return f;
    const state = this.slotState(slot);
    if (state === 'beyond') {
      if (slotSince(slot) > spokenMinor()) throw new UnsupportedError(slot, needsMinor(slotSince(slot)));
      throw new UnsupportedError(slot, `slot lies beyond PJRT_Api.struct_size ${this.structSize} (plugin API 0.${this.minor})`);
    }
    if (state === 'null') throw new UnsupportedError(slot, 'slot is null in the plugin\'s PJRT_Api');
    f = koffi.decode(readPtr(this.apiPtr, slotOffset(slot)), VOID_SLOTS.has(slot) ? VoidArgsFnProto : ArgsFnProto) as PjrtFn;
    this.fns.set(slot, f);
    return f;
  }

  /** A zeroed Args for a slot name (`PJRT_Client_Create`) or a struct name (`PJRT_Program`). */
  args(slotOrStruct: string, structSize?: number): Args {
    const s = slotArgs.get(slotOrStruct);
    return makeArgs(s ?? slotOrStruct, structSize);
  }

  /** Calls a slot; returns the PJRT_Error* untouched (null on success). For ABI tests that inspect errors. */
  callRaw(slot: string, a: Args | Uint8Array): Ptr | null {
    const f = this.fn(slot);
    const seq = callLog?.before(slot, a instanceof Args ? a.address : koffi.address(a));
    const t0 = now();
    callStarts(slot);
    const r = f(a instanceof Args ? a.address : a);
    callEnds(slot);
    recordCall(slot, t0);
    if (seq !== undefined) callLog!.after(seq, slot);
    return r === 0n ? null : (r ?? null);
  }

  /** Calls a slot synchronously; a returned PJRT_Error becomes a thrown PjrtError (the error is destroyed). */
  call(slot: string, a: Args | Uint8Array): void {
    const err = this.callRaw(slot, a);
    if (err !== null) throw this.logged(this.takeError(err, slot));
  }

  private logged(e: PjrtError): PjrtError {
    callLog?.error(0, e.slot, e.codeName, e.message);
    return e;
  }

  /** Calls a slot on a libuv worker (anything that may block on a plugin thread). */
  callAsync(slot: string, a: Args | Uint8Array): Promise<void> {
    const f = this.fn(slot);
    const buf = a instanceof Args ? a.address : a;
    const seq = callLog?.before(slot, a instanceof Args ? a.address : koffi.address(a));
    const t0 = now();
    callStarts(slot, true);
    asyncCallBegins();
    return new Promise((resolve, reject) => {
      f.async(buf, (e, r) => {
        asyncCallEnds();
        callEnds(slot, true);
        recordCall(slot, t0);
        if (seq !== undefined) callLog!.after(seq, slot);
        void a; // keeps Args (and what it points at) alive until the call returns
        if (e) reject(e instanceof Error ? e : new Error(String(e)));
        else if (r !== null && r !== 0n) reject(this.logged(this.takeError(r, slot)));
        else resolve();
      });
    });
  }

  /** Reads code and message of a PJRT_Error, destroys it, and returns the PjrtError. */
  takeError(err: Ptr, slot: string): PjrtError {
    let message = '';
    let code = -1;
    try {
      if (this.has('PJRT_Error_Message')) {
        const m = this.args('PJRT_Error_Message').ptr('error', err);
        this.fn('PJRT_Error_Message')(m.address);
        message = m.str('message');
      } else message = '(plugin has no PJRT_Error_Message)';
      if (this.has('PJRT_Error_GetCode')) {
        const c = this.args('PJRT_Error_GetCode').ptr('error', err);
        const e2 = this.fn('PJRT_Error_GetCode')(c.address);
        if (e2 !== null && e2 !== 0n) this.destroyError(e2);
        else code = c.getI32('code');
      }
    } finally {
      this.destroyError(err);
    }
    return new PjrtError(code, code < 0 ? 'UNKNOWN_CODE' : errorCodeName(code), message, slot);
  }

  destroyError(err: Ptr): void {
    if (!this.has('PJRT_Error_Destroy')) return;
    this.fn('PJRT_Error_Destroy')(this.args('PJRT_Error_Destroy').ptr('error', err).address);
  }

  /** The extension chain, head first; stops at a repeated element (`loop`) or after 256 entries. */
  extensionChain(): { entries: ExtensionEntry[]; loop: boolean } {
    const base = layoutOf('PJRT_Extension_Base');
    const typeOff = base.field('type').offset;
    const nextOff = base.field('next').offset;
    const entries: ExtensionEntry[] = [];
    const seen = new Set<Ptr>();
    let p = readPtr(this.apiPtr, layoutOf('PJRT_Api').field('extension_start').offset);
    while (p !== null) {
      if (seen.has(p) || entries.length >= 256) return { entries, loop: true };
      seen.add(p);
      const type = readI32(p, typeOff);
      entries.push({
        address: p,
        type,
        typeName: enumMember('PJRT_Extension_Type', type) ?? `Unknown_${type}`,
        structSize: Number(readU64(p, 0)),
      });
      p = readPtr(p, nextOff);
    }
    return { entries, loop: false };
  }
}

const DeleterProto = koffi.proto('void PjrtCtsDeleter(void *p)');
/** Calls a plugin-provided `void deleter(T*)` on `obj` (nothing when either is null). */
export function callDeleter(fn: Ptr | null, obj: Ptr | null): void {
  if (fn === null || obj === null) return;
  decodeFunction<(p: Ptr) => void>(fn, DeleterProto)(obj);
}

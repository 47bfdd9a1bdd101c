// Host send/recv callbacks of PJRT_ExecuteOptions (a program's stablehlo.send / stablehlo.recv to the host), and
// the PJRT_CopyToDeviceStream a recv callback receives. One process-wide trampoline per callback kind, registered
// once and never unregistered (a plugin thread calls it, relayed to the JS thread); user_arg is an id into `handlers`.
import koffi, { decodeFunction } from '../ffi/koffi.js';
import { layoutOf } from '../abi/index.js';
import { hold, mem, release, type Args, type Ptr, type RawApi } from '../ffi/index.js';
import { FREE_PTR } from '../ffi/libc.js';
import { Event } from './event.js';
import type { Scope } from './scope.js';

/** A send callback's view of one chunk; return an error to fail the send. */
export type SendHandler = (chunk: Uint8Array, totalSizeInBytes: number, done: boolean) => void | { code: number; message: string };
/** A recv callback: it owns `stream` and must destroy it when done (it may fill it later, asynchronously). */
export type RecvHandler = (stream: CopyToDeviceStream) => void;

export interface SendCallback { channelId: number; onChunk: SendHandler }
export interface RecvCallback { channelId: number; onStream: RecvHandler }

const SendProto = koffi.proto('void *PjrtCtsSendCallback(void *chunk, void *callback_error, size_t total, bool done, void *user_arg)');
const RecvProto = koffi.proto('void PjrtCtsRecvCallback(void *stream, void *user_arg)');
const ChunkDeleterProto = koffi.proto('void PjrtCtsChunkDeleter(void *data, void *deleter_arg)');
const CallbackErrorProto = koffi.proto('void *PjrtCtsSendCallbackError(int code, const char *message, size_t message_size)');

const sendHandlers = new Map<bigint, SendHandler>();
const recvHandlers = new Map<bigint, { api: RawApi; onStream: RecvHandler }>();
let nextId = 1n;
let sendTrampoline: Ptr | null = null;
let recvTrampoline: Ptr | null = null;

const chunkField = (f: string): number => layoutOf('PJRT_Chunk').field(f).offset;

function onSend(chunk: Ptr, callbackError: Ptr, total: number | bigint, done: boolean, user: Ptr | null): Ptr | null {
  const data = mem.readPtr(chunk, chunkField('data'));
  const size = Number(mem.readU64(chunk, chunkField('size')));
  const bytes = mem.readBytes(data, size);
  const deleter = mem.readPtr(chunk, chunkField('deleter'));
  // "The callback must call chunk->deleter(chunk->data, chunk->deleter_arg) when it's finished with chunk."
  if (deleter !== null) decodeFunction<(d: Ptr | null, a: Ptr | null) => void>(deleter, ChunkDeleterProto)(data, mem.readPtr(chunk, chunkField('deleter_arg')));
  const h = sendHandlers.get(user ?? 0n);
  const r = h === undefined ? { code: 13, message: `pjrt-cts: no send handler for user_arg ${user}` } : h(bytes, Number(total), done);
  if (!r) return null;
  const make = mem.readPtr(callbackError, 0);
  if (make === null) return null;
  const msg = Buffer.from(r.message, 'utf8');
  return decodeFunction<(c: number, m: Buffer, n: number) => Ptr | null>(make, CallbackErrorProto)(r.code, msg, msg.byteLength);
}

function onRecv(stream: Ptr, user: Ptr | null): void {
  const h = recvHandlers.get(user ?? 0n);
  if (h === undefined) return;
  h.onStream(new CopyToDeviceStream(h.api, stream));
}

/** The callbacks of one or more executions; destroy() (or its Scope) forgets them. */
export class HostCallbackSet {
  private ids: bigint[] = [];
  private _destroyed = false;
  constructor(
    readonly api: RawApi,
    readonly sends: readonly SendCallback[],
    readonly recvs: readonly RecvCallback[],
    scope?: Scope,
  ) {
    hold();
    scope?.track(this);
  }
  get destroyed(): boolean {
    return this._destroyed;
  }
  /** Points the options' send/recv callback lists at these callbacks, the same list for each of `numDevices`. */
  encode(options: Args, numDevices: number): void {
    sendTrampoline ??= koffi.register(onSend, koffi.pointer(SendProto)) as Ptr;
    recvTrampoline ??= koffi.register(onRecv, koffi.pointer(RecvProto)) as Ptr;
    const list = (struct: string, entries: { channelId: number; user: bigint; fn: Ptr }[], fnField: string): Uint8Array => {
      const l = layoutOf(struct);
      const out = new Uint8Array(Math.max(1, l.sizeof * entries.length));
      const dv = new DataView(out.buffer);
      entries.forEach((e, i) => {
        dv.setBigInt64(i * l.sizeof + l.field('channel_id').offset, BigInt(e.channelId), true);
        dv.setBigUint64(i * l.sizeof + l.field('user_arg').offset, e.user, true);
        dv.setBigUint64(i * l.sizeof + l.field(fnField).offset, e.fn, true);
      });
      return out;
    };
    const sends = this.sends.map((s) => {
      const user = nextId++;
      sendHandlers.set(user, s.onChunk);
      this.ids.push(user);
      return { channelId: s.channelId, user, fn: sendTrampoline! };
    });
    const recvs = this.recvs.map((r) => {
      const user = nextId++;
      recvHandlers.set(user, { api: this.api, onStream: r.onStream });
      this.ids.push(user);
      return { channelId: r.channelId, user, fn: recvTrampoline! };
    });
    const sendList = list('PJRT_SendCallbackInfo', sends, 'send_callback');
    const recvList = list('PJRT_RecvCallbackInfo', recvs, 'recv_callback');
    const perDevice = (l: Uint8Array) => Array.from({ length: numDevices }, () => mem.addressOf(l));
    options.keep(sendList).keep(recvList);
    if (sends.length > 0) options.ptrs('send_callbacks', null, perDevice(sendList)).size('num_send_ops', sends.length);
    if (recvs.length > 0) options.ptrs('recv_callbacks', null, perDevice(recvList)).size('num_recv_ops', recvs.length);
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    for (const id of this.ids) {
      sendHandlers.delete(id);
      recvHandlers.delete(id);
    }
    release();
  }
}

/** A PJRT_CopyToDeviceStream handed to a recv callback (owned by it: destroy() when done). */
export class CopyToDeviceStream {
  private _destroyed = false;
  constructor(
    readonly api: RawApi,
    readonly ptr: Ptr,
  ) {}
  private q(slot: string): Args {
    if (this._destroyed) throw new Error('CopyToDeviceStream used after destroy()');
    const a = this.api.args(slot).ptr('stream', this.ptr);
    this.api.call(slot, a);
    return a;
  }
  totalBytes(): number {
    return Number(this.q('PJRT_CopyToDeviceStream_TotalBytes').getI64('total_bytes'));
  }
  granuleSize(): number {
    return Number(this.q('PJRT_CopyToDeviceStream_GranuleSize').getI64('granule_size_in_bytes'));
  }
  currentBytes(): number {
    return Number(this.q('PJRT_CopyToDeviceStream_CurrentBytes').getI64('current_bytes'));
  }
  /** PJRT_CopyToDeviceStream_AddChunk with a copy of `bytes` (freed by the plugin through the chunk's deleter, free()). */
  addChunk(bytes: Uint8Array, scope?: Scope): Event {
    if (this._destroyed) throw new Error('CopyToDeviceStream used after destroy()');
    // koffi.alloc is calloc (the allocator FREE_PTR pairs with, also under a preloaded sanitizer runtime).
    const block = koffi.alloc('uint8_t', Math.max(1, bytes.byteLength));
    if (bytes.byteLength > 0) new Uint8Array(koffi.view(block, bytes.byteLength)).set(bytes);
    const data = koffi.address(block) as Ptr;
    const chunk = this.api.args('PJRT_Chunk').ptr('data', data).size('size', bytes.byteLength).ptr('deleter', FREE_PTR).ptr('deleter_arg', null);
    const a = this.api.args('PJRT_CopyToDeviceStream_AddChunk').ptr('stream', this.ptr).struct('chunk', chunk);
    this.api.call('PJRT_CopyToDeviceStream_AddChunk', a);
    const ev = a.getPtr('transfer_complete');
    if (ev === null) throw new Error('PJRT_CopyToDeviceStream_AddChunk returned no transfer_complete event');
    return new Event(this.api, ev, scope);
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.api.call('PJRT_CopyToDeviceStream_Destroy', this.api.args('PJRT_CopyToDeviceStream_Destroy').ptr('stream', this.ptr));
  }
}

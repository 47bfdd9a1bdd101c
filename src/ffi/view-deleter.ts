// One process-wide on_delete_callback for PJRT_Client_CreateViewOfDeviceBuffer: registered once, never
// unregistered (a plugin may call it from any thread, at any time after the view's creation). user_arg is an id
// into `trackers`, which count the calls; records stay (they are tiny) so a late second call is still counted.
import koffi from './koffi.js';
import type { Ptr } from './mem.js';

export interface ViewDeleteTracker {
  /** The callback and user_arg to put into the Args. */
  readonly callback: Ptr;
  readonly userArg: bigint;
  /** Calls received so far. */
  count(): number;
  /** The device_buffer_ptr of each call, in order. */
  pointers(): Ptr[];
}

const calls = new Map<bigint, Ptr[]>();
let nextId = 1n;
let strays = 0;
let registered: Ptr | null = null;

const OnDeleteProto = koffi.proto('void PjrtCtsViewOnDelete(void *device_buffer_ptr, void *user_arg)');

function callback(): Ptr {
  registered ??= koffi.register((p: Ptr | null, user: Ptr | null) => {
    const c = calls.get(user ?? 0n);
    if (c === undefined) strays++;
    else c.push(p ?? 0n);
  }, koffi.pointer(OnDeleteProto));
  return registered;
}

/** A fresh tracker (its own user_arg) sharing the process-wide callback. */
export function viewDeleteTracker(): ViewDeleteTracker {
  const cb = callback();
  const id = nextId++;
  const seen: Ptr[] = [];
  calls.set(id, seen);
  return { callback: cb, userArg: id, count: () => seen.length, pointers: () => [...seen] };
}

/** on_delete calls whose user_arg no tracker issued. */
export function strayViewDeleteCalls(): number {
  return strays;
}

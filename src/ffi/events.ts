// One process-wide PJRT_Event_OnReady trampoline: registered once, never unregistered (a plugin thread may call
// it at any time). user_arg is an id into `pending`; the callback owns the PJRT_Error it receives.
import './env.js';
import koffi from 'koffi';
import type { RawApi } from './api.js';
import type { PjrtError } from './errors.js';
import { hold, release } from './keepalive.js';
import type { Ptr } from './mem.js';

interface Waiter {
  api: RawApi;
  slot: string;
  resolve: (e: PjrtError | null) => void;
}

const pending = new Map<bigint, Waiter>();
let nextId = 1n;
let trampoline: Ptr | null = null;

const OnReadyProto = koffi.proto('void PjrtCtsOnReady(void *error, void *user_arg)');

function onReadyTrampoline(): Ptr {
  if (trampoline === null) {
    trampoline = koffi.register((err: Ptr | null, user: Ptr | null) => {
      const w = pending.get(user ?? 0n);
      if (w === undefined) return; // unknown id: nothing sane to do (the error, if any, is leaked)
      pending.delete(user ?? 0n);
      release();
      let e: PjrtError | null = null;
      if (err !== null && err !== 0n) e = w.api.takeError(err, w.slot);
      w.resolve(e);
    }, koffi.pointer(OnReadyProto));
  }
  return trampoline;
}

/** Resolves with the event's error (null on success) once the plugin calls the OnReady callback. */
export function onReady(api: RawApi, event: Ptr, slot = 'PJRT_Event_OnReady'): Promise<PjrtError | null> {
  const cb = onReadyTrampoline();
  const id = nextId++;
  return new Promise<PjrtError | null>((resolve, reject) => {
    pending.set(id, { api, slot, resolve });
    hold();
    const a = api.args('PJRT_Event_OnReady').ptr('event', event).ptr('callback', cb).ptr('user_arg', id);
    try {
      api.call('PJRT_Event_OnReady', a);
    } catch (e) {
      // the plugin refused to register: it will never call back
      if (pending.delete(id)) release();
      reject(e);
    }
  });
}

/** Number of OnReady callbacks still outstanding (tests and leak checks). */
export function pendingOnReady(): number {
  return pending.size;
}

// One process-wide PJRT_Event_OnReady trampoline: registered once, never unregistered (a plugin thread may call
// it at any time). user_arg is an id into `pending`; the callback owns the PJRT_Error it receives.
// A call whose id is unknown or was already answered is a stray: it is counted (a plugin must call each
// registered callback exactly once) and its error destroyed through the API that issued the id, when known.
import koffi from './koffi.js';
import type { RawApi } from './api.js';
import { waitEnds, waitStarts } from './call-stats.js';
import type { PjrtError } from './errors.js';
import { hold, release } from './keepalive.js';
import type { Ptr } from './mem.js';

interface Waiter {
  api: RawApi;
  slot: string;
  resolve: (e: PjrtError | null) => void;
}

const pending = new Map<bigint, Waiter>();
// Ids already answered, with their API, so a repeated call can destroy its error. Bounded: oldest forgotten first.
const answered = new Map<bigint, RawApi>();
const ANSWERED_CAP = 4096;
let strays = 0;
let nextId = 1n;
let trampoline: Ptr | null = null;

function stray(id: bigint, err: Ptr | null): void {
  strays++;
  const api = answered.get(id);
  if (api !== undefined && err !== null && err !== 0n) api.destroyError(err);
}

const OnReadyProto = koffi.proto('void PjrtCtsOnReady(void *error, void *user_arg)');

function onReadyTrampoline(): Ptr {
  if (trampoline === null) {
    trampoline = koffi.register((err: Ptr | null, user: Ptr | null) => {
      const id = user ?? 0n;
      const w = pending.get(id);
      if (w === undefined) return stray(id, err);
      pending.delete(id);
      waitEnds(w.slot);
      answered.set(id, w.api);
      if (answered.size > ANSWERED_CAP) answered.delete(answered.keys().next().value!);
      release();
      let e: PjrtError | null = null;
      if (err !== null && err !== 0n) e = w.api.takeError(err, w.slot);
      w.resolve(e);
    }, koffi.pointer(OnReadyProto));
  }
  return trampoline;
}

/**
 * Resolves with the event's error (null on success) once the plugin calls the OnReady callback. `registeredOn`: the
 * thread that calls PJRT_Event_OnReady, the JavaScript thread or a libuv worker (registrations from many OS threads).
 */
export function onReady(api: RawApi, event: Ptr, slot = 'PJRT_Event_OnReady', registeredOn: 'caller' | 'worker' = 'caller'): Promise<PjrtError | null> {
  const cb = onReadyTrampoline();
  const id = nextId++;
  return new Promise<PjrtError | null>((resolve, reject) => {
    pending.set(id, { api, slot, resolve });
    hold();
    // Waiting from before the call: a plugin may call back inline, before PJRT_Event_OnReady returns.
    waitStarts(slot);
    const a = api.args('PJRT_Event_OnReady').ptr('event', event).ptr('callback', cb).ptr('user_arg', id);
    const refused = (e: unknown): void => {
      // the plugin refused to register: it will never call back
      if (pending.delete(id)) {
        release();
        waitEnds(slot);
      }
      reject(e);
    };
    if (registeredOn === 'worker') {
      api.callAsync('PJRT_Event_OnReady', a).catch(refused);
      return;
    }
    try {
      api.call('PJRT_Event_OnReady', a);
    } catch (e) {
      refused(e);
    }
  });
}

/** Number of OnReady callbacks still outstanding (tests and leak checks). */
export function pendingOnReady(): number {
  return pending.size;
}

/** OnReady calls, since the process started, with an unknown user_arg or one already answered (a callback called twice). */
export function strayOnReadyCalls(): number {
  return strays;
}

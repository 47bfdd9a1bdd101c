// The one koffi every module of the binding uses, configured before any library is loaded.
//
// koffi runs each foreign call on a stack of its own (its defaults: 2 MiB for synchronous calls, 128 KiB for `.async`
// ones), not on the calling thread's. A plugin's compiler needs what a framework's thread gives it: XLA's GPU compiler
// overflowed 128 KiB in every PJRT_Compile. Both are raised to koffi's maximum, above the 8 MiB of a glibc thread.
// koffi accepts a configuration only until its first library load, so this module must be evaluated first: every
// other module imports koffi from here (test/layers.test.ts checks that none imports the package directly).
import './env.js';
import koffi from 'koffi';

/** The stack a thread gets from glibc by default (RLIMIT_STACK 8 MiB): what a plugin may assume of its caller. */
export const FRAMEWORK_THREAD_STACK_BYTES = 8 << 20;
/** koffi's largest stack, given to synchronous and asynchronous calls alike. */
export const NATIVE_CALL_STACK_BYTES = 16 << 20;

export interface CallStacks {
  /** bytes of stack a synchronous foreign call runs on */
  syncBytes: number;
  /** bytes of stack a `.async` foreign call runs on (on a libuv pool thread) */
  asyncBytes: number;
}

function configure(): void {
  const now = koffi.config();
  if ((now.sync_stack_size ?? 0) >= NATIVE_CALL_STACK_BYTES && (now.async_stack_size ?? 0) >= NATIVE_CALL_STACK_BYTES) return;
  try {
    koffi.config({ sync_stack_size: NATIVE_CALL_STACK_BYTES, async_stack_size: NATIVE_CALL_STACK_BYTES });
  } catch {
    // A library was loaded through koffi before this module ran: assertCallStacks reports it at the next plugin load.
  }
}
configure();

/** The stacks foreign calls get in this process. */
export function callStacks(): CallStacks {
  const c = koffi.config();
  return { syncBytes: c.sync_stack_size ?? 0, asyncBytes: c.async_stack_size ?? 0 };
}

/** Throws when foreign calls would get less stack than a framework's thread (koffi was configured elsewhere first). */
export function assertCallStacks(): void {
  const s = callStacks();
  if (Math.min(s.syncBytes, s.asyncBytes) < FRAMEWORK_THREAD_STACK_BYTES) {
    throw new Error(
      `koffi gives foreign calls ${s.syncBytes} bytes of stack (sync) and ${s.asyncBytes} (async), less than a framework thread's ${FRAMEWORK_THREAD_STACK_BYTES}: ` +
        'a library was loaded through koffi before src/ffi/koffi.ts configured it',
    );
  }
}

export default koffi;

type Proto = ReturnType<typeof koffi.proto>;
const decoded = new Map<Proto, Map<bigint, unknown>>();
/**
 * The callable of a foreign function pointer, decoded once per pointer and prototype: koffi keeps what each decode
 * makes for the life of the process (about 150 bytes a call, measured), so decoding per call leaks in a long run.
 */
export function decodeFunction<F>(fn: bigint, proto: Proto): F {
  let byPtr = decoded.get(proto);
  if (byPtr === undefined) decoded.set(proto, (byPtr = new Map()));
  let f = byPtr.get(fn);
  if (f === undefined) byPtr.set(fn, (f = koffi.decode(fn, proto)));
  return f as F;
}

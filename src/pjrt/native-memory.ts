// Host memory the test owns, outside any JS heap (for views of foreign memory, DLPack-style imports), and raw reads.
import { alignedAlloc, freeNative, mem, type Ptr } from '../ffi/index.js';
import type { Scope } from './scope.js';

/** Host memory from posix_memalign; freed by free()/destroy() or by its Scope. Not zeroed. */
export class NativeMemory {
  private _freed = false;
  constructor(
    readonly address: Ptr,
    readonly byteLength: number,
    scope: Scope | undefined,
  ) {
    scope?.track(this);
  }
  get destroyed(): boolean {
    return this._freed;
  }
  /** A live view of the bytes (writes go straight to the memory); do not use it after free(). */
  view(): Uint8Array {
    if (this._freed) throw new Error('NativeMemory used after free()');
    return mem.liveView(this.address, this.byteLength);
  }
  free(): void {
    if (this._freed) return;
    this._freed = true;
    freeNative(this.address);
  }
  destroy(): void {
    this.free();
  }
}

/**
 * `bytes` of host memory aligned to `alignment` (default 256: enough for any dtype and for the alignment
 * CPU runtimes ask of foreign buffers). Register it in the test's Scope before the views that use it, so that
 * they are destroyed first.
 */
export function allocateHostMemory(bytes: number, opts: { alignment?: number; scope?: Scope } = {}): NativeMemory {
  return new NativeMemory(alignedAlloc(bytes, opts.alignment ?? 256), bytes, opts.scope);
}

/** A copy of `length` bytes at a host address. Only for host-addressable memory (a device address crashes). */
export function readNative(address: Ptr, length: number): Uint8Array {
  return mem.readBytes(address === 0n ? null : address, length);
}

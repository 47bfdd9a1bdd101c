import { waitForRelayedCallbacks, type Ptr, type ViewDeleteTracker } from '../ffi/index.js';
import type { Buffer } from './buffer.js';
import type { Device } from './device.js';
import type { LayoutSpec } from './layout.js';
import type { Memory } from './memory.js';

export interface ViewSpec {
  /** Address of the memory to view (device memory, or host memory on a CPU plugin). */
  pointer: Ptr;
  dtype: string;
  dims: number[];
  /** Where the memory lives: `memory` (0.66+) or the deprecated `device`; both are passed when both are given. */
  device?: Device;
  memory?: Memory;
  stream?: bigint;
  /**
   * The on_delete_callback: by default the CTS's, which counts its calls (deleteCallbackCount()), since a framework
   * always passes one (jaxlib's DLPack import releases the exporter in it); `false` passes NULL, which the header allows
   * ("optional and can be a nullptr") and one case checks.
   */
  onDelete?: boolean;
  /** The layout of the viewed memory: dense major-to-minor by default, as jaxlib's DLPack import gives one; null: NULL. */
  layout?: LayoutSpec | null;
}

/** A PJRT_Buffer viewing foreign memory, with the calls of its on_delete_callback when one was requested. */
export class DeviceBufferView {
  constructor(
    readonly buffer: Buffer,
    private readonly tracker: ViewDeleteTracker | null,
  ) {}
  private t(): ViewDeleteTracker {
    if (this.tracker === null) throw new Error('view created with onDelete: false: no callback to count');
    return this.tracker;
  }
  /**
   * Calls of the on_delete_callback so far. A plugin may call it from its own thread, relayed to the main
   * thread by the event loop: await drainRelayedCallbacks() after destroying the buffer before counting.
   */
  deleteCallbackCount(): number {
    return this.t().count();
  }
  /**
   * After destroying the buffer: waits (up to `timeoutMs`) for `expected` calls, lets the loop turn a little more
   * for a late extra call, and resolves with the count.
   */
  async settledDeleteCallbackCount(expected = 1, timeoutMs = 2000): Promise<number> {
    const t = this.t();
    await waitForRelayedCallbacks(() => t.count() >= expected, timeoutMs);
    return t.count();
  }
  /**
   * After destroying the buffer: resolves with the count as soon as the first call arrived (1 ms turns of the loop, up
   * to `timeoutMs`), without settledDeleteCallbackCount's wait for a late extra call: a cycle that only needs the
   * release to have happened.
   */
  async deleteCallbackCalled(timeoutMs = 2000): Promise<number> {
    const t = this.t();
    await waitForRelayedCallbacks(() => t.count() >= 1, timeoutMs, 1, false);
    return t.count();
  }
  /** The device_buffer_ptr argument of each call. */
  deleteCallbackPointers(): Ptr[] {
    return this.t().pointers();
  }
}

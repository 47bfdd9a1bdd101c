// Shared base of the object model's classes: the raw API, a native pointer, and the scope they belong to.
import type { RawApi, Ptr } from '../ffi/index.js';
import type { Scope } from './scope.js';

export abstract class Handle {
  protected _destroyed = false;
  constructor(
    readonly api: RawApi,
    readonly ptr: Ptr,
    readonly scope: Scope | undefined,
  ) {}
  get destroyed(): boolean {
    return this._destroyed;
  }
  /**
   * Gives the handle up without destroying it: the object stays alive in the plugin and nothing here will touch it
   * again (a case that leaves objects alive on purpose, e.g. at PJRT_Client_Destroy).
   */
  abandon(): void {
    this._destroyed = true;
  }
  protected alive(what: string): Ptr {
    if (this._destroyed) throw new Error(`${what} used after destroy()`);
    return this.ptr;
  }
}

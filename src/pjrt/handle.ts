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
  protected alive(what: string): Ptr {
    if (this._destroyed) throw new Error(`${what} used after destroy()`);
    return this.ptr;
  }
}

// PJRT_ExecuteContext: an opaque, caller-owned context passed to Execute through PJRT_ExecuteOptions.context.
import type { RawApi } from '../ffi/index.js';
import { Handle } from './handle.js';
import type { Scope } from './scope.js';

export class ExecuteContext extends Handle {
  static create(api: RawApi, scope?: Scope): ExecuteContext {
    const a = api.args('PJRT_ExecuteContext_Create');
    api.call('PJRT_ExecuteContext_Create', a);
    const p = a.getPtr('context');
    if (p === null) throw new Error('PJRT_ExecuteContext_Create returned a NULL context');
    const c = new ExecuteContext(api, p, scope);
    scope?.track(c);
    return c;
  }
  /** PJRT_ExecuteContext_Destroy of NULL ("`context` can be nullptr"). */
  static destroyNull(api: RawApi): void {
    api.call('PJRT_ExecuteContext_Destroy', api.args('PJRT_ExecuteContext_Destroy').ptr('context', null));
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.api.call('PJRT_ExecuteContext_Destroy', this.api.args('PJRT_ExecuteContext_Destroy').ptr('context', this.ptr));
  }
}

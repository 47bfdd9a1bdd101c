import { onReady, type PjrtError, type Ptr, type RawApi } from '../ffi/index.js';
import { Handle } from './handle.js';
import type { Scope } from './scope.js';

/** A PJRT_Event (caller-owned). */
export class Event extends Handle {
  private refs: unknown[] = [];

  constructor(api: RawApi, ptr: Ptr, scope: Scope | undefined) {
    super(api, ptr, scope);
    scope?.track(this);
  }
  /** PJRT_Event_Create: a caller-made event, not ready until `set`. */
  static create(api: RawApi, scope?: Scope): Event {
    const a = api.args('PJRT_Event_Create');
    api.call('PJRT_Event_Create', a);
    const ptr = a.getPtr('event');
    if (ptr === null) throw new Error('PJRT_Event_Create returned no event');
    return new Event(api, ptr, scope);
  }
  /** PJRT_Event_Set: complete a caller-made event, with an error when `code` is not 0 (OK). */
  set(code = 0, message?: string): void {
    this.api.call('PJRT_Event_Set', this.setArgs(code, message));
  }
  /** PJRT_Event_Set called on a worker thread (a completion from another OS thread: the concurrency area). */
  setOnWorker(code = 0, message?: string): Promise<void> {
    return this.api.callAsync('PJRT_Event_Set', this.setArgs(code, message));
  }
  private setArgs(code: number, message: string | undefined) {
    const a = this.api.args('PJRT_Event_Set').ptr('event', this.alive('Event')).i32('error_code', code);
    if (message !== undefined) a.bytes('error_message', 'error_message_size', message);
    return a;
  }
  /** Keep host memory alive as long as this event (e.g. a host buffer until done_with_host_buffer). */
  keep(x: unknown): this {
    this.refs.push(x);
    return this;
  }
  isReady(): boolean {
    const a = this.api.args('PJRT_Event_IsReady').ptr('event', this.alive('Event'));
    this.api.call('PJRT_Event_IsReady', a);
    return a.getBool('is_ready');
  }
  /** PJRT_Event_Await on a worker thread; rejects with the event's PjrtError. */
  await(): Promise<void> {
    return this.api.callAsync('PJRT_Event_Await', this.api.args('PJRT_Event_Await').ptr('event', this.alive('Event')));
  }
  /** Resolves (never rejects for the event's own error) once the plugin calls back: the error or null. */
  onReady(): Promise<PjrtError | null> {
    return onReady(this.api, this.alive('Event'));
  }
  /** As onReady, the callback registered from a worker thread; a refused registration rejects. */
  onReadyOnWorker(): Promise<PjrtError | null> {
    return onReady(this.api, this.alive('Event'), 'PJRT_Event_OnReady', 'worker');
  }
  /** PJRT_Event_Error: only valid once the event is ready (XLA plugins abort otherwise). */
  error(): PjrtError | null {
    const a = this.api.args('PJRT_Event_Error').ptr('event', this.alive('Event'));
    const e = this.api.callRaw('PJRT_Event_Error', a);
    return e === null ? null : this.api.takeError(e, 'PJRT_Event_Error');
  }
  destroy(): void {
    if (this._destroyed) return;
    this._destroyed = true;
    this.refs = [];
    this.api.call('PJRT_Event_Destroy', this.api.args('PJRT_Event_Destroy').ptr('event', this.ptr));
  }
}

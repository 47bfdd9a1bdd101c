// Tier 2 — PJRT_Event: readiness, Await/IsReady/OnReady/Error agreement, error delivery, many events in flight.
// PJRT_Event_Error is called only on ready events ("Should only be called if PJRT_Event_IsReady returns true"; XLA
// CHECK-fails otherwise). Not-yet-ready states can be forced only through a plugin's completion-delay create option
// (the reference plugin's completion_delay_ms): the cases that need one are self-tests, skipped without it (needs completionDelayOption).
import { area, type CaseContext } from '../../src/harness/index.js';
import { drainRelayedCallbacks, Event, strayOnReadyCalls } from '../../src/pjrt/index.js';
import type { Buffer } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { needSlowClient, slowClient } from '../_lib/async.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { dtype, f32, pattern, readF32 } from '../_lib/patterns.js';
import { addOne } from '../_lib/programs.js';
import { soleOutput } from '../_lib/outputs.js';

const t = area('tier2.events', { tier: 2, requires: { slots: ['PJRT_Event_IsReady', 'PJRT_Event_Await', 'PJRT_Buffer_ReadyEvent'] } });

/** Cases that wait for an OnReady callback need it: a plugin that never calls back blocks them (--max-call-failures). */
const ON_READY = 'PJRT_Event_OnReady';
const OBSERVE_NOT_READY = 'a create option that delays every completion, to observe an event before it is ready';
const NEEDS_DELAY = 'needs a create option that delays every completion (plugins.json completionDelayOption; the reference plugin\'s completion_delay_ms) to observe an event before it is ready';

t.case('transfer_not_ready_early', {
  source: 'header',
  cite: 'PJRT_Event_IsReady: "Returns true if this PJRT_Event has completed, including if an error has occurred" — so false while the transfer it tracks is still running',
  selfTest: NEEDS_DELAY,
  catches: ['is_ready_lies'],
  // Only the slow client is used: a plugin allowing one live client may have the shared one released for it.
  client: 'none',
}).run(async (ctx) => {
  const c = await needSlowClient(ctx, OBSERVE_NOT_READY);
  const { buffer, doneWithHost } = await c.bufferFromHost(pattern(dtype('f32'), [64]), { dtype: 'f32', dims: [64] });
  const ev = buffer.readyEvent();
  check.equal(ev.isReady(), false, 'IsReady must be false while the (delayed) transfer is still running');
  await ev.await();
  check.equal(ev.isReady(), true, 'IsReady must be true once Await returned');
  await doneWithHost.await();
});

t.case('execute_outputs_not_ready_early', {
  slow: true, // three steps on the slow client, each completing late
  source: 'header',
  cite: 'PJRT_Buffer_ReadyEvent: "Returns an event that is triggered when … the data in the PJRT_Buffer becomes ready"; PJRT_Event_IsReady "Returns true if this PJRT_Event has completed" — an output of a running execution is not ready',
  selfTest: NEEDS_DELAY,
  catches: ['outputs_ready_early', 'is_ready_lies'],
  client: 'none',
  dependsOn: BASIC_EXECUTE,
}).run(async (ctx) => {
  const c = await needSlowClient(ctx, OBSERVE_NOT_READY);
  const exe = await compileText(c, addOne([4]));
  const x = await c.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: exe.addressableDevices()[0]! });
  const out = soleOutput(await exe.execute([[x]]));
  const early = out.readyEvent().isReady();
  check.equal(early, false, 'an output of a delayed execution must not report ready before it is computed');
  check.equal(readF32(await out.toHost({ dtype: 'f32', dims: [4] })), [2, 3, 4, 5], 'reading an output must wait for its data (ToHostBuffer is ordered after the computation)');
});

t.case('await_then_ready', {
  source: 'header',
  cite: 'PJRT_Event_Await: "Blocks the calling thread until `event` is ready, then returns the error status (with `nullptr` indicating no error)"; PJRT_Event_Error "Returns `nullptr` if there is no error"',
  catches: ['event_never_ready'],
}).run(async ({ client }) => {
  const { buffer } = await client.bufferFromHost(pattern(dtype('u8'), [100]), { dtype: 'u8', dims: [100] });
  const ev = buffer.readyEvent();
  await ev.await();
  check.equal(ev.isReady(), true, 'after PJRT_Event_Await returns, IsReady must be true');
  check.equal(ev.error(), null, 'PJRT_Event_Error of a successful transfer event must return no error');
});

t.case('on_ready_before_completion', {
  source: 'header',
  cite: 'PJRT_Event_OnReady: "Registers `callback` to be called once `event` is ready, with `event`\'s error status" — registered early (before completion where the plugin can be slowed down)',
  catches: ['on_ready_never_called'],
  requires: { slots: [ON_READY] },
}).run(async (ctx) => {
  const c = (await slowClient(ctx)) ?? ctx.client;
  const { buffer } = await c.bufferFromHost(pattern(dtype('f32'), [16]), { dtype: 'f32', dims: [16] });
  const ev = buffer.readyEvent();
  const err = await ev.onReady();
  check.equal(err, null, 'OnReady of a successful transfer must report no error');
  check.equal(ev.isReady(), true, 'when OnReady fires, IsReady must be true');
});

t.case('on_ready_after_completion', {
  source: 'header',
  cite: 'PJRT_Event_OnReady: "Registers `callback` to be called once `event` is ready" — also when it is ready already',
  catches: ['hang_in=PJRT_Event_OnReady', 'on_ready_never_calls_back'],
  requires: { slots: [ON_READY] },
}).run(async ({ client }) => {
  const buffer = await client.upload(pattern(dtype('f32'), [16]), { dtype: 'f32', dims: [16] });
  const ev = buffer.readyEvent();
  await ev.await();
  check.equal(await ev.onReady(), null, 'OnReady registered after readiness must still be called (with no error)');
});

t.case('on_ready_called_once', {
  source: 'header',
  cite: 'PJRT_Event_OnReady registers a callback "to be called once `event` is ready"; PJRT_Event_OnReadyCallback: "Ownership of `error` is passed to the callback" — a second call would hand out an error twice',
  catches: ['on_ready_called_twice'],
  requires: { slots: [ON_READY] },
}).run(async (ctx) => {
  const c = (await slowClient(ctx)) ?? ctx.client;
  const before = strayOnReadyCalls();
  const bufs = await Promise.all([0, 1, 2, 3].map(async (i) => (await c.bufferFromHost(pattern(dtype('f32'), [8 + i]), { dtype: 'f32', dims: [8 + i] })).buffer));
  // registered while the transfers may still run (callback from a plugin thread) …
  const early = await Promise.all(bufs.map((b) => b.readyEvent().onReady()));
  // … and once they are complete (callback inline)
  const late = await Promise.all(bufs.map((b) => b.readyEvent().onReady()));
  check.equal([...early, ...late].filter((e) => e !== null).length, 0, 'OnReady of successful transfers must report no error');
  await drainRelayedCallbacks(); // a repeated call from a plugin thread arrives after the first one returned
  check.equal(strayOnReadyCalls() - before, 0, 'PJRT_Event_OnReady must call each registered callback exactly once (calls with an already answered user_arg)');
});

const ERROR_BUFFER = 'PJRT_Client_CreateErrorBuffer';
const ERROR_BUFFER_OPTIONAL = 'error buffers are an optional feature of the plugin';
const INJECTED = 'pjrt-cts injected failure';
const ERROR_BUFFER_CONTROL = 'a normal buffer of the same shape in the same memory: its ready event completes without error and it reads back';

/** The positive control of the error-buffer cases: the same calls succeed on a buffer without an error. */
async function normalBufferWorks(ctx: CaseContext<unknown>): Promise<void> {
  await check.control('a normal f32[4] buffer in the same memory becomes ready and reads back', async () => {
    const { buffer } = await ctx.client.bufferFromHost(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], memory: ctx.device.defaultMemory() });
    await buffer.readyEvent().await();
    if ((await buffer.readyEvent().onReady()) !== null) throw new Error('OnReady of a normal buffer delivered an error');
    check.equal(readF32(await buffer.toHost()), [1, 2, 3, 4], 'a normal buffer reads back');
  });
}

/** The control first (normalBufferWorks), then an f32[4] error buffer with `code` in the same memory. */
async function errorBufferAfterControl(ctx: CaseContext<unknown>, code: string): Promise<Buffer> {
  await normalBufferWorks(ctx);
  return ctx.client.createErrorBuffer({ code, message: INJECTED }, { dtype: 'f32', dims: [4], memory: ctx.device.defaultMemory() });
}

t.case('await_agrees_with_on_ready', {
  source: 'header',
  cite: 'PJRT_Event_Await "returns the error status"; PJRT_Event_OnReady calls back "with `event`\'s error status" — the same status of the same event; PJRT_Client_CreateErrorBuffer "carries an error future"',
  control: ERROR_BUFFER_CONTROL,
  catches: ['event_error_dropped'],
  requires: { slots: [ERROR_BUFFER, ON_READY] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, ERROR_BUFFER_OPTIONAL, async () => {
  const buf = await errorBufferAfterControl(ctx, 'INTERNAL');
  const viaAwait = await check.rejects(() => buf.readyEvent().await(), 'Await on the ready event of an error buffer must return its error');
  const viaOnReady = await buf.readyEvent().onReady();
  check.ok(viaOnReady !== null, 'OnReady of an error buffer\'s ready event must deliver the error', 'an error', 'success (null)');
  check.equal(viaOnReady.codeName, viaAwait.codeName, 'Await and OnReady must deliver the same error code');
}));

t.case('event_error_matches_await', {
  source: 'header',
  cite: 'PJRT_Event_Error: "If `PJRT_Event_Await` has been called, this will return a pointer to an identical error status as that call, as will subsequent calls to `PJRT_Event_Error`"',
  control: ERROR_BUFFER_CONTROL,
  catches: ['event_error_dropped'],
  requires: { slots: [ERROR_BUFFER, 'PJRT_Event_Error', ON_READY] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, ERROR_BUFFER_OPTIONAL, async () => {
  const buf = await errorBufferAfterControl(ctx, 'INTERNAL');
  const ev = buf.readyEvent();
  const viaAwait = await check.rejects(() => ev.await(), 'Await on the ready event of an error buffer must return its error');
  for (const n of [1, 2]) {
    const viaError = ev.error(); // ready: Await returned
    check.ok(viaError !== null, `PJRT_Event_Error (call ${n}) after a failed Await must return the error`, 'an error', 'NULL');
    check.equal({ code: viaError.codeName, message: viaError.message }, { code: viaAwait.codeName, message: viaAwait.message }, `PJRT_Event_Error (call ${n}) must return a status identical to Await's`);
  }
}));

t.case('error_buffer_event_carries_code', {
  source: 'header',
  cite: 'PJRT_Client_CreateErrorBuffer: "Creates a buffer … that carries an error future" made of the given error_code and error_message — the buffer\'s ready event carries that error',
  control: ERROR_BUFFER_CONTROL,
  catches: ['event_error_dropped'],
  requires: { slots: [ERROR_BUFFER, ON_READY] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, ERROR_BUFFER_OPTIONAL, async () => {
  const buf = await errorBufferAfterControl(ctx, 'RESOURCE_EXHAUSTED');
  await check.rejects(() => buf.readyEvent().await(), 'the ready event of an error buffer must carry the given error', ['RESOURCE_EXHAUSTED']);
}));

t.case('error_buffer_to_host_fails', {
  source: 'header',
  cite: 'PJRT_Client_CreateErrorBuffer: "carries an error future without allocating memory" — there is no value for PJRT_Buffer_ToHostBuffer to copy, so it must report an error (any code; at the call or through its event)',
  control: ERROR_BUFFER_CONTROL,
  catches: ['event_error_dropped'],
  requires: { slots: [ERROR_BUFFER, ON_READY] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, ERROR_BUFFER_OPTIONAL, async () => {
  const buf = await errorBufferAfterControl(ctx, 'INVALID_ARGUMENT');
  await check.rejects(() => buf.toHost(), 'reading an error buffer must fail');
}));

t.case('error_buffer_message_delivered', {
  source: 'quality',
  cite: 'the header names the message only for Execute ("the execution will fail with the given error code and message"); a read of an error buffer that keeps the message tells the user where the failure came from',
  control: ERROR_BUFFER_CONTROL,
  catches: ['event_error_dropped'],
  requires: { slots: [ERROR_BUFFER, ON_READY] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, ERROR_BUFFER_OPTIONAL, async () => {
  const buf = await errorBufferAfterControl(ctx, 'INVALID_ARGUMENT');
  const e = await check.rejects(() => buf.toHost(), 'reading an error buffer should fail');
  check.ok(e.message.includes(INJECTED), 'the error message given to CreateErrorBuffer should reach a reader of the buffer', `a message containing "${INJECTED}"`, `"${e.message}"`);
}));

t.case('error_buffer_fails_execute', {
  source: 'header',
  cite: 'PJRT_Client_CreateErrorBuffer: "If this buffer is passed to an Execute call, the execution will fail with the given error code and message" (at the call or through its outputs)',
  control: 'the same program executes on a valid input first',
  catches: ['event_error_dropped'],
  dependsOn: BASIC_EXECUTE,
  requires: { slots: [ERROR_BUFFER, 'PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, ERROR_BUFFER_OPTIONAL, async () => {
  const exe = await compileText(ctx.client, addOne([4]));
  const dev = exe.addressableDevices()[0]!;
  const good = await ctx.client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: dev });
  await check.control('the same program executes on a valid input', async () => soleOutput(await exe.execute([[good]])).toHost({ dtype: 'f32', dims: [4] }));
  const bad = await ctx.client.createErrorBuffer({ code: 'DATA_LOSS', message: INJECTED }, { dtype: 'f32', dims: [4], memory: dev.defaultMemory() });
  const e = await check.rejects(async () => soleOutput(await exe.execute([[bad]])).toHost({ dtype: 'f32', dims: [4] }), 'an execution with an error buffer as input must fail with that buffer\'s error', ['DATA_LOSS']);
  check.ok(e.message.includes(INJECTED), 'the execution must fail with the error buffer\'s message', `a message containing "${INJECTED}"`, `"${e.message}"`);
}));

/** Per-completion delay for many_in_flight (the transfers complete concurrently, so the case waits it about once):
 *  long enough that the OnReady callbacks, registered once all 64 transfers are created, come before completion on a
 *  loaded machine. 50 ms was not: the fault matrix, four lanes on two cores, once saw every one registered late. */
const IN_FLIGHT_DELAY_MS = 500;

t.case('many_in_flight', {
  slow: true,
  source: 'header',
  cite: 'PJRT_Buffer_ReadyEvent: "an event that is triggered when either … the data in the PJRT_Buffer becomes ready, or an error has occurred"; PJRT_Event_OnReady calls back once ready — for every one of many concurrent transfers',
  catches: ['event_never_ready', 'on_ready_never_called'],
  requires: { slots: [ON_READY] },
}).run(async (ctx) => {
  const client = (await slowClient(ctx, IN_FLIGHT_DELAY_MS)) ?? ctx.client;
  const N = 64;
  const hosts = Array.from({ length: N }, (_, i) => pattern(dtype('s32'), [i + 1]));
  const started = await Promise.all(hosts.map(async (h, i) => {
    const { buffer } = await client.bufferFromHost(h, { dtype: 's32', dims: [i + 1] });
    return { buffer, ready: buffer.readyEvent().onReady() };
  }));
  const bufs = started.map((s) => s.buffer);
  const errs = await Promise.all(started.map((s) => s.ready));
  check.equal(errs.filter((e) => e !== null).length, 0, 'every one of many concurrent transfers must complete without error');
  const back = await Promise.all(bufs.map((b) => b.toHost()));
  for (let i = 0; i < N; i++) check.bytes(back[i]!, hosts[i]!, `transfer ${i} of ${N} concurrent ones`);
});

t.case('create_and_set', {
  source: 'header',
  cite: 'PJRT_Event_Create: "Creates a new PJRT_Event"; PJRT_Event_Set: "Sets the PJRT_Event as completed with the given error code and message" — not ready before Set, ready after (UNIMPLEMENTED → unsupported)',
  catches: ['event_set_ignored'],
  requires: { slots: ['PJRT_Event_Create', 'PJRT_Event_Set'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, 'caller-made events are not offered by this plugin', async () => {
  const ev = Event.create(ctx.plugin.raw);
  try {
    check.equal(ev.isReady(), false, 'a created event is not ready until set');
    ev.set(0);
    await ev.await();
    check.equal(ev.isReady(), true, 'PJRT_Event_Set must complete the event');
  } finally {
    ev.destroy();
  }
}));

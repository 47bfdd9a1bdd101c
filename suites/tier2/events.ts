// Tier 2 — PJRT_Event: readiness, Await/IsReady/OnReady agreement, error delivery, many events in flight.
import { area } from '../../src/harness/index.js';
import { drainRelayedCallbacks, strayOnReadyCalls } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { slowClient } from '../_lib/async.js';
import { compileText } from '../_lib/exec.js';
import { dtype, f32, pattern, readF32 } from '../_lib/patterns.js';
import { addOne } from '../_lib/programs.js';

const t = area('tier2.events', { tier: 2, requires: { slots: ['PJRT_Event_IsReady', 'PJRT_Event_Await', 'PJRT_Buffer_ReadyEvent'] } });

t.case('transfer_not_ready_early', { catches: ['is_ready_lies'] }).run(async (ctx) => {
  const c = await slowClient(ctx);
  if (!c) return ctx.skip('the plugin config names no completion-delay option; readiness timing cannot be forced');
  const { buffer, doneWithHost } = await c.bufferFromHost(pattern(dtype('f32'), [64]), { dtype: 'f32', dims: [64] });
  const ev = buffer.readyEvent();
  check.equal(ev.isReady(), false, 'IsReady must be false while the (delayed) transfer is still running');
  await ev.await();
  check.equal(ev.isReady(), true, 'IsReady must be true once Await returned');
  await doneWithHost.await();
});

t.case('execute_outputs_not_ready_early', { catches: ['outputs_ready_early', 'is_ready_lies'] }).run(async (ctx) => {
  const c = await slowClient(ctx);
  if (!c) return ctx.skip('the plugin config names no completion-delay option');
  const exe = await compileText(c, addOne([4]));
  const x = await c.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: exe.addressableDevices()[0]! });
  const { outputs } = await exe.execute([[x]]);
  const out = outputs[0]![0]!;
  const ready = out.readyEvent();
  const early = ready.isReady();
  check.equal(readF32(await out.toHost()), [2, 3, 4, 5], 'reading an output must wait for its data (ToHostBuffer is ordered after the computation)');
  check.equal(early, false, 'an output of a delayed execution must not report ready before it is computed');
});

t.case('await_then_ready', { catches: ['event_never_ready'] }).run(async ({ client }) => {
  const { buffer } = await client.bufferFromHost(pattern(dtype('u8'), [100]), { dtype: 'u8', dims: [100] });
  const ev = buffer.readyEvent();
  await ev.await();
  check.equal(ev.isReady(), true, 'after PJRT_Event_Await returns, IsReady must be true');
  check.equal(ev.error(), null, 'a successful transfer event carries no error');
});

t.case('on_ready_before_completion', { catches: ['on_ready_never_called'] }).run(async (ctx) => {
  const c = (await slowClient(ctx)) ?? ctx.client;
  const { buffer } = await c.bufferFromHost(pattern(dtype('f32'), [16]), { dtype: 'f32', dims: [16] });
  const ev = buffer.readyEvent();
  const err = await ev.onReady();
  check.equal(err, null, 'OnReady of a successful transfer must report no error');
  check.equal(ev.isReady(), true, 'when OnReady fires, IsReady must be true');
});

t.case('on_ready_after_completion', { catches: ['hang_in=PJRT_Event_OnReady'] }).run(async ({ client }) => {
  const buffer = await client.upload(pattern(dtype('f32'), [16]), { dtype: 'f32', dims: [16] });
  const ev = buffer.readyEvent();
  await ev.await();
  check.equal(await ev.onReady(), null, 'OnReady registered after readiness must still be called (with no error)');
});

t.case('on_ready_called_once', { catches: ['on_ready_called_twice'] }).run(async (ctx) => {
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

t.case('await_agrees_with_on_ready', { catches: ['event_error_dropped'], requires: { slots: ['PJRT_Client_CreateErrorBuffer'] } }).run(async (ctx) => {
  const buf = await ctx.client.createErrorBuffer({ code: 'INTERNAL', message: 'pjrt-cts injected failure' }, { dtype: 'f32', dims: [4], memory: ctx.device.defaultMemory() });
  const ev = buf.readyEvent();
  const viaAwait = await check.rejects(() => ev.await(), 'Await on the ready event of an error buffer must fail');
  const viaOnReady = await buf.readyEvent().onReady();
  check.ok(viaOnReady !== null, 'OnReady of an error buffer must deliver the error', 'an error', 'success');
  check.equal(viaOnReady.codeName, viaAwait.codeName, 'Await and OnReady must deliver the same error');
  const viaError = ev.error();
  check.ok(viaError !== null, 'PJRT_Event_Error of a failed ready event must return the error', 'an error', 'NULL');
  check.equal(viaError.codeName, 'INTERNAL', 'the error code given to CreateErrorBuffer must reach the event');
});

t.case('error_buffer_to_host_fails', { catches: ['event_error_dropped'], requires: { slots: ['PJRT_Client_CreateErrorBuffer'] } }).run(async (ctx) => {
  const buf = await ctx.client.createErrorBuffer({ code: 'INVALID_ARGUMENT', message: 'pjrt-cts injected failure' }, { dtype: 'f32', dims: [4], memory: ctx.device.defaultMemory() });
  const e = await check.rejects(() => buf.toHost(), 'reading an error buffer must fail with its error');
  check.ok(e.message.includes('pjrt-cts injected failure'), 'the error message given to CreateErrorBuffer must be delivered', 'the injected message', `"${e.message}"`);
});

/** Per-completion delay for many_in_flight: short, yet long enough that most OnReady calls come before completion. */
const IN_FLIGHT_DELAY_MS = 20;

t.case('many_in_flight', { catches: ['event_never_ready', 'on_ready_never_called'] }).run(async (ctx) => {
  const client = (await slowClient(ctx, IN_FLIGHT_DELAY_MS)) ?? ctx.client;
  const N = 64;
  const hosts = Array.from({ length: N }, (_, i) => pattern(dtype('s32'), [i + 1]));
  const bufs = await Promise.all(hosts.map(async (h, i) => (await client.bufferFromHost(h, { dtype: 's32', dims: [i + 1] })).buffer));
  const errs = await Promise.all(bufs.map((b) => b.readyEvent().onReady()));
  check.equal(errs.filter((e) => e !== null).length, 0, 'every one of many concurrent transfers must complete without error');
  for (let i = 0; i < N; i++) check.bytes(await bufs[i]!.toHost(), hosts[i]!, `transfer ${i} of ${N} concurrent ones`);
});

t.case('create_and_set', { catches: ['event_set_ignored'], requires: { slots: ['PJRT_Event_Create', 'PJRT_Event_Set'] } }).run(async ({ plugin, client }) => {
  void client;
  const raw = plugin.raw;
  const c = raw.args('PJRT_Event_Create');
  raw.call('PJRT_Event_Create', c);
  const ev = c.getPtr('event');
  check.ok(ev !== null, 'PJRT_Event_Create must return an event', 'an event', 'NULL');
  const isReady = () => {
    const a = raw.args('PJRT_Event_IsReady').ptr('event', ev);
    raw.call('PJRT_Event_IsReady', a);
    return a.getBool('is_ready');
  };
  check.equal(isReady(), false, 'a created event is not ready until set');
  raw.call('PJRT_Event_Set', raw.args('PJRT_Event_Set').ptr('event', ev).i32('error_code', 0));
  await raw.callAsync('PJRT_Event_Await', raw.args('PJRT_Event_Await').ptr('event', ev));
  check.equal(isReady(), true, 'PJRT_Event_Set must complete the event');
  raw.call('PJRT_Event_Destroy', raw.args('PJRT_Event_Destroy').ptr('event', ev));
});

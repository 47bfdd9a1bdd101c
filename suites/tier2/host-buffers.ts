// Tier 2 — host-buffer semantics: when may the caller reuse its host memory?
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { slowClient } from '../_lib/async.js';
import { dtype, pattern } from '../_lib/patterns.js';
import type { HostBufferSemantics } from '../../src/pjrt/index.js';

const t = area('tier2.host_buffers', { tier: 2, requires: { slots: ['PJRT_Client_BufferFromHostBuffer'] } });

t.case('only_during_call', {
  source: 'header',
  cite: 'PJRT_HostBufferSemantics_kImmutableOnlyDuringCall: "The runtime may not hold references to `data` after the call to `PJRT_Client_BufferFromHostBuffer` completes" — a change to `data` after the call cannot reach the buffer',
  catches: ['h2d_drops_last_byte'],
}).run(async ({ client }) => {
  const host = pattern(dtype('f32'), [256]);
  const orig = host.slice();
  const { buffer } = await client.bufferFromHost(host, { dtype: 'f32', dims: [256], semantics: 'kImmutableOnlyDuringCall' });
  host.fill(0xee); // allowed as soon as the call returned
  check.bytes(await buffer.toHost(), orig, 'kImmutableOnlyDuringCall: the host buffer may change once BufferFromHostBuffer returns');
});

t.case('until_transfer_completes', {
  slow: true, // two steps on the slow client, each completing late
  source: 'header',
  cite: 'PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes: "The caller promises not to mutate or free `data` until the transfer completes, at which point `done_with_host_buffer` will be triggered" — once it fired, a change to `data` cannot reach the buffer',
  catches: ['done_with_host_buffer_early'],
}).run(async (ctx) => {
  const c = (await slowClient(ctx)) ?? ctx.client;
  const host = pattern(dtype('f32'), [4096]);
  const orig = host.slice();
  const { buffer, doneWithHost } = await c.bufferFromHost(host, { dtype: 'f32', dims: [4096], semantics: 'kImmutableUntilTransferCompletes' });
  await doneWithHost.await();
  host.fill(0xee); // allowed once done_with_host_buffer fired
  check.bytes(await buffer.toHost(), orig, 'kImmutableUntilTransferCompletes: done_with_host_buffer may fire only after the plugin has read the host data');
});

/** The fault of a plugin that refuses kMutableZeroCopy (claimed by the rows that send it). */
const MUTABLE_REFUSED = 'mutable_zero_copy_unimplemented';

/** BufferFromHostBuffer of `host` as s16 with the row's semantics. */
function fromHost(ctx: CaseContext<{ s: HostBufferSemantics }>, host: Uint8Array, dims: number[]) {
  return ctx.client.bufferFromHost(host, { dtype: 's16', dims, semantics: ctx.p.s });
}

/**
 * Every semantics the header defines. kMutableZeroCopy too: XLA's C-API client never sends it ("PJRT C API does not
 * support HostBufferSemantics other than …"), but the header defines it for every platform ("On non-CPU platforms this
 * acts identically to kImmutableUntilTransferCompletes") and XLA's own plugins take it (the wrapper passes it on;
 * CommonPjRtClient::BufferFromHostBuffer, the CPU and GPU clients', aliases or copies): UNIMPLEMENTED is a failure.
 */
const SEMANTICS: readonly { id: string; s: HostBufferSemantics }[] = [
  { id: 'only_during_call', s: 'kImmutableOnlyDuringCall' },
  { id: 'until_transfer_completes', s: 'kImmutableUntilTransferCompletes' },
  { id: 'immutable_zero_copy', s: 'kImmutableZeroCopy' },
  { id: 'mutable_zero_copy', s: 'kMutableZeroCopy' },
];

t.case('holds_data', {
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer: "Asynchronously copies a buffer stored on host to device memory" — whatever the PJRT_HostBufferSemantics (copy or alias), the buffer holds the host data; kMutableZeroCopy included: "On non-CPU platforms this acts identically to kImmutableUntilTransferCompletes"',
  catches: (p: { s: HostBufferSemantics }) => (p.s === 'kMutableZeroCopy' ? ['h2d_drops_last_byte', MUTABLE_REFUSED] : ['h2d_drops_last_byte']),
})
  .params(SEMANTICS)
  .run(async (ctx) => {
    const host = pattern(dtype('s16'), [3, 7]);
    const orig = host.slice();
    const { buffer, doneWithHost } = await fromHost(ctx, host, [3, 7]);
    check.bytes(await buffer.toHost(), orig, `${ctx.p.s}: the buffer must hold the host data`);
    buffer.delete();
    await doneWithHost.await();
  });

t.case('done_event_completes', {
  source: 'header',
  cite: 'PJRT_HostBufferSemantics: done_with_host_buffer is "triggered" when the transfer completes (kImmutableUntilTransferCompletes) and, for the zero-copy kinds, "the runtime will call `done_with_host_buffer` when the PjRtBuffer is freed" — so it completes, at the latest once the buffer is deleted (kMutableZeroCopy, defined for every platform, included)',
  catches: (p: { s: HostBufferSemantics }) => (p.s === 'kMutableZeroCopy' ? ['crash_in=PJRT_Event_Await', MUTABLE_REFUSED] : ['crash_in=PJRT_Event_Await']),
})
  .params(SEMANTICS)
  .run(async (ctx) => {
    const host = pattern(dtype('s16'), [3, 7]);
    const { buffer, doneWithHost } = await fromHost(ctx, host, [3, 7]);
    await buffer.readyEvent().await();
    buffer.delete();
    await doneWithHost.await(); // must complete at the latest once the buffer is gone
    check.equal(doneWithHost.isReady(), true, `${ctx.p.s}: done_with_host_buffer must be ready once Await returned`);
  });

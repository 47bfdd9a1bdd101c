// Tier 2 — the Stream extension (pjrt_c_api_stream_extension.h): DLPack consumers ask a device for the stream on
// which external ready events go (PjRtCApiDevice::GetStreamForExternalReadyEvents) and wait for a buffer on it
// (PjRtCApiExternalReference::WaitUntilBufferReadyOnStream), both in xla/pjrt/c_api_client/pjrt_c_api_client.cc.
import { area } from '../../src/harness/index.js';
import { Stream } from '../../src/pjrt/index.js';

const t = area('tier2.ext.stream', { tier: 2 });

t.case('stream_per_device', {
  source: 'framework',
  cite: 'PjRtCApiDevice::GetStreamForExternalReadyEvents calls get_stream for whichever addressable device a DLPack export names (jax.Array.__dlpack__ on any device), returning the error otherwise',
  catches: ['stream_only_first_device'],
}).run(({ plugin, client }) => {
  const s = new Stream(plugin.raw);
  for (const d of client.addressableDevices()) s.forDevice(d);
});

t.case('wait_on_ready_buffer', {
  source: 'framework',
  cite: 'PjRtCApiExternalReference::WaitUntilBufferReadyOnStream calls wait_stream with the stream get_stream gave and a buffer a DLPack consumer holds; the buffer is often ready already, and waiting for a ready buffer is no error',
  catches: ['stream_wait_rejects_ready'],
}).run(async ({ plugin, client, device }) => {
  const s = new Stream(plugin.raw);
  const buf = await client.upload(new Uint8Array(16), { dtype: 'f32', dims: [4], device });
  await buf.readyEvent().await();
  await s.waitUntilReady(s.forDevice(device), buf);
});

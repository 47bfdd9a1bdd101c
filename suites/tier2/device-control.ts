// Tier 2 — device control beyond the description: a description queried in the case, PJRT_Device_GetAttributes,
// ClearMemoryStats, PoisonExecution by launch id, async tracking events, and the client's global process info.
import { area } from '../../src/harness/index.js';
import {
  clearMemoryStats, createAsyncTrackingEvent, deviceAttributeList, poisonExecution, queryDescription, updateGlobalProcessInfo,
  type Client, type Device, type MemoryStats,
} from '../../src/pjrt/index.js';
import { slowClientOrWhy, withoutSlowClient } from '../_lib/async.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addOne } from '../_lib/programs.js';
import { soleOutput } from '../_lib/outputs.js';

const t = area('tier2.device_control', { tier: 2, requires: { slots: ['PJRT_Client_Devices'] } });

t.case('description_query_matches_device_list', {
  source: 'header',
  cite: 'PJRT_Device_GetDescription: "Fetch the DeviceDescription associated with this device" — each device\'s description carries the id by which PJRT_Client_LookupDevice finds that same device',
  catches: ['device_description_wrong_device'],
  requires: { slots: ['PJRT_Device_GetDescription', 'PJRT_Client_LookupDevice', 'PJRT_DeviceDescription_Id'] },
}).run(({ client }) => {
  const devices = client.devices();
  const ids = devices.map((d) => queryDescription(d).id);
  check.unique(ids, 'the descriptions of distinct devices must name distinct devices', 'description ids');
  devices.forEach((d, i) => {
    check.ok(client.lookupDevice(ids[i]!).ptr === d.ptr, `the description of device #${i} must be that device's: LookupDevice(${ids[i]}) must return it`, 'the same PJRT_Device*', 'another device');
  });
});

t.case('get_attributes_match_description', {
  source: 'quality',
  cite: 'the header does not say that PJRT_Device_GetAttributes ("Returns an array of device attributes") and PJRT_DeviceDescription_Attributes list the same attributes, and on XLA\'s GPU plugin they do not (the description has device_vendor, the device coords, slice_index, …); XLA\'s C-API client reads both: PjRtCApiDevice takes the device\'s Attributes() from PJRT_Device_GetAttributes for a plugin of 0.92 or later that has the slot (InitAttributes; the description\'s list otherwise), and PjRtCApiDeviceDescription::Attributes() from PJRT_DeviceDescription_Attributes (pjrt_c_api_client.cc). An attribute both lists carry is one fact about one device: its two values should not differ',
  catches: ['device_attributes_disagree'],
  requires: { slots: ['PJRT_Device_GetAttributes', 'PJRT_DeviceDescription_Attributes'] },
}).run((ctx) => {
  for (const d of ctx.client.addressableDevices()) {
    const fromDevice = new Map(deviceAttributeList(d).map((e) => [e.name, { kind: e.kind, value: e.value }]));
    const fromDescription = new Map(d.description.attributeList().map((e) => [e.name, { kind: e.kind, value: e.value }]));
    const shared = [...fromDevice.keys()].filter((k) => fromDescription.has(k)).sort();
    ctx.log(`device ${d.id}: ${shared.length} attribute(s) in both lists (${shared.join(', ') || 'none'})`);
    check.equal(
      Object.fromEntries(shared.map((k) => [k, fromDevice.get(k)])),
      Object.fromEntries(shared.map((k) => [k, fromDescription.get(k)])),
      `device ${d.id}: an attribute both PJRT_Device_GetAttributes and PJRT_DeviceDescription_Attributes report should have the same value in both (quality)`,
    );
  }
});

/** Memory statistics once bytes_in_use reads the same twice SETTLE_MS apart (at most SETTLE_TRIES tries). */
async function settledMemoryStats(d: Device): Promise<MemoryStats> {
  let last = d.memoryStats();
  for (let i = 0; i < SETTLE_TRIES; i++) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const now = d.memoryStats();
    if (now.bytesInUse === last.bytesInUse) return now;
    last = now;
  }
  return last;
}
const SETTLE_MS = 20;
const SETTLE_TRIES = 50;

const CLEAR_STATS_OPTIONAL = 'XLA\'s PjRtDevice::ClearMemoryStats defaults to UNIMPLEMENTED ("ClearMemoryStats is not supported"), as does MemoryStats ("Implementations may also return PJRT_Error_Code_UNIMPLEMENTED")';

t.case('clear_memory_stats_resets_peak', {
  source: 'quality',
  cite: 'the header documents nothing for PJRT_Device_ClearMemoryStats and no framework depends on its effect; XLA\'s GPU plugin implements it with the allocator\'s ClearStats (xla/pjrt/gpu/se_gpu_pjrt_client.cc → BFCAllocator::ClearStats: peak_bytes_in_use = bytes_in_use, num_allocs = 0), so the peak restarts at what is in use and bytes_in_use stays',
  catches: ['clear_memory_stats_keeps_peak', 'clear_memory_stats_zeroes_in_use'],
  requires: { slots: ['PJRT_Device_ClearMemoryStats', 'PJRT_Device_MemoryStats', 'PJRT_Client_BufferFromHostBuffer'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, CLEAR_STATS_OPTIONAL, async () => {
  const d = ctx.device;
  const big = await ctx.client.upload(new Uint8Array(1 << 20), { dtype: 'u8', dims: [1 << 20], device: d });
  const kept = await ctx.client.upload(new Uint8Array(4096), { dtype: 'u8', dims: [4096], device: d });
  big.delete();
  // A plugin may free the deleted buffer's memory a moment later (another thread holding it until its transfer is
  // done): measure only once bytes_in_use has stopped moving.
  const before = await settledMemoryStats(d);
  clearMemoryStats(d);
  const after = d.memoryStats();
  check.equal(after.bytesInUse, before.bytesInUse, 'ClearMemoryStats clears statistics, not allocations: bytes_in_use should stay (quality; a live buffer still holds its memory)');
  if (after.peakBytesInUse !== undefined) {
    check.equal(after.peakBytesInUse, after.bytesInUse, 'after ClearMemoryStats the peak should restart at the bytes in use (quality, as BFCAllocator::ClearStats does)');
  }
  kept.delete();
}));

t.case('async_tracking_events_distinct', {
  source: 'header',
  cite: 'PJRT_Device_CreateAsyncTrackingEvent: "Creates an async tracking event. The caller is responsible for destroying the event." — two creations are two events, each destroyed once by its caller (no event, NULL, is what XLA\'s CPU device returns)',
  catches: ['tracking_event_shared'],
  requires: { slots: ['PJRT_Device_CreateAsyncTrackingEvent', 'PJRT_AsyncTrackingEvent_Destroy'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, 'the plugin offers no async tracking events', () => {
  const { device, unsupported } = ctx;
  const a = createAsyncTrackingEvent(device, 'pjrt-cts first');
  const b = createAsyncTrackingEvent(device, 'pjrt-cts second');
  b?.destroy();
  a?.destroy();
  if (a === null || b === null) return unsupported('PJRT_Device_CreateAsyncTrackingEvent returned no event (NULL, as XLA\'s CPU device does): there are no two events to compare');
  check.ok(a.ptr !== b.ptr, 'two tracking events the caller must each destroy must be distinct objects', 'two handles', 'the same handle twice');
}));

t.case('update_global_process_info_own_process', {
  source: 'header',
  cite: 'PJRT_Client_UpdateGlobalProcessInfo "updates a PjRt client with information about all processes" — the client\'s own process, connected, is valid information; afterwards the client still has its devices',
  catches: ['process_info_rejects_own_process'],
  requires: { slots: ['PJRT_Client_UpdateGlobalProcessInfo', 'PJRT_Client_ProcessIndex'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, 'the plugin does not take global process info (PjRtClient::UpdateGlobalProcessInfo defaults to UNIMPLEMENTED)', () => {
  const { client } = ctx;
  const ids = client.devices().map((d) => d.id);
  updateGlobalProcessInfo(client, [{ taskId: client.processIndex(), incarnationId: 1n, state: 'kConnected' }]);
  updateGlobalProcessInfo(client, []);
  check.equal(client.devices().map((d) => d.id), ids, 'updating the process info of a single-process client must not change its devices');
}));

// Poisoning needs executions that have not finished: the slow client (completion delay) when the plugin has one,
// with everything prepared first so that both launches are in flight together.
async function launchTwice(client: Client, launchIds: readonly [number, number]) {
  const exe = await compileText(client, addOne([4]));
  const dev = exe.addressableDevices()[0]!;
  const xs = await Promise.all(launchIds.map(() => client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: dev })));
  await Promise.all(xs.map((x) => x.readyEvent().await()));
  const outs = [];
  for (let i = 0; i < launchIds.length; i++) outs.push(soleOutput(await exe.execute([[xs[i]!]], { launchId: launchIds[i]! })));
  return { dev, first: outs[0]!, second: outs[1]! };
}

const POISON_OPTIONAL = 'XLA\'s PjRtDevice::PoisonExecution defaults to UNIMPLEMENTED ("PoisonExecution is not supported")';
const POISON_MESSAGE = 'pjrt-cts poisoned this launch';

t.case('poison_execution_by_launch_id', {
  slow: true, // three steps on the slow client, each completing late
  source: 'header',
  cite: 'PJRT_Device_PoisonExecution: "Poisons the earliest execution on this device with given launch_id if it\'s not finished yet, i.e. makes its output buffers error" (and `poisoned` says whether it did); PJRT_ExecuteOptions.launch_id identifies the execution — another launch id\'s execution is untouched',
  catches: ['poison_ignores_launch_id'],
  dependsOn: BASIC_EXECUTE,
  requires: { slots: ['PJRT_Device_PoisonExecution', 'PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] },
}).run(async (ctx) => {
  const slowOrWhy = await slowClientOrWhy(ctx);
  const slow = typeof slowOrWhy === 'string' ? undefined : slowOrWhy;
  const { dev, first, second } = await launchTwice(slow ?? ctx.client, [1001, 1002]);
  const poisoned = await check.unimplementedIsUnsupported(ctx, POISON_OPTIONAL, () =>
    poisonExecution(dev, 1002, { code: 'ABORTED', message: POISON_MESSAGE }));
  check.equal(readF32(await first.toHost({ dtype: 'f32', dims: [4] })), [2, 3, 4, 5], 'poisoning launch 1002 must leave the execution of launch 1001 untouched');
  if (poisoned) {
    const e = await check.rejects(() => second.toHost({ dtype: 'f32', dims: [4] }), 'a poisoned execution\'s outputs must carry the error', ['ABORTED']);
    check.ok(e.message.includes(POISON_MESSAGE), 'the poisoned outputs must carry the message given to PoisonExecution', `a message containing "${POISON_MESSAGE}"`, `"${e.message}"`);
  } else {
    check.equal(readF32(await second.toHost({ dtype: 'f32', dims: [4] })), [2, 3, 4, 5], 'an execution that was not poisoned (poisoned = false: already finished) must have its results');
    // Without a slow client nothing was in flight, so launch-id matching went unobserved: say why there was none.
    if (typeof slowOrWhy === 'string') withoutSlowClient(ctx, 'both launches had finished before PoisonExecution, so which launch it poisons could not be observed', slowOrWhy);
  }
  check.equal(poisonExecution(dev, 4242, { code: 'ABORTED', message: POISON_MESSAGE }), false, 'poisoning a launch id that never ran must report poisoned = false');
});

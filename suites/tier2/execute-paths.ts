// Tier 2 — execute paths beyond the plain call: device_complete_events, an argument on another device, an execute
// context, and DefaultDeviceAssignment's buffer size.
import { area } from '../../src/harness/index.js';
import { ExecuteContext } from '../../src/pjrt/index.js';
import { slowClient } from '../_lib/async.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { addOne } from '../_lib/programs.js';
import { soleOutput } from '../_lib/outputs.js';

const t = area('tier2.execute_paths', { tier: 2, dependsOn: BASIC_EXECUTE, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

t.case('device_complete_events_after_outputs', {
  slow: true, // three steps on the slow client, each completing late
  source: 'header',
  cite: 'PJRT_LoadedExecutable_Execute_Args.device_complete_events: "each PJRT_Event will become ready once the corresponding device execution is complete" — a complete execution has computed its outputs, so they are ready by then',
  catches: ['device_complete_events_early'],
  requires: { slots: ['PJRT_Event_IsReady', 'PJRT_Event_Await', 'PJRT_Buffer_ReadyEvent'] },
}).run(async (ctx) => {
  const client = (await slowClient(ctx)) ?? ctx.client;
  const exe = await compileText(client, addOne([4]));
  const x = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: exe.addressableDevices()[0]! });
  const result = await exe.execute([[x]], { deviceCompleteEvents: true });
  const { completeEvents } = result;
  check.equal(completeEvents.length, 1, 'Execute must fill one device_complete_event per device');
  const out = soleOutput(result);
  const complete = completeEvents[0]!;
  if (complete.isReady()) check.equal(out.readyEvent().isReady(), true, 'a device_complete_event that is ready says the execution is complete, so its outputs must be ready');
  await complete.await();
  check.equal(out.readyEvent().isReady(), true, 'once the device_complete_event is ready, the execution\'s outputs must be ready');
  check.equal(readF32(await out.toHost({ dtype: 'f32', dims: [4] })), [2, 3, 4, 5], 'the completed execution\'s result');
});

t.case('execute_on_chosen_device', {
  source: 'header',
  cite: 'PJRT_LoadedExecutable_Execute_Args.execute_device: "If set, must be an addressable device, and `num_devices` should be 1 with `argument_lists` only containing arguments for `execute_device`"; PJRT_Buffer_Device "Returns this buffer\'s storage device" — the outputs are that device\'s ("may not be supported on all platforms or executables": an error is unsupported)',
  catches: ['execute_device_outputs_misplaced'],
  requires: { slots: ['PJRT_Buffer_Device'] },
}).run(async (ctx) => {
  const { client, devices } = ctx;
  if (devices.length < 2) return ctx.skip('needs two addressable devices (one to compile for, another to run on)');
  const exe = await compileText(client, addOne([4]), { deviceAssignment: [[devices[0]!.id]] });
  const target = devices[devices.length - 1]!;
  const x = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: target });
  const r = await check.okOrCleanError(() => exe.execute([[x]], { executeDevice: target }), `Execute with execute_device = device ${target.id}`);
  if (r.error) return ctx.unsupported(`Execute with execute_device failed with ${r.error.codeName} ("${r.error.message}"): execute_device "may not be supported on all platforms or executables"`);
  const out = soleOutput(r.value!);
  check.equal(out.device().id, target.id, 'the outputs of an execution on execute_device must live on that device');
  check.equal(readF32(await out.toHost({ dtype: 'f32', dims: [4] })), [2, 3, 4, 5], 'the execution on execute_device must compute its result');
});

t.case('argument_on_wrong_device', {
  source: 'quality',
  cite: 'PJRT_LoadedExecutable_Execute_Args.argument_lists holds each device\'s arguments ("Execution input of size [num_devices, num_args]"); an argument on another device than its instance is a caller error the header leaves undefined. XLA rejects it (INVALID_ARGUMENT "Buffer passed to Execute() as argument … is on device …"), instead of reading another device\'s memory',
  control: 'the same executable runs with its argument on the compiled device',
  catches: ['execute_ignores_arg_device'],
}).run(async ({ client, devices, skip }) => {
  if (devices.length < 2) return skip('needs two addressable devices');
  const [d0, d1] = [devices[0]!, devices[1]!];
  const exe = await compileText(client, addOne([4]), { deviceAssignment: [[d0.id]] });
  const good = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: d0 });
  await check.control('execute with the argument on the compiled device', async () => soleOutput(await exe.execute([[good]])).toHost({ dtype: 'f32', dims: [4] }));
  const elsewhere = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: d1 });
  await check.rejects(async () => soleOutput(await exe.execute([[elsewhere]])).toHost({ dtype: 'f32', dims: [4] }),
    `an argument on device ${d1.id} for an instance on device ${d0.id} should be rejected (quality: XLA does)`);
});

t.case('execute_with_context', {
  source: 'header',
  cite: 'PJRT_ExecuteContext_Create "Creates an execute context", passed as PJRT_ExecuteOptions.context ("An opaque context passed to an execution"); PJRT_ExecuteContext_Destroy "Frees an execute context. `context` can be nullptr."',
  catches: ['execute_rejects_context', 'execute_context_destroy_rejects_null'],
  requires: { slots: ['PJRT_ExecuteContext_Create', 'PJRT_ExecuteContext_Destroy'] },
}).run(async (ctx) => {
  const { plugin, client } = ctx;
  const exe = await compileText(client, addOne([4]));
  const x = await client.upload(f32([1, 2, 3, 4]), { dtype: 'f32', dims: [4], device: exe.addressableDevices()[0]! });
  const context = await check.unimplementedIsUnsupported(ctx, 'the plugin offers no execute contexts', () => ExecuteContext.create(plugin.raw));
  try {
    check.equal(readF32(await soleOutput(await exe.execute([[x]], { context })).toHost({ dtype: 'f32', dims: [4] })), [2, 3, 4, 5], 'an execution with an (empty) execute context must compute its result');
  } finally {
    context.destroy();
  }
  ExecuteContext.destroyNull(plugin.raw);
});

t.case('default_assignment_respects_size', {
  source: 'header',
  cite: 'PJRT_Client_DefaultDeviceAssignment_Args: default_assignment_size "Must be greater than or equal to `num_replicas * num_partitions`"; default_assignment "Points to an array of size `default_assignment_size`" — with a smaller size the plugin must fail (XLA: FAILED_PRECONDITION) rather than write past the array',
  control: 'the same request with default_assignment_size = num_replicas * num_partitions',
  catches: ['default_assignment_ignores_size'],
  requires: { slots: ['PJRT_Client_DefaultDeviceAssignment'] },
}).run(async ({ plugin, client, unsupported }) => {
  const raw = plugin.raw;
  const call = (size: number, out: Int32Array) => raw.call('PJRT_Client_DefaultDeviceAssignment', raw
    .args('PJRT_Client_DefaultDeviceAssignment')
    .ptr('client', client.ptr)
    .i32('num_replicas', 1)
    .i32('num_partitions', 1)
    .bytes('default_assignment', null, new Uint8Array(out.buffer))
    .size('default_assignment_size', size));
  // UNIMPLEMENTED is what XLA's PjRtClient base answers: unsupported, as in tier1.topology.default_device_assignment.
  await check.unimplementedIsUnsupported({ unsupported }, "XLA's PjRtClient base answers UNIMPLEMENTED for GetDefaultDeviceAssignment",
    () => check.control('DefaultDeviceAssignment(1, 1) with room for one id', () => call(1, new Int32Array(1))));
  const SENTINEL = -7777;
  const out = new Int32Array([SENTINEL, SENTINEL]);  // declared size 0; the array really has two slots
  const r = await check.okOrCleanError(() => call(0, out), 'DefaultDeviceAssignment(1, 1) with default_assignment_size 0');
  if (r.error) return;
  check.equal(out[0], SENTINEL, 'with default_assignment_size 0 the plugin must not write into default_assignment (past the array the caller declared)');
});

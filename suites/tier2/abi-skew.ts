// Tier 2 — ABI skew: Args with the struct_size of an older minor, or of a newer minor with a zero-filled tail.
// A plugin must accept or reject cleanly; never crash, never read or write past struct_size. Bytes past an older
// struct_size hold sentinels: a plugin that acts on them, or overwrites them, misreads the caller's struct.
import { area } from '../../src/harness/index.js';
import { enumValue, layoutOf, previousStructSize } from '../../src/abi/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';
import { nodeIdOption } from '../_lib/config.js';
import { dtype, pattern } from '../_lib/patterns.js';
import { denseLayout, memoryLayoutArgs, viewDeleteTracker, type Args, type Plugin, type Client, type LoadedExecutable } from '../../src/pjrt/index.js';
import { compileText } from '../_lib/exec.js';
import { addOne } from '../_lib/programs.js';

const t = area('tier2.abi_skew', { tier: 2 });

/** One probe per Args struct: the slot, how to fill it, what to read back to see it worked. */
interface Probe {
  id: string;
  slot: string;
  fill: (c: Client, a: ReturnType<Plugin['raw']['args']>) => void;
  check: (c: Client, a: ReturnType<Plugin['raw']['args']>) => void;
}

const PROBES: readonly Probe[] = [
  {
    id: 'platform_name',
    slot: 'PJRT_Client_PlatformName',
    fill: (c, a) => a.ptr('client', c.ptr),
    check: (c, a) => check.equal(a.str('platform_name'), c.platformName(), 'PlatformName through skewed Args must return the same name'),
  },
  {
    id: 'lookup_device',
    slot: 'PJRT_Client_LookupDevice',
    fill: (c, a) => a.ptr('client', c.ptr).i32('id', c.devices()[0]!.id),
    check: (c, a) => check.equal(a.getPtr('device'), c.devices()[0]!.ptr, 'LookupDevice through skewed Args must find the device'),
  },
  {
    id: 'device_count',
    slot: 'PJRT_Client_Devices',
    fill: (c, a) => a.ptr('client', c.ptr),
    check: (c, a) => check.equal(a.getSize('num_devices'), c.devices().length, 'Devices through skewed Args must count every device'),
  },
];

const NEWER_TAIL = 64;
const SENTINEL = 0xcd;

/** Fills the Args' bytes from `from` (an older struct_size) to their end with the sentinel. */
function fillTail(a: Args, from: number): void {
  a.buf.fill(SENTINEL, from);
}

/** The bytes past an older struct_size must be as the caller left them: the plugin must not write there. */
function checkTail(a: Args, from: number, slot: string): void {
  const tail = a.buf.subarray(from);
  const changed = tail.findIndex((b) => b !== SENTINEL);
  check.ok(changed < 0, `${slot} must not write past the caller's struct_size ${from}`, `bytes ${from}…${a.buf.length - 1} untouched`, () => `byte ${from + changed} changed`);
}

t.case('newer_struct_size_accepted', {
  source: 'framework',
  cite: 'xla/pjrt/pjrt_api.cc loads plugins down to minor kMinPjRtMinor (a forward-compatibility window) and the C API client (xla/pjrt/c_api_client/pjrt_c_api_client.cc) always passes its own header\'s <Args>_STRUCT_SIZE, so a plugin older than the framework sees larger struct_size values; the header: new fields are only appended ("Adding a new field to the PJRT_Api or argument structs" is a minor change), and XLA\'s wrapper accepts larger sizes (ActualStructSizeIsGreaterOrEqual)',
  catches: ['rejects_larger_struct_size'],
})
  .params(PROBES)
  .run(async ({ plugin, client, p }) => {
    const size = layoutOf(plugin.raw.args(p.slot).layout.name).structSize + NEWER_TAIL;
    const a = plugin.raw.args(p.slot, size);
    p.fill(client, a);
    plugin.raw.call(p.slot, a); // a newer caller's Args (zero-filled tail) must be accepted
    p.check(client, a);
  });

/** Args with struct_size of an older minor: only structs that grew have one; use the Args' own previous fields. */
// The reference plugin never uses the newest Client_Create fields, so its misreads_older_struct_size does not show
// here (older_struct_size_query and older_struct_size_tail_ignored catch it); other plugins may crash on the garbage.
t.case('older_struct_size_clean', {
  source: 'header',
  cite: 'pjrt_c_api.h versioning: "Implementations can implement backwards compatibility by using the `struct_size` fields to detect how many struct fields the caller is aware of" — optional (XLA rejects smaller sizes with INVALID_ARGUMENT), but bytes past the caller\'s struct_size are not the caller\'s struct: a plugin either rejects it or works within it, and never writes past it',
  catches: ['crash_in=PJRT_Client_Create'],
}).run(async ({ plugin, client }) => {
  // PJRT_Client_Create_Args grew (kv callbacks at 0.x, more later): an older caller leaves them out.
  const slot = 'PJRT_Client_Create';
  const full = layoutOf('PJRT_Client_Create_Args');
  const last = full.fields[full.fields.length - 1]!;
  const older = last.offset; // struct_size that ends just before the newest field
  const a = plugin.raw.args(slot, Math.max(older, full.fields[2]!.offset));
  fillTail(a, older); // garbage past the older struct_size: must never be read
  void client;
  const r = await check.okOrCleanError(() => plugin.raw.call(slot, a), 'Client_Create with an older struct_size must work or fail cleanly');
  checkTail(a, older, slot);
  if (r.error === undefined) {
    const c = a.getPtr('client');
    if (c !== null) await plugin.raw.callAsync('PJRT_Client_Destroy', plugin.raw.args('PJRT_Client_Destroy').ptr('client', c));
  }
});

/** A query whose Args struct grew: how to make the call (given a compiled executable) and what to read back. */
interface OlderProbe {
  id: string;
  slot: string;
  fill: (c: Client, exe: LoadedExecutable, a: Args) => void;
  check: (c: Client, exe: LoadedExecutable, a: Args) => void;
}

/** Candidate queries; only those whose Args struct grew in the ABI table (previousStructSize) become cases. */
const OLDER_CANDIDATES: readonly OlderProbe[] = [
  {
    id: 'memory_stats',
    slot: 'PJRT_Device_MemoryStats',
    fill: (c, _e, a) => a.ptr('device', c.addressableDevices()[0]!.ptr),
    check: (_c, _e, a) => check.ok(a.getI64('bytes_in_use') >= 0n, 'MemoryStats through an older struct still reports bytes_in_use', '≥ 0', `${a.getI64('bytes_in_use')}`),
  },
  {
    id: 'compiled_memory_stats',
    slot: 'PJRT_Executable_GetCompiledMemoryStats',
    fill: (_c, e, a) => a.ptr('executable', e.executable().ptr),
    check: (_c, e, a) => check.equal(a.getI64('output_size_in_bytes'), e.executable().compiledMemoryStats()['output_size_in_bytes'], 'GetCompiledMemoryStats through an older struct must report what the current struct reports'),
  },
];

const OLDER_PROBES = OLDER_CANDIDATES.flatMap((p) => {
  const previous = previousStructSize(`${p.slot}_Args`);
  return previous ? [{ ...p, ...previous }] : [];
});

t.case('older_struct_size_query', {
  source: 'header',
  cite: 'pjrt_c_api.h versioning: implementations may support older callers "by using the `struct_size` fields to detect how many struct fields the caller is aware of" — a smaller struct_size is accepted or rejected cleanly, and nothing past it is read or written. Only Args structs that grew (a field newer than the struct, per the ABI table\'s `since` minors) are tried, at the struct_size of the minor before their newest field: a struct that never grew has no older size a real caller sends',
  catches: ['misreads_older_struct_size'],
  requires: { slots: ['PJRT_Client_Compile'] },
})
  .params(OLDER_PROBES)
  .run(async ({ client, p }) => {
    const exe = await compileText(client, addOne());
    const a = client.api.args(p.slot, p.structSize);
    fillTail(a, p.structSize);
    p.fill(client, exe, a);
    const r = await check.okOrCleanError(() => client.api.call(p.slot, a), `${p.slot} with the struct_size of 0.${p.minor} (${p.structSize}) must work or fail cleanly`);
    checkTail(a, p.structSize, p.slot);
    if (r.error === undefined) p.check(client, exe, a);
  });

const VIEW = 'PJRT_Client_CreateViewOfDeviceBuffer';

/** CreateViewOfDeviceBuffer_Args from before `memory` was added, with a valid memory pointer right after them:
 *  the plugin must place the view by `device` and never look at the bytes past struct_size. */
t.case('older_struct_size_tail_ignored', {
  source: 'header',
  cite: 'PJRT_Client_CreateViewOfDeviceBuffer_Args: `memory` was appended after `device` ("The device that `device_buffer_ptr` is on. The argument is ignored if `memory` is provided"); a caller whose struct_size ends before `memory` has not provided it, so the view goes by `device` (or the call is rejected cleanly)',
  catches: ['misreads_older_struct_size'],
  requires: { slots: [VIEW, 'PJRT_Buffer_Memory', 'PJRT_Buffer_OpaqueDeviceMemoryDataPointer', 'PJRT_Buffer_IncreaseExternalReferenceCount'] },
}).run(async (ctx) => {
  const { plugin, client, device } = ctx;
  const full = layoutOf(`${VIEW}_Args`);
  const memoryField = full.fields.find((f) => f.name === 'memory');
  if (memoryField === undefined) return ctx.skip(`${VIEW}_Args has no memory field in this CTS's table`);
  const older = memoryField.offset;
  const decoy = client.addressableMemories().find((m) => !same(m, device.defaultMemory()));
  if (decoy === undefined) return ctx.skip('needs a second addressable memory to place behind the older struct');
  const host = pattern(dtype('u8'), [64]);
  const buf = await client.upload(host, { dtype: 'u8', dims: [64], device });
  buf.increaseExternalRef(); // keeps the viewed memory alive while the view exists
  const a = plugin.raw.args(VIEW, older);
  fillTail(a, older);
  a.ptr('memory', decoy.ptr); // past struct_size: what a plugin that misreads the struct would use
  a.ptr('client', client.ptr).ptr('device_buffer_ptr', buf.opaqueDeviceMemoryDataPointer()).i64s('dims', 'num_dims', [64]);
  a.i32('element_type', enumValue('PJRT_Buffer_Type', 'U8')).ptr('device', device.ptr);
  // Within the older struct, the fields as a framework fills them: a layout and an on_delete_callback (jaxlib's DLPack).
  const deleter = viewDeleteTracker();
  a.struct('layout', memoryLayoutArgs(plugin.raw, denseLayout(1))).ptr('on_delete_callback', deleter.callback).ptr('on_delete_callback_arg', deleter.userArg);
  const r = await check.okOrCleanError(() => plugin.raw.call(VIEW, a), `${VIEW} with the struct_size of a caller that predates 'memory' must work or fail cleanly`);
  if (r.error === undefined) {
    const view = a.getPtr('buffer');
    check.ok(view !== null, `${VIEW} succeeded, so it must return a buffer`, 'a buffer', 'NULL');
    const m = plugin.raw.args('PJRT_Buffer_Memory').ptr('buffer', view);
    plugin.raw.call('PJRT_Buffer_Memory', m);
    plugin.raw.call('PJRT_Buffer_Destroy', plugin.raw.args('PJRT_Buffer_Destroy').ptr('buffer', view));
    const want = device.defaultMemory();
    const got = m.getPtr('memory');
    const gotMemory = client.addressableMemories().find((x) => x.ptr === got);
    check.ok(
      got !== decoy.ptr,
      `a view made by device (no memory field within struct_size) must not be placed by the memory pointer found past struct_size (the caller did not provide that field)`,
      `a memory of the device (e.g. its default, ${want.id()} (${want.kind()})), not ${decoy.id()} (${decoy.kind()})`,
      () => (gotMemory ? `memory ${gotMemory.id()} (${gotMemory.kind()})${same(gotMemory, decoy) ? ', the one past struct_size' : ''}` : String(got)),
    );
  }
  buf.decreaseExternalRef();
});

t.case('unknown_named_value_type', {
  source: 'quality',
  cite: 'the header does not say what happens to a PJRT_NamedValue whose `type` the plugin does not know (XLA LOG(FATAL)s and the process aborts), but a newer caller may send a type added after the plugin was built: rejecting it with an error lets the framework report the skew instead of dying',
  control: 'the configured create options make a client (the case\'s own client)',
  catches: ['accepts_wrong_option_type'],
}).run(async ({ plugin, client, config }) => {
  void client; // created by the harness with the configured options: the positive control
  const nv = plugin.raw.args('PJRT_NamedValue').bytes('name', 'name_size', nodeIdOption(config)).i32('type', 77).size('value_size', 1);
  const a = plugin.raw.args('PJRT_Client_Create').struct('create_options', nv).size('num_options', 1);
  await check.rejects(() => plugin.raw.callAsync('PJRT_Client_Create', a), 'a create option with an unknown PJRT_NamedValue type should be rejected with an error (not accepted, not an abort)');
});

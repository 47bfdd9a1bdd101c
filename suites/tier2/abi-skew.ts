// Tier 2 — ABI skew: Args with the struct_size of an older minor, or of a newer minor with a zero-filled tail.
// A plugin must accept or reject cleanly; never crash, never read past struct_size.
import { area } from '../../src/harness/index.js';
import { layoutOf } from '../../src/abi/index.js';
import * as check from '../_lib/check.js';
import { nodeIdOption } from '../_lib/config.js';
import type { Plugin, Client } from '../../src/pjrt/index.js';

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

t.case('newer_struct_size_accepted', { catches: ['rejects_larger_struct_size'] })
  .params(PROBES)
  .run(async ({ plugin, client, p }) => {
    const size = layoutOf(plugin.raw.args(p.slot).layout.name).structSize + NEWER_TAIL;
    const a = plugin.raw.args(p.slot, size);
    p.fill(client, a);
    plugin.raw.call(p.slot, a); // a newer caller's Args (zero-filled tail) must be accepted
    p.check(client, a);
  });

/** Args with struct_size of an older minor: only structs that grew have one; use the Args' own previous fields. */
t.case('older_struct_size_clean', { catches: ['misreads_older_struct_size'] }).run(async ({ plugin, client }) => {
  // PJRT_Client_Create_Args grew (kv callbacks at 0.x, more later): an older caller leaves them out.
  const slot = 'PJRT_Client_Create';
  const full = layoutOf('PJRT_Client_Create_Args');
  const last = full.fields[full.fields.length - 1]!;
  const older = last.offset; // struct_size that ends just before the newest field
  const a = plugin.raw.args(slot, Math.max(older, full.fields[2]!.offset));
  a.buf.fill(0xcd, older); // garbage past the older struct_size: must never be read
  void client;
  const r = await check.okOrCleanError(() => plugin.raw.call(slot, a), 'Client_Create with an older struct_size must work or fail cleanly');
  if (r.error === undefined) {
    const c = a.getPtr('client');
    if (c !== null) await plugin.raw.callAsync('PJRT_Client_Destroy', plugin.raw.args('PJRT_Client_Destroy').ptr('client', c));
  }
});

t.case('older_struct_size_query', { catches: ['misreads_older_struct_size'] })
  .params(PROBES)
  .run(async ({ plugin, client, p }) => {
    const layout = plugin.raw.args(p.slot).layout;
    const lastOut = layout.fieldNames()[layout.fieldNames().length - 1]!;
    const older = layout.offset(lastOut); // pretend the caller predates the last field
    const a = plugin.raw.args(p.slot, older);
    p.fill(client, a);
    await check.okOrCleanError(() => plugin.raw.call(p.slot, a), `${p.slot} with struct_size ${older} must work or fail cleanly`);
  });

t.case('unknown_named_value_type', { catches: ['accepts_wrong_option_type'] }).run(async ({ plugin, client, config }) => {
  void client;
  const nv = plugin.raw.args('PJRT_NamedValue').bytes('name', 'name_size', nodeIdOption(config)).i32('type', 77).size('value_size', 1);
  const a = plugin.raw.args('PJRT_Client_Create').struct('create_options', nv).size('num_options', 1);
  await check.rejects(() => plugin.raw.callAsync('PJRT_Client_Create', a), 'a create option with an unknown PJRT_NamedValue type must be rejected cleanly', ['INVALID_ARGUMENT', 'UNIMPLEMENTED']);
});

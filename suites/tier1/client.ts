// Tier 1 — PJRT_Client: creation and destruction, create options, platform identity.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { newClient } from '../_lib/clients.js';
import { createOptionsOf, nodeIdOption, strictCreateOptions, type NamedValue } from '../_lib/config.js';

const t = area('tier1.client', { tier: 1, requires: { slots: ['PJRT_Client_Create', 'PJRT_Client_Destroy'] } });

t.case('create_destroy_repeatedly', { catches: ['crash_in=PJRT_Client_Create', 'single_client_only'] }).run(async (ctx) => {
  for (let i = 0; i < 5; i++) {
    const c = await newClient(ctx);
    check.ok(c.devices().length > 0, 'a created client must report devices', '≥ 1 device', '0');
    await c.destroy();
  }
});

t.case('two_clients_at_once', { catches: ['single_client_only'] }).run(async (ctx) => {
  const a = await newClient(ctx);
  const b = await newClient(ctx);
  check.equal(b.platformName(), a.platformName(), 'two live clients of one plugin must report the same platform');
  check.equal(b.devices().length, a.devices().length, 'two live clients must see the same devices');
  await b.destroy();
  check.ok(a.devices().length > 0, 'destroying one client must leave the other usable', 'devices', 'none');
});

t.case('platform_name', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  check.nonEmptyString(client.platformName(), 'PJRT_Client_PlatformName must return a non-empty name');
});

t.case('platform_name_stable', { catches: ['platform_name_unstable'] }).run(({ client }) => {
  const first = client.platformName();
  for (let i = 0; i < 3; i++) check.equal(client.platformName(), first, 'PJRT_Client_PlatformName must not change between calls');
});

t.case('platform_version', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  check.nonEmptyString(client.platformVersion(), 'PJRT_Client_PlatformVersion must return a non-empty version');
  check.equal(client.platformVersion(), client.platformVersion(), 'PJRT_Client_PlatformVersion must be stable');
});

t.case('process_index_single', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  check.equal(client.processIndex(), 0, 'a single-process client must report process index 0');
});

t.case('unknown_option_rejected', { catches: ['accepts_unknown_create_option', 'wrong_error_code'] }).run(async (ctx) => {
  if (!strictCreateOptions(ctx.config)) return ctx.skip('the plugin config declares lenient create options');
  await check.rejects(
    () => newClient(ctx, { pjrt_cts_no_such_option: 1n }),
    'PJRT_Client_Create must reject an unknown option name',
    ['INVALID_ARGUMENT'],
  );
});

/** The same value under a different PJRT_NamedValue type, so a plugin that misreads it would succeed. */
function otherType(v: NamedValue): NamedValue {
  switch (typeof v) {
    case 'bigint': return Number(v); // kInt64 → kFloat of the same value
    case 'number': return String(v);
    case 'boolean': return v ? 1n : 0n;
    case 'string': return 1n;
    default: return 'not-a-list';
  }
}

t.case('wrong_type_option_rejected', { catches: ['accepts_wrong_option_type', 'wrong_error_code'] }).run(async (ctx) => {
  if (!strictCreateOptions(ctx.config)) return ctx.skip('the plugin config declares lenient create options');
  const configured = Object.entries(createOptionsOf(ctx.config));
  const [name, value] = configured[0] ?? [nodeIdOption(ctx.config), 0n];
  const e = await check.rejects(
    () => newClient(ctx, { [name]: otherType(value) }),
    `PJRT_Client_Create must reject option '${name}' given with the wrong PJRT_NamedValue type`,
    ['INVALID_ARGUMENT'],
  );
  check.ok(e.message.includes(name), 'the error should name the offending option', `a message naming '${name}'`, `"${e.message}"`);
});

t.case('destroy_after_buffer_use', { catches: ['crash_in=PJRT_Client_BufferFromHostBuffer'], requires: { slots: ['PJRT_Client_BufferFromHostBuffer'] } }).run(
  async (ctx) => {
    const c = await newClient(ctx);
    const b = await c.upload(new Uint8Array(16), { dtype: 'f32', dims: [4] });
    b.destroy();
    await c.destroy();
  },
);

// Tier 0 — the path every other case relies on: load, create a client, name the platform, list devices,
// report an error with its code. Each case names the reference-plugin fault it must catch.
import { area } from '../../src/harness/index.js';

const t = area('tier0.runner', { tier: 0, required: true });

t.case('client_create_destroy', { catches: ['abort_in=PJRT_Client_Create', 'hang_in=PJRT_Client_Create'], requires: ['PJRT_Client_Create', 'PJRT_Client_Destroy'] })
  .run(async ({ plugin, scope, config }) => {
    const client = await plugin.createClient({ options: config.createOptions, scope });
    await client.destroy();
  });

t.case('platform_name', { catches: ['crash_in=PJRT_Client_PlatformName', 'platform_name_unstable'], requires: ['PJRT_Client_PlatformName'] })
  .run(({ client, expect }) => {
    const name = client.platformName();
    expect.ok(name.length > 0, 'PJRT_Client_PlatformName must return a non-empty name');
    expect.equal(client.platformName(), name, 'PJRT_Client_PlatformName must return the same name on every call');
  });

t.case('addressable_devices', { catches: ['crash_in=PJRT_Client_AddressableDevices', 'hang_in=PJRT_Client_AddressableDevices'], requires: ['PJRT_Client_AddressableDevices'] })
  .run(({ devices, expect }) => {
    expect.ok(devices.length > 0, 'a client must have at least one addressable device');
  });

t.case('unknown_create_option', { catches: ['accepts_unknown_create_option', 'wrong_error_code', 'error_code_out_of_range'], requires: ['PJRT_Client_Create'] })
  .run(async ({ plugin, scope, config, expect }) => {
    const options = { ...config.createOptions, pjrt_cts_no_such_option: 1n };
    const err = await expect.pjrtError(plugin.createClient({ options, scope }), 'INVALID_ARGUMENT', 'PJRT_Client_Create with an unknown option name');
    expect.ok(err.message.length > 0, 'the error must carry a message');
  });

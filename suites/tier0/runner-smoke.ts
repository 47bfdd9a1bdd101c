// Tier 0 — the path every other case relies on: load, create a client, name the platform, list devices,
// report an error with its code. Each case names the reference-plugin fault it must catch.
// Cases about client creation take a client of their own (`client: 'fresh'`; with plugins.json maxLiveClients: 1 the
// worker's shared client is dropped first) and destroy it before creating another, so none needs two live clients.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { strictCreateOptions } from '../_lib/config.js';

const t = area('tier0.runner', { tier: 0, required: true });

t.case('client_create_destroy', {
  source: 'header',
  cite: 'PJRT_Client_Create "Creates and initializes a new PJRT_Client"; PJRT_Client_Destroy "Shuts down and frees `client`"',
  catches: ['abort_in=PJRT_Client_Create', 'hang_in=PJRT_Client_Create'],
  requires: ['PJRT_Client_Create', 'PJRT_Client_Destroy'],
  client: 'fresh',
}).run(async ({ client }) => {
  // The harness created this client with the configured options (PJRT_Client_Create); the case destroys it.
  check.nonEmptyString(client.platformName(), 'a created client must be usable (PJRT_Client_PlatformName)');
  await client.destroy();
});

t.case('platform_name', {
  source: 'header',
  cite: 'PJRT_Client_PlatformName: "Returns a string that identifies the platform (e.g. "cpu", "gpu", "tpu")" — an empty string identifies nothing',
  catches: ['crash_in=PJRT_Client_PlatformName'],
  requires: ['PJRT_Client_PlatformName'],
}).run(({ client }) => {
  check.nonEmptyString(client.platformName(), 'PJRT_Client_PlatformName must return a string that identifies the platform');
});

t.case('addressable_devices', {
  source: 'framework',
  cite: 'JAX runs a computation that names no device on the backend\'s first local device (jax.local_devices()[0], or get_default_device_assignment(1)[0] in older releases): a client without an addressable device runs nothing; XLA\'s own pjrt_c_api_test.cc ClientAddressableDevices asserts the list is non-empty',
  catches: ['crash_in=PJRT_Client_AddressableDevices', 'hang_in=PJRT_Client_AddressableDevices'],
  requires: ['PJRT_Client_AddressableDevices'],
}).run(({ devices }) => {
  check.ok(devices.length > 0, 'a client must have at least one addressable device (frameworks run on the first)', '≥ 1 device', '0');
});

// Whether an unknown option is rejected is the plugin's choice (the header says only "Extra platform-specific
// options"); XLA's plugins reject it (ValidateCreateOptions), and a misspelt option silently ignored misleads.
t.case('unknown_create_option', {
  source: 'quality',
  cite: 'PJRT_Client_Create_Args.create_options: "Extra platform-specific options" — nothing requires rejecting an unknown name, but XLA\'s plugins do (pjrt::ValidateCreateOptions, pjrt_c_api_helpers.cc) and a misspelt option that is silently ignored misleads the user',
  control: 'PJRT_Client_Create with the configured options',
  catches: ['accepts_unknown_create_option', 'error_code_out_of_range'],
  requires: ['PJRT_Client_Create'],
  client: 'fresh',
  required: false,
}).run(async ({ plugin, scope, config, client, skip }) => {
  if (!strictCreateOptions(config)) return skip('the plugin config declares lenient create options');
  await client.destroy();
  const own = await check.control('PJRT_Client_Create with the configured options', () => plugin.createClient({ options: config.createOptions, scope }));
  await own.destroy();
  const options = { ...config.createOptions, pjrt_cts_no_such_option: 1n };
  await check.rejects(() => plugin.createClient({ options, scope }).then((c) => `a client of platform ${c.platformName()} with ${c.devices().length} devices`), 'PJRT_Client_Create with an unknown option name should fail (quality; XLA\'s plugins reject it)');
});

// Tier 1 — PJRT_Client: creation and destruction, create options, platform identity.
// Cases that create clients of their own take a fresh client (`client: 'fresh'`; with plugins.json maxLiveClients: 1
// the worker's shared client is dropped first) and destroy it before creating another, so that only
// two_clients_at_once needs two live clients of its own.
import { area, type CaseContext } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { createOptionsOf, strictCreateOptions, type NamedValue } from '../_lib/config.js';

const t = area('tier1.client', { tier: 1, requires: { slots: ['PJRT_Client_Create', 'PJRT_Client_Destroy'] } });

t.case('create_destroy_repeatedly', {
  source: 'header',
  cite: 'PJRT_Client_Create "Creates and initializes a new PJRT_Client"; PJRT_Client_Destroy "Shuts down and frees `client`" — nothing limits how often a process does so',
  catches: ['crash_in=PJRT_Client_Create', 'crash_in=PJRT_Client_Destroy'],
  client: 'fresh',
}).run(async (ctx) => {
  await ctx.client.destroy();
  for (let i = 0; i < 5; i++) {
    const c = await ctx.newClient();
    check.nonEmptyString(c.platformName(), `client ${i + 1} of 5, created after destroying the previous one, must be usable (PJRT_Client_PlatformName)`);
    await c.destroy();
  }
});

t.case('two_clients_at_once', {
  source: 'quality',
  cite: 'the header does not promise that two clients may live at once (some accelerators are held by one client), but test harnesses and processes that host two frameworks create a second client; destroying one should leave the other usable',
  catches: ['single_client_only'],
  client: 'fresh',
}).run(async (ctx) => {
  const a = ctx.client;
  const b = await ctx.newClient();
  check.nonEmptyString(b.platformName(), 'a second live client should be usable (quality)');
  await b.destroy();
  check.nonEmptyString(a.platformName(), 'destroying one client should leave the other usable (quality)');
});

t.case('platform_name', {
  source: 'header',
  cite: 'PJRT_Client_PlatformName: "Returns a string that identifies the platform (e.g. "cpu", "gpu", "tpu")" — an empty string identifies nothing',
  catches: ['crash_in=PJRT_Client_PlatformName'],
}).run(({ client }) => {
  check.nonEmptyString(client.platformName(), 'PJRT_Client_PlatformName must return a string that identifies the platform');
});

t.case('platform_name_stable', {
  source: 'header',
  cite: 'PJRT_Client_PlatformName "Returns a string that identifies the platform", and `platform_name` "has the same lifetime as `client`": one client has one platform',
  catches: ['platform_name_unstable'],
}).run(({ client }) => {
  const first = client.platformName();
  for (let i = 0; i < 3; i++) check.equal(client.platformName(), first, 'PJRT_Client_PlatformName must identify the same platform on every call');
});

t.case('platform_version', {
  source: 'header',
  cite: 'PJRT_Client_PlatformVersion: "Returns a string containing human-readable, platform-specific version info" — an empty string contains none',
  catches: ['crash_in=PJRT_Client_PlatformVersion'],
}).run(({ client }) => {
  check.nonEmptyString(client.platformVersion(), 'PJRT_Client_PlatformVersion must return version info');
});

t.case('platform_version_stable', {
  source: 'framework',
  cite: 'JAX puts backend.platform_version into its persistent compilation cache key (jax/_src/cache_key.py), so it must not change between calls on one client',
  catches: ['crash_in=PJRT_Client_PlatformVersion'],
}).run(({ client }) => {
  const first = client.platformVersion();
  check.equal(client.platformVersion(), first, 'PJRT_Client_PlatformVersion must return the same version on every call (JAX keys its compilation cache on it)');
});

t.case('process_index_single', {
  source: 'header',
  cite: 'PJRT_Client_ProcessIndex: "Return the process index of this client. Always 0 in single-process settings"',
  catches: ['crash_in=PJRT_Client_ProcessIndex'],
}).run(({ client }) => {
  check.equal(client.processIndex(), 0, 'PJRT_Client_ProcessIndex: "Always 0 in single-process settings"');
});

const CONTROL = 'PJRT_Client_Create with the configured options';

/** A client that should not have been created, described for the message. */
const created = (c: { platformName(): string; devices(): unknown[] }): string => `a client of platform ${c.platformName()} with ${c.devices().length} devices`;

/** The configured client is destroyed, then a client with the configured options must be created (the control). */
async function controlCreate(ctx: CaseContext<unknown>): Promise<void> {
  await ctx.client.destroy();
  const c = await check.control(CONTROL, () => ctx.newClient());
  await c.destroy();
}

// The header says only "Extra platform-specific options": rejecting unknown names is XLA's behaviour, not a rule.
t.case('unknown_option_rejected', {
  source: 'quality',
  cite: 'PJRT_Client_Create_Args.create_options: "Extra platform-specific options" — nothing requires rejecting an unknown name, but XLA\'s plugins do (pjrt::ValidateCreateOptions, pjrt_c_api_helpers.cc) and a misspelt option silently ignored misleads the user',
  control: CONTROL,
  catches: ['accepts_unknown_create_option'],
  client: 'fresh',
}).run(async (ctx) => {
  if (!strictCreateOptions(ctx.config)) return ctx.skip('the plugin config declares lenient create options');
  await controlCreate(ctx);
  await check.rejects(() => ctx.newClient({ pjrt_cts_no_such_option: 1n }).then(created), 'PJRT_Client_Create should reject an unknown option name (quality; XLA\'s plugins do)');
});

t.case('unknown_option_code', {
  source: 'quality',
  cite: 'no code is named for a rejected create option; XLA\'s plugins answer INVALID_ARGUMENT "Unexpected option name passed to PJRT_Client_Create" (pjrt::ValidateCreateOptions), which tells the user the argument was wrong',
  control: CONTROL,
  dependsOn: 'tier1.client.unknown_option_rejected',
  catches: ['wrong_error_code'],
  client: 'fresh',
}).run(async (ctx) => {
  if (!strictCreateOptions(ctx.config)) return ctx.skip('the plugin config declares lenient create options');
  await controlCreate(ctx);
  await check.rejects(() => ctx.newClient({ pjrt_cts_no_such_option: 1n }).then(created), 'an unknown create option should be rejected with INVALID_ARGUMENT (quality; what XLA answers)', ['INVALID_ARGUMENT']);
});

/**
 * The configured value under another PJRT_NamedValue type, with the same bits in the value union where the sizes
 * allow: a plugin that never looks at `type` reads the union as the type it expects and gets the configured value
 * back, so it would succeed — and is caught. (int64 n → kFloat whose bits are n; float → kInt64 holding its bits;
 * bool → kInt64 0/1.)
 */
function sameBitsOtherType(v: NamedValue): NamedValue {
  switch (typeof v) {
    case 'bigint':
      if (v >= 0n && v < 0x7f800000n) return new Float32Array(new Uint32Array([Number(v)]).buffer)[0]!;
      return Number(v);
    case 'number':
      return BigInt(new Uint32Array(new Float32Array([v]).buffer)[0]!);
    case 'boolean':
      return v ? 1n : 0n;
    case 'string':
      return 1n;
    default:
      return 'not-a-list';
  }
}

function mistyped(config: unknown): { name: string; value: NamedValue } | undefined {
  const first = Object.entries(createOptionsOf(config))[0];
  return first ? { name: first[0], value: sameBitsOtherType(first[1]) } : undefined;
}

t.case('wrong_type_option_rejected', {
  source: 'quality',
  cite: 'PJRT_NamedValue carries a `type`; nothing requires rejecting a known option sent with another type, but XLA\'s plugins do (pjrt::ValidateCreateOptions) and a plugin that ignores `type` misreads the value',
  control: CONTROL,
  catches: ['accepts_wrong_option_type'],
  client: 'fresh',
}).run(async (ctx) => {
  if (!strictCreateOptions(ctx.config)) return ctx.skip('the plugin config declares lenient create options');
  const bad = mistyped(ctx.config);
  if (!bad) return ctx.needsConfig('createOptions', 'a create option to send with another PJRT_NamedValue type');
  await controlCreate(ctx);
  await check.rejects(
    () => ctx.newClient({ [bad.name]: bad.value }).then(created),
    `PJRT_Client_Create should reject option '${bad.name}' given with another PJRT_NamedValue type (quality; XLA's plugins do)`,
  );
});

t.case('wrong_type_option_code', {
  source: 'quality',
  cite: 'no code is named for a mistyped create option; XLA\'s plugins answer INVALID_ARGUMENT (pjrt::ValidateCreateOptions), which tells the user the argument was wrong',
  control: CONTROL,
  dependsOn: 'tier1.client.wrong_type_option_rejected',
  catches: ['wrong_error_code'],
  client: 'fresh',
}).run(async (ctx) => {
  if (!strictCreateOptions(ctx.config)) return ctx.skip('the plugin config declares lenient create options');
  const bad = mistyped(ctx.config);
  if (!bad) return ctx.needsConfig('createOptions', 'a create option to send with another PJRT_NamedValue type');
  await controlCreate(ctx);
  await check.rejects(
    () => ctx.newClient({ [bad.name]: bad.value }).then(created),
    `a mistyped create option ('${bad.name}') should be rejected with INVALID_ARGUMENT (quality; what XLA answers)`,
    ['INVALID_ARGUMENT'],
  );
});

t.case('destroy_after_buffer_use', {
  source: 'header',
  cite: 'PJRT_Client_Destroy "Shuts down and frees `client`" — with no condition on buffers it created and that were freed before',
  catches: ['crash_in=PJRT_Client_BufferFromHostBuffer'],
  requires: { slots: ['PJRT_Client_BufferFromHostBuffer'] },
  client: 'fresh',
}).run(async ({ client }) => {
  const b = await client.upload(new Uint8Array(16), { dtype: 'f32', dims: [4] });
  b.destroy();
  await client.destroy();
});

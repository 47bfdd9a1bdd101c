// Examples for a new case author: four cases of the area `examples.first`, one per thing a case may need. They are
// not part of the CTS: they live outside suites/, so neither `list` nor `run` sees them unless told to:
//   npx tsc -p tsconfig.json
//   PJRT_CTS_SUITES=dist/examples node dist/bin/pjrt-cts.js run -p reference
// On the reference plugin: simple and parameterised pass, needs_capability is unsupported, needs_config is skip.
// test/examples.test.ts runs them and proves the claims with the faults they name (docs/contributing.md, "A new case").
import { area, defineCapability, params } from '../src/harness/index.js';
import * as check from '../suites/_lib/check.js';
import { dtype, pattern } from '../suites/_lib/patterns.js';
import { shape } from '../suites/_lib/shapes.js';
import { uploadOrUnsupported } from '../suites/_lib/transfer.js';

// Every case of an area shares its tier and its requirements (PJRT_Api slots; a null one makes the case unsupported).
const t = area('examples.first', { tier: 1, requires: { slots: ['PJRT_Client_BufferFromHostBuffer'] } });

// 1. A simple case: one call, one check. `source` says where the demand comes from (here: the header), `cite` quotes
// the evidence, `catches` names the reference plugin's faults (fixtures/reference-plugin/faults.json) the case must
// fail under; the fault matrix switches each one on and proves it.
t.case('simple', {
  description: 'PJRT_Buffer_ElementType reports the type an f32 buffer was uploaded with',
  source: 'header',
  cite: 'PJRT_Buffer_ElementType: "Returns the type of the array elements of a buffer"',
  catches: ['wrong_element_type'],
}).run(async (ctx) => {
  const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype('f32'), [2, 3]), { dtype: 'f32', dims: [2, 3] });
  check.equal(buf.elementType(), 'f32', 'PJRT_Buffer_ElementType must report the type the buffer was created with');
});

// 2. A parameterised case: one case per row, the row's id appended to the case id (examples.first.parameterised.s32.2x3).
// Shapes are asymmetric on purpose: the fault `wrong_dims` reverses dims, which a square shape would hide.
t.case('parameterised', {
  description: 'PJRT_Buffer_Dimensions reports the dims a buffer was uploaded with, per type and shape',
  source: 'header',
  cite: 'PJRT_Buffer_Dimensions: "Returns the array shape of `buffer`, i.e. the size of each dimension"',
  catches: ['wrong_dims'],
})
  .params(params().combine('dt', ['f32', 's32']).combine('shape', [shape(2, 3), shape(4, 1, 5)]))
  .run(async (ctx) => {
    const { dt, shape: s } = ctx.p;
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype(dt), s.dims), { dtype: dt, dims: s.dims });
    check.equal(buf.dims(), [...s.dims], 'PJRT_Buffer_Dimensions must report the dims the buffer was created with');
  });

// 3. A case that needs a capability: a probe decides it once per worker; when it answers with a reason, the case
// is `unsupported` with that reason (the plugin lacks something the header lets it lack) and its body never runs.
// (On the reference plugin with `-o device_count=16` it runs, and the fault it claims is proven.)
defineCapability('examples.sixteen_devices', async (h) => {
  const n = (await h.client()).addressableDevices().length;
  return n >= 16 || `needs at least 16 addressable devices, the client has ${n}`;
});

t.case('needs_capability', {
  description: 'a buffer can be uploaded to each of sixteen devices (unsupported with fewer)',
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.device: "Device to copy host data to"',
  catches: ['crash_in=PJRT_Client_BufferFromHostBuffer'],
  requires: { capabilities: ['examples.sixteen_devices'] },
}).run(async (ctx) => {
  for (const device of ctx.devices.slice(0, 16)) {
    const buf = await uploadOrUnsupported(ctx, ctx.client, pattern(dtype('u8'), [4]), { dtype: 'u8', dims: [4], device });
    check.equal(buf.device().id, device.id, 'the buffer must live on the device it was uploaded to');
  }
});

// 4. A case that needs configuration: what only the plugins.json entry can say (here: a topology name for ahead-of-
// time compilation). Without it the case is `skip`, and the message names the entry field that would enable it.
t.case('needs_config', {
  description: 'the topology named in the plugins.json entry can be created and names its platform',
  source: 'header',
  cite: 'PJRT_TopologyDescription_Create: "Creates and initializes a new PJRT_TopologyDescription"; PJRT_TopologyDescription_PlatformName: "Returns a string that identifies the platform"',
  catches: ['crash_in=PJRT_TopologyDescription_Create'],
  requires: { slots: ['PJRT_TopologyDescription_Create', 'PJRT_TopologyDescription_PlatformName'] },
  client: 'none',
}).run((ctx) => {
  const name = ctx.config.topology;
  if (!name) return ctx.needsConfig('topology', 'a topology name to create');
  const topology = ctx.plugin.createTopology({ name, scope: ctx.scope });
  check.nonEmptyString(topology.platformName(), `the topology '${name}' must name its platform`);
});

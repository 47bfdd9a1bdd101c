// Tier 2 — the Layouts extension (pjrt_c_api_layouts_extension.h), as XLA's C-API client uses it: a layout is
// always serialized and parsed back with PjRtLayout::Deserialize, i.e. XLA's layout text (`{1,0}`).
// A plugin without the extension is `unsupported` here (XLA then assumes descending layouts).
import { area } from '../../src/harness/index.js';
import { Layouts, parseLayoutText } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { compileText } from '../_lib/exec.js';
import { addAndMul } from '../_lib/programs.js';

const t = area('tier2.ext.layouts', { tier: 2 });
const DIMS = [2, 3];
const SERIALIZED = 'PjRtCApiClient::GetDefaultLayout (xla/pjrt/c_api_client/pjrt_c_api_client.cc) serializes every PJRT_Layouts_MemoryLayout with PJRT_Layouts_MemoryLayout_Serialize and parses the bytes with PjRtLayout::Deserialize (xla::ParseLayout of the layout text, e.g. "{1,0}")';

/** Parses a serialized layout and checks it is a layout of `rank` dimensions. */
function dimsOf(text: string, rank: number, what: string): number[] {
  const l = parseLayoutText(text);
  check.ok(l !== null, `${what} must serialize to XLA layout text (PjRtLayout::Deserialize parses it)`, 'text like "{1,0}"', JSON.stringify(text));
  const sorted = [...l.minorToMajor].sort((a, b) => a - b);
  check.ok(check.deepEqual(sorted, [...Array(rank).keys()]), `${what}: minor_to_major must be a permutation of the ${rank} dimensions`, `a permutation of 0..${rank - 1}`, JSON.stringify(l.minorToMajor));
  return l.minorToMajor;
}

t.case('client_default_layout', {
  source: 'framework',
  cite: SERIALIZED,
  catches: ['layout_serialize_size_short'],
}).run(({ plugin, client }) => {
  dimsOf(new Layouts(plugin.raw).clientDefault(client, 'F32', DIMS), DIMS.length, 'the client default layout of f32[2,3]');
});

t.case('topology_default_layout', {
  source: 'framework',
  cite: `PjRtCApiTopologyDescription::GetDefaultLayout asks PJRT_Layouts_PJRT_Topology_GetDefaultLayout when JAX compiles for a topology without devices; ${SERIALIZED}`,
  catches: ['layout_serialize_size_short'],
  requires: { slots: ['PJRT_Client_TopologyDescription'] },
}).run((ctx) => {
  const topology = check.unimplementedIsUnsupported(ctx, 'the plugin offers no client topology', () => ctx.client.topology());
  return topology.then((t) => {
    dimsOf(new Layouts(ctx.plugin.raw).topologyDefault(t, 'F32', DIMS), DIMS.length, 'the topology default layout of f32[2,3]');
  });
});

t.case('buffer_layout_major_to_minor', {
  source: 'header',
  cite: 'PJRT_Client_BufferFromHostBuffer_Args.device_layout: "If nullptr, the device layout is assumed to be a dense layout with dimensions in major-to-minor order" — so PJRT_Layouts_PJRT_Buffer_MemoryLayout of such a buffer reports minor_to_major {1,0}',
  catches: ['buffer_layout_reversed', 'layout_serialize_size_short'],
}).run(async ({ plugin, client }) => {
  const buf = await client.upload(new Uint8Array(24), { dtype: 'f32', dims: DIMS });
  const m2m = dimsOf(new Layouts(plugin.raw).buffer(buf), DIMS.length, 'the layout of an f32[2,3] buffer');
  check.ok(check.deepEqual(m2m, [1, 0]), 'a buffer made without device_layout is dense major-to-minor, so its minor_to_major is {1,0}', '[1,0]', JSON.stringify(m2m));
});

t.case('executable_output_layouts', {
  source: 'header',
  cite: 'PJRT_Layouts_PJRT_Executable_GetOutputLayouts_Args.layouts "Has length `num_outputs`" — one layout per output of the executable (PJRT_Executable_NumOutputs), each of its output\'s rank (PJRT_Executable_OutputDimensions)',
  catches: ['output_layouts_count_short'],
  requires: { slots: ['PJRT_Executable_OutputDimensions'] },
}).run(async ({ plugin, client }) => {
  const exe = (await compileText(client, addAndMul(DIMS))).executable();
  const dims = exe.outputDimensions();
  const layouts = new Layouts(plugin.raw).outputs(exe);
  check.equal(layouts.length, dims.length, 'GetOutputLayouts must give one layout per executable output');
  layouts.forEach((l, i) => dimsOf(l, dims[i]!.length, `output ${i}'s layout`));
});

// Tier 1 — the topology a framework compiles against without devices (JAX's jax.experimental.topologies:
// PJRT_TopologyDescription_Create from a name and create options; XLA's GetCApiTopology). The topology cases of
// tier1.topology, on that created topology instead of a client's runtime one: they need no client, so they run in the
// compile-only profile. A plugin that creates no topology (XLA's CPU plugin: UNIMPLEMENTED) is unsupported.
import { area, type CaseContext } from '../../src/harness/index.js';
import { Layouts, MemoryDescriptions, parseLayoutText, type TopologyDescription } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { compileTarget, noCompilerIsUnsupported } from '../_lib/aot.js';
import { NAMED_VALUE_KINDS } from '../_lib/named.js';
import { checkCanonicalShape } from '../_lib/canonical-shape.js';
import { checkDeviceIdsUnique, checkFingerprintStable, checkTopologyAttributes } from '../_lib/topology-checks.js';

const t = area('tier1.aot_topology', {
  tier: 1, client: 'none',
  requires: { slots: ['PJRT_TopologyDescription_Create', 'PJRT_TopologyDescription_GetDeviceDescriptions'] },
});

const CREATE = 'PJRT_TopologyDescription_Create "Creates and initializes a new PJRT_TopologyDescription" (JAX: jax.experimental.topologies.get_topology_desc → xla_bridge.make_pjrt_tpu_topology); PJRT_TopologyDescription_GetDeviceDescriptions "Returns descriptions for all devices in this topology"';

const devicesOf = async (ctx: CaseContext<unknown>) => (await compileTarget(ctx)).deviceDescriptions();

t.case('devices', {
  source: 'header', cite: `${CREATE}: a topology to compile for describes at least one device`,
  catches: ['topology_create_empty'],
}).run(async (ctx) => {
  check.ok((await devicesOf(ctx)).length > 0, 'a created topology must describe its devices', '≥ 1 device', '0');
});

t.case('device_ids_unique', {
  source: 'header', cite: 'PJRT_DeviceDescription_Id: "IDs are unique among devices of this type (e.g. CPUs, GPUs)"; JAX\'s AOT compile builds its device assignment from these ids',
  catches: ['duplicate_device_ids'],
}).run(async (ctx) => checkDeviceIdsUnique(await devicesOf(ctx)));

t.case('device_strings', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_Kind "A vendor-dependent string that uniquely identifies the kind of device"; DebugString "verbose enough to describe the current device unambiguously"; ToString "reasonably terse" — empty strings describe nothing',
  catches: ['crash_in=PJRT_DeviceDescription_Kind', 'crash_in=PJRT_DeviceDescription_DebugString'],
}).run(async (ctx) => {
  for (const d of await devicesOf(ctx)) {
    check.nonEmptyString(d.kind, `device ${d.id}: PJRT_DeviceDescription_Kind must identify the kind of device`);
    check.nonEmptyString(d.debugString, `device ${d.id}: PJRT_DeviceDescription_DebugString must describe the device`);
    check.nonEmptyString(d.toString(), `device ${d.id}: PJRT_DeviceDescription_ToString must describe the device`);
  }
});

t.case('device_attributes_well_formed', {
  source: 'framework',
  cite: 'XLA\'s C-API client reads PJRT_DeviceDescription_Attributes through pjrt::ConvertFromPjRtNamedValueList (pjrt_c_api_helpers.cc), which LOG(FATAL)s on a type outside PJRT_NamedValue_Type (TPU descriptions carry coords and core_on_chip there)',
  catches: ['named_value_type_invalid'],
  requires: { slots: ['PJRT_DeviceDescription_Attributes'] },
}).run(async (ctx) => {
  for (const d of await devicesOf(ctx)) {
    for (const a of d.attributeList()) {
      check.ok(NAMED_VALUE_KINDS.includes(a.kind), `device ${d.id}, attribute '${a.name}': the value type must be a PJRT_NamedValue_Type`, NAMED_VALUE_KINDS.join('|'), a.kind);
    }
  }
});

t.case('platform', {
  source: 'header',
  cite: 'PJRT_TopologyDescription_PlatformName "Returns a string that identifies the platform (e.g. "cpu", "gpu", "tpu")"; PlatformVersion "human-readable, platform-specific version info"',
  catches: ['crash_in=PJRT_TopologyDescription_PlatformName'],
  requires: { slots: ['PJRT_TopologyDescription_PlatformName', 'PJRT_TopologyDescription_PlatformVersion'] },
}).run(async (ctx) => {
  const topology = await compileTarget(ctx);
  check.nonEmptyString(topology.platformName(), 'PJRT_TopologyDescription_PlatformName must identify the platform');
  check.ok(typeof topology.platformVersion() === 'string', 'PJRT_TopologyDescription_PlatformVersion returns a string', 'a string', 'none');
});

t.case('attributes_well_formed', {
  source: 'framework',
  cite: 'PJRT_TopologyDescription_Attributes "Returns platform-specific topology attributes" as PJRT_NamedValue, read through pjrt::ConvertFromPjRtNamedValueList (LOG(FATAL) on a type outside PJRT_NamedValue_Type); two calls agree',
  catches: ['topology_attribute_type_invalid'],
  requires: { slots: ['PJRT_TopologyDescription_Attributes'] },
}).run(async (ctx) => checkTopologyAttributes(await compileTarget(ctx)));

const sortedIds = (x: TopologyDescription): number[] => x.deviceDescriptions().map((d) => d.id).sort((a, b) => a - b);

t.case('serialize_roundtrip', {
  source: 'framework',
  cite: 'PJRT_TopologyDescription_Deserialize takes the bytes PJRT_TopologyDescription_Serialize produced; XLA\'s wrapper (pjrt_c_api_wrapper_impl.cc) round-trips PjRtTopologyDescription::ToProto, which JAX uses to ship a topology for ahead-of-time compilation (no compiler to deserialize through: unsupported)',
  catches: ['topology_serialize_drops_device', 'topology_deserialize_drops_device'],
  requires: { slots: ['PJRT_TopologyDescription_Serialize', 'PJRT_TopologyDescription_Deserialize', 'PJRT_TopologyDescription_Destroy'] },
}).run(async (ctx) => {
  const topology = await compileTarget(ctx);
  const bytes = await check.unimplementedIsUnsupported(ctx, 'the platform does not serialize topologies', () => topology.serialize());
  const copy = await noCompilerIsUnsupported(ctx, () => ctx.plugin.deserializeTopology(bytes, ctx.scope));
  check.equal(sortedIds(copy), sortedIds(topology), 'a deserialized topology must describe the devices of the serialized one');
  check.equal(copy.platformName(), topology.platformName(), 'a deserialized topology must be of the serialized one\'s platform');
});

t.case('fingerprint_stable', {
  source: 'framework',
  cite: 'PJRT_TopologyDescription_Fingerprint has no comment; XLA\'s PjRtTopologyDescription::Fingerprint "Returns a fingerprint of the topology for use in cache keys" (pjrt_compiler.h) — one unchanged topology keeps its key',
  catches: ['topology_fingerprint_unstable'],
  requires: { slots: ['PJRT_TopologyDescription_Fingerprint'] },
}).run(async (ctx) => checkFingerprintStable(ctx, await compileTarget(ctx)));

t.case('memory_kind_ids', {
  source: 'framework',
  cite: 'XLA\'s PjRtTopologyDescription::GetMemorySpaceKindIds: "A list of all memory spaces kind_ids supported by this topology … GetMemorySpaceKindIds()[0] should be the default memory space id" (pjrt_compiler.h); the default is the MemoryDescriptions extension\'s default_memory_index of a device description, when it has one',
  catches: ['memory_kind_ids_default_not_first'],
  requires: { slots: ['PJRT_TopologyDescription_GetMemorySpaceKindIds'] },
}).run(async (ctx) => {
  const topology = await compileTarget(ctx);
  const ids = await check.unimplementedIsUnsupported(ctx, 'the topology lists no memory kinds', () => topology.memorySpaceKindIds());
  check.ok(ids.length > 0, 'a topology supports at least its devices\' default memory kind', '≥ 1 kind id', '0');
  const ext = ctx.plugin.raw.extensionChain().entries.some((x) => x.typeName === MemoryDescriptions.TYPE);
  const d = topology.deviceDescriptions()[0];
  if (!ext || !d) return;
  const { memories, defaultIndex } = new MemoryDescriptions(ctx.plugin.raw).of(d);
  if (defaultIndex < 0 || defaultIndex >= memories.length) return;
  check.equal(ids[0], memories[defaultIndex]!.kindId, 'GetMemorySpaceKindIds()[0] must be the default memory\'s kind id');
});

t.case('canonical_shape', {
  source: 'framework',
  cite: 'XLA\'s PjRtTopologyDescription::MakeCanonicalShapeForMemorySpace "Returns the canonical shape for a memory_space … predicting the full shape + layout of a buffer after it is transferred" (pjrt_compiler.h; UNIMPLEMENTED → unsupported): the buffer\'s element type and dimensions, a layout over its dimensions (tiles allowed)',
  catches: ['canonical_shape_dims_reversed'],
  requires: { slots: ['PJRT_TopologyDescription_GetMemorySpaceKindIds', 'PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace'] },
}).run(async (ctx) => {
  const topology = await compileTarget(ctx);
  const ids = await check.unimplementedIsUnsupported(ctx, 'the topology lists no memory kinds', () => topology.memorySpaceKindIds());
  if (!ids.length) return ctx.unsupported('the topology lists no memory kinds');
  await checkCanonicalShape(ctx, topology, ids[0]!);
});

t.case('default_layout', {
  source: 'framework',
  cite: 'PjRtCApiTopologyDescription::GetDefaultLayout asks PJRT_Layouts_PJRT_Topology_GetDefaultLayout when JAX compiles for a topology without devices, serializes the layout (PJRT_Layouts_MemoryLayout_Serialize) and parses it with PjRtLayout::Deserialize (xla::ParseLayout: "{1,0}", or TPU\'s tiled "{1,0:T(8,128)}")',
  catches: ['layout_serialize_size_short'],
}).run(async (ctx) => {
  if (!ctx.plugin.raw.extensionChain().entries.some((x) => x.typeName === Layouts.TYPE)) return ctx.unsupported('the plugin has no Layouts extension');
  const topology = await compileTarget(ctx);
  const text = await check.unimplementedIsUnsupported(ctx, 'the topology has no default layouts', () => new Layouts(ctx.plugin.raw).topologyDefault(topology, 'F32', [128, 256]));
  const l = parseLayoutText(text);
  check.ok(l !== null, 'the topology default layout of f32[128,256] must serialize to XLA layout text', 'text like "{1,0}" or "{1,0:T(8,128)}"', JSON.stringify(text));
  check.equal([...l.minorToMajor].sort((a, b) => a - b), [0, 1], 'the default layout\'s minor_to_major must be a permutation of the dimensions');
  if (l.rest) ctx.log(`tiled default layout: ${text}`);
});

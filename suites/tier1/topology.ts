// Tier 1 — devices, addressability, lookups, descriptions, the topology description (runtime, created, serialized),
// device assignment.
import { area } from '../../src/harness/index.js';
import type { Client, TopologyDescription } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';
import { isPjrtError } from '../_lib/errors.js';
import { NAMED_VALUE_KINDS } from '../_lib/named.js';
import { checkCanonicalShape } from '../_lib/canonical-shape.js';
import { checkDeviceIdsUnique, checkFingerprintStable, checkTopologyAttributes } from '../_lib/topology-checks.js';
import { noCompilerIsUnsupported } from '../_lib/aot.js';
import { topologyCreateOptions } from '../../src/harness/compile-only.js';
import { TopologyDescription as Topology } from '../../src/pjrt/index.js';

const t = area('tier1.topology', { tier: 1, requires: { slots: ['PJRT_Client_Devices', 'PJRT_Client_AddressableDevices'] } });

t.case('devices_non_empty', {
  source: 'framework',
  cite: 'JAX runs a computation that names no device on the backend\'s first local device (jax.local_devices()[0], or get_default_device_assignment(1)[0] in older releases): a client without devices runs nothing; XLA\'s own pjrt_c_api_test.cc ClientDevices/ClientAddressableDevices assert both lists are non-empty',
  catches: ['abort_in=PJRT_Client_Devices'],
}).run(({ client }) => {
  check.ok(client.devices().length > 0, 'PJRT_Client_Devices must list at least one device', '≥ 1', '0');
  check.ok(client.addressableDevices().length > 0, 'PJRT_Client_AddressableDevices must list at least one device', '≥ 1', '0');
});

// all_devices_addressable only shows with remote devices: tier3.multinode.only_own_devices_addressable catches it.
t.case('addressable_subset', {
  source: 'header',
  cite: 'PJRT_Client_Devices returns "all devices visible to the runtime, including addressable and non-addressable devices"; PJRT_Client_AddressableDevices returns "devices that the client can issue commands to" and PJRT_Device_IsAddressable tells "Whether client can issue command to this device" — one set, described twice',
  catches: ['crash_in=PJRT_Device_IsAddressable'],
}).run(({ client }) => {
  const all = client.devices();
  for (const d of client.addressableDevices()) {
    check.ok(all.some((x) => same(x, d)), 'every addressable device must be among PJRT_Client_Devices ("all devices … including addressable")', `device ${d.id} listed`, 'missing');
    check.ok(d.isAddressable(), 'PJRT_Device_IsAddressable must be true for a device of PJRT_Client_AddressableDevices', 'true', 'false');
  }
  const flagged = all.filter((d) => d.isAddressable()).length;
  check.equal(flagged, client.addressableDevices().length, 'PJRT_Device_IsAddressable must agree with PJRT_Client_AddressableDevices');
});

t.case('ids_unique', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_Id: "IDs are unique among devices of this type (e.g. CPUs, GPUs)"',
  catches: ['duplicate_device_ids'],
}).run(({ client }) => checkDeviceIdsUnique(client.devices()));

t.case('lookup_by_id', {
  source: 'header',
  cite: 'PJRT_Client_LookupDevice: "Returns a PJRT_Device* with the specified ID as returned by PJRT_DeviceDescription_Id"',
  catches: ['lookup_device_off_by_one'],
  requires: { slots: ['PJRT_Client_LookupDevice'] },
}).run(({ client }) => {
  for (const d of client.devices()) {
    const found = client.lookupDevice(d.id);
    check.ok(same(found, d), `PJRT_Client_LookupDevice(${d.id}) must return the device with that id`, `device ${d.id}`, `device ${found.id}`);
  }
});

// The header names no code: any error passes (tier0.errors.provoked_code.lookup_* states XLA's code as quality).
t.case('lookup_unknown_id', {
  source: 'header',
  cite: 'PJRT_Client_LookupDevice: "Returns a PJRT_Device* with the specified ID as returned by PJRT_DeviceDescription_Id" — for an id no device has there is nothing to return, so it must fail',
  control: 'PJRT_Client_LookupDevice of an existing id',
  catches: ['lookup_device_missing_returns_first'],
  requires: { slots: ['PJRT_Client_LookupDevice'] },
}).run(async ({ client }) => {
  const ids = client.devices().map((d) => d.id);
  await check.control('PJRT_Client_LookupDevice of an existing id', () => client.lookupDevice(ids[0]!));
  const missing = Math.max(...ids) + 1000;
  await check.rejects(() => `device ${client.lookupDevice(missing).id}`, `LookupDevice(${missing}) of an id no device has must fail (no device to return)`);
});

t.case('lookup_by_local_hardware_id', {
  source: 'header',
  cite: 'PJRT_Client_LookupAddressableDevice: "Returns an addressable PJRT_Device* with the specified ID as returned by PJRT_DeviceDescription_LocalHardwareId"; PJRT_Device_LocalHardwareId is "not guaranteed to be dense, and -1 if undefined" (devices with -1 are skipped)',
  catches: ['wrong_local_hardware_id'],
  requires: { slots: ['PJRT_Client_LookupAddressableDevice', 'PJRT_Device_LocalHardwareId'] },
}).run(({ client, unsupported }) => {
  const defined = client.addressableDevices().map((d) => ({ d, hw: d.localHardwareId() })).filter((x) => x.hw !== -1);
  if (defined.length === 0) return unsupported('no addressable device defines a local hardware id (all -1, "undefined")');
  for (const { d, hw } of defined) {
    const found = client.lookupAddressableDevice(hw);
    check.ok(same(found, d), `LookupAddressableDevice(${hw}) must return the device whose PJRT_Device_LocalHardwareId is ${hw}`, `device ${d.id}`, `device ${found.id}`);
  }
});

t.case('description_kind', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_Kind: "A vendor-dependent string that uniquely identifies the kind of device" — an empty string identifies nothing',
  catches: ['crash_in=PJRT_DeviceDescription_Kind'],
}).run(({ client }) => {
  for (const d of client.devices()) check.nonEmptyString(d.kind, `device ${d.id}: PJRT_DeviceDescription_Kind must identify the kind of device`);
});

// process_index_wrong (0 everywhere) is invisible on one node: tier3.multinode.process_index_is_node_id catches it.
t.case('description_process_index', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_ProcessIndex: "The index of the process that this device belongs to, i.e. is addressable from … only a subset of them are addressable and have the same process_index as the client"',
  catches: ['crash_in=PJRT_Client_ProcessIndex'],
}).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    check.equal(d.processIndex, client.processIndex(), `device ${d.id}: an addressable device has the process_index of its client (PJRT_DeviceDescription_ProcessIndex)`);
  }
});

t.case('description_strings', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_DebugString: "Debug string suitable for logging when errors occur. Should be verbose enough to describe the current device unambiguously" — an empty string describes nothing',
  catches: ['crash_in=PJRT_DeviceDescription_DebugString'],
}).run(({ client }) => {
  for (const d of client.devices()) check.nonEmptyString(d.debugString, `device ${d.id}: PJRT_DeviceDescription_DebugString must describe the device`);
});

t.case('description_to_string', {
  source: 'header',
  cite: 'PJRT_DeviceDescription_ToString: "Debug string suitable for reading by end users, should be reasonably terse, for example: "CpuDevice(id=0)"" — an empty string describes nothing',
  catches: ['crash_in=PJRT_DeviceDescription_ToString'],
}).run(({ client }) => {
  for (const d of client.devices()) check.nonEmptyString(d.toString(), `device ${d.id}: PJRT_DeviceDescription_ToString must describe the device`);
});

t.case('description_attributes', {
  source: 'framework',
  cite: 'XLA\'s C-API client reads PJRT_DeviceDescription_Attributes ("name, value and value type") through pjrt::ConvertFromPjRtNamedValueList (xla/pjrt/c/pjrt_c_api_helpers.cc), which LOG(FATAL)s on a type outside PJRT_NamedValue_Type',
  catches: ['named_value_type_invalid'],
  requires: { slots: ['PJRT_DeviceDescription_Attributes'] },
}).run(({ client }) => {
  for (const d of client.devices()) {
    for (const a of d.description.attributeList()) {
      check.ok(
        NAMED_VALUE_KINDS.includes(a.kind),
        `device ${d.id}, attribute '${a.name}': the value type must be a PJRT_NamedValue_Type (XLA's ConvertFromPjRtNamedValueList aborts on another)`,
        NAMED_VALUE_KINDS.join('|'),
        a.kind,
      );
    }
  }
});

/** The client's topology; UNIMPLEMENTED (XLA's PjRtClient::GetTopologyDescription default) is unsupported. */
function topologyOf(client: Client, unsupported: (r: string) => never): TopologyDescription {
  try {
    return client.topology();
  } catch (e) {
    if (isPjrtError(e) && e.codeName === 'UNIMPLEMENTED') unsupported(`PJRT_Client_TopologyDescription: UNIMPLEMENTED ("${e.message}")`);
    throw e;
  }
}

const TOPOLOGY = 'PJRT_Client_TopologyDescription "Returns the topology description of the runtime topology"; PJRT_TopologyDescription_GetDeviceDescriptions "Returns descriptions for all devices in this topology"';

t.case('topology_matches_client', {
  source: 'header',
  cite: `${TOPOLOGY}: the runtime topology describes as many devices as PJRT_Client_Devices lists`,
  catches: ['topology_device_count_mismatch'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_GetDeviceDescriptions'] },
}).run(({ client, unsupported }) => {
  const descs = topologyOf(client, unsupported).deviceDescriptions();
  check.equal(descs.length, client.devices().length, 'the client\'s runtime topology must describe every device of PJRT_Client_Devices');
});

t.case('topology_device_ids', {
  source: 'header',
  cite: `${TOPOLOGY}: the descriptions are those of the client's devices, so their PJRT_DeviceDescription_Id values are the client's device ids`,
  catches: ['topology_device_count_mismatch'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_GetDeviceDescriptions'] },
}).run(({ client, unsupported }) => {
  const descs = topologyOf(client, unsupported).deviceDescriptions();
  check.equal(
    descs.map((d) => d.id).sort((a, b) => a - b),
    client.devices().map((d) => d.id).sort((a, b) => a - b),
    'the runtime topology\'s device ids must equal the client\'s device ids',
  );
});

t.case('topology_platform_name', {
  source: 'header',
  cite: 'PJRT_TopologyDescription_PlatformName and PJRT_Client_PlatformName both "Returns a string that identifies the platform"; the client\'s runtime topology is of the client\'s platform',
  catches: ['crash_in=PJRT_TopologyDescription_PlatformName'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_PlatformName'] },
}).run(({ client, unsupported }) => {
  check.equal(topologyOf(client, unsupported).platformName(), client.platformName(), 'the runtime topology\'s platform name must equal the client\'s');
});

t.case('topology_platform_version', {
  source: 'quality',
  cite: 'PJRT_TopologyDescription_PlatformVersion and PJRT_Client_PlatformVersion each return "a string containing human-readable, platform-specific version info (e.g. the CUDA version on GPU or libtpu version on Cloud TPU)" and the header never says the two are equal — XLA\'s GPU client reports "cuda <CUDART_VERSION>" while its topology (BuildGpuTopology, xla/pjrt/gpu/ topology_util.cc) reports the device name — so equality is only what a user comparing the runtime topology with its client would expect',
  catches: ['topology_platform_version_stale'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_PlatformVersion', 'PJRT_Client_PlatformVersion'] },
}).run(({ client, unsupported }) => {
  check.equal(topologyOf(client, unsupported).platformVersion(), client.platformVersion(), 'the runtime topology\'s platform version should equal the client\'s');
});

const sortedIds = (t: TopologyDescription): number[] => t.deviceDescriptions().map((d) => d.id).sort((a, b) => a - b);
const SERDE = ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_Serialize', 'PJRT_TopologyDescription_Deserialize', 'PJRT_TopologyDescription_Destroy', 'PJRT_TopologyDescription_GetDeviceDescriptions'];

t.case('topology_serialize_roundtrip', {
  source: 'framework',
  cite: 'PJRT_TopologyDescription_Deserialize takes the bytes PJRT_TopologyDescription_Serialize produced; XLA\'s wrapper (pjrt_c_api_wrapper_impl.cc) serializes PjRtTopologyDescription::ToProto and deserializes that proto back into a topology of the same platform and devices, which JAX uses for ahead-of-time compilation (no compiler for the platform, which XLA\'s wrapper deserializes through: unsupported)',
  catches: ['topology_serialize_drops_device', 'topology_deserialize_drops_device'],
  requires: { slots: SERDE },
}).run(async (ctx) => {
  const { client, plugin, scope, unsupported } = ctx;
  const runtime = topologyOf(client, unsupported);
  const bytes = runtime.serialize();
  const copy = await noCompilerIsUnsupported(ctx, () => plugin.deserializeTopology(bytes, scope));
  check.equal(sortedIds(copy), sortedIds(runtime), 'a deserialized topology must describe the devices of the serialized one');
  check.equal(copy.platformName(), runtime.platformName(), 'a deserialized topology must be of the serialized one\'s platform');
  copy.destroy();
});

t.case('topology_destroy_only_that_topology', {
  source: 'header',
  cite: 'PJRT_TopologyDescription_Destroy: "Frees `topology`" — that topology only; another topology deserialized from the same bytes is a separate caller-owned object and stays usable',
  catches: ['topology_destroy_shared'],
  requires: { slots: SERDE },
}).run(async (ctx) => {
  const { client, plugin, scope, unsupported } = ctx;
  const runtime = topologyOf(client, unsupported);
  const bytes = runtime.serialize();
  const first = await noCompilerIsUnsupported(ctx, () => plugin.deserializeTopology(bytes, scope));
  const second = plugin.deserializeTopology(bytes, scope);
  first.destroy();
  check.equal(sortedIds(second), sortedIds(runtime), 'destroying one deserialized topology must leave another deserialized from the same bytes intact');
});

t.case('topology_destroy_null', {
  source: 'header',
  cite: 'PJRT_TopologyDescription_Destroy: "Frees `topology`. `topology` can be nullptr."',
  catches: ['topology_destroy_rejects_null'],
  requires: { slots: ['PJRT_TopologyDescription_Destroy'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, 'the plugin offers no topology destruction (a stub)', () => Topology.destroyNull(ctx.plugin.raw)));

t.case('topology_attributes_well_formed', {
  source: 'framework',
  cite: 'PJRT_TopologyDescription_Attributes "Returns platform-specific topology attributes" as PJRT_NamedValue; XLA\'s C-API client reads them through pjrt::ConvertFromPjRtNamedValueList (pjrt_c_api_helpers.cc), which LOG(FATAL)s on a type outside PJRT_NamedValue_Type; they "Only lives as long as topology", so two calls agree',
  catches: ['topology_attribute_type_invalid'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_Attributes'] },
}).run(({ client, unsupported }) => checkTopologyAttributes(topologyOf(client, unsupported)));

t.case('topology_fingerprint_stable', {
  source: 'framework',
  cite: 'PJRT_TopologyDescription_Fingerprint has no comment; XLA\'s PjRtTopologyDescription::Fingerprint "Returns a fingerprint of the topology for use in cache keys" (pjrt_compiler.h) — a cache key of one unchanged topology must not change between calls',
  catches: ['topology_fingerprint_unstable'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_Fingerprint'] },
}).run((ctx) => checkFingerprintStable(ctx, topologyOf(ctx.client, ctx.unsupported)));

t.case('topology_memory_kind_ids', {
  source: 'framework',
  cite: 'XLA\'s PjRtTopologyDescription::GetMemorySpaceKindIds is "A list of all memory spaces kind_ids supported by this topology" and "GetMemorySpaceKindIds()[0] should be the default memory space id" (pjrt_compiler.h); the client\'s memories (PJRT_Memory_Kind_Id) live in its runtime topology',
  catches: ['memory_kind_ids_default_not_first'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_GetMemorySpaceKindIds', 'PJRT_Memory_Kind_Id', 'PJRT_Device_DefaultMemory'] },
}).run(({ client, device, unsupported }) => {
  const ids = topologyOf(client, unsupported).memorySpaceKindIds();
  check.ok(ids.length > 0, 'a topology supports at least the memory kind of its devices\' default memory', '≥ 1 kind id', '0');
  for (const m of client.addressableMemories()) check.ok(ids.includes(m.kindId()), `the kind id of memory '${m.kind()}' must be among the runtime topology's kind ids`, check.show(ids), `${m.kindId()}`);
  check.equal(ids[0], device.defaultMemory().kindId(), 'the first kind id of GetMemorySpaceKindIds must be the default memory\'s');
});

t.case('topology_canonical_shape', {
  source: 'framework',
  cite: 'XLA\'s PjRtTopologyDescription::MakeCanonicalShapeForMemorySpace "Returns the canonical shape for a memory_space with an optionally provided layout … predicting the full shape + layout of a buffer after it is transferred" (pjrt_compiler.h; default UNIMPLEMENTED → unsupported): the element type and dimensions are the buffer\'s, the layout a permutation of its dimensions',
  catches: ['canonical_shape_dims_reversed'],
  requires: { slots: ['PJRT_Client_TopologyDescription', 'PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace', 'PJRT_Memory_Kind_Id', 'PJRT_Device_DefaultMemory'] },
}).run(async (ctx) => {
  const topology = topologyOf(ctx.client, ctx.unsupported);
  await checkCanonicalShape(ctx, topology, ctx.device.defaultMemory().kindId());
});

t.case('topology_create', {
  source: 'header',
  cite: 'PJRT_TopologyDescription_Create "Creates and initializes a new PJRT_TopologyDescription" (options: "Extra platform-specific options to create a client"); PJRT_TopologyDescription_GetDeviceDescriptions "Returns descriptions for all devices in this topology"; PlatformName "identifies the platform" — the plugin\'s; UNIMPLEMENTED (XLA\'s CPU plugin: "Topology not supported for CPU compilation.") → unsupported',
  catches: ['topology_create_empty'],
  requires: { slots: ['PJRT_TopologyDescription_Create', 'PJRT_TopologyDescription_Destroy', 'PJRT_TopologyDescription_GetDeviceDescriptions', 'PJRT_TopologyDescription_PlatformName'] },
}).run(async (ctx) => {
  const created = await check.unimplementedIsUnsupported(ctx, 'the CPU plugin of XLA has no topology to create', () =>
    ctx.plugin.createTopology({ options: topologyCreateOptions(ctx.config), scope: ctx.scope }),
  );
  check.ok(created.deviceDescriptions().length > 0, 'a created topology (with the options a client is created with) must describe its devices', '≥ 1 device', '0');
  check.equal(created.platformName(), ctx.client.platformName(), 'a topology created by the plugin is of the plugin\'s platform');
  created.destroy();
});

/**
 * DefaultDeviceAssignment, with UNIMPLEMENTED as unsupported — as PJRT_Client_TopologyDescription's (topologyOf): the
 * header gives neither slot an optional-error clause, and XLA treats both alike, its PjRtClient base answering
 * UNIMPLEMENTED for GetDefaultDeviceAssignment ("GetDefaultDeviceAssignment is not supported.") and
 * GetTopologyDescription ("GetTopologyDescription not supported on platform …", xla/pjrt/pjrt_client.h), which
 * pjrt_c_api_wrapper_impl.cc passes through unchanged.
 */
function defaultAssignmentOf(client: Client, replicas: number, unsupported: (r: string) => never): number[] {
  try {
    return client.defaultDeviceAssignment(replicas, 1);
  } catch (e) {
    if (isPjrtError(e) && e.codeName === 'UNIMPLEMENTED') unsupported(`PJRT_Client_DefaultDeviceAssignment: UNIMPLEMENTED ("${e.message}"), as XLA's PjRtClient base answers`);
    throw e;
  }
}

t.case('default_device_assignment', {
  source: 'framework',
  cite: 'XLA\'s C-API client answers PjRtClient::GetDefaultDeviceAssignment (what JAX\'s client.get_default_device_assignment reaches) with this slot and builds a DeviceAssignment from the ids it writes (xla/pjrt/c_api_client/pjrt_c_api_client.cc PjRtCApiClient::GetDefaultDeviceAssignment), each looked up as a device of the client: the entries must be distinct ids of the client\'s devices; the header: "This API writes `num_replicas * num_partitions` ints"',
  catches: ['duplicate_device_ids'],
  requires: { slots: ['PJRT_Client_DefaultDeviceAssignment'] },
}).run(({ client, unsupported }) => {
  const n = client.addressableDevices().length;
  const ids = defaultAssignmentOf(client, n, unsupported);
  check.equal(ids.length, n, `DefaultDeviceAssignment(${n}, 1) writes num_replicas * num_partitions entries`);
  check.unique(ids, 'a default device assignment must not place two replicas on one device (JAX pmap runs one replica per device)', 'assigned device ids');
  const known = new Set(client.devices().map((d) => d.id));
  for (const id of ids) check.ok(known.has(id), 'assigned ids must be device ids of the client (JAX maps them to devices)', `one of ${check.show([...known])}`, `${id}`);
});

// XLA's ComputationPlacer::AssignDevices fills partition * replicas + replica without a bound check, so XLA's plugins
// succeed here and return ids past the last device: conforming (the header is silent), a quality warn.
t.case('default_device_assignment_too_many', {
  source: 'quality',
  cite: 'the header does not say what DefaultDeviceAssignment does with more replicas than devices (XLA\'s ComputationPlacer::AssignDevices succeeds with ids past the last device); an error, or ids of real devices, saves the user a failure later at compile or execute',
  control: 'PJRT_Client_DefaultDeviceAssignment with one replica per addressable device',
  catches: ['crash_in=PJRT_Client_DefaultDeviceAssignment'],
  requires: { slots: ['PJRT_Client_DefaultDeviceAssignment'] },
}).run(async ({ client, unsupported }) => {
  await check.control('PJRT_Client_DefaultDeviceAssignment with one replica per addressable device', () => defaultAssignmentOf(client, client.addressableDevices().length, unsupported));
  const n = client.devices().length + 1;
  const r = await check.okOrCleanError(() => client.defaultDeviceAssignment(n, 1), `DefaultDeviceAssignment(${n}, 1)`);
  if (r.error) return;
  const known = new Set(client.devices().map((d) => d.id));
  const unknown = r.value!.filter((id) => !known.has(id));
  check.equal(unknown, [], `DefaultDeviceAssignment(${n}, 1) with more replicas than devices should fail or name only real devices (quality)`);
});

t.case('device_order_stable', {
  source: 'quality',
  cite: 'the header does not order PJRT_Client_Devices or PJRT_Client_AddressableDevices, but XLA\'s wrapper (pjrt_c_api_wrapper_impl.cc) answers every call with the one list the client built at creation (client->devices.data(), client->addressable_devices.data()), and frameworks number devices by list position (jax.devices()[i], local device ordinals): a caller that lists them twice must get the same numbering. Quality, because XLA\'s C-API client (PjRtCApiClient::InitDevicesAndMemorySpaces) calls each only once',
  catches: ['device_order_rotates'],
}).run(({ client }) => {
  const CALLS = 4;
  const lists = { Devices: () => client.devices(), AddressableDevices: () => client.addressableDevices() };
  for (const [slot, list] of Object.entries(lists)) {
    const first = list().map((d) => d.id);
    for (let i = 1; i < CALLS; i++) {
      check.equal(list().map((d) => d.id), first, `PJRT_Client_${slot} should list the devices in the same order on every call (call ${i + 1} of ${CALLS})`);
    }
  }
});

// Tier 1 — devices, addressability, lookups, descriptions, the topology description, device assignment.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';

const t = area('tier1.topology', { tier: 1, requires: { slots: ['PJRT_Client_Devices', 'PJRT_Client_AddressableDevices'] } });

t.case('devices_non_empty', { catches: ['abort_in=PJRT_Client_Devices'] }).run(({ client }) => {
  check.ok(client.devices().length > 0, 'PJRT_Client_Devices must list at least one device', '≥ 1', '0');
  check.ok(client.addressableDevices().length > 0, 'PJRT_Client_AddressableDevices must list at least one device', '≥ 1', '0');
});

// all_devices_addressable only shows with remote devices: tier3.multinode.only_own_devices_addressable catches it.
t.case('addressable_subset', { catches: ['crash_in=PJRT_Device_IsAddressable'] }).run(({ client }) => {
  const all = client.devices();
  for (const d of client.addressableDevices()) {
    check.ok(all.some((x) => same(x, d)), 'every addressable device must be among PJRT_Client_Devices', `device ${d.id} listed`, 'missing');
    check.ok(d.isAddressable(), 'PJRT_Device_IsAddressable must be true for an addressable device', 'true', 'false');
  }
  const flagged = all.filter((d) => d.isAddressable()).length;
  check.equal(flagged, client.addressableDevices().length, 'IsAddressable must agree with PJRT_Client_AddressableDevices');
});

t.case('ids_unique', { catches: ['duplicate_device_ids'] }).run(({ client }) => {
  const ids = client.devices().map((d) => d.id);
  check.unique(ids, 'PJRT_DeviceDescription_Id must be unique within a client', 'device ids');
  for (const id of ids) check.ok(id >= 0, 'device ids must be non-negative', '≥ 0', `${id}`);
});

t.case('lookup_by_id', { catches: ['lookup_device_off_by_one'], requires: { slots: ['PJRT_Client_LookupDevice'] } }).run(({ client }) => {
  for (const d of client.devices()) {
    const found = client.lookupDevice(d.id);
    check.ok(same(found, d), `PJRT_Client_LookupDevice(${d.id}) must return the device with that id`, `device ${d.id}`, `device ${found.id}`);
  }
});

t.case('lookup_unknown_id', { catches: ['wrong_error_code'], requires: { slots: ['PJRT_Client_LookupDevice'] } }).run(async ({ client }) => {
  const missing = Math.max(...client.devices().map((d) => d.id)) + 1000;
  await check.rejects(() => client.lookupDevice(missing), `LookupDevice(${missing}) of an id no device has must fail`, ['INVALID_ARGUMENT', 'NOT_FOUND']);
});

t.case('lookup_by_local_hardware_id', { catches: ['wrong_local_hardware_id'], requires: { slots: ['PJRT_Client_LookupAddressableDevice'] } }).run(
  ({ client }) => {
    const hw = client.addressableDevices().map((d) => d.localHardwareId());
    check.unique(hw, 'local hardware ids of addressable devices must be unique', 'local hardware ids');
    for (const d of client.addressableDevices()) {
      const found = client.lookupAddressableDevice(d.localHardwareId());
      check.ok(same(found, d), 'LookupAddressableDevice(LocalHardwareId(d)) must return d', `device ${d.id}`, `device ${found.id}`);
    }
  },
);

t.case('description_kind', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  const kinds = new Set(client.devices().map((d) => d.kind));
  for (const k of kinds) check.nonEmptyString(k, 'PJRT_DeviceDescription_Kind must be non-empty');
});

// process_index_wrong (0 everywhere) is invisible on one node: tier3.multinode.process_index_is_node_id catches it.
t.case('description_process_index', { catches: ['crash_in=PJRT_Client_ProcessIndex'] }).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    check.equal(d.processIndex, client.processIndex(), `device ${d.id}: an addressable device belongs to this client's process`);
  }
});

t.case('description_strings', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  for (const d of client.devices()) {
    check.nonEmptyString(d.debugString, 'PJRT_DeviceDescription_DebugString must be non-empty');
    check.nonEmptyString(d.toString(), 'PJRT_DeviceDescription_ToString must be non-empty');
  }
});

t.case('description_attributes', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  for (const d of client.devices()) {
    const attrs = d.attributes;
    for (const [name, v] of Object.entries(attrs)) {
      check.nonEmptyString(name, 'device attribute names must be non-empty');
      check.ok(v !== undefined, 'device attributes must have values', 'a value', 'undefined');
    }
  }
});

t.case('topology_matches_client', { catches: ['topology_device_count_mismatch'], requires: { slots: ['PJRT_Client_TopologyDescription'] } }).run(
  ({ client }) => {
    const topo = client.topology();
    const descs = topo.deviceDescriptions();
    check.equal(descs.length, client.devices().length, 'the client topology must describe every device of PJRT_Client_Devices');
    check.equal(
      descs.map((d) => d.id).sort((a, b) => a - b),
      client.devices().map((d) => d.id).sort((a, b) => a - b),
      'the topology device ids must equal the client device ids',
    );
    check.equal(topo.platformName(), client.platformName(), 'the topology platform name must equal the client platform name');
  },
);

t.case('default_device_assignment', { catches: ['duplicate_device_ids'], requires: { slots: ['PJRT_Client_DefaultDeviceAssignment'] } }).run(
  ({ client }) => {
    const n = client.addressableDevices().length;
    const ids = client.defaultDeviceAssignment(n, 1);
    check.equal(ids.length, n, `DefaultDeviceAssignment(${n}, 1) must fill num_replicas * num_partitions entries`);
    check.unique(ids, 'a device assignment must not use a device twice', 'assigned device ids');
    for (const id of ids) {
      check.ok(client.devices().some((d) => d.id === id), 'assigned ids must be device ids of the client', 'a known id', `${id}`);
    }
  },
);

t.case('default_device_assignment_too_many', { catches: ['crash_in=PJRT_Client_Create'], requires: { slots: ['PJRT_Client_DefaultDeviceAssignment'] } }).run(
  async ({ client }) => {
    const n = client.devices().length + 1;
    await check.rejects(() => client.defaultDeviceAssignment(n, 1), `DefaultDeviceAssignment(${n}) with more replicas than devices must fail`);
  },
);

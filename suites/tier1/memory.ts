// Tier 1 — memories: per device, default memory, kinds and kind ids, the device ↔ memory relation.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';

const t = area('tier1.memory', { tier: 1, requires: { slots: ['PJRT_Device_AddressableMemories', 'PJRT_Device_DefaultMemory'] } });

t.case('per_device', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    check.ok(d.addressableMemories().length > 0, `device ${d.id} must have at least one addressable memory`, '≥ 1', '0');
  }
});

t.case('default_memory_addressable', { catches: ['default_memory_not_addressable'] }).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    const m = d.defaultMemory();
    check.ok(d.addressableMemories().some((x) => same(x, m)), `device ${d.id}: the default memory must be one of its addressable memories`, `memory ${m.id()} listed`, 'missing');
  }
});

t.case('device_backlink', { catches: ['memory_device_backlink_missing'], requires: { slots: ['PJRT_Memory_AddressableByDevices'] } }).run(
  ({ client }) => {
    for (const d of client.addressableDevices()) {
      for (const m of d.addressableMemories()) {
        const by = m.addressableByDevices();
        check.ok(by.some((x) => same(x, d)), `memory ${m.id()} (${m.kind()}) is listed by device ${d.id} and must list it back`, `device ${d.id}`, `[${by.map((x) => x.id).join(', ')}]`);
      }
    }
  },
);

t.case('forward_link', { catches: ['memory_device_backlink_missing'], requires: { slots: ['PJRT_Memory_AddressableByDevices'] } }).run(
  ({ client }) => {
    for (const m of client.addressableMemories()) {
      const by = m.addressableByDevices();
      check.ok(by.length > 0, `memory ${m.id()} (${m.kind()}) is addressable, so PJRT_Memory_AddressableByDevices must name a device`, '≥ 1 device', 'none');
      for (const d of by) {
        check.ok(d.addressableMemories().some((x) => same(x, m)), `memory ${m.id()} lists device ${d.id}, so the device must list the memory`, 'listed', 'missing');
      }
    }
  },
);

t.case('kind_ids_consistent', { catches: ['memory_kind_id_mismatch'], requires: { slots: ['PJRT_Memory_Kind_Id'] } }).run(({ client }) => {
  const byKind = new Map<string, number>();
  const byId = new Map<number, string>();
  for (const m of client.addressableMemories()) {
    const kind = m.kind();
    const id = m.kindId();
    check.nonEmptyString(kind, 'PJRT_Memory_Kind must be non-empty');
    const seenId = byKind.get(kind);
    if (seenId !== undefined) check.equal(id, seenId, `all memories of kind '${kind}' must share one kind id`);
    const seenKind = byId.get(id);
    if (seenKind !== undefined) check.equal(kind, seenKind, `kind id ${id} must name one memory kind`);
    byKind.set(kind, id);
    byId.set(id, kind);
  }
});

t.case('ids_unique', { catches: ['crash_in=PJRT_Client_Create'], requires: { slots: ['PJRT_Client_AddressableMemories'] } }).run(({ client }) => {
  check.unique(client.addressableMemories().map((m) => m.id()), 'PJRT_Memory_Id must be unique within a client', 'memory ids');
});

t.case('client_lists_device_memories', { catches: ['default_memory_not_addressable'], requires: { slots: ['PJRT_Client_AddressableMemories'] } }).run(
  ({ client }) => {
    const all = client.addressableMemories();
    for (const d of client.addressableDevices()) {
      for (const m of [d.defaultMemory(), ...d.addressableMemories()]) {
        check.ok(all.some((x) => same(x, m)), `memory ${m.id()} of device ${d.id} must be among PJRT_Client_AddressableMemories`, 'listed', 'missing');
      }
    }
  },
);

t.case('strings', { catches: ['crash_in=PJRT_Client_Create'] }).run(({ client }) => {
  for (const m of client.addressableMemories()) {
    check.nonEmptyString(m.debugString(), 'PJRT_Memory_DebugString must be non-empty');
    check.nonEmptyString(m.toString(), 'PJRT_Memory_ToString must be non-empty');
  }
});

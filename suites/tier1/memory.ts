// Tier 1 — memories: per device, default memory, kinds and kind ids, the device ↔ memory relation.
import { layoutOf } from '../../src/abi/index.js';
import { area } from '../../src/harness/index.js';
import { allocateHostMemory, MEMORY_TABLE_SINCE } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { same } from '../_lib/clients.js';

const t = area('tier1.memory', { tier: 1, requires: { slots: ['PJRT_Device_AddressableMemories', 'PJRT_Device_DefaultMemory'] } });

t.case('per_device', {
  source: 'header',
  cite: 'PJRT_Device_DefaultMemory "Returns the default memory of a device, i.e. which memory data processed by this device should be stored in by default", so every device addresses at least that one (PJRT_Device_AddressableMemories "Returns the memories that a device can address")',
  catches: ['crash_in=PJRT_Device_AddressableMemories'],
}).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    check.ok(d.addressableMemories().length > 0, `device ${d.id} must address at least one memory (its default memory)`, '≥ 1', '0');
  }
});

t.case('default_memory_addressable', {
  source: 'header',
  cite: 'PJRT_Device_DefaultMemory: the memory "data processed by this device should be stored in by default" — a memory the device addresses, so one of PJRT_Device_AddressableMemories ("the memories that a device can address")',
  catches: ['default_memory_not_addressable'],
}).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    const m = d.defaultMemory();
    check.ok(d.addressableMemories().some((x) => same(x, m)), `device ${d.id}: the default memory must be one of the memories it can address`, `memory ${m.id()} listed`, 'missing');
  }
});

const RELATION = 'PJRT_Device_AddressableMemories "Returns the memories that a device can address" and PJRT_Memory_AddressableByDevices "Returns the devices that can address this memory" state one relation from both sides';

t.case('device_backlink', {
  source: 'header',
  cite: RELATION,
  catches: ['memory_device_backlink_missing'],
  requires: { slots: ['PJRT_Memory_AddressableByDevices'] },
}).run(({ client }) => {
  for (const d of client.addressableDevices()) {
    for (const m of d.addressableMemories()) {
      const by = m.addressableByDevices();
      check.ok(by.some((x) => same(x, d)), `memory ${m.id()} (${m.kind()}) is addressable by device ${d.id}, so PJRT_Memory_AddressableByDevices must list it`, `device ${d.id}`, `[${by.map((x) => x.id).join(', ')}]`);
    }
  }
});

t.case('forward_link', {
  source: 'header',
  cite: `${RELATION}; PJRT_Client_AddressableMemories: "memories that are addressable from the client"`,
  catches: ['memory_device_backlink_missing'],
  requires: { slots: ['PJRT_Memory_AddressableByDevices', 'PJRT_Client_AddressableMemories'] },
}).run(({ client }) => {
  for (const m of client.addressableMemories()) {
    const by = m.addressableByDevices();
    check.ok(by.length > 0, `memory ${m.id()} (${m.kind()}) is addressable, so PJRT_Memory_AddressableByDevices must name a device`, '≥ 1 device', 'none');
    for (const d of by) {
      check.ok(d.addressableMemories().some((x) => same(x, m)), `memory ${m.id()} lists device ${d.id}, so the device's PJRT_Device_AddressableMemories must list the memory`, 'listed', 'missing');
    }
  }
});

t.case('kind_ids_consistent', {
  source: 'header',
  cite: 'PJRT_Memory_Kind: "A platform-dependent string that uniquely identifies the kind of the memory"; PJRT_Memory_Kind_Id: "A platform-dependent ID that uniquely identifies the kind of the memory" — one kind, one id, and back',
  catches: ['memory_kind_id_mismatch'],
  requires: { slots: ['PJRT_Memory_Kind_Id', 'PJRT_Client_AddressableMemories'] },
}).run(({ client }) => {
  const byKind = new Map<string, number>();
  const byId = new Map<number, string>();
  for (const m of client.addressableMemories()) {
    const kind = m.kind();
    const id = m.kindId();
    const seenId = byKind.get(kind);
    if (seenId !== undefined) check.equal(id, seenId, `all memories of kind '${kind}' must share one kind id (PJRT_Memory_Kind_Id identifies the kind)`);
    const seenKind = byId.get(id);
    if (seenKind !== undefined) check.equal(kind, seenKind, `kind id ${id} must name one memory kind (PJRT_Memory_Kind_Id identifies the kind)`);
    byKind.set(kind, id);
    byId.set(id, kind);
  }
});

t.case('ids_unique', {
  source: 'header',
  cite: 'PJRT_Memory_Id: "The ID of this memory. IDs are unique among memories of this type"',
  catches: ['crash_in=PJRT_Memory_Id'],
  requires: { slots: ['PJRT_Client_AddressableMemories'] },
}).run(({ client }) => {
  const byKind = new Map<string, number[]>();
  for (const m of client.addressableMemories()) byKind.set(m.kind(), [...(byKind.get(m.kind()) ?? []), m.id()]);
  for (const [kind, ids] of byKind) check.unique(ids, `PJRT_Memory_Id: "IDs are unique among memories of this type" (kind '${kind}')`, 'memory ids');
});

t.case('client_lists_device_memories', {
  source: 'header',
  cite: 'PJRT_Client_AddressableMemories: "memories that are addressable from the client … All memories are addressable in a single-process environment", so every memory a device of the client addresses is among them',
  catches: ['default_memory_not_addressable'],
  requires: { slots: ['PJRT_Client_AddressableMemories'] },
}).run(({ client }) => {
  const all = client.addressableMemories();
  for (const d of client.addressableDevices()) {
    for (const m of [d.defaultMemory(), ...d.addressableMemories()]) {
      check.ok(all.some((x) => same(x, m)), `memory ${m.id()} of device ${d.id} must be among PJRT_Client_AddressableMemories`, 'listed', 'missing');
    }
  }
});

t.case('strings', {
  source: 'header',
  cite: 'PJRT_Memory_DebugString: "Debug string suitable for logging when errors occur. Should be verbose enough to describe the current memory unambiguously" — an empty string describes nothing',
  catches: ['crash_in=PJRT_Memory_DebugString'],
  requires: { slots: ['PJRT_Client_AddressableMemories'] },
}).run(({ client }) => {
  for (const m of client.addressableMemories()) check.nonEmptyString(m.debugString(), `memory ${m.id()}: PJRT_Memory_DebugString must describe the memory`);
});

t.case('to_string', {
  source: 'header',
  cite: 'PJRT_Memory_ToString: "Debug string suitable for reading by end users, should be reasonably terse" — an empty string describes nothing',
  catches: ['crash_in=PJRT_Memory_ToString'],
  requires: { slots: ['PJRT_Client_AddressableMemories'] },
}).run(({ client }) => {
  for (const m of client.addressableMemories()) check.nonEmptyString(m.toString(), `memory ${m.id()}: PJRT_Memory_ToString must describe the memory`);
});

// Addresses that stand for a framework's keys and data (jaxlib uses the addresses of statics and objects), never freed.
let tokens: { keys: [bigint, bigint]; data: [bigint, bigint] } | undefined;
const userDataTokens = () => {
  if (tokens) return tokens;
  const a = allocateHostMemory(64).address;
  return (tokens = { keys: [a, a + 8n], data: [a + 16n, a + 24n] });
};

t.case('user_data', {
  description: 'a PJRT_Memory starts with NULL or a function table whose get_user_data returns what set_user_data stored',
  source: 'framework',
  cite: `pjrt_c_api.h 0.105: "struct PJRT_Memory { const struct PJRT_Memory_FunctionTable* vtable; }", with get_user_data ("fetches user data from the PJRT_Memory implementation") and set_user_data ("Attaches user data"); XLA's C-API client, for a plugin of 0.105 or later, reads that member of every addressable memory and, when it is non-null, keeps its memory space there (PjRtCApiClient::InitDevicesAndMemorySpaces sets it, GetCppMemory reads it back and uses what it gets) — so the member is NULL or a table that returns, per key, what was stored`,
  catches: ['memory_function_table_garbage', 'memory_user_data_lost'],
  requires: { slots: ['PJRT_Client_AddressableMemories'] },
}).run((ctx) => {
  if (ctx.plugin.apiVersion.minor < MEMORY_TABLE_SINCE) return ctx.unsupported(`the plugin speaks PJRT 0.${ctx.plugin.apiVersion.minor}: its PJRT_Memory has no function table before 0.${MEMORY_TABLE_SINCE}`);
  const full = layoutOf('PJRT_Memory_FunctionTable').structSize;
  const { keys, data } = userDataTokens();
  for (const m of ctx.client.addressableMemories()) {
    const table = m.functionTable();
    if (!table) {
      ctx.log(`memory ${m.id()}: NULL function table (no user data; XLA's client then keeps its own map)`);
      continue;
    }
    const what = `memory ${m.id()} (${m.kind()}): its PJRT_Memory_FunctionTable`;
    check.ok(table.structSize >= full && table.structSize <= 1 << 16, `${what} must carry a struct_size of the table (≥ ${full} bytes, the 0.105 table), as a framework reads it`, `${full}…65536`, String(table.structSize));
    check.ok(table.instanceStructSize !== undefined && table.instanceStructSize >= layoutOf('PJRT_Memory').structSize, `${what}'s instance_struct_size must cover the header's PJRT_Memory ("= PJRT_Memory_STRUCT_SIZE")`, `≥ ${layoutOf('PJRT_Memory').structSize}`, String(table.instanceStructSize));
    check.ok(table.getUserData !== undefined && table.setUserData !== undefined, `${what} must have get_user_data and set_user_data (XLA's client calls both)`, 'two functions', `get ${table.getUserData ? 'present' : 'NULL'}, set ${table.setUserData ? 'present' : 'NULL'}`);
    table.setUserData!(m.ptr, keys[0], data[0]);
    table.setUserData!(m.ptr, keys[1], data[1]);
    check.equal(table.getUserData!(m.ptr, keys[0]), data[0], `${what}: get_user_data must return what set_user_data stored for the key`);
    check.equal(table.getUserData!(m.ptr, keys[1]), data[1], `${what}: user data is kept per key (a second key has its own)`);
  }
});

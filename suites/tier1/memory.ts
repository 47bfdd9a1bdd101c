// Tier 1 — memories: per device, default memory, kinds and kind ids, the device ↔ memory relation.
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
let tokens: { keys: [bigint, bigint]; data: [bigint, bigint]; unset: bigint } | undefined;
const userDataTokens = () => {
  if (tokens) return tokens;
  const a = allocateHostMemory(64).address;
  return (tokens = { keys: [a, a + 8n], data: [a + 16n, a + 24n], unset: a + 32n });
};

t.case('user_data', {
  description: 'a PJRT_Memory starts with NULL or a function table whose get_user_data returns, per key, NULL or what set_user_data stored',
  source: 'framework',
  cite: `pjrt_c_api.h 0.105: "struct PJRT_Memory { const struct PJRT_Memory_FunctionTable* vtable; }", with get_user_data ("fetches user data from the PJRT_Memory implementation") and set_user_data ("Attaches user data"). XLA's C-API client, for a plugin of 0.105 or later, reads the member of every addressable memory as it is: a NULL table or a NULL entry is skipped, the table's struct_size never read (pjrt_c_api_client.cc InitDevicesAndMemorySpaces: "memory->vtable && memory->vtable->set_user_data", then set_user_data of its memory space under kPjRtCApiMemorySpaceKey and under &PjRtMemorySpace::FromC); GetCppMemory (pjrt_c_api_client.h) takes a non-NULL get_user_data answer as its memory space and falls back to its own map on NULL, while PjRtMemorySpace::FromC (pjrt_client.cc) returns get_user_data's answer as it is — so a present entry is code, a key never set reads NULL, and once set_user_data stored data under a key get_user_data returns it`,
  catches: ['memory_function_table_garbage', 'memory_user_data_lost'],
  requires: { slots: ['PJRT_Client_AddressableMemories'] },
}).run((ctx) => {
  if (ctx.plugin.apiVersion.minor < MEMORY_TABLE_SINCE) return ctx.unsupported(`the plugin speaks PJRT 0.${ctx.plugin.apiVersion.minor}: its PJRT_Memory has no function table before 0.${MEMORY_TABLE_SINCE}`);
  const { keys, data, unset } = userDataTokens();
  for (const m of ctx.client.addressableMemories()) {
    const table = m.functionTable();
    if (!table) {
      ctx.log(`memory ${m.id()}: NULL function table (no user data; XLA's client then keeps its own map)`);
      continue;
    }
    const what = `memory ${m.id()} (${m.kind()}): its PJRT_Memory_FunctionTable`;
    const { view } = table;
    check.ok(view.readable, `${what}: the member must be NULL or point to a PJRT_Memory_FunctionTable (XLA's client reads its entries)`, 'readable memory', `0x${view.address.toString(16)}, not mapped readable`);
    ctx.log(`${what}: struct_size ${view.sizes['struct_size']}, instance_struct_size ${view.sizes['instance_struct_size']} (not read by XLA's client)`);
    for (const name of ['get_user_data', 'set_user_data']) {
      const f = view.functions[name];
      if (f === undefined) ctx.log(`${what}: ${name} is NULL (XLA's client skips it)`);
      else check.ok(f.isCode, `${what}: ${name} must be NULL or a function (XLA's client calls it when it is not NULL)`, 'an address in executable memory', `0x${f.address.toString(16)}`);
    }
    if (!table.getUserData) continue;
    check.equal(table.getUserData(m.ptr, unset), null, `${what}: get_user_data of a key never set must return NULL (GetCppMemory takes any other answer as its memory space)`);
    if (!table.setUserData) continue;
    table.setUserData(m.ptr, keys[0], data[0]);
    table.setUserData(m.ptr, keys[1], data[1]);
    check.equal(table.getUserData(m.ptr, keys[0]), data[0], `${what}: get_user_data must return what set_user_data stored for the key (PjRtMemorySpace::FromC returns it as it is)`);
    check.equal(table.getUserData(m.ptr, keys[1]), data[1], `${what}: user data is kept per key (a second key has its own)`);
  }
});

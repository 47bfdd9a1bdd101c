// Tier 2 — the MemoryDescriptions extension (pjrt_c_api_memory_descriptions_extension.h): the memory kinds of a
// device description, which XLA's PjRtCApiDeviceDescription::memory_spaces serves to frameworks that compile
// without devices. They must describe the memories the device really has.
import { area } from '../../src/harness/index.js';
import { MemoryDescriptions } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';

const t = area('tier2.ext.memory_descriptions', {
  tier: 2, requires: { slots: ['PJRT_Device_GetDescription', 'PJRT_Device_AddressableMemories', 'PJRT_Device_DefaultMemory'] },
});
const CITE = 'PjRtCApiDeviceDescription::InitMemoryDescriptions (xla/pjrt/c_api_client/pjrt_c_api_client.cc) answers memory_spaces() and default_memory_space() of a device description from this extension; a program compiled against those descriptions names memory kinds that must exist on the device (PJRT_Memory_Kind) when it runs';

t.case('kinds_match_memories', {
  source: 'framework',
  cite: CITE,
  catches: ['memory_description_kind_mismatch'],
}).run(({ plugin, client }) => {
  const md = new MemoryDescriptions(plugin.raw);
  for (const d of client.addressableDevices()) {
    const described = md.of(d.description).memories.map((m) => `${m.kind}#${m.kindId}`).sort();
    const actual = [...new Set(d.addressableMemories().map((m) => `${m.kind()}#${m.kindId()}`))].sort();
    check.ok(check.deepEqual(described, actual), `device ${d.id}: the memory descriptions (kind#kind_id) must be the kinds of the memories it addresses`, actual.join(', '), described.join(', '));
  }
});

t.case('default_is_default_memory', {
  source: 'framework',
  cite: `${CITE}; default_memory_index: "Index into memory_descriptions. -1 if there's no default"`,
  catches: ['memory_description_default_wrong'],
}).run(({ plugin, client }) => {
  const md = new MemoryDescriptions(plugin.raw);
  for (const d of client.addressableDevices()) {
    const { memories, defaultIndex } = md.of(d.description);
    if (defaultIndex === -1) continue; // the header allows "no default"
    check.ok(defaultIndex < memories.length, `device ${d.id}: default_memory_index must index memory_descriptions`, `< ${memories.length}`, `${defaultIndex}`);
    check.equal(memories[defaultIndex]!.kind, d.defaultMemory().kind(), `device ${d.id}: the default memory description must have the kind of PJRT_Device_DefaultMemory`);
  }
});

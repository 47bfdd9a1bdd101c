// Tier 2 — the MemoryDescriptions extension (pjrt_c_api_memory_descriptions_extension.h): the memory kinds of a
// device description, which XLA's PjRtCApiDeviceDescription::memory_spaces serves to frameworks that compile
// without devices. A kind they describe must be one the device really has. The list may be empty: the header
// describes them for AOT "as opposed to the physically-present memories associated with a PJRT_Client", and XLA's
// PJRT_DeviceDescription_MemoryDescriptions (pjrt_c_api_wrapper_impl.cc) returns device_description->memory_spaces(),
// which the base PjRtDeviceDescription returns as {} and neither the CPU nor the GPU description overrides.
import { area } from '../../src/harness/index.js';
import { MemoryDescriptions } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';

const t = area('tier2.ext.memory_descriptions', {
  tier: 2, requires: { slots: ['PJRT_Device_GetDescription', 'PJRT_Device_AddressableMemories', 'PJRT_Device_DefaultMemory'] },
});
const CITE = 'PjRtCApiDeviceDescription::InitMemoryDescriptions (xla/pjrt/c_api_client/pjrt_c_api_client.cc) answers memory_spaces() and default_memory_space() of a device description from this extension; a program compiled against those descriptions names memory kinds that must exist on the device (PJRT_Memory_Kind) when it runs';

t.case('kinds_match_memories', {
  source: 'framework',
  cite: `${CITE}. Only described kinds are checked: XLA's CPU and GPU plugins describe none (PJRT_DeviceDescription_MemoryDescriptions returns device_description->memory_spaces(), {} in the base PjRtDeviceDescription), so an empty or partial list conforms`,
  catches: ['memory_description_kind_mismatch'],
}).run(({ plugin, client, log }) => {
  const md = new MemoryDescriptions(plugin.raw);
  let described = 0;
  for (const d of client.addressableDevices()) {
    const kinds = md.of(d.description).memories.map((m) => `${m.kind}#${m.kindId}`);
    const actual = new Set(d.addressableMemories().map((m) => `${m.kind()}#${m.kindId()}`));
    const foreign = kinds.filter((k) => !actual.has(k));
    check.ok(foreign.length === 0, `device ${d.id}: a memory description (kind#kind_id) must be a kind of a memory the device addresses`, [...actual].sort().join(', '), foreign.join(', '));
    described += kinds.length;
  }
  if (described === 0) log('the plugin describes no memories (allowed: XLA describes none); nothing to compare');
});

t.case('default_is_default_memory', {
  source: 'framework',
  cite: `${CITE}; default_memory_index: "Index into memory_descriptions. -1 if there's no default" — XLA always answers -1 (its descriptions are empty), which conforms and leaves nothing to compare`,
  catches: ['memory_description_default_wrong'],
}).run(({ plugin, client, log }) => {
  const md = new MemoryDescriptions(plugin.raw);
  let compared = 0;
  for (const d of client.addressableDevices()) {
    const { memories, defaultIndex } = md.of(d.description);
    if (defaultIndex === -1) continue; // the header allows "no default"
    check.ok(defaultIndex < memories.length, `device ${d.id}: default_memory_index must index memory_descriptions or be -1`, `< ${memories.length} or -1`, `${defaultIndex}`);
    check.equal(memories[defaultIndex]!.kind, d.defaultMemory().kind(), `device ${d.id}: the default memory description must have the kind of PJRT_Device_DefaultMemory`);
    compared++;
  }
  if (compared === 0) log('every device reports default_memory_index -1 (no default: allowed); nothing to compare');
});

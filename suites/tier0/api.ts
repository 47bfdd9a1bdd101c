// Tier 0 — the PJRT_Api block: version, struct_size, required slots.
import { area } from '../../src/harness/index.js';
import { API_SLOTS, PJRT_API_MAJOR, PJRT_API_MINOR, apiStructSize, slotOffset } from '../../src/abi/index.js';
import * as check from '../_lib/check.js';
import { NULL_SLOT_PROBES, REQUIRED_SLOTS } from '../_lib/required.js';

const t = area('tier0.api', { tier: 0 });

/** The oldest minor this CTS can drive (PJRT_Extension_Base gained struct_size at 0.45). */
const MIN_MINOR = 45;
const known = (minor: number) => Math.min(minor, PJRT_API_MINOR);

t.case('version_major', { catches: [] }).run(({ plugin }) => {
  check.equal(plugin.apiVersion.major, PJRT_API_MAJOR, 'PJRT_Api.pjrt_api_version.major_version must be 0 (the only major)');
});

t.case('version_minor_known', { catches: ['api_minor_mismatch'] }).run(({ plugin }) => {
  const { minor } = plugin.apiVersion;
  check.ok(
    minor >= MIN_MINOR && minor <= PJRT_API_MINOR,
    'pjrt_api_version.minor_version must lie in the range of minors this CTS knows',
    `0.${MIN_MINOR} … 0.${PJRT_API_MINOR}`,
    `0.${minor}`,
  );
});

// A minor newer than this CTS knows cannot be sized here (version_minor_known flags it).
t.case('struct_size_covers_minor', { catches: ['api_struct_size_short'] }).run(({ plugin }) => {
  const need = apiStructSize(known(plugin.apiVersion.minor));
  check.ok(
    plugin.structSize >= need,
    `PJRT_Api.struct_size must cover every slot of the minor it reports (0.${plugin.apiVersion.minor})`,
    `≥ ${need} bytes`,
    `${plugin.structSize}`,
  );
});

t.case('struct_size_slot_aligned', { catches: [] }).run(({ plugin }) => {
  const header = slotOffset(API_SLOTS[0]!.name);
  check.ok(
    (plugin.structSize - header) % 8 === 0,
    'PJRT_Api.struct_size must end on a whole function-pointer slot',
    `(struct_size - ${header}) % 8 == 0`,
    `struct_size ${plugin.structSize}`,
  );
});

const slotRows = REQUIRED_SLOTS.map((slot) => ({
  id: slot,
  slot,
  catches: NULL_SLOT_PROBES.includes(slot) ? [`null_slot=${slot}`] : [],
}));

t.case('slot_present', { catches: (p: { catches: string[] }) => p.catches })
  .params(slotRows)
  .run(({ plugin, p }) => {
    const since = API_SLOTS.find((s) => s.name === p.slot)!.since;
    const minor = known(plugin.apiVersion.minor);
    if (since > minor) return; // not required at the plugin's minor
    check.equal(plugin.slotState(p.slot), 'present', `${p.slot} is required at 0.${minor} and must be non-null`);
  });

t.case('declared_slots_within_struct', { catches: ['api_struct_size_short'] }).run(({ plugin }) => {
  const minor = known(plugin.apiVersion.minor);
  const beyond = API_SLOTS.filter((s) => s.since <= minor && plugin.slotState(s.name) === 'beyond').map((s) => s.name);
  check.equal(beyond, [], `every slot of 0.${minor} must lie inside PJRT_Api.struct_size`);
});

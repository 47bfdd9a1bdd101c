// Tier 0 — the PJRT_Api block: version, struct_size, required slots.
import { area } from '../../src/harness/index.js';
import { API_SLOTS, PJRT_API_MAJOR, PJRT_API_MINOR, apiStructSize, slotOffset } from '../../src/abi/index.js';
import { spokenMinor } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { QUALITY_SLOTS, REQUIRED_SLOTS } from '../_lib/required.js';

const t = area('tier0.api', { tier: 0, client: 'none' });

/** The oldest minor this CTS can drive (PJRT_Extension_Base gained struct_size at 0.45). */
const MIN_MINOR = 45;
/** XLA's pjrt_api.cc: kMinPjRtMinor — InitializePjrtPlugin refuses a plugin whose minor is older. */
const XLA_MIN_MINOR = 29;
/** What a framework of the minor the CTS speaks (`--api-minor`; its newest by default) can hold a plugin of `minor` to. */
const known = (minor: number) => Math.min(minor, PJRT_API_MINOR, spokenMinor());

t.case('version_major', {
  source: 'header',
  cite: 'PJRT_Api_Version: "The plugin should set the major_version … to be the PJRT_API_MAJOR … in this header that the implementation was compiled with"; PJRT_API_MAJOR is 0',
  catches: ['api_major_wrong'],
}).run(({ plugin }) => {
  check.equal(plugin.apiVersion.major, PJRT_API_MAJOR, 'PJRT_Api.pjrt_api_version.major_version must be PJRT_API_MAJOR (0), the only major (PJRT_Api_Version)');
});

// A minor newer than this CTS knows is normal (frameworks accept any minor in their window): logged, not failed.
t.case('version_minor_known', {
  source: 'framework',
  cite: 'XLA\'s InitializePjrtPlugin (xla/pjrt/pjrt_api.cc), which JAX uses to initialize a plugin, rejects a plugin whose pjrt_api_version.minor_version is older than kMinPjRtMinor = 29',
  catches: ['api_minor_mismatch'],
}).run(({ plugin, log }) => {
  const { minor } = plugin.apiVersion;
  check.ok(
    minor >= XLA_MIN_MINOR,
    `pjrt_api_version.minor_version must be at least 0.${XLA_MIN_MINOR}, the oldest minor XLA's InitializePjrtPlugin accepts (xla/pjrt/pjrt_api.cc)`,
    `≥ 0.${XLA_MIN_MINOR}`,
    minor < 0 ? `minor_version ${minor} (negative: no header has it)` : `0.${minor}`,
  );
  if (minor > PJRT_API_MINOR) log(`plugin API 0.${minor} is newer than this CTS (0.${PJRT_API_MINOR}): checked as 0.${PJRT_API_MINOR}`);
  if (minor < MIN_MINOR) log(`plugin API 0.${minor} is older than this CTS drives well (0.${MIN_MINOR}): cases that need later minors are unsupported`);
});

// A minor newer than this CTS knows is sized as the newest minor it knows (every later minor keeps those slots).
t.case('struct_size_covers_minor', {
  source: 'header',
  cite: 'PJRT_Api_Version: the plugin sets minor_version to the PJRT_API_MINOR of the header it was compiled with, and PJRT_API_MINOR is "Incremented when … Adding a new field to the PJRT_Api", so its PJRT_Api struct_size covers every slot of that minor',
  catches: ['api_struct_size_short'],
}).run(({ plugin }) => {
  // A negative minor names no header, so there is no struct_size to hold it to (version_minor_known fails it).
  check.ok(plugin.apiVersion.minor >= 0, 'pjrt_api_version.minor_version must name a header (PJRT_API_MINOR ≥ 0) for struct_size to be checked against it', 'minor_version ≥ 0', `${plugin.apiVersion.minor}`);
  const need = apiStructSize(known(plugin.apiVersion.minor));
  check.ok(
    plugin.structSize >= need,
    `PJRT_Api.struct_size must cover every slot of the minor it reports (0.${plugin.apiVersion.minor}; PJRT_Api_Version)`,
    `≥ ${need} bytes`,
    `${plugin.structSize}`,
  );
});

t.case('struct_size_slot_aligned', {
  source: 'header',
  cite: 'PJRT_DEFINE_STRUCT_TRAITS(PJRT_Api, …): PJRT_Api_STRUCT_SIZE = PJRT_STRUCT_SIZE = offsetof(last slot) + sizeof(its function pointer), so it ends on a whole slot',
  catches: ['api_struct_size_unaligned'],
}).run(({ plugin }) => {
  const header = slotOffset(API_SLOTS[0]!.name);
  check.ok(
    (plugin.structSize - header) % 8 === 0,
    'PJRT_Api.struct_size must end on a whole function-pointer slot (PJRT_STRUCT_SIZE of the last slot)',
    `(struct_size - ${header}) % 8 == 0`,
    `struct_size ${plugin.structSize}`,
  );
});

// One case per slot, each needing the minor that added the slot: before it, the slot is not required (unsupported).
for (const slot of REQUIRED_SLOTS) {
  const since = API_SLOTS.find((s) => s.name === slot)!.since;
  const quality = QUALITY_SLOTS.includes(slot);
  t.case('slot_present', {
    source: quality ? 'quality' : 'framework',
    cite: quality
      ? `${slot}: no framework calls it (XLA's C-API client waits with PJRT_Event_OnReady/IsReady), but a caller without callback machinery needs a blocking wait`
      : `${slot}: XLA's C-API client (xla/pjrt/c_api_client/pjrt_c_api_client.cc, xla/pjrt/c/pjrt_c_api_helpers.cc, xla/pjrt/pjrt_api.cc), which JAX, PyTorch/XLA and TensorFlow use, calls it without a null check`,
    catches: [`null_slot=${slot}`],
    requires: { minMinor: since },
  })
    .params([{ id: slot }])
    .run(({ plugin }) => {
      check.equal(
        plugin.slotState(slot),
        'present',
        `${slot} (since 0.${since}) must be non-null: ${quality ? 'a blocking wait is expected of a plugin' : "XLA's C-API client calls it without a null check"}`,
      );
    });
}

t.case('declared_slots_within_struct', {
  source: 'header',
  cite: 'PJRT_Api_Version: a plugin reporting minor M was compiled with the header of minor M, whose PJRT_Api holds every slot added up to M, all inside PJRT_Api_STRUCT_SIZE',
  catches: ['api_struct_size_short'],
}).run(({ plugin }) => {
  const minor = known(plugin.apiVersion.minor);
  const beyond = API_SLOTS.filter((s) => s.since <= minor && plugin.slotState(s.name) === 'beyond').map((s) => s.name);
  check.equal(beyond, [], `every slot of 0.${minor} must lie inside PJRT_Api.struct_size (PJRT_Api_Version)`);
});

// Tier 0 — the PJRT_Api extension chain.
import { area } from '../../src/harness/index.js';
import { layoutOf } from '../../src/abi/index.js';
import * as check from '../_lib/check.js';

const t = area('tier0.extensions', { tier: 0 });
const MAX_EXTENSION_SIZE = 1 << 16;

t.case('chain_terminates', { catches: ['extension_chain_loop'] }).run(({ plugin }) => {
  const chain = plugin.raw.extensionChain();
  check.ok(!chain.loop, 'the extension chain must end in NULL (no element may repeat)', 'a NULL-terminated list', `a loop after ${chain.entries.length} elements`);
});

t.case('known_types', { catches: [] }).run(({ plugin }) => {
  const unknown = plugin.extensions().filter((e) => e.typeName.startsWith('Unknown_')).map((e) => e.type);
  check.equal(unknown, [], 'every extension must carry a PJRT_Extension_Type this CTS knows');
});

// The chain walk stops at the first repeated element, so a loop shows in chain_terminates, not here.
t.case('types_unique', { catches: [] }).run(({ plugin }) => {
  const { entries } = plugin.raw.extensionChain();
  check.unique(entries.map((e) => e.typeName), 'each extension type must appear once in the chain', 'extension types');
});

t.case('struct_sizes_sane', { catches: [] }).run(({ plugin }) => {
  const base = layoutOf('PJRT_Extension_Base').structSize;
  for (const e of plugin.extensions()) {
    check.ok(
      e.structSize >= base && e.structSize <= MAX_EXTENSION_SIZE,
      `extension ${e.typeName}: base.struct_size must cover PJRT_Extension_Base and be plausible`,
      `${base} … ${MAX_EXTENSION_SIZE}`,
      `${e.structSize}`,
    );
  }
});

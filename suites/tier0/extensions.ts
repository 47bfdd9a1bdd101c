// Tier 0 — the PJRT_Api extension chain. Extension types this CTS does not know are skipped, as frameworks skip
// them (pjrt::FindExtension compares types and moves on): a newer plugin may carry types added after this CTS.
// (The former case `known_types`, which failed on such types, was removed: the header's PJRT_Extension_Type grows
// with the API and nothing forbids a type the caller does not know.)
import { area } from '../../src/harness/index.js';
import { layoutOf } from '../../src/abi/index.js';
import * as check from '../_lib/check.js';

const t = area('tier0.extensions', { tier: 0, client: 'none' });
const MAX_EXTENSION_SIZE = 1 << 16;

t.case('chain_terminates', {
  source: 'framework',
  cite: 'PJRT_Extension_Base: "The framework can go through this chain to find an extension"; XLA\'s pjrt::FindExtension (xla/pjrt/c/pjrt_c_api_helpers.h) follows `next` until nullptr, so a loop hangs every lookup of an absent type',
  catches: ['extension_chain_loop'],
}).run(({ plugin }) => {
  const chain = plugin.raw.extensionChain();
  check.ok(!chain.loop, 'the extension chain must end in NULL: pjrt::FindExtension walks `next` until nullptr', 'a NULL-terminated list', `a loop after ${chain.entries.length} elements`);
});

// The chain walk stops at the first repeated element, so a loop shows in chain_terminates, not here.
t.case('types_unique', {
  source: 'quality',
  cite: 'nothing forbids a type twice, but pjrt::FindExtension returns the first element of a type, so a second one of the same type is never seen',
  catches: ['extension_type_duplicated'],
}).run(({ plugin }) => {
  const { entries } = plugin.raw.extensionChain();
  check.unique(entries.map((e) => e.type), 'each extension type should appear once in the chain (quality: FindExtension sees only the first)', 'extension types');
});

t.case('struct_sizes_sane', {
  source: 'header',
  cite: 'every extension starts with a PJRT_Extension_Base, whose struct_size (PJRT_DEFINE_STRUCT_TRAITS(PJRT_Extension_Base, next)) covers at least the base',
  catches: ['extension_struct_size_zero'],
}).run(({ plugin }) => {
  const base = layoutOf('PJRT_Extension_Base').structSize;
  for (const e of plugin.extensions()) {
    check.ok(e.structSize >= base, `extension ${e.typeName}: base.struct_size must cover PJRT_Extension_Base`, `≥ ${base}`, `${e.structSize}`);
  }
});

t.case('struct_sizes_plausible', {
  source: 'quality',
  cite: 'no bound is written, but an extension struct of 64 KiB or more is no table of function pointers: a struct_size that large is an uninitialised field',
  catches: ['extension_struct_size_huge'],
}).run(({ plugin }) => {
  for (const e of plugin.extensions()) {
    check.ok(e.structSize <= MAX_EXTENSION_SIZE, `extension ${e.typeName}: base.struct_size should be plausible (quality)`, `≤ ${MAX_EXTENSION_SIZE}`, `${e.structSize}`);
  }
});

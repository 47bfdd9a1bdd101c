// Tier 0 — PJRT_Plugin_Initialize and PJRT_Plugin_Attributes.
// Initialize is "One-time plugin setup. Must be called before any other functions are called": the harness calls it
// once, right after loading the plugin and before anything else (src/harness/session.ts), as XLA's
// InitializePjrtPlugin does. No case calls it again (XLA's InitializePjrtPlugin refuses a second call). (The former
// case `initialize_idempotent`, which called it twice, was removed: the header makes it one-time and no framework
// calls it twice.)
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { attributeList, NAMED_VALUE_KINDS } from '../_lib/named.js';

const t = area('tier0.plugin', { tier: 0, client: 'none', requires: { slots: ['PJRT_Plugin_Initialize'] } });

// The harness's one PJRT_Plugin_Initialize runs when the plugin is loaded, before this case's body: an error there
// fails the case (the load fails), a crash crashes it. Then a client must be creatable after it.
t.case('initialize', {
  source: 'header',
  cite: 'PJRT_Plugin_Initialize: "One-time plugin setup. Must be called before any other functions are called" — it must succeed, after which the plugin is usable (PJRT_Client_Create)',
  catches: ['crash_in=PJRT_Plugin_Initialize'],
  client: 'fresh',
}).run(({ plugin, client }) => {
  check.ok(plugin.has('PJRT_Plugin_Initialize'), 'PJRT_Plugin_Initialize must be present', 'a non-null slot', 'null');
  check.nonEmptyString(client.platformName(), 'a client created after PJRT_Plugin_Initialize must be usable');
});

t.case('attributes_types_valid', {
  source: 'framework',
  cite: 'XLA\'s C-API client reads PJRT_Plugin_Attributes through pjrt::ConvertFromPjRtNamedValueList (xla/pjrt/c/pjrt_c_api_helpers.cc), which LOG(FATAL)s on a type outside PJRT_NamedValue_Type',
  catches: ['named_value_type_invalid'],
  requires: { slots: ['PJRT_Plugin_Attributes'] },
}).run(({ plugin }) => {
  for (const a of attributeList(plugin)) {
    check.ok(NAMED_VALUE_KINDS.includes(a.kind), `attribute ${a.name}: type must be a PJRT_NamedValue_Type (XLA's ConvertFromPjRtNamedValueList aborts on another)`, NAMED_VALUE_KINDS.join('|'), a.kind);
  }
});

t.case('attributes_names_unique', {
  source: 'quality',
  cite: 'PJRT_Plugin_Attributes returns "key-value pairs"; nothing forbids a repeated key, but XLA\'s client folds the list into a map, so which value a framework sees for a repeated name depends on the map (XLA\'s own pjrt_c_api_test.cc PluginAttributes expects unique names)',
  catches: ['duplicate_attribute_names'],
  requires: { slots: ['PJRT_Plugin_Attributes'] },
}).run(({ plugin }) => {
  const names = attributeList(plugin).map((a) => a.name);
  check.unique(names, 'PJRT_Plugin_Attributes should not list a name twice (quality: frameworks fold the list into a map)', 'attribute names');
});

t.case('attributes_names_non_empty', {
  source: 'quality',
  cite: 'the header does not forbid an empty attribute name, but no framework can ask for one; an empty name is an unfilled entry',
  catches: ['attribute_name_empty'],
  requires: { slots: ['PJRT_Plugin_Attributes'] },
}).run(({ plugin }) => {
  for (const a of attributeList(plugin)) check.nonEmptyString(a.name, 'attribute names should be non-empty (quality)');
});

t.case('attributes_stable', {
  source: 'quality',
  cite: 'PJRT_Plugin_Attributes: "Returned attributes have the lifetime of the process"; that the list is the same on each call is not written, but JAX reads versions such as stablehlo_current_version from it and expects one answer',
  catches: ['attributes_unstable'],
  requires: { slots: ['PJRT_Plugin_Attributes'] },
}).run(({ plugin }) => {
  check.equal(attributeList(plugin), attributeList(plugin), 'PJRT_Plugin_Attributes should return the same list on every call (quality)');
});

// Tier 0 — PJRT_Plugin_Initialize and PJRT_Plugin_Attributes.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { attributeList, NAMED_VALUE_KINDS } from '../_lib/named.js';

const t = area('tier0.plugin', { tier: 0, requires: { slots: ['PJRT_Plugin_Initialize'] } });

t.case('initialize', { catches: ['crash_in=PJRT_Plugin_Initialize'] }).run(({ plugin }) => {
  plugin.initialize();
});

t.case('initialize_idempotent', { catches: ['plugin_initialize_not_idempotent'] }).run(({ plugin }) => {
  plugin.initialize();
  plugin.initialize(); // frameworks may each initialize the plugin they share
});

t.case('attributes_names_unique', { catches: ['duplicate_attribute_names'], requires: { slots: ['PJRT_Plugin_Attributes'] } }).run(
  ({ plugin }) => {
    const names = attributeList(plugin).map((a) => a.name);
    check.unique(names, 'PJRT_Plugin_Attributes must not list a name twice', 'attribute names');
  },
);

t.case('attributes_types_valid', { catches: [], requires: { slots: ['PJRT_Plugin_Attributes'] } }).run(({ plugin }) => {
  for (const a of attributeList(plugin)) {
    check.ok(NAMED_VALUE_KINDS.includes(a.kind), `attribute ${a.name}: type must be a PJRT_NamedValue_Type`, NAMED_VALUE_KINDS.join('|'), a.kind);
    check.nonEmptyString(a.name, 'attribute names must be non-empty');
  }
});

t.case('attributes_stable', { catches: [], requires: { slots: ['PJRT_Plugin_Attributes'] } }).run(
  ({ plugin }) => {
    check.equal(attributeList(plugin), attributeList(plugin), 'PJRT_Plugin_Attributes must return the same list on every call');
  },
);

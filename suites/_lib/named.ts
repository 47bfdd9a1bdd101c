// PJRT_NamedValue lists as the plugin returned them (order and duplicates kept), for attribute checks.
// The object model's `attributes()` folds the list into a record, which would hide a duplicated name.
import type { NamedValueEntry } from '../../src/pjrt/index.js';
import type { Plugin } from '../../src/pjrt/index.js';

export const NAMED_VALUE_KINDS: readonly string[] = ['kString', 'kInt64', 'kInt64List', 'kFloat', 'kBool'];

interface AttributeEntry {
  name: string;
  kind: string;
  value: unknown;
}

export function attributeList(plugin: Plugin): AttributeEntry[] {
  const list: NamedValueEntry[] = plugin.attributeList();
  return list.map((e) => ({ name: e.name, kind: e.kind, value: e.value }));
}

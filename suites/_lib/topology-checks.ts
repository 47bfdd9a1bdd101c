// Checks both topology areas make, on a client's runtime topology (tier1.topology) and on a topology created by name
// for compiling without devices (tier1.aot_topology): the same demand, the same message, one place.
import type { CaseContext } from '../../src/harness/index.js';
import type { TopologyDescription } from '../../src/pjrt/index.js';
import * as check from './check.js';
import { NAMED_VALUE_KINDS } from './named.js';

/** PJRT_DeviceDescription_Id: unique among the devices of one kind. */
export function checkDeviceIdsUnique(devices: readonly { kind: string; id: number }[]): void {
  const byKind = new Map<string, number[]>();
  for (const d of devices) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d.id]);
  for (const [kind, ids] of byKind) check.unique(ids, `PJRT_DeviceDescription_Id: "IDs are unique among devices of this type" (kind '${kind}')`, 'device ids');
}

/** PJRT_TopologyDescription_Attributes: named values of a PJRT_NamedValue_Type, the same list on every call. */
export function checkTopologyAttributes(topology: TopologyDescription): void {
  const attrs = topology.attributeList();
  for (const a of attrs) {
    check.nonEmptyString(a.name, 'every topology attribute must have a name');
    check.ok(NAMED_VALUE_KINDS.includes(a.kind), `topology attribute '${a.name}': the value type must be a PJRT_NamedValue_Type`, NAMED_VALUE_KINDS.join('|'), a.kind);
  }
  check.equal(topology.attributeList().map((a) => a.name), attrs.map((a) => a.name), 'PJRT_TopologyDescription_Attributes must list the same attributes on every call');
}

/** PJRT_TopologyDescription_Fingerprint: one unchanged topology keeps its cache key (UNIMPLEMENTED: unsupported). */
export async function checkFingerprintStable(ctx: CaseContext<unknown>, topology: TopologyDescription): Promise<void> {
  const first = await check.unimplementedIsUnsupported(ctx, 'XLA\'s PjRtTopologyDescription::Fingerprint may be unsupported', () => topology.fingerprint());
  check.equal(topology.fingerprint(), first, 'the fingerprint of an unchanged topology must be the same on every call');
}

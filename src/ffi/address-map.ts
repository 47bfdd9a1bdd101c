// What this process has mapped where (/proc/self/maps). A pointer a plugin hands out as a table or a function can be
// checked against it before it is read or called, so a garbage pointer is a finding with a message, not a crash.
import { readFileSync } from 'node:fs';
import type { Ptr } from './mem.js';

interface Region {
  start: bigint;
  end: bigint;
  readable: boolean;
  executable: boolean;
}

const MAPS = '/proc/self/maps';

/** The process's mappings now (they change as libraries load and memory is mapped, so never cached). */
function regions(): Region[] {
  return readFileSync(MAPS, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [range, perms] = l.split(/\s+/);
      const [start, end] = range!.split('-').map((h) => BigInt(`0x${h}`));
      return { start: start!, end: end!, readable: perms![0] === 'r', executable: perms![2] === 'x' };
    });
}

/** Whether `size` bytes at `p` lie in readable mappings (contiguous ones may share the span). */
export function isReadable(p: Ptr, size: number): boolean {
  let at = p;
  const end = p + BigInt(size);
  for (const r of regions().sort((a, b) => (a.start < b.start ? -1 : 1))) {
    if (at >= end) break;
    if (r.end <= at) continue;
    if (r.start > at || !r.readable) return false;
    at = r.end;
  }
  return at >= end;
}

/** Whether `p` lies in an executable mapping: what a function pointer must point into. */
export function isCode(p: Ptr): boolean {
  return regions().some((r) => r.executable && p >= r.start && p < r.end);
}

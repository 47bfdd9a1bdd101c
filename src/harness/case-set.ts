// The identity of a case set: what a validation record (docs/validation/*.md) was made with. Two catalogues
// hash the same when they have the same case ids, each with the same demand source and the same claimed faults;
// a record whose hash differs from today's catalogue describes cases that no longer exist as it says.
import { createHash } from 'node:crypto';

/** What the hash covers of a case (a catalogue entry has these; a result has them as `source` and `faultsCaught`). */
export interface CaseIdentity { id: string; source: string; catches: readonly string[] }

export interface CaseSet { cases: number; hash: string }

export function caseSet(cases: readonly CaseIdentity[]): CaseSet {
  const lines = cases.map((c) => `${c.id}\t${c.source}\t${[...c.catches].sort().join(',')}`).sort();
  return { cases: lines.length, hash: createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16) };
}

/** The line a validation record carries (between `<!-- generated:case-set -->` markers), and its reader. */
export const caseSetLine = (s: CaseSet): string =>
  `Case set: ${s.cases} cases, hash \`${s.hash}\` (sorted ids with each case's source and claimed faults; \`caseSet\` in src/harness/case-set.ts).`;
export function parseCaseSetLine(text: string): CaseSet | undefined {
  const m = /<!-- generated:case-set -->\nCase set: (\d+) cases, hash `([0-9a-f]{16})`/.exec(text);
  return m ? { cases: Number(m[1]), hash: m[2]! } : undefined;
}

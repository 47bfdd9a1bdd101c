// Failures grouped by the rule they broke (CaseResult.rule: a check's stable key, a plugin error's slot and code,
// or the call in flight of a crash or hang), not by message text: one plugin bug reads as one line. A broken
// foundation (upload and read-back, compile, execute of the basic program) heads the list, and the failures of the
// cases that build on it are listed under it, as probably following from it.
import picomatch from 'picomatch';
import { FAILING, type CaseResult, type Status } from '../config/results.js';

interface RuleGroup { rule: string; count: number; ids: string[] }
export interface RootCause extends RuleGroup {
  status: Status;
  /** The first failure's first message line (with its values), as an example. */
  message: string;
  /** Set when a foundation broke: its name, e.g. "upload and read-back". */
  foundation?: string;
  /** For a foundation: the failures of cases that build on it, by rule, largest first. */
  following?: RuleGroup[];
}

interface Foundation {
  name: string;
  /** The cases that check the foundation itself. */
  cases: string[];
  /** A failing case that requires one of these slots builds on the foundation. */
  slots: string[];
}

/** In order: a failure is put under the first broken foundation it builds on. */
const FOUNDATIONS: readonly Foundation[] = [
  {
    name: 'upload and read-back', cases: ['tier1.transfer.roundtrip.**'],
    slots: ['PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer', 'PJRT_LoadedExecutable_Execute'],
  },
  { name: 'compile', cases: ['tier1.compile.add_one'], slots: ['PJRT_Client_Compile'] },
  { name: 'execute of the basic program', cases: ['tier1.execute.one_plus_one', 'tier1.execute.add_one.*'], slots: ['PJRT_LoadedExecutable_Execute'] },
];

/** A failure without a rule key (an error outside the checks) groups by its status and first line, digits masked. */
export function ruleOfResult(r: CaseResult): string {
  if (r.rule) return r.rule;
  const first = (r.message ?? '').split('\n')[0]!.trim().replace(/\d+/g, '#').slice(0, 160);
  return `${r.status}:${first || 'no message'}`;
}

const firstLine = (r: CaseResult): string => (r.message ?? '').split('\n')[0]!.trim() || `(${r.status} with no message)`;

function byRule(results: readonly CaseResult[]): Map<string, CaseResult[]> {
  const m = new Map<string, CaseResult[]>();
  for (const r of results) {
    const k = ruleOfResult(r);
    (m.get(k) ?? m.set(k, []).get(k)!).push(r);
  }
  return m;
}

const largestFirst = <T extends { count: number; rule: string }>(a: T, b: T): number => b.count - a.count || (a.rule < b.rule ? -1 : 1);

function group(rule: string, list: readonly CaseResult[]): RootCause {
  return { rule, count: list.length, status: list[0]!.status, message: firstLine(list[0]!), ids: list.map((r) => r.id) };
}

/**
 * `called`: the slots each failing case called (the worker records them for every case); a case builds on a
 * foundation when it requires or called one of the foundation's slots.
 */
export function rootCauses(results: readonly CaseResult[], called: ReadonlyMap<string, readonly string[]> = new Map()): RootCause[] {
  // A crash's or hang's rule is the call in flight: the case used that call too.
  const uses = (r: CaseResult, slots: readonly string[]): boolean =>
    [...(r.requires.slots ?? []), ...(called.get(r.id) ?? r.slots ?? []), ...(r.rule ? [r.rule.split(':')[0]!] : [])].some((s) => slots.includes(s));
  let open = results.filter((r) => FAILING.has(r.status));
  const heads: RootCause[] = [];
  for (const f of FOUNDATIONS) {
    const isFoundationCase = picomatch(f.cases, { dot: true });
    const own = open.filter((r) => isFoundationCase(r.id));
    if (!own.length) continue;
    // The foundation's rule: the one most of its own cases broke.
    const [rule, list] = [...byRule(own)].sort(([, a], [, b]) => b.length - a.length)[0]!;
    const head: RootCause = { ...group(rule, list), foundation: f.name };
    const headIds = new Set(head.ids);
    const follows = open.filter((r) => !headIds.has(r.id) && (isFoundationCase(r.id) || uses(r, f.slots)));
    if (follows.length) head.following = [...byRule(follows)].map(([k, l]) => ({ rule: k, count: l.length, ids: l.map((r) => r.id) })).sort(largestFirst);
    heads.push(head);
    const taken = new Set([...headIds, ...follows.map((r) => r.id)]);
    open = open.filter((r) => !taken.has(r.id));
  }
  const rest = [...byRule(open)].map(([k, l]) => group(k, l)).sort(largestFirst);
  return [...heads, ...rest];
}

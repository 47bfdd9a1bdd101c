// `pjrt-cts compare old.json new.json`: what changed between two result files.
import { loadJson } from '../config/load-json.js';
import { ResultsFile, type Status } from '../config/results.js';

const GOOD: ReadonlySet<Status> = new Set(['pass', 'xpass', 'flaky']);
const BAD: ReadonlySet<Status> = new Set(['fail', 'crash', 'timeout']);

export interface Change { id: string; from: Status; to: Status; message?: string }
export interface Comparison {
  regressions: Change[];
  fixes: Change[];
  newlyUnsupported: Change[];
  /** Quality checks that held before and warn now (never a regression of the gate). */
  newWarnings: Change[];
  otherChanges: Change[];
  added: { id: string; status: Status }[];
  removed: { id: string; status: Status }[];
  old: { plugin: string; version?: string; sha256?: string };
  new: { plugin: string; version?: string; sha256?: string };
}

function who(r: ResultsFile): Comparison['old'] {
  return { plugin: r.plugin.name, ...(r.plugin.platformVersion ? { version: r.plugin.platformVersion } : {}), ...(r.plugin.sha256 ? { sha256: r.plugin.sha256 } : {}) };
}

export function compareResults(a: ResultsFile, b: ResultsFile): Comparison {
  const before = new Map(a.results.map((r) => [r.id, r]));
  const after = new Map(b.results.map((r) => [r.id, r]));
  const out: Comparison = { regressions: [], fixes: [], newlyUnsupported: [], newWarnings: [], otherChanges: [], added: [], removed: [], old: who(a), new: who(b) };
  for (const [id, n] of after) {
    const o = before.get(id);
    if (!o) {
      out.added.push({ id, status: n.status });
      continue;
    }
    if (o.status === n.status) continue;
    const ch: Change = { id, from: o.status, to: n.status, ...(n.message ? { message: n.message } : {}) };
    if (GOOD.has(o.status) && BAD.has(n.status)) out.regressions.push(ch);
    else if (BAD.has(o.status) && GOOD.has(n.status)) out.fixes.push(ch);
    else if (n.status === 'unsupported') out.newlyUnsupported.push(ch);
    else if (n.status === 'warn') out.newWarnings.push(ch);
    else out.otherChanges.push(ch);
  }
  for (const [id, o] of before) if (!after.has(id)) out.removed.push({ id, status: o.status });
  return out;
}

export function loadResults(file: string): ResultsFile {
  return loadJson(file, ResultsFile);
}

export function renderComparison(c: Comparison): string {
  const lines: string[] = [`old: ${c.old.plugin} ${c.old.version ?? ''} ${c.old.sha256?.slice(0, 12) ?? ''}`.trimEnd(),
    `new: ${c.new.plugin} ${c.new.version ?? ''} ${c.new.sha256?.slice(0, 12) ?? ''}`.trimEnd()];
  const sec = (title: string, items: string[]): void => {
    if (!items.length) return;
    lines.push('', `${title} (${items.length})`, ...items.map((x) => `  ${x}`));
  };
  const ch = (x: Change): string => `${x.id}: ${x.from} → ${x.to}${x.message ? `  ${x.message.split('\n')[0]}` : ''}`;
  sec('Regressions', c.regressions.map(ch));
  sec('Fixes', c.fixes.map(ch));
  sec('Newly unsupported', c.newlyUnsupported.map(ch));
  sec('New warnings (quality checks)', c.newWarnings.map(ch));
  sec('Other changes', c.otherChanges.map(ch));
  sec('New ids', c.added.map((x) => `${x.id} (${x.status})`));
  sec('Removed ids', c.removed.map((x) => `${x.id} (was ${x.status})`));
  lines.push('', `pjrt-cts compare: ${c.regressions.length} regression(s), ${c.fixes.length} fix(es), ${c.newlyUnsupported.length} newly unsupported, ${c.newWarnings.length} new warning(s), ${c.added.length} new, ${c.removed.length} removed`);
  return lines.join('\n') + '\n';
}

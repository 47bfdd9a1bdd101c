// `pjrt-cts compare old new`: what changed between two runs (results files or .jsonl streams), as a regression check.
// It refuses runs that cannot be compared (another CTS version, API minor, selection or create options) unless
// --force; pass → fail/crash/timeout and pass → unsupported/skip are regressions; ids that went missing are an error.
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../config/errors.js';
import type { ComparisonReport } from '../config/version-compat.js';
import { changes, who, type Change, type Comparison, type CompareOptions, type RunView } from '../runner/run-diff.js';
import { EXIT } from '../runner/summary.js';

const show = (v: unknown): string => (v === undefined ? 'none' : Array.isArray(v) ? (v.length ? v.join(',') : 'none') : typeof v === 'object' ? JSON.stringify(v) : String(v));
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

/** What makes two runs incomparable: "CTS version 0.1.0 vs 0.2.0", "--filter tier0.* vs none", … (empty: comparable). */
function identityMismatches(a: RunView, b: RunView): string[] {
  const out: string[] = [];
  const diff = (what: string, x: unknown, y: unknown): void => {
    if (!isDeepStrictEqual(x, y)) out.push(`${what} ${show(x)} vs ${show(y)}`);
  };
  diff('CTS version', a.cts, b.cts);
  diff('API minor spoken', a.apiMinor, b.apiMinor);
  diff('--tier', a.run.maxTier, b.run.maxTier);
  diff('--filter', sorted(a.run.filters), sorted(b.run.filters));
  diff('--exclude', sorted(a.run.excludes), sorted(b.run.excludes));
  diff('--shard', a.run.shard, b.run.shard);
  diff('--programs', a.run.programs, b.run.programs);
  diff('--strict', a.run.strict, b.run.strict);
  diff('create options', a.plugin.createOptions ?? {}, b.plugin.createOptions ?? {});
  diff('topology options', a.plugin.topologyOptions ?? {}, b.plugin.topologyOptions ?? {});
  return out;
}

interface CompareRunOptions extends CompareOptions {
  /** Compare runs whose identities differ. */
  force?: boolean;
  /** Ids of the old run missing from the new one are not an error. */
  allowRemoved?: boolean;
}

/** The whole `compare` command: throws ConfigError (exit 2) for incomparable runs unless `force`. */
export function compareRuns(a: RunView, b: RunView, o: CompareRunOptions = {}): ComparisonReport {
  const mismatches = identityMismatches(a, b);
  if (mismatches.length && !o.force) {
    throw new ConfigError('compare', `${a.file} vs ${b.file}`, `the runs differ in ${mismatches.join('; ')}: expected the same CTS version, API minor, selection and create options (--force compares them anyway)`);
  }
  const c = changes(a.results, b.results, o);
  const side = (v: RunView): ComparisonReport['old'] => ({ file: v.file, ...who(v), cts: v.cts, apiMinor: v.apiMinor });
  const failed = c.regressions.length > 0 || (c.removed.length > 0 && !o.allowRemoved);
  return { ...c, mismatches, old: side(a), new: side(b), exitCode: failed ? EXIT.gateFailed : EXIT.ok };
}

/** Lines naming the runs whose record is incomplete (a removed id is then no sign of a changed selection). */
export function incompleteRuns(...views: readonly RunView[]): string[] {
  return views.filter((v) => v.incomplete).map((v) => `${v.file}: ${v.incomplete}`);
}

export function renderComparison(c: Comparison | ComparisonReport, o: { allowRemoved?: boolean; incomplete?: readonly string[] } = {}): string {
  const lines: string[] = [`old: ${c.old.plugin} ${c.old.version ?? ''} ${c.old.sha256?.slice(0, 12) ?? ''}`.trimEnd(),
    `new: ${c.new.plugin} ${c.new.version ?? ''} ${c.new.sha256?.slice(0, 12) ?? ''}`.trimEnd()];
  if ('mismatches' in c && c.mismatches.length) lines.push(`compared with --force although the runs differ in: ${c.mismatches.join('; ')}`);
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
  if (c.removed.length && !o.allowRemoved) {
    const why = o.incomplete?.length ? `the run was not recorded whole: ${o.incomplete.join('; ')}` : 'did the selection change?';
    lines.push(`pjrt-cts compare: error: ${c.removed.length} id(s) of the old run are missing from the new one (${why}${o.incomplete?.length ? ';' : ''} --allow-removed accepts that)`);
  }
  return lines.join('\n') + '\n';
}

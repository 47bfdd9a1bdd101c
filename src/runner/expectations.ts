// Applies an expectations file to raw results: waived failures → xfail, waived cases that pass → xpass, stale entries.
// An entry names cases (`tests`, id globs), rules (`rules`, globs of the rule keys failures carry) or both: a rule
// entry waives a deviation in whatever case reaches it, so a new case that hits the same plugin bug stays waived.
import picomatch from 'picomatch';
import { globList, type ExpectationEntry } from '../config/expectations.js';
import { FAILING, type PluginIdentity, type Status } from '../config/results.js';
import { satisfies } from '../config/semver.js';

interface Waived { status: Status; message?: string; expectation?: { reason: string; issue?: string; status: string[] } }

/** What a run did, for the stale check: the ids it ran, and each result's status and (a non-pass's) rule. */
export interface RunOutcome { selected: readonly string[]; results: readonly { id: string; status: Status; rule?: string }[] }

/** The statuses in which a case shows nothing an entry could waive or report (neither failing nor passing). */
const SILENT: ReadonlySet<Status> = new Set(['unsupported', 'skip']);

type Matcher = (s: string) => boolean;
const ANY: Matcher = () => true;
const matcher = (globs: string[]): Matcher | undefined => (globs.length ? picomatch(globs, { dot: true }) : undefined);

export class Expectations {
  private readonly ids: Matcher[];
  /** Per entry: its rule matcher, or undefined for an entry by id only. */
  private readonly rules: (Matcher | undefined)[];
  constructor(readonly entries: readonly ExpectationEntry[]) {
    this.ids = entries.map((e) => matcher(globList(e.tests)) ?? ANY);
    this.rules = entries.map((e) => matcher(globList(e.rules)));
  }

  private find(id: string, rule: string | undefined, identity: Partial<PluginIdentity>): ExpectationEntry | undefined {
    return this.entries.find((e, i) => {
      if (!this.ids[i]!(id)) return false;
      // A rule entry covers a case only through the rule its outcome broke (a pass breaks none).
      const byRule = this.rules[i];
      if (byRule && (rule === undefined || !byRule(rule))) return false;
      if (e.pluginVersion !== undefined && (identity.platformVersion === undefined || !satisfies(identity.platformVersion, e.pluginVersion))) return false;
      const minor = identity.apiVersion?.minor;
      if (e.apiMinor && (minor === undefined || (e.apiMinor.min !== undefined && minor < e.apiMinor.min) || (e.apiMinor.max !== undefined && minor > e.apiMinor.max))) return false;
      return true;
    });
  }

  /** `rule`: the rule key the outcome broke (CaseResult.rule), for entries by rule. */
  apply(id: string, status: Status, message: string | undefined, identity: Partial<PluginIdentity>, rule?: string): Waived {
    const e = this.find(id, rule, identity);
    const out: Waived = { status };
    if (message !== undefined) out.message = message;
    if (!e) return out;
    const allowed: string[] = globList(e.status);
    out.expectation = { reason: e.reason, status: allowed, ...(e.issue ? { issue: e.issue } : {}) };
    if (FAILING.has(status) && (allowed.includes(status) || allowed.includes('flaky'))) out.status = 'xfail';
    // A quality case's fail, crash or timeout is recorded as `warn`: an entry naming any of those covers it too.
    else if (status === 'warn' && allowed.some((s) => s === 'warn' || FAILING.has(s as Status))) out.status = 'xfail';
    else if (status === 'pass' && !allowed.every((s) => s === 'flaky')) {
      out.status = 'xpass';
      out.message = `expected ${allowed.join('|')} (${e.reason}) but it passed: remove or narrow the expectation`;
    } else if (FAILING.has(status)) {
      out.message = `${message ?? ''}\n(an expectation allows ${allowed.join('|')}, not ${status})`.trim();
    }
    return out;
  }

  /**
   * Stale entries: `tests` globs that match no id of the whole catalogue; and, given a run that selected every case
   * an entry covers (a filtered run proves nothing), rule entries that no result of it reached, and entries by id
   * whose every case ended unsupported or skipped when the entry waives neither (the case no longer reaches the
   * deviation: a pass would have been reported as xpass, but these say nothing).
   */
  stale(allIds: readonly string[], run?: RunOutcome): ExpectationEntry[] {
    const selected = run ? new Set(run.selected) : undefined;
    return this.entries.filter((e, i) => {
      const covered = allIds.filter((id) => this.ids[i]!(id));
      if (e.tests !== undefined && !covered.length) return true;
      if (!run || !selected || !covered.every((id) => selected.has(id))) return false;
      const byRule = this.rules[i];
      if (byRule) return !run.results.some((r) => r.rule !== undefined && this.ids[i]!(r.id) && byRule(r.rule));
      const allowed = globList(e.status);
      return run.results.filter((r) => this.ids[i]!(r.id)).every((r) => SILENT.has(r.status) && !allowed.includes(r.status));
    });
  }
}

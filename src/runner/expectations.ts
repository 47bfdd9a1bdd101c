// Applies an expectations file to raw results: waived failures → xfail, waived cases that pass → xpass, stale entries.
// An entry names cases (`tests`, id globs), rules (`rules`, globs of the rule keys failures carry) or both: a rule
// entry waives a deviation in whatever case reaches it, so a new case that hits the same plugin bug stays waived.
import picomatch from 'picomatch';
import { globList, type ExpectationEntry } from '../config/expectations.js';
import { FAILING, type PluginIdentity, type Status } from '../config/results.js';
import { satisfies } from '../config/semver.js';

interface Waived { status: Status; message?: string; expectation?: { reason: string; issue?: string; status: string[] } }

/** What a run did, for the stale check of rule entries: the ids it ran and the rule of each non-pass. */
export interface RunOutcome { selected: readonly string[]; results: readonly { id: string; rule?: string }[] }

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
   * Stale entries: `tests` globs that match no id of the whole catalogue; and, given the run, rule entries that
   * no result of it reached although the run selected every case the entry covers (a filtered run proves nothing).
   */
  stale(allIds: readonly string[], run?: RunOutcome): ExpectationEntry[] {
    const selected = run ? new Set(run.selected) : undefined;
    return this.entries.filter((e, i) => {
      const covered = allIds.filter((id) => this.ids[i]!(id));
      if (e.tests !== undefined && !covered.length) return true;
      const byRule = this.rules[i];
      if (!byRule || !run || !selected || !covered.every((id) => selected.has(id))) return false;
      return !run.results.some((r) => r.rule !== undefined && this.ids[i]!(r.id) && byRule(r.rule));
    });
  }
}

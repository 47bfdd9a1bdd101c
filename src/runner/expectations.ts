// Applies an expectations file to raw results: waived failures → xfail, waived cases that pass → xpass, stale entries.
import picomatch from 'picomatch';
import type { ExpectationEntry } from '../config/expectations.js';
import { FAILING, type PluginIdentity, type Status } from '../config/results.js';
import { satisfies } from '../config/semver.js';

interface Waived { status: Status; message?: string; expectation?: { reason: string; issue?: string; status: string[] } }


export class Expectations {
  private readonly matchers: ((id: string) => boolean)[];
  constructor(readonly entries: readonly ExpectationEntry[]) {
    this.matchers = entries.map((e) => picomatch(typeof e.tests === 'string' ? [e.tests] : [...e.tests], { dot: true }));
  }

  private find(id: string, identity: Partial<PluginIdentity>): ExpectationEntry | undefined {
    return this.entries.find((e, i) => {
      if (!this.matchers[i]!(id)) return false;
      if (e.pluginVersion !== undefined && (identity.platformVersion === undefined || !satisfies(identity.platformVersion, e.pluginVersion))) return false;
      const minor = identity.apiVersion?.minor;
      if (e.apiMinor && (minor === undefined || (e.apiMinor.min !== undefined && minor < e.apiMinor.min) || (e.apiMinor.max !== undefined && minor > e.apiMinor.max))) return false;
      return true;
    });
  }

  apply(id: string, status: Status, message: string | undefined, identity: Partial<PluginIdentity>): Waived {
    const e = this.find(id, identity);
    const out: Waived = { status };
    if (message !== undefined) out.message = message;
    if (!e) return out;
    const allowed: string[] = typeof e.status === 'string' ? [e.status] : [...e.status];
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

  /** Entries whose globs match no id of the whole catalogue. */
  stale(allIds: readonly string[]): ExpectationEntry[] {
    return this.entries.filter((_, i) => !allIds.some((id) => this.matchers[i]!(id)));
  }
}

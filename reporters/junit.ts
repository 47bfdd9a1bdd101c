// JUnit XML, valid against Jenkins' junit-10.xsd (test/fixtures/junit-10.xsd): one <testsuite> per area, one
// <testcase> per id. The run's identity (and whether it was interrupted or stopped) as <properties> of the first
// suite, once; each suite's warn/xpass/flaky counts as its own properties. That schema allows no <properties> in a
// <testcase>, so a case's source of demand, citation and warning are `key: value` lines at the top of its
// <system-out>. Flaky cases carry <flakyFailure>, failures that retries did not cure <rerunFailure>. Every testcase
// has `status` (the CTS status); warn, xpass and flaky, green in JUnit terms, get a ` [status]` name suffix and a
// <system-err> line (README, "JUnit").
import { notRunByProfile, profileHeadline } from '../src/runner/profile.js';
import { writeFileAtomic } from '../src/runner/atomic-write.js';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';
import type { Reporter, RunEnd } from '../src/runner/reporter.js';

const secs = (ms: number): string => (ms / 1000).toFixed(3);
const firstLine = (s: string | undefined): string => (s ?? '').split('\n')[0]!.slice(0, 500);
// XML 1.0 cannot carry most control characters; plugin messages sometimes do.
const clean = (s: string): string => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');

function properties(r: ResultsFile): [string, string][] {
  const p = r.plugin;
  const out: [string, string][] = [['cts.version', r.cts.version], ['plugin.name', p.name], ['plugin.path', p.path]];
  if (p.sha256) out.push(['plugin.sha256', p.sha256]);
  if (p.apiVersion) out.push(['plugin.apiVersion', `${p.apiVersion.major}.${p.apiVersion.minor}`]);
  if (p.platformName) out.push(['plugin.platform', p.platformName]);
  if (p.platformVersion) out.push(['plugin.platformVersion', p.platformVersion]);
  for (const [k, v] of Object.entries(p.attributes ?? {})) out.push([`plugin.attribute.${k}`, JSON.stringify(v)]);
  for (const [k, v] of Object.entries(p.createOptions ?? {})) out.push([`plugin.createOption.${k}`, JSON.stringify(v)]);
  return out;
}

/** `key: value` lines a viewer shows in a case's output: the source of its demand and what it cites. */
function caseLines(c: CaseResult, msg: string): string[] {
  const lines = [`source: ${c.source}`, `cite: ${c.cite}`];
  if (c.selfTest) lines.push(`selfTest: ${c.selfTest}`);
  if (c.status === 'warn') lines.push(`warn: ${firstLine(msg)}`);
  if (c.status === 'xpass') lines.push(`xpass: waived by an expectation (${c.expectation?.reason ?? 'no reason'}) but passed: narrow or remove the entry`);
  if (c.status === 'flaky') lines.push(`flaky: ${firstLine(msg)}`);
  if (c.attempts && c.attempts > 1) lines.push(`attempts: ${c.attempts}`);
  return lines;
}

/**
 * Statuses JUnit has no element for: the case passes in JUnit terms, so consumers show it green. The testcase name
 * gets a suffix and <system-err> a line, which Jenkins and GitLab show next to the case.
 */
const MARKED: Partial<Record<CaseResult['status'], string>> = {
  warn: 'a quality check failed (reported, never fails a gate)',
  xpass: 'waived by an expectation, but passed: narrow or remove the entry',
  flaky: 'failed, then passed on a retry',
};

function addCase(suite: XMLBuilder, c: CaseResult): void {
  const mark = MARKED[c.status];
  const name = (c.id.slice(c.area.length + 1) || c.id) + (mark ? ` [${c.status}]` : '');
  // `status` (allowed by junit-10.xsd) carries the CTS status of every case, for tools that read it.
  const tc = suite.ele('testcase', { classname: c.area, name, time: secs(c.durationMs), status: c.status });
  const msg = clean(c.message ?? '');
  const failing = c.status === 'fail' || c.status === 'crash' || c.status === 'timeout';
  switch (c.status) {
    case 'fail':
      tc.ele('failure', { type: 'fail', message: firstLine(msg) }).txt(msg);
      break;
    case 'crash':
    case 'timeout':
      tc.ele('error', { type: c.status, message: firstLine(msg) }).txt(msg);
      break;
    case 'unsupported':
    case 'skip':
      tc.ele('skipped', { message: `${c.status}: ${firstLine(msg)}` });
      break;
    case 'xfail':
      tc.ele('skipped', { message: `xfail: ${c.expectation?.reason ?? ''}` });
      break;
    case 'flaky':
      // Failed, then passed on a retry: a passed testcase with its earlier failure, as Surefire writes it.
      tc.ele('flakyFailure', { type: 'flaky', message: firstLine(msg) }).txt(msg);
      break;
    default:
      break;
  }
  // Failed on every attempt: the reruns, as Surefire writes them (the message is the first attempt's).
  if (failing && c.attempts && c.attempts > 1) {
    for (let k = 2; k <= c.attempts; k++) tc.ele('rerunFailure', { type: c.status, message: `attempt ${k} of ${c.attempts} also ended ${c.status}` });
  }
  const out = [...caseLines(c, msg), ...(msg && c.status !== 'pass' ? ['', `${c.status}: ${msg}`] : [])];
  tc.ele('system-out').txt(out.join('\n'));
  if (mark) tc.ele('system-err').txt(`${c.status.toUpperCase()}: ${mark}${msg ? `: ${firstLine(msg)}` : ''}`);
}

export function renderJunit(r: ResultsFile): string {
  const areas = new Map<string, CaseResult[]>();
  for (const c of r.results) (areas.get(c.area) ?? areas.set(c.area, []).get(c.area)!).push(c);
  const n = (list: CaseResult[], ...s: CaseResult['status'][]): number => list.filter((c) => s.includes(c.status)).length;
  const marked = r.interrupted ? ' (interrupted)' : r.stopped ? ' (stopped early)' : '';
  // junit-10.xsd allows no `skipped` on <testsuites>, and a consumer that finds `tests` there without `skipped`
  // counts every skip as a pass (test-results-parser does): the root has no totals, consumers sum the suites.
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: `pjrt-cts ${r.plugin.name}${marked}`, time: secs(r.durationMs) });
  const runWide = properties(r);
  runWide.push(['run.startedAt', r.startedAt], ['run.interrupted', String(r.interrupted)], ['run.exitCode', String(r.exitCode)]);
  if (r.stopped) runWide.push(['run.stopped', r.stopped]);
  if (r.run.profile) runWide.push(['run.profile', r.run.profile.name], ['run.profile.topology', r.run.profile.topology], ['run.profile.notRun', String(notRunByProfile(r.results))], ['run.profile.verdict', profileHeadline(r)]);
  for (const s of ['xpass', 'flaky', 'warn'] as const) runWide.push([`run.${s}`, String(n(r.results, s))]);
  let first = true;
  for (const [area, list] of areas) {
    const s = root.ele('testsuite', {
      name: area, tests: list.length, failures: n(list, 'fail'), errors: n(list, 'crash', 'timeout'),
      skipped: n(list, 'unsupported', 'skip', 'xfail'), time: secs(list.reduce((a, c) => a + c.durationMs, 0)), timestamp: r.startedAt,
      hostname: r.environment.hostname,
    });
    // Run-wide properties once (the first suite); each suite's own counts of what JUnit has no attribute for.
    const props: [string, string][] = first ? [...runWide] : [];
    first = false;
    for (const st of ['xpass', 'flaky', 'warn'] as const) {
      const k = n(list, st);
      if (k) props.push([`suite.${st}`, String(k)]);
    }
    if (props.length) {
      const pe = s.ele('properties');
      for (const [name, value] of props) pe.ele('property', { name, value: clean(value) });
    }
    for (const c of list) addCase(s, c);
    const x = n(list, 'xpass');
    const notes = [x ? `${x} unexpected pass(es): expectation entries to narrow or remove` : '', r.interrupted ? 'the run was interrupted: cases not started are missing' : '', r.stopped ? `the run stopped early: ${r.stopped}` : ''].filter(Boolean);
    if (notes.length) s.ele('system-out').txt(notes.join('\n'));
  }
  return root.end({ prettyPrint: true });
}

function writeJunitReport(file: string, r: ResultsFile): void {
  writeFileAtomic(file, renderJunit(r));
}

export class JunitReporter implements Reporter {
  constructor(readonly file: string) {}
  begin(): void {}
  result(): void {}
  end(e: RunEnd): void {
    e.outputs.write('JUnit', this.file, () => writeJunitReport(this.file, e.file));
  }
}

// `jax-tests --write-expectations FILE`: the baseline to accept, one entry per root cause (its rule and the tests
// that broke it), compile failures first, then run failures, framework refusals, crashes and hangs, flaky tests.
// A later run with it as --expectations waives exactly these (each test only with the same rule): a test that
// breaks another way, or a new failure, still fails; a fixed one is an xpass.
import { writeFileAtomic } from '../runner/atomic-write.js';
import { ExpectationsFile, type Waivable } from '../config/expectations.js';
import type { CaseResult } from '../config/results.js';
import type { Reporter, RunEnd } from '../runner/reporter.js';
import { PHASE_RULE, REFUSAL_RULE } from './triage.js';

/** A literal string as a picomatch glob (ids carry brackets, parentheses and commas). */
export const globLiteral = (s: string): string => s.replace(/[\\*?[\]{}()!+@|^$]/g, (c) => `\\${c}`);

/** The baseline's sections, in order: each a label and which results it takes. */
const SECTIONS: readonly { label: string; takes: (r: CaseResult) => boolean }[] = [
  { label: 'compile failure', takes: (r) => r.status === 'fail' && !!r.rule?.startsWith(`${PHASE_RULE.compile}:`) },
  { label: 'run failure', takes: (r) => r.status === 'fail' && !r.rule?.startsWith(`${PHASE_RULE.compile}:`) && !r.rule?.startsWith(`${REFUSAL_RULE}:`) },
  { label: 'framework refusal', takes: (r) => r.status === 'fail' && !!r.rule?.startsWith(`${REFUSAL_RULE}:`) },
  { label: 'crash', takes: (r) => r.status === 'crash' },
  { label: 'timeout', takes: (r) => r.status === 'timeout' },
  { label: 'flaky', takes: (r) => r.status === 'flaky' },
];

export function jaxBaseline(results: readonly CaseResult[], label: string): ExpectationsFile {
  const entries: ExpectationsFile['expectations'] = [];
  // Tests an expectation already waives keep their entry's terms.
  for (const r of results) {
    if (r.status === 'xfail' && r.expectation) entries.push({ tests: globLiteral(r.id), ...(r.rule ? { rules: globLiteral(r.rule) } : {}), status: r.expectation.status as Waivable[], reason: r.expectation.reason });
  }
  for (const s of SECTIONS) {
    const byRule = new Map<string, CaseResult[]>();
    for (const r of results.filter(s.takes)) {
      const k = r.rule ?? '';
      (byRule.get(k) ?? byRule.set(k, []).get(k)!).push(r);
    }
    for (const [rule, list] of [...byRule].sort(([, a], [, b]) => b.length - a.length)) {
      const first = (list[0]!.message ?? '').split('\n')[0]!.trim().slice(0, 240);
      entries.push({
        tests: list.map((r) => globLiteral(r.id)),
        ...(rule && s.label !== 'flaky' ? { rules: globLiteral(rule) } : {}),
        status: s.label === 'flaky' ? 'flaky' : (list[0]!.status as Waivable),
        reason: `${s.label} (${list.length} test${list.length > 1 ? 's' : ''}): ${first || rule}`,
      });
    }
  }
  return ExpectationsFile.parse({
    description: `baseline of JAX's tests on ${label}, written by pjrt-cts jax-tests --write-expectations on ${new Date().toISOString()}: compile failures, run failures, framework refusals, crashes, timeouts and flaky tests in that order, one entry per root cause; review each, add an issue link`,
    expectations: entries,
  });
}

export class JaxBaselineReporter implements Reporter {
  constructor(readonly file: string, private readonly label: string) {}
  begin(): void {}
  result(): void {}
  end(e: RunEnd): void {
    e.outputs.write('baseline expectations', this.file, () => writeFileAtomic(this.file, JSON.stringify(jaxBaseline(e.file.results, this.label), null, 2) + '\n'));
  }
}

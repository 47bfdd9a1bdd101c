// `run --write-expectations FILE`: a baseline expectations file from the run's non-passes, each with its message's
// first line as the reason (for a person to review and edit).
import { writeFileAtomic } from '../src/runner/atomic-write.js';
import { ExpectationsFile, WAIVABLE, type Waivable } from '../src/config/expectations.js';
import type { CaseResult, PluginIdentity } from '../src/config/results.js';
import type { Reporter, RunEnd } from '../src/runner/reporter.js';

function baselineExpectations(results: readonly CaseResult[], plugin: PluginIdentity): ExpectationsFile {
  const entries: ExpectationsFile['expectations'] = [];
  for (const r of results) {
    if (r.status === 'xfail' && r.expectation) {
      entries.push({ tests: r.id, status: r.expectation.status as Waivable[], reason: r.expectation.reason, ...(r.expectation.issue ? { issue: r.expectation.issue } : {}) });
      continue;
    }
    if (!(WAIVABLE as readonly string[]).includes(r.status) || r.status === 'unsupported') continue;
    const first = (r.message ?? '').split('\n')[0]!.trim().slice(0, 300);
    entries.push({ tests: r.id, status: r.status as Waivable, reason: first || `${r.status} (no message)` });
  }
  return ExpectationsFile.parse({
    description: `baseline written by pjrt-cts run --write-expectations for ${plugin.name}${plugin.platformVersion ? ` ${plugin.platformVersion}` : ''} on ${new Date().toISOString()}: review every entry, add an issue link, narrow with pluginVersion`,
    expectations: entries,
  });
}

export class BaselineExpectationsReporter implements Reporter {
  constructor(readonly file: string) {}
  begin(): void {}
  result(): void {}
  end(e: RunEnd): void {
    e.outputs.write('baseline expectations', this.file, () => writeFileAtomic(this.file, JSON.stringify(baselineExpectations(e.file.results, e.file.plugin), null, 2) + '\n'));
  }
}

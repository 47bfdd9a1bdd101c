// Reporters: JUnit read back by a real consumer (test-results-parser), console summary, capability matrix.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'test-results-parser';
import { ConsoleReporter } from '../reporters/console.js';
import { JsonlReporter } from '../reporters/jsonl.js';
import { loadRun } from '../src/runner/run-diff.js';
import { renderJunit } from '../reporters/junit.js';
import { rootCauses } from '../src/runner/root-causes.js';
import { ReportOutputs } from '../src/runner/atomic-write.js';
import { renderMatrix } from '../reporters/matrix.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';
import { ResultsFile as ResultsSchema } from '../src/config/results.js';
import { capabilityMatrix, totals } from '../src/runner/summary.js';
import { tmpDir } from './runner-helpers.js';

const mk = (id: string, status: CaseResult['status'], message?: string): CaseResult => ({
  id, area: id.split('.').slice(0, 2).join('.'), tier: Number(id[4]), status, durationMs: 12.5, source: status === 'warn' ? 'quality' : 'header',
  cite: 'pjrt_c_api.h PJRT_X', requires: {}, ...(message ? { message } : {}),
});

function sample(): ResultsFile {
  const results = [
    mk('tier0.api.a', 'pass'), mk('tier0.api.b', 'fail', 'expected 1, got 2\nmore'), mk('tier0.api.c', 'unsupported', 'PJRT_X is null'),
    mk('tier1.transfer.x.f32', 'crash', 'killed by SIGSEGV'), mk('tier1.transfer.x.bf16', 'timeout', 'no result'),
    mk('tier1.transfer.y', 'xfail', 'known \u0001 bad'), mk('tier1.transfer.z', 'xpass'), mk('tier1.transfer.w', 'flaky', 'once'),
    mk('tier1.transfer.s', 'skip', 'n/a'), mk('tier1.transfer.q', 'warn', 'quality check (never fails a gate) ended fail: slow'),
  ];
  results[3]!.capabilities = { 'add/f32': true };
  return {
    schemaVersion: 1, cts: { version: '0.1.0' }, startedAt: new Date(0).toISOString(), finishedAt: new Date(1000).toISOString(), durationMs: 1000,
    interrupted: false, run: { strict: false, maxTier: 3, filters: [], excludes: [], retries: 0, jobs: 1 },
    plugin: { name: 'reference', path: '/x/lib.so', sha256: 'ab'.repeat(32), apiVersion: { major: 0, minor: 80 }, platformName: 'reference', attributes: { xla_version: 3 } },
    environment: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2, hostname: 'h' },
    results, totals: totals(results), capabilities: capabilityMatrix(results), staleExpectations: [], exitCode: 1,
  };
}

describe('reporters', () => {
  it('the sample conforms to the results schema', () => {
    assert.equal(ResultsSchema.safeParse(sample()).success, true);
  });

  it('JUnit XML is read back with the right counts per suite', () => {
    const file = path.join(tmpDir(), 'r.xml');
    const xml = renderJunit(sample());
    writeFileSync(file, xml);
    const r = parse({ type: 'junit', files: [file] });
    assert.equal(r.suites.length, 2);
    const [t0, t1] = r.suites;
    assert.equal(t0!.name, 'tier0.api');
    assert.equal(t0!.failed, 1);
    assert.equal(t0!.skipped, 1);
    assert.equal(t1!.errors, 2);
    assert.equal(t1!.skipped, 2);
    assert.equal(r.passed, 4, 'a warn is a passed testcase');
    // junit-10.xsd allows no testcase <properties>: source, cite and a warning are lines of the case's system-out.
    assert.match(xml, /<system-out>source: quality\ncite: pjrt_c_api.h PJRT_X\nwarn: quality check \(never fails a gate\) ended fail: slow/);
    assert.match(xml, /<system-out>source: header\ncite: /);
    assert.equal(xml.match(/name="plugin.sha256"/g)?.length, 1, 'run-wide properties once');
    assert.match(xml, /<property name="plugin.sha256" value="abab/);
    assert.match(xml, /<property name="plugin.apiVersion" value="0.80"\/>/);
    assert.doesNotMatch(xml, /\u0001/);
  });

  it('console: failures with messages, xpass section, and the plain summary as the last two lines', () => {
    let out = '';
    const stream = { write: (s: string) => ((out += s), true), isTTY: false } as unknown as NodeJS.WritableStream;
    const c = new ConsoleReporter({ stream, color: false });
    const s = sample();
    c.begin({ total: s.results.length, pluginLabel: 'reference' });
    for (const r of s.results) c.result(r);
    c.end({ file: { ...s, rootCauses: rootCauses(s.results) }, verdict: 'run FAILED', stale: [], outputs: new ReportOutputs() });
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.at(-1), 'pjrt-cts: 1 passed, 3 failed (1 fail, 1 crash, 1 timeout), 1 warned, 1 unsupported, 1 skipped, 1 xfail, 1 xpass, 1 flaky');
    assert.match(out, /Warnings \(quality checks[^\n]*\n {2}WARN tier1\.transfer\.q/);
    assert.equal(lines.at(-2), '1 passed, 3 failed');
    // Each failure once, with its message, as it arrives; the summary lists rules and ids only.
    assert.match(out, /FAIL {4}tier0\.api\.b \(\d+ ms\): expected 1, got 2\n {6}more\n/);
    assert.equal(out.split('expected 1, got 2').length, 3, 'the message once, plus once as the rule\'s example');
    assert.match(out, /Failures by broken rule \(3 failure\(s\), 3 rule\(s\)/);
    assert.match(out, /Unexpected passes[^\n]*\n {2}XPASS tier1\.transfer\.z/);
    assert.doesNotMatch(out, /\x1b\[/);
  });

  it('a result amended after it was streamed is appended, and the stream reads as the JSON', () => {
    const s = sample();
    const file = path.join(tmpDir(), 'run.jsonl');
    const j = new JsonlReporter(file);
    j.begin({
      total: s.results.length, pluginLabel: 'reference',
      header: { type: 'header', schemaVersion: 1, cts: s.cts, startedAt: s.startedAt, run: s.run, plugin: { name: 'reference', path: '/x/lib.so' }, apiMinor: 80, selected: s.results.length },
    });
    for (const r of s.results) j.result(r);
    const amended = { ...s, results: s.results.map((r) => (r.id === 'tier0.api.b' ? { ...r, message: `rejected by the reference plugin too; ${r.message}` } : r)) };
    j.end({ file: amended, verdict: 'run FAILED', stale: [], outputs: new ReportOutputs() });
    assert.deepEqual(loadRun(file).results, amended.results);
    assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 1 + s.results.length + 1, 'header, each case once, one amendment');
  });

  it('capability matrix renders rows × columns', () => {
    assert.equal(renderMatrix({ 'add/f32': true, 'add/bf16': false, 'mul/f32': true }), '     bf16  f32\nadd  ✗     ✓\nmul  ·     ✓');
  });
});

// JUnit output against Jenkins' junit-10.xsd (test/fixtures/junit-10.xsd), validated by libxml2 (xmllint-wasm):
// every status, retries (rerunFailure), flaky (flakyFailure), xpass, an interrupted and a stopped run, and the
// file a real run writes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { renderJunit } from '../reporters/junit.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';
import { capabilityMatrix, totals } from '../src/runner/summary.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const XSD = readFileSync(path.join(ROOT, 'test', 'fixtures', 'junit-10.xsd'), 'utf8');

async function validate(xml: string): Promise<void> {
  const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: XSD }] });
  assert.ok(r.valid, `not valid against junit-10.xsd:\n${r.errors.map((e) => e.rawMessage).join('\n')}`);
}

const mk = (id: string, status: CaseResult['status'], extra: Partial<CaseResult> = {}): CaseResult => ({
  id, area: id.split('.').slice(0, 2).join('.'), tier: Number(id[4]), status, durationMs: 7, source: status === 'warn' ? 'quality' : 'header',
  cite: 'pjrt_c_api.h PJRT_X', requires: {}, ...extra,
});

function sample(over: Partial<ResultsFile> = {}): ResultsFile {
  const results = [
    mk('tier0.api.a', 'pass'), mk('tier0.api.b', 'fail', { message: 'expected 1, got 2\nmore', attempts: 3 }),
    mk('tier0.api.c', 'unsupported', { message: 'PJRT_X is null' }), mk('tier1.t.crash', 'crash', { message: 'killed by SIGSEGV', durationMs: 812 }),
    mk('tier1.t.to', 'timeout', { message: 'no result' }), mk('tier1.t.xf', 'xfail', { message: 'bad', expectation: { reason: 'known', status: ['fail'] } }),
    mk('tier1.t.xp', 'xpass', { expectation: { reason: 'was broken', status: ['fail'] } }), mk('tier1.t.fl', 'flaky', { message: 'failed on attempt 1 (fail), passed on attempt 2: x', attempts: 2 }),
    mk('tier1.t.sk', 'skip', { message: 'not run: stopped' }), mk('tier1.t.w', 'warn', { message: 'quality check (never fails a gate) ended fail: slow', selfTest: 'needs reference' }),
  ];
  return {
    schemaVersion: 1, cts: { version: '0.1.0' }, startedAt: new Date(0).toISOString(), finishedAt: new Date(1000).toISOString(), durationMs: 1000,
    interrupted: false, run: { strict: false, maxTier: 3, filters: [], excludes: [], retries: 2, jobs: 1 },
    plugin: { name: 'reference', path: '/x/lib.so', sha256: 'ab'.repeat(32), apiVersion: { major: 0, minor: 80 }, platformName: 'reference', createOptions: { device_count: 2 } },
    environment: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2, hostname: 'h' },
    results, totals: totals(results), capabilities: capabilityMatrix(results), staleExpectations: [], exitCode: 1, ...over,
  };
}

describe('JUnit against junit-10.xsd', function () {
  this.timeout(60_000);

  it('every status, retries, flaky and xpass validate; the root carries only schema attributes', async () => {
    const xml = renderJunit(sample());
    await validate(xml);
    assert.match(xml, /<testsuites name="pjrt-cts reference" time="1.000">/);
    assert.match(xml, /<flakyFailure type="flaky" message="failed on attempt 1/);
    assert.equal(xml.match(/<rerunFailure type="fail"/g)?.length, 2, 'a fail after 3 attempts: two reruns');
    assert.match(xml, /<property name="suite.xpass" value="1"\/>/, 'xpass counted in its suite');
    assert.match(xml, /<property name="run.xpass" value="1"\/>/);
    assert.match(xml, /xpass: waived by an expectation \(was broken\) but passed/, 'xpass in the case output');
    assert.match(xml, /source: header\ncite: pjrt_c_api.h PJRT_X/, 'source and cite in system-out (the schema has no testcase properties)');
    assert.match(xml, /warn: quality check/);
    assert.match(xml, /<testcase classname="tier1.t" name="crash" time="0.812" status="crash">/, 'a crash keeps its real duration');
    assert.match(xml, /<testcase classname="tier1.t" name="w \[warn\]"[^>]* status="warn">[\s\S]*?<system-err>WARN: a quality check failed/, 'warn visible: name suffix and system-err');
    assert.match(xml, /name="xp \[xpass\]"[^>]* status="xpass">[\s\S]*?<system-err>XPASS: waived by an expectation/, 'xpass visible');
    assert.equal(xml.match(/name="plugin.sha256"/g)?.length, 1, 'run-wide properties once');
    assert.doesNotMatch(xml, /<testcase[^>]*>\s*<properties>/);
  });

  it('interrupted and stopped runs are marked and still valid', async () => {
    const i = renderJunit(sample({ interrupted: true, exitCode: 130 }));
    await validate(i);
    assert.match(i, /<testsuites name="pjrt-cts reference \(interrupted\)"/);
    assert.match(i, /<property name="run.interrupted" value="true"\/>/);
    const s = renderJunit(sample({ stopped: 'stopped after 1 failure(s) (--bail)' }));
    await validate(s);
    assert.match(s, /<property name="run.stopped" value="stopped after 1 failure\(s\) \(--bail\)"\/>/);
  });

  it('the file a real run writes (a crash with retries, against the reference plugin) validates', async function () {
    if (!existsSync(path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so'))) this.skip();
    const junit = path.join(tmpDir(), 'r.xml');
    const r = cli(['run', '--filter', 'tier0.runner.*', '--junit', junit, '--retries', '1'], { env: { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_Client_PlatformName' } });
    assert.equal(r.code, 1, r.stderr);
    const xml = readFileSync(junit, 'utf8');
    await validate(xml);
    assert.match(xml, /<rerunFailure type="crash"/);
    assert.match(xml, /<testcase classname="tier0.runner" name="platform_name" time="(?!0\.000)/, 'crash duration is measured');
  });
});

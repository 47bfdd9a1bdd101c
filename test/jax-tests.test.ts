// `pjrt-cts jax-tests` on a JAX-style fixture checkout (test/fixtures/jax-checkout) against the reference plugin
// with faults: a crash, a hang, a flaky test, capability skips (element type from a results file, a second device
// from the plugin's own answer), a framework refusal and a wrong value; the reports; a baseline that gates only on
// what changed; and each bad input as one line, exit 2. Pending when PJRT_CTS_PYTHON lacks jax.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { ExpectationsFile } from '../src/config/expectations.js';
import type { ResultsFile } from '../src/config/results.js';
import { checkoutVersion } from '../src/jax-tests/checkout.js';
import { ROOT, cli, oneErrorLine, tmpDir } from './runner-helpers.js';

const CHECKOUT = path.join(ROOT, 'test', 'fixtures', 'jax-checkout');
const PYTHON = process.env['PJRT_CTS_PYTHON'];
const FAULTS = 'div_by_zero_traps,hang_in=PJRT_Buffer_UnsafePointer,op_off_by_one=cosine';
const ID = (name: string): string => `jax.tests/cts_fixture_test.py::CtsFixtureTest::${name}`;

/** The installed jax's version, or why these cases are pending. */
function installedJax(): string | { pending: string } {
  if (!PYTHON) return { pending: 'PJRT_CTS_PYTHON is not set (a python with jax and pytest)' };
  const r = spawnSync(PYTHON, ['-c', 'import jax, pytest; print(jax.__version__)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : { pending: `PJRT_CTS_PYTHON=${PYTHON} cannot import jax and pytest` };
}

/** A results file of the plugin whose capability matrix shows f64 lacking (as `run` records it). */
function resultsLackingF64(file: string): void {
  const r: ResultsFile = {
    schemaVersion: 1, cts: { version: '0.1.0' }, startedAt: new Date(0).toISOString(), finishedAt: new Date(0).toISOString(), durationMs: 0,
    interrupted: false, run: { strict: false, maxTier: 1, filters: [], excludes: [], retries: 0, jobs: 1 }, plugin: { name: 'reference', path: 'x.so' },
    environment: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2, hostname: 'h' }, results: [], totals: { byStatus: {}, byTier: {} },
    capabilities: { 'negate/f32': true, 'negate/f64': false, 'add/f64': false }, staleExpectations: [], exitCode: 0,
  };
  writeFileSync(file, JSON.stringify(r));
}

describe('jax-tests (JAX\'s own tests through a plugin)', function () {
  this.timeout(200_000);
  const jax = installedJax();
  const fixtureVersion = checkoutVersion(CHECKOUT);
  if (typeof jax !== 'string' || jax !== fixtureVersion) {
    it('is pending', function () {
      console.log(`      (pending: ${typeof jax === 'string' ? `the fixture checkout mimics JAX ${fixtureVersion}, PJRT_CTS_PYTHON has jax ${jax}` : jax.pending})`);
      this.skip();
    });
    return;
  }
  const dir = tmpDir();
  const json = path.join(dir, 'jax.json');
  const junit = path.join(dir, 'jax.xml');
  const baseline = path.join(dir, 'baseline.json');
  const fromResults = path.join(dir, 'lacking-f64.json');
  const state = path.join(dir, 'state');
  let first: ReturnType<typeof cli>;
  let results: ResultsFile;
  const status = (name: string): string | undefined => results.results.find((r) => r.id === ID(name))?.status;
  const result = (name: string): ResultsFile['results'][number] => results.results.find((r) => r.id === ID(name))!;

  before(function () {
    mkdirSync(state);
    resultsLackingF64(fromResults);
    first = cli(['jax-tests', '--jax-src', CHECKOUT, '-p', 'reference', '-o', 'device_count=1', '--from-results', fromResults,
      '--timeout', '6000', '--retries', '1', '--json', json, '--junit', junit, '--write-expectations', baseline],
    { env: { PJRT_REFERENCE_FAULTS: FAULTS, CTS_FIXTURE_STATE_DIR: state } });
    results = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
  });

  it('reports every test of the file once, with the status its fault gives', () => {
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.equal(results.results.length, 9);
    assert.equal(status('test_add'), 'pass');
    assert.equal(status('test_negate_float32'), 'pass');
    assert.equal(status('test_cosine'), 'fail');
    assert.equal(status('test_integer_division_by_zero'), 'crash');
    assert.equal(status('test_unsafe_buffer_pointer'), 'timeout');
    assert.equal(status('test_flaky'), 'flaky');
    assert.equal(result('test_flaky').attempts, 2);
  });

  it('a crash or hang deselects the test in flight and the rest of the file still runs', () => {
    assert.match(result('test_integer_division_by_zero').message!, /SIGFPE/);
    assert.match(result('test_unsafe_buffer_pointer').message!, /no result within 6 s/);
    // Tests after both in the file ran.
    assert.equal(status('test_two_devices'), 'unsupported');
  });

  it('skips what the plugin lacks with the reason: an element type from the results file, a second device from the plugin', () => {
    assert.equal(status('test_negate_float64'), 'unsupported');
    assert.match(result('test_negate_float64').message!, /lacks f64 \(float64\).*lacking-f64\.json/);
    assert.match(result('test_two_devices').message!, /the plugin reports 1 device\(s\) and the test needs 2/);
  });

  it('groups failures into root causes: a framework refusal, a wrong value by JAX\'s error, crash and hang', () => {
    const rules = new Map((results.rootCauses ?? []).map((c) => [c.rule, c]));
    assert.equal(result('test_pure_callback').rule, 'jax-refusal:python callbacks');
    assert.match(result('test_pure_callback').message!, /framework refusal \(JAX, not the plugin\).*jax\/_src\/callback\.py emit_python_callback/);
    assert.match(result('test_cosine').rule!, /^jax-run:AssertionError: Not equal to tolerance/);
    assert.ok(rules.has('jax-refusal:python callbacks') && rules.has('jax-test:crash') && rules.has('jax-test:timeout'), [...rules.keys()].join(', '));
    assert.match(first.stdout, /Failures by broken rule/);
  });

  it('writes JUnit with one testcase per JAX test, and the baseline with compile and run failures apart', () => {
    assert.equal((readFileSync(junit, 'utf8').match(/<testcase /g) ?? []).length, 9);
    const b = JSON.parse(readFileSync(baseline, 'utf8')) as ExpectationsFile;
    const reasons = b.expectations.map((e) => e.reason.split(' (')[0]);
    assert.deepEqual(reasons, ['run failure', 'framework refusal', 'crash', 'timeout', 'flaky']);
  });

  it('with the baseline, gates only on what changed', () => {
    // add is newly broken (fail), the refusal stays waived (xfail), cosine is fixed: it passes (its entry waives only
    // the rule it broke; compare with the earlier results names it as a fix).
    const r = cli(['jax-tests', '--jax-src', CHECKOUT, '-p', 'reference', '-k', 'cosine or add or pure_callback', '--retries', '0', '-e', baseline, '--json', path.join(dir, 'again.json')],
      { env: { PJRT_REFERENCE_FAULTS: 'op_off_by_one=add' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const again = JSON.parse(readFileSync(path.join(dir, 'again.json'), 'utf8')) as ResultsFile;
    const by = new Map(again.results.map((x) => [x.id, x.status]));
    assert.equal(by.get(ID('test_cosine')), 'pass');
    assert.equal(by.get(ID('test_add')), 'fail');
    assert.equal(by.get(ID('test_pure_callback')), 'xfail');
  });

  describe('bad input: one line, exit 2', () => {
    it('no checkout, or a checkout of another version', () => {
      oneErrorLine(cli(['jax-tests', '--jax-src', path.join(dir, 'nowhere')]), /--jax-src: .*nowhere: expected a JAX source checkout/);
      const other = path.join(dir, 'other');
      cpSync(CHECKOUT, other, { recursive: true });
      writeFileSync(path.join(other, 'jax', 'version.py'), '_version = "0.0.1"\n');
      oneErrorLine(cli(['jax-tests', '--jax-src', other]), /is JAX 0\.0\.1 but .* has jax \d/);
    });

    it('no jax, no pytest', () => {
      // The python without its site-packages has neither; with them, a module named pytest that cannot be imported.
      const bare = path.join(dir, 'bare-python');
      writeFileSync(bare, `#!/bin/sh\nexec "${PYTHON}" -S "$@"\n`, { mode: 0o755 });
      oneErrorLine(cli(['jax-tests', '--jax-src', CHECKOUT], { env: { PJRT_CTS_PYTHON: bare } }), /expected a python with jax installed/);
      const hide = path.join(dir, 'no-pytest');
      mkdirSync(hide);
      writeFileSync(path.join(hide, 'pytest.py'), 'raise ImportError("hidden by the test")\n');
      oneErrorLine(cli(['jax-tests', '--jax-src', CHECKOUT], { env: { PYTHONPATH: hide } }), /expected a python with pytest installed/);
    });

    it('an unknown test file', () => {
      oneErrorLine(cli(['jax-tests', '--jax-src', CHECKOUT, 'tests/nope_test.py']), /tests\/nope_test\.py: expected a test file of .*none matches/);
    });
  });
});

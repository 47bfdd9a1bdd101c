// A gate vendors can trust: no false green (zero cases, malformed globs, a gate above --tier, an empty corpus),
// and fail fast (a plugin that crashes or hangs in client creation is named within a minute; --bail,
// --max-failures and K client-creation failures in a row stop a run with every case accounted for), plus the
// baseline expectations file and --rerun-failed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExpectationsFile } from '../src/config/expectations.js';
import type { ResultsFile } from '../src/config/results.js';
import { cli, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const read = (f: string): ResultsFile => JSON.parse(readFileSync(f, 'utf8')) as ResultsFile;

describe('gate: no false green', function () {
  this.timeout(60_000);
  const dir = tmpDir();

  it('a selection of zero cases is exit 2 naming the filter, the exclude or the tier (run, run --list)', () => {
    oneErrorLine(cli(['run', '--filter', 'tier1.transfr.**']), /--filter 'tier1\.transfr\.\*\*': selects 0 cases: .*no id matches/);
    oneErrorLine(cli(['run', '--list', '--filter', 'nope.*']), /selects 0 cases/);
    oneErrorLine(cli(['run', '--tier', '0', '--exclude', 'tier0.**']), /--tier 0 --exclude 'tier0\.\*\*': selects 0 cases: .*--exclude leaves nothing/);
    oneErrorLine(cli(['run', '--tier', '0', '--filter', 'tier1.**']), /no id of tiers ≤ 0 matches --filter 'tier1\.\*\*'/);
  });

  it('a malformed glob is exit 2 (flags and expectations files)', () => {
    oneErrorLine(cli(['run', '--filter', '[']), /--filter: \[: expected a picomatch glob, but "\[" is malformed/);
    oneErrorLine(cli(['run', '--exclude', 'tier1.{a']), /--exclude: .*malformed/);
    oneErrorLine(cli(['list', '--filter', '[']), /malformed/);
    const exp = path.join(dir, 'exp.json');
    writeFileSync(exp, JSON.stringify({ expectations: [{ tests: ['tier1.[', 'x'], status: 'fail', reason: 'r' }] }));
    oneErrorLine(cli(['run', '--tier', '0', '--expectations', exp]), /exp\.json: \$\.expectations\[0\]\.tests\[0\]: expected a picomatch glob/);
    writeFileSync(exp, JSON.stringify({ expectations: [{ rules: 'PJRT_X:[', status: 'fail', reason: 'r' }] }));
    oneErrorLine(cli(['run', '--tier', '0', '--expectations', exp]), /exp\.json: \$\.expectations\[0\]\.rules\[0\]: expected a picomatch glob/);
    writeFileSync(exp, JSON.stringify({ expectations: [{ status: 'fail', reason: 'r' }] }));
    oneErrorLine(cli(['run', '--tier', '0', '--expectations', exp]), /exp\.json: \$\.expectations\[0\]: an expectation names `tests`, `rules` or both/);
  });

  it('--gate tierN with --tier below N is exit 2', () => {
    oneErrorLine(cli(['run', '--gate', 'tier1', '--tier', '0']), /--gate: tier1: expected --tier ≥ 1/);
  });

  it('an empty --programs directory is exit 2', () => {
    const empty = path.join(dir, 'empty-corpus');
    mkdirSync(empty, { recursive: true });
    oneErrorLine(cli(['run', '--programs', empty]), /--programs: .*empty-corpus: expected at least one program/);
    oneErrorLine(cli(['list', '--programs', empty]), /expected at least one program/);
  });
});

describe('gate: fail fast', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  it('a plugin that hangs in PJRT_Client_Create: exit 2 in under a minute, one line naming the call (default settings)', () => {
    const dir = tmpDir();
    const t0 = Date.now();
    const json = path.join(dir, 'r.json');
    const r = cli(['run', '--gate', 'tier1', '--json', json], { env: { PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' } });
    const s = (Date.now() - t0) / 1000;
    oneErrorLine(r, /PJRT_Client_Create: the plugin hangs: PJRT_Client_Create did not return within 30000 ms/);
    assert.ok(s < 60, `took ${s} s`);
    assert.ok(!existsSync(`${json}l`), 'no case ran');
  });

  it('crashes in GetPjrtApi\'s neighbours are named: Plugin_Initialize (SIGABRT), Client_Create (SIGSEGV)', () => {
    oneErrorLine(cli(['run', '--tier', '0'], { env: { PJRT_REFERENCE_FAULTS: 'abort_in=PJRT_Plugin_Initialize' } }),
      /PJRT_Plugin_Initialize: the plugin crashed in PJRT_Plugin_Initialize: the worker was killed by SIGABRT/);
    oneErrorLine(cli(['run', '--tier', '0'], { env: { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_Client_Create' } }), /crashed in PJRT_Client_Create: .*SIGSEGV/);
  });

  it('without the preflight, client creation hanging 3 times in a row (a warm-up counts) stops the run; every case is accounted for', () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const junit = path.join(dir, 'r.xml');
    const t0 = Date.now();
    const r = cli(['run', '--tier', '1', '--no-preflight', '--timeout', '1500', '--json', json, '--junit', junit], { env: { PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(Date.now() - t0 < 45_000);
    assert.match(r.stdout, /run STOPPED: client creation failed 3 times in a row \(PJRT_Client_Create hung\)/);
    const res = read(json);
    assert.match(res.stopped ?? '', /client creation failed 3 times in a row/);
    // The warm-up's hang counts too, unless a case that needs no client passed after it (a streak is "in a row").
    const hangs = res.results.filter((x) => x.message?.includes('during PJRT_Client_Create')).length;
    const warmupHang = /within 1500 ms during PJRT_Client_Create/.test(res.warmup?.message ?? '');
    assert.ok(hangs === 3 || (hangs === 2 && warmupHang), `${hangs} cases hung${warmupHang ? ' after the warm-up' : ''}`);
    assert.equal(res.results.length, res.coverage!.selected, 'every selected case has a result');
    assert.ok(res.results.filter((x) => x.status === 'skip' && x.message?.startsWith('not run: client creation failed')).length > 100);
    assert.match(readFileSync(junit, 'utf8'), /<property name="run.stopped"/);
  });

  it('--max-failures N and --bail stop after N failures; the rest are recorded as not run and the reports are written', () => {
    const dir = tmpDir();
    for (const [flags, n] of [[['--max-failures', '2'], 2], [['--bail'], 1]] as const) {
      const json = path.join(dir, `m${n}.json`);
      const junit = path.join(dir, `m${n}.xml`);
      const r = cli(['run', '--tier', '0', ...flags, '--json', json, '--junit', junit], { env: { PJRT_REFERENCE_FAULTS: 'empty_error_message' } });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const res = read(json);
      assert.equal(res.results.filter((x) => ['fail', 'crash', 'timeout'].includes(x.status)).length, n);
      assert.match(res.stopped ?? '', new RegExp(`stopped after ${n} failure\\(s\\) \\(${n === 1 ? '--bail' : '--max-failures 2'}\\)`));
      assert.equal(res.results.length, res.coverage!.selected);
      assert.ok(res.results.some((x) => x.message?.startsWith('not run: stopped after')));
      assert.ok(existsSync(junit));
      assert.match(r.stdout, /run STOPPED: stopped after/);
    }
  });

  it('--write-expectations writes a baseline that waives the run; --rerun-failed runs only the non-passes', () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const base = path.join(dir, 'baseline.json');
    const env = { PJRT_REFERENCE_FAULTS: 'empty_error_message' };
    const first = cli(['run', '--tier', '0', '--json', json, '--write-expectations', base], { env });
    assert.equal(first.code, 1, first.stderr);
    const exp = JSON.parse(readFileSync(base, 'utf8')) as ExpectationsFile;
    const bad = read(json).results.filter((x) => x.status !== 'pass' && x.status !== 'unsupported' && x.status !== 'skip');
    assert.equal(exp.expectations.length, bad.length);
    assert.ok(exp.expectations.every((e) => typeof e.tests === 'string' && e.reason.length > 0));
    const waived = cli(['run', '--tier', '0', '--expectations', base], { env });
    assert.equal(waived.code, 0, waived.stdout);
    const rerun = path.join(dir, 'rerun.json');
    const again = cli(['run', '--rerun-failed', json, '--json', rerun], { env });
    assert.equal(again.code, 1);
    // Cases skipped because their precondition failed did not pass either: their own outcome was a failure.
    const dependents = read(json).results.filter((x) => x.status === 'skip' && /^depends on /.test(x.message ?? ''));
    assert.deepEqual(read(rerun).results.map((x) => x.id).sort(), [...bad, ...dependents].map((x) => x.id).sort());
    const clean = path.join(dir, 'clean.json');
    assert.equal(cli(['run', '--tier', '0', '--filter', 'tier0.runner.*', '--json', clean]).code, 0);
    oneErrorLine(cli(['run', '--rerun-failed', clean]), /--rerun-failed: .*clean\.json: expected at least one case to rerun/);
  });
});

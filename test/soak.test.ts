// run --repeat / --soak: the selection again and again in the same workers; a verdict that changes between
// repetitions is named (flaky) and fails the run; each repetition's verdict and each worker's memory are recorded.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { cli, oneErrorLine } from './runner-helpers.js';

const ONE_LAUNCH = 'tier1.execute.add_one.f32';

describe('soak (run --repeat, --soak)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-soak-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const read = (f: string): ResultsFile => JSON.parse(readFileSync(f, 'utf8')) as ResultsFile;

  it('--repeat 3 on a clean plugin: every case three times, no verdict changed, exit 0, the memory per worker and repetition', () => {
    const json = path.join(dir, 'clean.json');
    const r = cli(['run', '--plugin', 'reference', '-f', 'tier0.api.*', '-f', ONE_LAUNCH, '--repeat', '3', '--jobs', '2', '--json', json]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const f = read(json);
    assert.equal(f.run.repeat, 3);
    assert.deepEqual(f.soak?.changed, []);
    assert.equal(f.soak?.repetitions, 3);
    assert.ok(f.results.every((c) => c.repetitions?.length === 3 && c.status === 'pass'), 'each case ran three times and passed');
    assert.ok(f.soak!.workers.length >= 1 && f.soak!.workers.every((w) => w.rssMiB.length === 3 && w.rssMiB.some((m) => m !== null && m > 0)));
    assert.match(r.stdout, /soak: 3 repetition\(s\), 0 case\(s\) changed verdict/);
  });

  it('names the case whose verdict changes under a flaky fault, with each repetition\'s verdict, and exits 1', () => {
    const json = path.join(dir, 'flaky.json');
    const r = cli(['run', '--plugin', 'reference', '-f', ONE_LAUNCH, '--repeat', '4', '--warmup-timeout', '0', '--json', json],
      { env: { PJRT_REFERENCE_FAULTS: 'flaky_every_second_launch' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const f = read(json);
    assert.deepEqual(f.soak?.changed, [ONE_LAUNCH]);
    const c = f.results.find((x) => x.id === ONE_LAUNCH)!;
    assert.equal(c.status, 'flaky');
    assert.deepEqual(c.repetitions?.map((x) => x.status), ['pass', 'fail', 'pass', 'fail']);
    assert.match(c.message ?? '', /^verdict changed between repetitions \(1 pass, 2 fail, 3 pass, 4 fail\)/);
    assert.match(r.stdout, /run FAILED \(a verdict changed between repetitions\).*tier1\.execute\.add_one\.f32/);
  });

  it('--soak stops starting repetitions at its deadline (bounded), and records it', () => {
    const json = path.join(dir, 'timed.json');
    const t0 = Date.now();
    const r = cli(['run', '--plugin', 'reference', '-f', 'tier0.api.*', '--soak', '1500', '--json', json]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const f = read(json);
    assert.equal(f.run.soakMs, 1500);
    assert.ok(f.soak!.repetitions >= 2, `expected several repetitions in 1.5 s, got ${f.soak!.repetitions}`);
    assert.ok(Date.now() - t0 < 30_000);
    assert.match(r.stdout, /soak: repetition 2 started/);
  });

  it('rejects a repetition count below one, before anything runs', () => {
    oneErrorLine(cli(['run', '--plugin', 'reference', '--repeat', '0']), /--repeat/);
  });
});

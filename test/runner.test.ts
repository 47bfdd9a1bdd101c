// End-to-end: the CLI runs fake suites (crash, hang, fail, flake) in workers; statuses, exit codes, recovery.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { cli, cliAsync, tmpDir } from './runner-helpers.js';

const read = (f: string): ResultsFile => JSON.parse(readFileSync(f, 'utf8')) as ResultsFile;
const statusOf = (r: ResultsFile): Record<string, string> => Object.fromEntries(r.results.map((x) => [x.id, x.status]));

describe('runner (fake suites)', function () {
  this.timeout(60_000);
  let dir: string;
  let full: ResultsFile;
  let fullRun: ReturnType<typeof cli>;

  before(() => {
    dir = tmpDir();
    fullRun = cli(['run', '--plugin', '/bin/sh', '--json', path.join(dir, 'r.json'), '--retries', '1'], { fake: true, env: { FAKE_STATE_DIR: dir } });
    full = read(path.join(dir, 'r.json'));
  });

  it('gives every case its status and keeps going after crashes and a hang', () => {
    assert.deepEqual(statusOf(full), {
      'tier0.basic.pass.a.x': 'pass', 'tier0.basic.pass.a.y': 'pass', 'tier0.basic.pass.b.x': 'pass', 'tier0.basic.pass.b.y': 'pass',
      'tier0.basic.fail': 'fail', 'tier0.basic.unsupported': 'unsupported', 'tier0.basic.skip': 'skip',
      'tier1.faults.segv': 'crash', 'tier1.faults.abort': 'crash', 'tier1.faults.hang': 'timeout', 'tier1.faults.after': 'pass',
      'tier1.faults.flaky': 'flaky', 'tier2.misc.capability': 'pass', 'tier2.misc.required_unsupported': 'unsupported', 'tier2.misc.ok': 'pass',
    });
    assert.equal(fullRun.code, 1);
  });

  it('explains crashes with the signal and the worker\'s last output, and failures with the first difference', () => {
    const by = Object.fromEntries(full.results.map((x) => [x.id, x]));
    assert.match(by['tier1.faults.segv']!.message!, /SIGSEGV[\s\S]*fake: about to crash/);
    assert.match(by['tier1.faults.abort']!.message!, /SIGABRT/);
    assert.match(by['tier1.faults.hang']!.message!, /no result within 400 ms/);
    assert.match(by['tier0.basic.fail']!.message!, /bytes differ on purpose: expected byte 2 = 0x9 \(…01 02 09 04…\), got 0x3/);
    assert.equal(by['tier0.basic.fail']!.rule, 'check:bytes-differ-on-purpose', 'the failure carries its rule key');
    assert.equal(by['tier1.faults.segv']!.attempts, 2);
    assert.match(by['tier1.faults.flaky']!.message!, /passed on attempt 2/);
  });

  it('streams one JSON line per case and writes totals and the capability matrix', () => {
    const [head, ...lines] = readFileSync(path.join(dir, 'r.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, full.results.length);
    assert.equal((JSON.parse(head!) as { type: string }).type, 'header');
    assert.equal(full.totals.byStatus['crash'], 2);
    assert.equal(full.totals.byTier['1']!['timeout'], 1);
    assert.deepEqual(full.capabilities, { 'add/bf16': false, 'add/f32': true, 'mul/f32': true });
    assert.equal(full.schemaVersion, 1);
  });

  it('ends the console output with the plain summary lines', () => {
    const lines = fullRun.stdout.trimEnd().split('\n');
    assert.equal(lines.at(-1), 'pjrt-cts: 7 passed, 4 failed (1 fail, 2 crash, 1 timeout), 2 unsupported, 1 skipped, 1 flaky');
    assert.equal(lines.at(-2), '7 passed, 4 failed');
  });

  it('gates on tiers ≤ N only, and fails a gate when nothing executed', () => {
    assert.equal(cli(['run', '--plugin', '/bin/sh', '--gate', 'tier0', '--filter', 'tier0.basic.pass.*'], { fake: true }).code, 0);
    assert.equal(cli(['run', '--plugin', '/bin/sh', '--gate', 'tier0'], { fake: true }).code, 1);
    const none = cli(['run', '--plugin', '/bin/sh', '--gate', 'tier0', '--filter', 'tier0.basic.unsupported'], { fake: true });
    assert.equal(none.code, 1);
    assert.match(none.stdout, /no case of tiers ≤ 0 executed/);
  });

  it('--shard i/n puts every id in exactly one shard', () => {
    const all = cli(['run', '--list'], { fake: true }).stdout.trim().split('\n').map((l) => l.split('\t')[0]);
    const seen: string[] = [];
    for (let i = 1; i <= 3; i++) seen.push(...cli(['run', '--list', '--shard', `${i}/3`], { fake: true }).stdout.trim().split('\n').filter(Boolean).map((l) => l.split('\t')[0]));
    assert.deepEqual([...seen].sort(), [...all].sort());
    assert.equal(all.length, 15);
  });

  it('applies expectations: xfail, xpass, stale', () => {
    const exp = path.join(dir, 'exp.json');
    writeFileSync(exp, JSON.stringify({ expectations: [
      { tests: 'tier0.basic.fail', status: 'fail', reason: 'known', issue: 'https://example.org/1' },
      { tests: ['tier1.faults.segv', 'tier1.faults.abort'], status: 'crash', reason: 'known crash' },
      { tests: 'tier1.faults.hang', status: 'timeout', reason: 'known hang' },
      { tests: 'tier0.basic.pass.a.*', status: 'fail', reason: 'was broken' },
      { tests: 'tier9.gone.*', status: 'fail', reason: 'removed long ago' },
    ] }));
    const r = cli(['run', '--plugin', '/bin/sh', '--expectations', exp, '--json', path.join(dir, 'e.json'), '--gate', 'tier1'], { fake: true, env: { FAKE_STATE_DIR: dir } });
    const res = read(path.join(dir, 'e.json'));
    const s = statusOf(res);
    assert.equal(s['tier0.basic.fail'], 'xfail');
    assert.equal(s['tier1.faults.segv'], 'xfail');
    assert.equal(s['tier1.faults.hang'], 'xfail');
    assert.equal(s['tier0.basic.pass.a.x'], 'xpass');
    assert.deepEqual(res.staleExpectations, [{ tests: ['tier9.gone.*'], reason: 'removed long ago' }]);
    assert.match(r.stdout, /Unexpected passes[\s\S]*tier0\.basic\.pass\.a\.x/);
    assert.match(r.stdout, /Stale expectations[\s\S]*tier9\.gone/);
    assert.equal(r.code, 0, r.stdout);
  });

  it('in a --strict run a required case that is unsupported fails, and selection flags are refused', () => {
    const strictJson = path.join(dir, 's.json');
    const r = cli(['run', '--plugin', '/bin/sh', '--strict', '--json', strictJson], { fake: true });
    assert.equal(r.code, 1);
    const res = read(strictJson);
    assert.equal(statusOf(res)['tier2.misc.required_unsupported'], 'fail');
    assert.equal(statusOf(res)['tier0.basic.unsupported'], 'unsupported');
    const bad = cli(['run', '--plugin', '/bin/sh', '--strict', '--filter', 'x*'], { fake: true });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^pjrt-cts: error: --strict: --filter: expected no selection/);
  });

  it('on SIGINT kills the workers, keeps the partial report and exits 130', async () => {
    const json = path.join(dir, 'int.json');
    const child = cliAsync(['run', '--plugin', '/bin/sh', '--json', json, '--timeout', '60000', '--filter', 'tier0.basic.pass.*', '--filter', 'tier1.faults.hang*'], { fake: true });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        // The pass cases run first; once the header and 4 lines are streamed the worker is inside the hang.
        const jsonl = json.replace(/json$/, 'jsonl');
        if (existsSync(jsonl) && readFileSync(jsonl, 'utf8').trim().split('\n').length >= 5) {
          clearInterval(poll);
          setTimeout(() => child.kill('SIGINT'), 200);
        }
      }, 50);
      child.on('close', (c) => {
        clearInterval(poll);
        resolve(c);
      });
    });
    assert.equal(code, 130);
    const res = read(json);
    assert.equal(res.interrupted, true);
    assert.equal(statusOf(res)['tier1.faults.hang'], 'skip');
    assert.equal(res.results.find((x) => x.id === 'tier1.faults.hang')!.message, 'interrupted');
    assert.equal(res.results.filter((x) => x.status === 'pass').length, 4);
    assert.match(out.trimEnd().split('\n').at(-1)!, /^pjrt-cts: 4 passed, 0 failed, 1 skipped, interrupted$/);
  });

  it('runs cases in parallel workers with --jobs and loses none', () => {
    const json = path.join(dir, 'j.json');
    cli(['run', '--plugin', '/bin/sh', '--jobs', '3', '--json', json], { fake: true, env: { FAKE_STATE_DIR: tmpDir() } });
    const res = read(json);
    assert.equal(res.results.length, 15);
    assert.equal(statusOf(res)['tier1.faults.after'], 'pass');
    assert.equal(statusOf(res)['tier1.faults.segv'], 'crash');
  });
});

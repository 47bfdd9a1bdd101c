// The workers' warm-up: a trivial program compiled and run before the first case, under its own long deadline.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ResultsFile } from '../src/config/results.js';
import { cli, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

describe('warm-up before the first case', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });
  const dir = tmpDir();
  const run = (name: string, args: string[], env: Record<string, string> = {}): { res: ResultsFile; stdout: string } => {
    const json = path.join(dir, `${name}.json`);
    const r = cli(['run', '--json', json, '--filter', 'tier1.compile.*', ...args], { env });
    assert.ok(existsSync(json), r.stdout + r.stderr);
    return { res: ResultsFile.parse(JSON.parse(readFileSync(json, 'utf8'))), stdout: r.stdout };
  };

  it('runs once per worker when cases compile, and is recorded', () => {
    const { res } = run('ok', []);
    assert.equal(res.warmup?.ok, true);
    assert.equal(res.counters?.sharedClientsCreated, 1, 'the warm-up uses the shared client the cases use');
  });

  it('a warm-up that hangs running its program is killed at --timeout (not the long compile deadline), reported once, and charges no case', () => {
    // program_reused_after_compile is the one compile case that executes (it runs the executable after the code is gone).
    const { res, stdout } = run('hang', ['--timeout', '1500', '--jobs', '2', '--exclude', 'tier1.compile.program_reused_after_compile'], { PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_LoadedExecutable_Execute' });
    assert.equal(res.warmup?.ok, false);
    assert.match(res.warmup?.message ?? '', /did not finish within 1500 ms during PJRT_LoadedExecutable_Execute/);
    assert.equal(stdout.match(/warm-up .* failed/g)?.length, 1, stdout);
    // No compile case executes, so every one passes: the hang cost the warm-up only.
    assert.deepEqual(Object.keys(res.totals.byStatus), ['pass']);
  });

  it('a warm-up compile slower than --warmup-timeout is killed at it, and the case still gets its own deadline', () => {
    // Forms declared, so no probe compiles: the warm-up compiles once, the case once, each taking compile_delay_ms.
    const config = path.join(dir, 'slow-compile.json');
    writeFileSync(config, JSON.stringify({ default: 'slow', plugins: { slow: { library: LIB, programForms: ['text'], createOptions: { compile_delay_ms: 1500 } } } }));
    const json = path.join(dir, 'slow-compile-r.json');
    const r = cli(['run', '-c', config, '--json', json, '--filter', 'tier1.compile.add_one', '--warmup-timeout', '500', '--timeout', '6000']);
    const res = ResultsFile.parse(JSON.parse(readFileSync(json, 'utf8')));
    assert.match(res.warmup?.message ?? '', /did not finish within 500 ms during PJRT_Client_Compile/, r.stdout);
    assert.deepEqual(Object.keys(res.totals.byStatus), ['pass']);
  });

  it('creating the shared client in the warm-up keeps a case\'s deadline (--timeout), not the long one', () => {
    const { res } = run('create', ['--no-preflight', '--timeout', '1500', '--max-client-failures', '1'], { PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' });
    assert.match(res.warmup?.message ?? '', /did not finish within 1500 ms/);
  });

  it('--warmup-timeout 0 turns it off; a bad value is exit 2', () => {
    assert.equal(run('off', ['--warmup-timeout', '0']).res.warmup, undefined);
    oneErrorLine(cli(['run', '--warmup-timeout', '-1', '--list']), /--warmup-timeout/);
  });
});

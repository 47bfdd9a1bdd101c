// The CLI under conditions a vendor's CI produces: bad output paths (checked before anything runs), a stdout
// that closes (EPIPE), `info` on a plugin that crashes or hangs (isolated in a child), plugins.json friction
// (an unrelated broken ./plugins.json, a BOM, messages that say what was expected), npm's semver, and the CLI's
// conventions (short flags, one error prefix, exit codes and environment in --help, SIGTERM → 143).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { satisfies, validRange } from '../src/config/semver.js';
import type { ResultsFile } from '../src/config/results.js';
import { cli, CLI, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

/** Runs the CLI with its stdout closed after `keep` bytes (as `| head -c keep` would), then waits for it. */
function withClosedStdout(args: string[], keep: number, env: Record<string, string> = {}, cwd = ROOT): Promise<{ code: number | null; stderr: string; got: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let got = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    if (keep === 0) child.stdout.destroy();
    else {
      child.stdout.on('data', (d: Buffer) => {
        got += d.toString();
        if (got.length >= keep) child.stdout.destroy();
      });
    }
    child.on('close', (code) => resolve({ code, stderr, got }));
  });
}

describe('cli: output paths are checked before anything runs', function () {
  this.timeout(60_000);
  const dir = tmpDir();
  const file = path.join(dir, 'a-file');
  writeFileSync(file, 'x');

  it('--junit/--json that is a directory, under a regular file, or not writable: exit 2, one line, no case run', () => {
    const json = path.join(dir, 'r.json');
    for (const [args, re] of [
      [['--junit', '/proc/x.xml'], /--junit: \/proc\/x\.xml: cannot write the file/],
      [['--junit', dir], /--junit: .*: expected a file path, but it is a directory/],
      [['--json', path.join(file, 'r.json')], /--json: .*a-file\/r\.json: expected a writable file path/],
      [['--junit', path.join(file, 'sub', 'x.xml')], /--junit: .*expected a writable file path/],
      [['--write-expectations', '/proc/base.json'], /--write-expectations: \/proc\/base\.json: cannot write/],
    ] as const) {
      const t0 = Date.now();
      const r = cli(['run', '--tier', '0', '--json', json, ...args]);
      oneErrorLine(r, re);
      assert.ok(Date.now() - t0 < 10_000, 'before anything runs');
      assert.ok(!existsSync(`${json}l`), 'no case ran');
    }
  });

  it('schema --out /proc/foo fails at once; schema writes into the current directory by default', () => {
    const t0 = Date.now();
    oneErrorLine(cli(['schema', '--out', '/proc/foo']), /--out: \/proc\/foo: cannot create the directory/);
    assert.ok(Date.now() - t0 < 10_000);
    oneErrorLine(cli(['schema', '--out', file]), /--out: .*a-file: expected a directory/);
    const cwd = path.join(dir, 'schema-cwd');
    mkdirSync(cwd);
    const r = cli(['schema'], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(cwd).sort(), ['compare.schema.json', 'compat.schema.json', 'expectations.schema.json', 'must-pass.schema.json', 'plugins.schema.json', 'results.schema.json']);
  });
});

describe('cli: no command hangs on a path', function () {
  this.timeout(60_000);

  it('a FIFO given as an input or output path is exit 2 at once (it would block a read or an open)', () => {
    const dir = tmpDir();
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    for (const args of [['run', '--config', fifo, '--list'], ['compare', fifo, fifo], ['run', '--tier', '0', '--expectations', fifo, '--list'],
      ['run', '--rerun-failed', fifo], ['run', '--tier', '0', '--junit', fifo], ['schema', '--out', fifo]]) {
      const t0 = Date.now();
      const r = cli(args);
      oneErrorLine(r, /fifo: .*(a FIFO|not a regular file|expected a directory)/);
      assert.ok(Date.now() - t0 < 10_000, args.join(' '));
    }
  });
});

describe('cli: a stdout that closes (EPIPE)', function () {
  this.timeout(60_000);

  it('list, list --json, discover --json and info piped into head end quietly', async function () {
    const cmds: string[][] = [['list'], ['list', '--json'], ['discover', '--json']];
    if (existsSync(PLUGIN)) cmds.push(['info'], ['info', '--json']);
    for (const args of cmds) {
      const r = await withClosedStdout(args, 0);
      assert.ok(r.code === 0, `${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /EPIPE|\n\s+at /, `${args.join(' ')}: no stack trace`);
      const h = await withClosedStdout(args, 10);
      assert.ok(h.code === 0, `${args.join(' ')} | head: exit ${h.code}: ${h.stderr}`);
      assert.doesNotMatch(h.stderr, /EPIPE|\n\s+at /);
    }
  });

  it('a run whose stdout is closed still writes its JSON and JUnit, and exits with its verdict', async function () {
    if (!existsSync(PLUGIN)) this.skip();
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const junit = path.join(dir, 'r.xml');
    const r = await withClosedStdout(['run', '--tier', '0', '--json', json, '--junit', junit], 0);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE|\n\s+at /);
    assert.equal((JSON.parse(readFileSync(json, 'utf8')) as ResultsFile).exitCode, 0);
    assert.match(readFileSync(junit, 'utf8'), /<testsuites/);
  });
});

describe('cli: info loads the plugin in a child process', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  it('a crash: one line naming the signal and the call in flight, exit 2', () => {
    oneErrorLine(cli(['info'], { env: { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_Client_Create' } }), /the plugin crashed in PJRT_Client_Create: the child process was killed by SIGSEGV/);
    oneErrorLine(cli(['info', '--json'], { env: { PJRT_REFERENCE_FAULTS: 'abort_in=PJRT_Client_Devices' } }), /crashed in PJRT_Client_Devices: .*SIGABRT/);
  });

  it('a hang: the deadline, naming the call', () => {
    const t0 = Date.now();
    oneErrorLine(cli(['info', '--timeout', '2000'], { env: { PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' } }), /did not answer within 2000 ms in PJRT_Client_Create: it hangs/);
    assert.ok(Date.now() - t0 < 15_000);
  });

  it('a healthy plugin still prints its document', () => {
    const r = cli(['info', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { platform: { name: string } }).platform.name, 'reference');
  });
});

describe('cli: configuration', function () {
  this.timeout(60_000);
  const dir = tmpDir();

  it('an explicit library path never reads ./plugins.json (an unrelated broken one is ignored)', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const cwd = path.join(dir, 'broken-cwd');
    mkdirSync(cwd);
    writeFileSync(path.join(cwd, 'plugins.json'), '{ "default": 1, "bogus": true');
    const r = cli(['run', '--plugin', PLUGIN, '--filter', 'tier0.runner.*'], { cwd });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(cli(['info', '--plugin', PLUGIN, '--json'], { cwd }).code, 0);
    // A name still needs the file, and its error names it.
    oneErrorLine(cli(['run', '--plugin', 'reference', '--list'], { cwd }), /plugins\.json: \$: expected JSON/);
  });

  it('errors say what was expected, where, and what was found', () => {
    const f = path.join(dir, 'p.json');
    writeFileSync(f, JSON.stringify({ default: 'x', plugins: { x: { library: 5 } } }));
    oneErrorLine(cli(['run', '--config', f, '--list']), /p\.json: \$\.plugins\.x\.library: expected one of: string, object, array; got number 5/);
    writeFileSync(f, JSON.stringify({ default: 'x', plugins: { x: { library: 'a.so', createOptions: { n: { bad: 1 } } } } }));
    oneErrorLine(cli(['run', '--config', f]), /\$\.plugins\.x\.createOptions\.n: expected one of: string, boolean, number, array, \{"float": …\}, \{"int64": …\}; got an object/);
    const e = path.join(dir, 'e.json');
    writeFileSync(e, JSON.stringify({ expectations: [{ tests: 'a.*', status: 'pass', reason: 'r' }] }));
    oneErrorLine(cli(['run', '--tier', '0', '--list', '--expectations', e]), /\$\.expectations\[0\]\.status: expected one of: "fail" \| "warn" .*got string "pass"/);
  });

  it('unknown keys are rejected by run and run --list alike', () => {
    const f = path.join(dir, 'unknown.json');
    writeFileSync(f, JSON.stringify({ default: 'x', plugins: { x: { library: 'a.so', libary: 'typo' } } }));
    oneErrorLine(cli(['run', '--config', f, '--list']), /\$\.plugins\.x: expected no key "libary"/);
    oneErrorLine(cli(['run', '--config', f]), /\$\.plugins\.x: expected no key "libary"/);
  });

  it('a UTF-8 byte order mark is accepted', function () {
    const f = path.join(dir, 'bom.json');
    writeFileSync(f, '\uFEFF' + JSON.stringify({ default: 'x', plugins: { x: { library: PLUGIN, createOptions: { device_count: 2 } } } }));
    const r = cli(['run', '--config', f, '--list', '--tier', '0']);
    assert.equal(r.code, 0, r.stderr);
    const e = path.join(dir, 'bom-exp.json');
    writeFileSync(e, '\uFEFF{"expectations": []}');
    assert.equal(cli(['run', '--config', f, '--list', '--tier', '0', '--expectations', e]).code, 0);
  });

  it('pluginVersion ranges follow npm semver: a pre-release does not satisfy its release', () => {
    assert.equal(satisfies('0.5.0-rc1', '0.5.0'), false);
    assert.equal(satisfies('0.5.0-rc1', '>=0.4.0 <0.5.0'), false);
    assert.equal(satisfies('0.5.0-rc1', '>=0.5.0-rc0'), true);
    assert.equal(satisfies('0.5.0', '0.5.0'), true);
    assert.equal(satisfies('1.9.0', '^1.2'), true);
    assert.equal(satisfies('v1.2', '~1.2.0'), true, 'loose versions are coerced');
    assert.equal(satisfies('no version at all', '*'), undefined);
    assert.equal(validRange('>=1 <2 || 3.x'), true);
    assert.equal(validRange('banana'), false);
  });
});

describe('cli: conventions', function () {
  this.timeout(60_000);

  it('short flags: -t -f -x -j -p -g', () => {
    const long = cli(['run', '--list', '--tier', '1', '--filter', 'tier1.transfer.**', '--exclude', '*.bf16.*']);
    const short = cli(['run', '-l', '-t', '1', '-f', 'tier1.transfer.**', '-x', '*.bf16.*', '-j', '2', '-p', 'reference']);
    assert.equal(short.code, 0, short.stderr);
    assert.equal(short.stdout, long.stdout);
    assert.ok(short.stdout.split('\n').length > 5);
    assert.equal(cli(['list', '-t', '0', '-f', 'tier0.runner.*']).stdout.trim().split('\n').length, 4);
  });

  it('commander\'s own errors carry the pjrt-cts: prefix on one line, exit 2', () => {
    oneErrorLine(cli(['run', '--filtr', 'x']), /^pjrt-cts: error: unknown option '--filtr' \(Did you mean --filter\?\)$/);
    oneErrorLine(cli(['run', '--tier']), /^pjrt-cts: error: option '-t, --tier <n>' argument missing$/);
    oneErrorLine(cli(['frobnicate']), /^pjrt-cts: error: unknown command 'frobnicate'/);
  });

  it('--help lists the exit codes and the environment variables', () => {
    for (const args of [['--help'], ['run', '--help']]) {
      const r = cli(args);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Exit codes:[\s\S]*\b130\b[\s\S]*\b143\b/);
      assert.match(r.stdout, /Environment:[\s\S]*PJRT_CTS_CONFIG[\s\S]*PJRT_NAMES_AND_LIBRARY_PATHS/);
    }
  });

  it('SIGTERM ends a run with exit 143, the case in flight recorded as interrupted and the reports written', async function () {
    if (!existsSync(PLUGIN)) this.skip();
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const child = spawn(process.execPath, [CLI, 'run', '--filter', 'tier0.runner.*', '--timeout', '60000', '--no-preflight', '--json', json], {
      cwd: ROOT, env: { ...process.env, NO_COLOR: '1', PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_AddressableDevices' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const code = await new Promise<number | null>((resolve) => {
      let sent = false;
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // The worker is inside the hanging case soon after the run starts.
        if (!sent && /running \d+ case/.test(out)) {
          sent = true;
          setTimeout(() => child.kill('SIGTERM'), 2000);
        }
      });
      child.on('close', (c) => resolve(c));
    });
    assert.equal(code, 143);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    assert.equal(res.interrupted, true);
    assert.equal(res.exitCode, 143);
    assert.ok(res.results.some((x) => x.message === 'interrupted'));
  });
});

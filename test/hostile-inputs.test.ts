// Issue 34's classes of bad input, each handled as the README promises: no accidental green (empty values, empty
// shards, reruns that drop what never ran), numbers and JSON that used to break the process, odd files where files
// are expected, signals before the first case, and messages that say what is so.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { cli, CLI, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const fake = { fake: true };
const ids = (stdout: string): string[] => stdout.trim().split('\n').filter(Boolean).map((l) => l.split('\t')[0]!);

describe('no accidental green', function () {
  this.timeout(60_000);
  const dir = tmpDir();

  it('an empty shard is exit 2 naming --shard, never a pass', () => {
    oneErrorLine(cli(['run', '--shard', '4000/4000', '--list'], fake), /^pjrt-cts: error: --shard: 4000\/4000: expected at least one case to run: shard 4000 of 4000 holds none of the 15 case\(s\)/);
    oneErrorLine(cli(['run', '--shard', '4000/4000', '--gate', 'tier1'], fake), /--shard: 4000\/4000: expected at least one case/);
  });

  it('--rerun-failed of a stream cut short reruns every case it selected but did not pass, recorded or not', () => {
    const json = path.join(dir, 'full.json');
    cli(['run', '--filter', 'tier0.**', '--json', json], fake);
    const lines = readFileSync(`${json}l`, 'utf8').trim().split('\n');
    const pass = lines.slice(1).map((l) => JSON.parse(l) as { id: string; status: string }).find((r) => r.status === 'pass')!;
    const cut = path.join(dir, 'cut.jsonl');
    // The header, one pass, and a last line torn in the middle (the run was killed while writing it).
    writeFileSync(cut, `${lines[0]}\n${JSON.stringify(pass)}\n${lines[2]!.slice(0, 20)}`);
    const r = cli(['run', '--rerun-failed', cut, '--filter', 'tier0.**', '--list'], fake);
    assert.equal(r.code, 0, r.stderr);
    const all = ids(cli(['run', '--filter', 'tier0.**', '--list'], fake).stdout);
    assert.deepEqual(ids(r.stdout), all.filter((id) => id !== pass.id), 'every case of the selection but the one that passed');
  });

  it('--rerun-failed of an interrupted rerun covers what that rerun selected, not the whole catalogue', () => {
    const json = path.join(dir, 'full2.json');
    cli(['run', '--json', json], fake);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    // A rerun of two cases, interrupted before either was recorded.
    const rerun: ResultsFile = { ...res, interrupted: true, results: [], run: { ...res.run, rerun: { file: json, ids: ['tier0.basic.fail', 'tier1.faults.after'] } } };
    const file = path.join(dir, 'rerun.json');
    writeFileSync(file, JSON.stringify(rerun));
    const r = cli(['run', '--rerun-failed', file, '--list'], fake);
    assert.deepEqual(ids(r.stdout), ['tier0.basic.fail', 'tier1.faults.after'], r.stderr);
  });
});

describe('numbers and JSON that used to break the process', function () {
  this.timeout(60_000);
  const dir = tmpDir();

  it('a timeout above 2^31-1 ms is refused wherever it is read (options and environment)', () => {
    const big = '3000000000';
    for (const args of [['run', '--timeout', big, '-l'], ['run', '--warmup-timeout', big, '-l'], ['info', '--timeout', big], ['compat', '--timeout', big]]) {
      oneErrorLine(cli(args, fake), new RegExp(`${args[1]}: ${big}: expected at most 2147483647 ms`));
    }
    for (const name of ['PJRT_CTS_PREFLIGHT_TIMEOUT_MS', 'PJRT_CTS_INFO_TIMEOUT_MS', 'PJRT_CTS_NODES_WAIT_MS']) {
      oneErrorLine(cli(['run', '-l'], { ...fake, env: { [name]: big } }), new RegExp(`\\$${name}: "${big}": expected .* an integer from 1 to 2147483647`));
    }
  });

  it('deeply nested JSON is one line naming where, in plugins.json, expectations, results files and streams', () => {
    const deep = (inner: string): string => `${'['.repeat(5000)}${inner}${']'.repeat(5000)}`;
    const config = path.join(dir, 'deep-plugins.json');
    writeFileSync(config, `{"default": "a", "plugins": {"a": {"library": "x.so", "createOptions": {"k": ${deep('1')}}}}}`);
    oneErrorLine(cli(['run', '-c', config, '-l'], fake), /deep-plugins\.json: \$: expected JSON nested at most 100 levels deep; \$\.plugins\.a\.createOptions\.k\[0\]/);
    const exp = path.join(dir, 'deep-exp.json');
    writeFileSync(exp, `{"expectations": ${deep('')}}`);
    oneErrorLine(cli(['run', '-e', exp, '-l'], fake), /deep-exp\.json: \$: expected JSON nested at most 100 levels deep/);
    const results = path.join(dir, 'deep.json');
    writeFileSync(results, `{"schemaVersion": 1, "results": ${deep('')}}`);
    for (const args of [['report', results, '-o', path.join(dir, 'r.html')], ['compare', results, results], ['run', '--rerun-failed', results, '-l']]) {
      oneErrorLine(cli(args, fake), /deep\.json: \$: expected JSON nested at most 100 levels deep/);
    }
    const run = path.join(dir, 'one.json');
    cli(['run', '--filter', 'tier0.basic.pass.a.x', '--json', run], fake);
    const header = readFileSync(`${run}l`, 'utf8').split('\n')[0]!;
    const stream = path.join(dir, 'deep.jsonl');
    writeFileSync(stream, `${header}\n{"id": "x", "details": ${deep('')}}\n{"id": "y"}\n`);
    oneErrorLine(cli(['compare', stream, stream], fake), /deep\.jsonl: line 2: expected JSON nested at most 100 levels deep/);
  });

  it('an int64 written "12abc" and a number beyond a double (1e999) say what is wrong, not what the types are', () => {
    const abc = path.join(dir, 'abc.json');
    writeFileSync(abc, JSON.stringify({ default: 'a', plugins: { a: { library: 'x.so', createOptions: { k: { int64: '12abc' } } } } }));
    oneErrorLine(cli(['run', '-c', abc, '-l'], fake), /\$\.plugins\.a\.createOptions\.k\.int64: expected a string matching .*; got string "12abc"/);
    const inf = path.join(dir, 'inf.json');
    writeFileSync(inf, '{"default": "a", "plugins": {"a": {"library": "x.so", "createOptions": {"f": {"float": 1e999}}}}}');
    oneErrorLine(cli(['run', '-c', inf, '-l'], fake), /\$\.plugins\.a\.createOptions\.f\.float: expected a finite number; got Infinity/);
  });
});

describe('odd files where files are expected', function () {
  this.timeout(60_000);
  const dir = tmpDir();
  const program = (d: string, name: string): void => {
    for (const ext of ['mlir', 'json']) copyFileSync(path.join(ROOT, 'fixtures', 'programs', `abs_f32.${ext}`), path.join(d, `${name}.${ext}`));
  };

  it('a directory named like a program, or a FIFO named like a sidecar, in --programs: exit 2 at once, naming it', () => {
    const d1 = path.join(dir, 'with-dir');
    mkdirSync(d1);
    program(d1, 'good');
    mkdirSync(path.join(d1, 'odd.mlir'));
    copyFileSync(path.join(d1, 'good.json'), path.join(d1, 'odd.json'));
    oneErrorLine(cli(['list', '--programs', d1], fake), /odd\.mlir: \$: expected a program file, but it is a directory/);
    const d2 = path.join(dir, 'with-fifo');
    mkdirSync(d2);
    program(d2, 'good');
    execFileSync('mkfifo', [path.join(d2, 'odd.json')]);
    const t0 = Date.now();
    oneErrorLine(cli(['list', '--programs', d2], fake), /odd\.json: \$: expected a sidecar file, but it is a FIFO/);
    assert.ok(Date.now() - t0 < 20_000, 'no read blocks on the FIFO');
  });

  it('a library that is a directory or a FIFO is exit 2 (a FIFO would block dlopen and the hash)', () => {
    const d = path.join(dir, 'lib.so');
    mkdirSync(d);
    oneErrorLine(cli(['run', '-p', d, '--tier', '0']), /--plugin: .*lib\.so: expected a shared library file, but .* is a directory/);
    const f = path.join(dir, 'fifo.so');
    execFileSync('mkfifo', [f]);
    oneErrorLine(cli(['run', '-p', f, '--tier', '0']), /--plugin: .*fifo\.so: expected a shared library file, but .* is a FIFO/);
  });

  it('PJRT_CTS_SUITES that names no suites says so', () => {
    oneErrorLine(cli(['run', '--tier', '1', '-l'], { env: { PJRT_CTS_SUITES: path.join(dir, 'nowhere') } }), /\$PJRT_CTS_SUITES: .*nowhere: expected a directory of compiled suites: no such directory/);
    oneErrorLine(cli(['list'], { env: { PJRT_CTS_SUITES: dir } }), /\$PJRT_CTS_SUITES: .*: expected a directory of compiled suites: it holds no compiled suite file/);
  });
});

describe('messages that say what is so', function () {
  this.timeout(60_000);

  it('a missing file is "cannot read FILE: no such file"', () => {
    oneErrorLine(cli(['report', '/nonexistent/r.json', '-o', path.join(tmpDir(), 'r.html')]), /^pjrt-cts: error: cannot read \/nonexistent\/r\.json: no such file \(ENOENT\)$/);
  });

  it('discover with a PJRT_CTS_PYTHON that does not exist says so', () => {
    const r = cli(['discover'], { env: { PJRT_CTS_PYTHON: '/nonexistent/python3', PJRT_LIBRARY_PATH: '' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\$PJRT_CTS_PYTHON=\/nonexistent\/python3 cannot be run: no such program/);
  });

  it('help points to the README, to the plugins.json schema and to where results stream without --json', () => {
    const h = cli(['--help']).stdout;
    assert.match(h, /README\.md/);
    assert.match(h, /pjrt-cts schema --print plugins\.schema\.json/);
    assert.match(h, /without --json the stream goes to\s+\.cts-out\/run-<time>\.jsonl/);
    assert.match(cli(['run', '--help']).stdout, /--json <file> .*\.cts-out\/run-<time>\.jsonl/s);
  });

  it('the README\'s run-options table has every option of `run --help`', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### `run` options'), readme.indexOf('## Certification'));
    // The first cell of each row of the table: the flags it documents.
    const rows = section.split('\n').filter((l) => l.startsWith('| `')).map((l) => l.split('|')[1]!).join(' ');
    const flags = [...cli(['run', '--help']).stdout.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!).filter((f) => f !== '--help');
    assert.deepEqual(flags.filter((f) => !new RegExp(`\`(-\\w, )?${f}\\b`).test(rows)), []);
  });
});

describe('signals before the first case', function () {
  this.timeout(90_000);
  before(function () {
    if (!existsSync(LIB)) this.skip();
  });

  /** Whether `pid` has started a child process: the run has read its options and is listing or checking (Linux). */
  const hasChild = (pid: number): boolean => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() !== '';
    } catch {
      return false;
    }
  };

  /**
   * Starts a run whose preflight hangs in PJRT_Client_Create; once it has started its first worker (the list worker or
   * the preflight's), waits `ms` more, sends `sig`, and reads what it left.
   */
  function interrupt(sig: NodeJS.Signals, ms: number): Promise<{ code: number | null; res: ResultsFile; stdout: string }> {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'run', '--json', json, '--junit', path.join(dir, 'r.xml')], {
        cwd: ROOT, env: { ...process.env, NO_COLOR: '1', PJRT_REFERENCE_FAULTS: 'hang_in=PJRT_Client_Create' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const poll = setInterval(() => {
        if (!hasChild(child.pid!)) return;
        clearInterval(poll);
        setTimeout(() => child.kill(sig), ms);
      }, 20);
      child.on('close', (code) => resolve({ code, res: JSON.parse(readFileSync(json, 'utf8')) as ResultsFile, stdout }));
    });
  }

  it('SIGINT while the preflight waits on a hanging plugin: exit 130, a results file with no results and the preflight\'s state', async () => {
    const { code, res, stdout } = await interrupt('SIGINT', 3000);
    assert.equal(code, 130, stdout);
    assert.equal(res.interrupted, true);
    assert.deepEqual(res.results, []);
    assert.equal(res.interruptedBefore?.preflight.state, 'running');
    assert.equal(res.interruptedBefore?.preflight.call, 'PJRT_Client_Create');
    assert.match(stdout, /interrupted before any case ran, .*the preflight had run [\d.]+ s and was in PJRT_Client_Create/);
  });

  it('SIGTERM early in a run (while the cases are listed): exit 143 and a results file saying so', async () => {
    const { code, res } = await interrupt('SIGTERM', 0);
    assert.equal(code, 143);
    assert.equal(res.interrupted, true);
    assert.equal(res.exitCode, 143);
    assert.ok(res.interruptedBefore, 'interrupted before any case');
  });
});

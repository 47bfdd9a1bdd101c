// The second bad-input battery (issue 26): each class of input fed as a new user would, checking the exit code, the
// single line and that no file of the user's was harmed (every file hashed before and after). Fast: the fake suites
// where no plugin is needed, `-l` where the check comes before loading, one tiny case where the real suites run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ConsoleReporter } from '../reporters/console.js';
import { buildNative } from './ffi-native.js';
import { cli, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

/** sha256 of every regular file under `dir` (symlinks by their target name), by relative path. */
function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(path.relative(dir, p), `-> ${p}`);
      else if (st.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

const REFERENCE_LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
const PROGRAM = 'abs_f32';

describe('bad input, second battery (issue 26)', function () {
  this.timeout(120_000);
  let dir: string;
  const fake = (): { fake: true; cwd: string; env: Record<string, string> } => ({ fake: true, cwd: dir, env: { FAKE_STATE_DIR: path.join(dir, 'state') } });
  const unharmed = (before: Map<string, string>): void => {
    const after = hashes(dir);
    for (const [f, h] of before) assert.equal(after.get(f), h, `${f} was changed`);
  };

  before(() => {
    dir = tmpDir();
    mkdirSync(path.join(dir, 'state'));
    writeFileSync(path.join(dir, 'ref.so'), 'not really a library: the fake suites never load it\n');
    writeFileSync(path.join(dir, 'cfg.json'), JSON.stringify({ default: 'mine', plugins: { mine: { library: './ref.so' } } }, null, 2));
    writeFileSync(path.join(dir, 'exp.json'), JSON.stringify({ expectations: [] }));
    symlinkSync('cfg.json', path.join(dir, 'link.json'));
    mkdirSync(path.join(dir, 'progs'));
    for (const ext of ['mlir', 'json']) copyFileSync(path.join(ROOT, 'fixtures', 'programs', `${PROGRAM}.${ext}`), path.join(dir, 'progs', `${PROGRAM}.${ext}`));
    // One fake run gives a results file and its stream to read (it has failures, crashes and a timeout).
    const r = cli(['run', '-c', 'cfg.json', '--json', 'r.json', '--filter', 'tier0.**', '--filter', 'tier1.faults.segv', '--filter', 'tier1.faults.after'], fake());
    assert.ok(existsSync(path.join(dir, 'r.json')), r.stdout + r.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('1. outputs never overwrite inputs (exit 2 before the run)', () => {
    const cases: [string, string[], RegExp][] = [
      ['--json the plugin library', ['run', '--plugin', './ref.so', '--json', 'ref.so'], /--json: ref\.so: expected a path that is not an input: it is the --plugin .*ref\.so/],
      ['--json the plugin library, ./ form', ['run', '--plugin', 'ref.so', '--json', './ref.so'], /--json: \.\/ref\.so: .*--plugin/],
      ['--json the config', ['run', '-c', 'cfg.json', '--json', 'cfg.json'], /--json: cfg\.json: .*the --config .*cfg\.json/],
      ['--json a symlink to the config', ['run', '-c', 'cfg.json', '--json', 'link.json'], /--json: link\.json: .*the --config .*cfg\.json/],
      ['--json the expectations', ['run', '-c', 'cfg.json', '-e', 'exp.json', '--json', 'exp.json'], /--json: exp\.json: .*--expectations/],
      ['--json inside --programs', ['run', '-c', 'cfg.json', '--programs', 'progs', '--json', 'progs/out.json'], /--json: progs\/out\.json: expected a path outside the --programs directory .*progs: the next run would read it as one of its programs/],
      ['--json the --rerun-failed file', ['run', '-c', 'cfg.json', '--rerun-failed', 'r.json', '--json', 'r.json'], /--json: r\.json: .*--rerun-failed/],
      ['--junit and --json the same file', ['run', '-c', 'cfg.json', '--junit', 'same.json', '--json', 'same.json'], /--junit: same\.json: expected a path of its own: --json writes same\.json/],
      ['--junit the derived .jsonl stream', ['run', '-c', 'cfg.json', '--junit', 'x.jsonl', '--json', 'x.json'], /--junit: x\.jsonl: .*--json \(its \.jsonl stream\) writes x\.jsonl/],
      ['--write-expectations and --json the same file', ['run', '-c', 'cfg.json', '--write-expectations', 'w.json', '--json', 'w.json'], /--write-expectations: .*w\.json: .*--json writes w\.json/],
      ['report -o its input', ['report', 'r.json', '-o', './r.json'], /--output: \.\/r\.json: .*the <results> r\.json/],
      ['report -o its --compare', ['report', 'r.json', '--compare', 'r.jsonl', '-o', 'r.jsonl'], /--output: r\.jsonl: .*--compare/],
      ['compat --json the config', ['compat', '-c', 'cfg.json', '--json', 'cfg.json'], /--json: cfg\.json: .*--config/],
    ];
    for (const [name, args, re] of cases) {
      it(name, () => {
        const before = hashes(dir);
        oneErrorLine(cli(args, fake()), re);
        unharmed(before);
      });
    }
    it('schema --out never overwrites a file of the same name that is not a pjrt-cts schema', () => {
      const out = path.join(dir, 'schemas');
      mkdirSync(out);
      writeFileSync(path.join(out, 'plugins.schema.json'), '{"mine": true}\n');
      const before = hashes(dir);
      oneErrorLine(cli(['schema', '--out', 'schemas'], fake()), /--out: schemas: .*plugins\.schema\.json would be overwritten/);
      unharmed(before);
    });
  });

  describe('2. numbers from plugins.json out of range (exit 2 naming file and field)', () => {
    const values: [string, unknown, RegExp][] = [
      ['int64 string above 2^64', { int64: '18446744073709551618' }, /does not fit in int64/],
      ['int64 string below -2^63', { int64: '-9223372036854775809' }, /does not fit in int64/],
      ['a plain integer beyond int64', 12345678901234567890, /does not fit in int64/],
      ['a plain integer beyond 2^53', 9007199254740993, /loses digits as a JSON number/],
      ['a float beyond float32', { float: 1e39 }, /does not fit in a float/],
    ];
    for (const [name, value, re] of values) {
      it(name, () => {
        const file = path.join(dir, 'n.json');
        writeFileSync(file, JSON.stringify({ default: 'mine', plugins: { mine: { library: './ref.so', createOptions: { x: value } } } }));
        const before = hashes(dir);
        const r = cli(['run', '-c', 'n.json', '-l'], fake());
        oneErrorLine(r, re);
        assert.match(r.stderr, /n\.json: \$\.plugins\.mine\.createOptions\.x: /);
        unharmed(before);
      });
    }
    it('the largest int64 is accepted', () => {
      writeFileSync(path.join(dir, 'n.json'), JSON.stringify({ default: 'mine', plugins: { mine: { library: './ref.so', createOptions: { x: { int64: '9223372036854775807' } } } } }));
      assert.equal(cli(['run', '-c', 'n.json', '-l'], fake()).code, 0);
    });
    it('-o applies the float range too', () => oneErrorLine(cli(['run', '-p', './ref.so', '-o', 'x=1e39', '-l'], fake()), /create option 'x=1e39': .*does not fit in a float/));
  });

  describe('3. write failures', () => {
    it('--junit /proc/version is refused before the run (its directory creates no file)', () => {
      const before = hashes(dir);
      oneErrorLine(cli(['run', '-c', 'cfg.json', '--junit', '/proc/version', '--json', 'pv.json'], fake()), /--junit: \/proc\/version: cannot write the file/);
      assert.ok(!existsSync(path.join(dir, 'pv.json')));
      unharmed(before);
    });

    it('a full disk: names the file and the reason, writes the other reports and the summary, leaves nothing truncated (exit 3)', function () {
      const full = path.join(dir, 'full');
      mkdirSync(full);
      // A tiny tmpfs (needs root and CAP_SYS_ADMIN): the fake run's results do not fit in it.
      if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', full]).status !== 0) this.skip();
      try {
        const before = hashes(dir);
        const r = cli(['run', '-c', 'cfg.json', '--json', 'full/r.json', '--junit', 'j.xml', '--filter', 'tier0.**'], fake());
        assert.equal(r.code, 3, r.stdout + r.stderr);
        const lines = r.stderr.trim().split('\n');
        assert.ok(lines.length >= 1 && lines.every((l) => /^pjrt-cts: error: full\/r\.jsonl?: cannot write the (JSON|results stream): no space left on device \(ENOSPC\)$/.test(l)), r.stderr);
        assert.match(r.stderr, /full\/r\.json: cannot write the JSON/);
        assert.match(r.stdout, /JUnit: j\.xml/);
        assert.match(r.stdout, /^pjrt-cts: \d+ passed/m);
        assert.ok(!existsSync(path.join(full, 'r.json')), 'no truncated results file');
        assert.deepEqual(readdirSync(full).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
        assert.match(readFileSync(path.join(dir, 'j.xml'), 'utf8'), /<\/testsuites>\s*$/);
        unharmed(before);
      } finally {
        spawnSync('umount', [full]);
      }
    });
  });

  describe('8. .jsonl streams', () => {
    const stream = (): string[] => readFileSync(path.join(dir, 'r.jsonl'), 'utf8').trim().split('\n');

    it('compare of an interrupted stream says so', () => {
      writeFileSync(path.join(dir, 'cut.jsonl'), stream().slice(0, 3).join('\n') + '\n');
      const r = cli(['compare', 'r.jsonl', 'cut.jsonl'], fake());
      assert.equal(r.code, 1);
      assert.match(r.stdout, /the run was not recorded whole: cut\.jsonl: interrupted: 2 of the \d+ selected case\(s\) recorded/);
      assert.doesNotMatch(r.stdout, /did the selection change/);
    });

    it('compare of a truncated stream names the line', () => {
      const lines = stream();
      writeFileSync(path.join(dir, 'trunc.jsonl'), lines.slice(0, 3).join('\n') + '\n' + lines[3]!.slice(0, 20));
      const r = cli(['compare', 'r.jsonl', 'trunc.jsonl'], fake());
      assert.equal(r.code, 1);
      assert.match(r.stdout, /trunc\.jsonl: truncated at line 4/);
    });

    it('report and --rerun-failed accept a stream', () => {
      const before = hashes(dir);
      const rep = cli(['report', 'r.jsonl', '-o', 'from-stream.html'], fake());
      assert.equal(rep.code, 0, rep.stderr);
      assert.match(readFileSync(path.join(dir, 'from-stream.html'), 'utf8'), /tier1\.faults\.segv/);
      const rerun = cli(['run', '-c', 'cfg.json', '--rerun-failed', 'r.jsonl', '--json', 'again.json'], fake());
      assert.equal(rerun.stderr, '');
      type Res = { results: { id: string; status: string }[] };
      const first = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')) as Res;
      const again = JSON.parse(readFileSync(path.join(dir, 'again.json'), 'utf8')) as Res;
      assert.deepEqual(again.results.map((x) => x.id), first.results.filter((x) => x.status === 'fail' || x.status === 'crash').map((x) => x.id));
      assert.ok(again.results.some((x) => x.id === 'tier1.faults.segv'));
      unharmed(before);
    });
  });

  describe('9. a user\'s broken program is not charged to the plugin', () => {
    it('a sidecar that disagrees with its program\'s signature is exit 2 before the run, naming the file', () => {
      const bad = path.join(dir, 'badprogs');
      mkdirSync(bad);
      copyFileSync(path.join(dir, 'progs', `${PROGRAM}.mlir`), path.join(bad, `${PROGRAM}.mlir`));
      const side = JSON.parse(readFileSync(path.join(dir, 'progs', `${PROGRAM}.json`), 'utf8')) as { inputs: unknown[] };
      side.inputs = [];
      writeFileSync(path.join(bad, `${PROGRAM}.json`), JSON.stringify(side));
      const before = hashes(dir);
      oneErrorLine(cli(['run', '-c', 'cfg.json', '--programs', 'badprogs', '-l'], fake()), new RegExp(`badprogs/${PROGRAM}\\.json: \\$\\.inputs: has 0 value\\(s\\) but @main in ${PROGRAM}\\.mlir takes 1`));
      unharmed(before);
    });

    it('a program the reference plugin rejects too says so, in a run and in check-programs before one', function () {
      if (!existsSync(REFERENCE_LIB)) this.skip();
      const broken = path.join(dir, 'brokenprogs');
      mkdirSync(broken);
      copyFileSync(path.join(dir, 'progs', `${PROGRAM}.json`), path.join(broken, `${PROGRAM}.json`));
      writeFileSync(path.join(broken, `${PROGRAM}.mlir`), 'this is not StableHLO\n');
      copyFileSync(REFERENCE_LIB, path.join(dir, 'vendor.so'));
      const before = hashes(dir);
      const check = cli(['check-programs', 'brokenprogs'], { cwd: dir });
      oneErrorLine(check, new RegExp(`brokenprogs/${PROGRAM}\\.mlir: rejected by the reference plugin too: probably a broken program`));
      const run = cli(['run', '-p', './vendor.so', '--programs', 'brokenprogs', '--filter', 'external.**', '--no-preflight', '--json', 'broken.json'], { cwd: dir });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const res = JSON.parse(readFileSync(path.join(dir, 'broken.json'), 'utf8')) as { results: { id: string; message?: string }[] };
      assert.match(res.results[0]!.message!, /^rejected by the reference plugin too: probably a broken program/);
      unharmed(before);
    });
  });

  describe('10. accepted without a word', () => {
    it('--gate tier7 and --tier 9 name the tiers that exist', () => {
      oneErrorLine(cli(['run', '--gate', 'tier7', '-l'], fake()), /--gate: tier7: expected one of the tiers that exist: tier0, tier1, tier2$/);
      oneErrorLine(cli(['run', '--tier', '9', '-l'], fake()), /--tier: 9: expected one of the tiers that exist: 0, 1, 2$/);
      oneErrorLine(cli(['list', '--tier', '9'], fake()), /--tier: 9: expected one of the tiers that exist/);
    });

    it('--jobs 1000 is capped at the CPUs, with a note', () => {
      const r = cli(['run', '-c', 'cfg.json', '--jobs', '1000', '--filter', 'tier0.**', '--json', 'jobs.json'], fake());
      assert.match(r.stdout, /running \d+ worker\(s\) instead of 1000: this machine has \d+ CPU/);
      assert.equal(r.stderr, '');
    });

    it('compat says how many minors it runs and estimates the time', () => {
      const r = cli(['compat', '-c', 'cfg.json', '--minors', '114..112', '--filter', 'tier0.**'], fake());
      assert.match(r.stdout, /compat: 3 run\(s\) of the selection, one per minor \(0\.114, 0\.113, 0\.112\)/);
      assert.match(r.stdout, /0\.114: .*about [\d.]+ s for the other 2/);
    });

    it('a plugin reporting minor -5: clean messages, no JavaScript stack frame', () => {
      const lib = buildNative('fake_api', { FAKE_MINOR: -5 }, 'minus5');
      const info = cli(['info', '-p', lib]);
      assert.match(info.stdout, /minor_version -5 is negative/);
      const r = cli(['run', '-p', lib, '--filter', 'tier0.api.{version_minor_known,struct_size_covers_minor}', '--no-preflight', '--json', path.join(dir, 'm5.json')]);
      assert.equal(r.code, 1);
      const res = JSON.parse(readFileSync(path.join(dir, 'm5.json'), 'utf8')) as { results: { id: string; status: string; message?: string }[] };
      for (const x of res.results) {
        assert.equal(x.status, 'fail', x.id);
        assert.doesNotMatch(x.message ?? '', /file:\/\/|at Object|0\.-5/, x.message);
      }
    });
  });
  describe('11. README and help as a new user reads them', () => {
    it('help states ranges and defaults once, without "(default: false)" or "(default: [])"', () => {
      const run = cli(['run', '--help']).stdout;
      assert.doesNotMatch(run, /\(default: (false|\[\])\)/);
      assert.match(run, /--tier <n> +run tiers ≤ n \(0–\d\)/);
      assert.match(run, /--api-minor <n> +speak PJRT API 0\.n \(n from 29 to \d+/);
      for (const v of ['PJRT_CTS_NODES_WAIT_MS', 'PJRT_CTS_PYTHON', 'PJRT_REFERENCE_FAULTS']) assert.match(run, new RegExp(v));
      assert.equal((cli(['schema', '--help']).stdout.match(/default/g) ?? []).length, 1);
      assert.match(cli(['info', '--help']).stdout, /PJRT_CTS_INFO_TIMEOUT_MS, else 60000/);
    });

    it('discover tells a malformed PJRT_NAMES_AND_LIBRARY_PATHS from an unset one and never points at itself', () => {
      // No python to find plugin packages in (CI's has libtpu): the sources list shows only when nothing is found.
      const r = cli(['discover'], { env: { PJRT_NAMES_AND_LIBRARY_PATHS: 'garbage', PJRT_CTS_PYTHON: path.join(dir, 'no-python') } });
      assert.match(r.stdout, /PJRT_NAMES_AND_LIBRARY_PATHS has no name:path item \("garbage" is not name:path\)/);
      assert.doesNotMatch(r.stdout, /see `pjrt-cts discover`/);
    });

    it('the progress line keeps every character of the id at 0 columns', () => {
      let text = '';
      const stream = Object.assign(new Writable({ write: (c: Buffer, _e, cb) => { text += c.toString(); cb(); } }), { isTTY: true, columns: 0 });
      const con = new ConsoleReporter({ stream });
      con.begin({ total: 1, pluginLabel: 'x' });
      con.start('tier0.api.version_major');
      assert.match(text, /tier0\.api\.version_major/);
    });

    it('--programs errors lead with the option, like every other option error', () => {
      const empty = path.join(dir, 'empty');
      mkdirSync(empty);
      oneErrorLine(cli(['run', '--programs', empty, '-l'], fake()), /^pjrt-cts: error: --programs: .*empty: expected at least one program/);
    });
  });
});

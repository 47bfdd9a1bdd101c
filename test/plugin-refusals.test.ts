// A plugin that will not create a client, or will not load, and numbers in the environment that are not numbers:
// each is one line on stderr, exit 2, before any case, with no output file touched (#28 item 3, #26 item 7).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NUMERIC_ENV } from '../src/config/env-numbers.js';
import { ROOT, cli, oneErrorLine, tmpDir } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
/** libtpu in the XLA referee's venv (scripts install it there), when present. */
function findLibtpu(): string | undefined {
  for (const venv of [path.join(ROOT, '.cache', 'xla-venv'), path.join(ROOT, '..', 'main', '.cache', 'xla-venv')]) {
    const lib = path.join(venv, 'lib');
    if (!existsSync(lib)) continue;
    for (const py of readdirSync(lib).filter((d) => d.startsWith('python3'))) {
      const so = path.join(lib, py, 'site-packages', 'libtpu', 'libtpu.so');
      if (existsSync(so)) return so;
    }
  }
  return undefined;
}
const LIBTPU = findLibtpu();

/** A run with `--json` into a directory holding a file of the user's: nothing may be written, nothing changed. */
function runUntouched(args: string[], env: Record<string, string> = {}): ReturnType<typeof cli> {
  const dir = tmpDir();
  try {
    const json = path.join(dir, 'r.json');
    const mine = path.join(dir, 'mine.txt');
    writeFileSync(mine, 'the user\'s file\n');
    const r = cli(['run', ...args, '--json', json], { env });
    assert.deepEqual(readdirSync(dir), ['mine.txt'], 'no results, stream or temporary file may be written');
    assert.equal(readFileSync(mine, 'utf8'), 'the user\'s file\n');
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a plugin that cannot create a client', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  it('preflight: one line quoting the code and message, and suggesting --compile-only when a topology can be made', () => {
    oneErrorLine(runUntouched(['-p', 'reference', '-o', 'no_device=1']),
      /--plugin: PJRT_Client_Create failed: NOT_FOUND: PJRT_Client_Create: no device found \(create option no_device = 1\) \(PJRT_TopologyDescription_Create works, a topology of \d+ device\(s\): `run --compile-only` runs the cases that need no client\)$/);
  });

  it('preflight: no suggestion when PJRT_TopologyDescription_Create fails too (the xla personality)', () => {
    const r = runUntouched(['-p', 'reference-xla', '-o', 'no_device=1']);
    oneErrorLine(r, /PJRT_Client_Create failed: NOT_FOUND: .*no device found/);
    assert.doesNotMatch(r.stderr, /compile-only/);
  });

  it('info: everything readable without a client, then the client error in one line', () => {
    const r = cli(['info', '-p', 'reference', '-o', 'no_device=1']);
    assert.equal(r.code, 2, r.stderr);
    for (const part of [/^plugin\s+\S+libpjrt_reference\.so$/m, /^PJRT API\s+plugin 0\.\d+, ours 0\.\d+.*struct_size \d+$/m, /^attributes \([1-9]\d*\)$/m,
      /^client\s+none /m, /^extensions \([1-9]\d*\)$/m, /^\s+Layouts type 4/m, /^slots\s+\d+ present, 0 null/m]) assert.match(r.stdout, part);
    oneErrorLine(r, /PJRT_Client_Create failed: NOT_FOUND: PJRT_Client_Create: no device found/);
  });

  it('info --json: the document carries the client error and no devices', () => {
    const r = cli(['info', '-p', 'reference', '-o', 'no_device=1', '--json']);
    assert.equal(r.code, 2, r.stderr);
    const doc = JSON.parse(r.stdout) as { clientError?: string; devices: unknown[]; attributes: unknown[]; slots: unknown[]; extensions: { chain: unknown[] } };
    assert.match(doc.clientError ?? '', /NOT_FOUND/);
    assert.deepEqual(doc.devices, []);
    assert.ok(doc.attributes.length > 0 && doc.slots.length > 0 && doc.extensions.chain.length > 0);
  });

  it('libtpu without a TPU: the preflight quotes its error and suggests --compile-only', function () {
    if (!LIBTPU) this.skip();
    // Another process may hold libtpu's lock file (/tmp/libtpu_lockfile): this one only reads.
    const r = runUntouched(['--plugin', LIBTPU], { TPU_SKIP_MDS_QUERY: '1', ALLOW_MULTIPLE_LIBTPU_LOAD: '1' });
    assert.equal(r.code, 2, r.stderr);
    const last = r.stderr.trim().split('\n').at(-1)!; // libtpu writes its own warnings before
    assert.match(last, /^pjrt-cts: error: .*libtpu\.so: --plugin: PJRT_Client_Create failed: (NOT_FOUND|INTERNAL): .*`run --compile-only`/);
  });
});

describe('a plugin that refuses to load says why, and the CTS quotes it', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(PLUGIN)) this.skip();
  });

  const cases: [string, RegExp][] = [
    ['crash_in=PJRT_Nope', /crash_in=PJRT_Nope in PJRT_REFERENCE_FAULTS names no PJRT_Api slot or extension function this plugin implements$/],
    ['hang_in=PJRT_Client_Nope', /hang_in=PJRT_Client_Nope in PJRT_REFERENCE_FAULTS names no PJRT_Api slot/],
    ['no_such_fault', /unknown fault 'no_such_fault' in PJRT_REFERENCE_FAULTS$/],
  ];
  for (const [faults, reason] of cases) {
    it(`PJRT_REFERENCE_FAULTS=${faults}: run and info give GetPjrtApi's NULL with the plugin's reason, in one line`, () => {
      const quoted = new RegExp(`GetPjrtApi\\(\\) returned NULL; the plugin wrote on stderr: pjrt_reference: ${reason.source}`);
      oneErrorLine(runUntouched(['--filter', 'tier0.runner.*'], { PJRT_REFERENCE_FAULTS: faults }), quoted);
      oneErrorLine(cli(['info'], { env: { PJRT_REFERENCE_FAULTS: faults } }), quoted);
    });
  }
});

describe('numbers in the environment', function () {
  this.timeout(60_000);

  const bad: [keyof typeof NUMERIC_ENV, string, string[]][] = [
    ['PJRT_CTS_PREFLIGHT_TIMEOUT_MS', 'abc', ['run', '--filter', 'tier0.runner.*']],
    ['PJRT_CTS_PREFLIGHT_TIMEOUT_MS', '-1', ['run', '--filter', 'tier0.runner.*']],
    ['PJRT_CTS_PREFLIGHT_TIMEOUT_MS', '0', ['run', '--filter', 'tier0.runner.*']],
    ['PJRT_CTS_INFO_TIMEOUT_MS', 'xyz', ['info']],
    ['PJRT_CTS_INFO_TIMEOUT_MS', '1.5', ['info']],
    ['PJRT_CTS_NODES_WAIT_MS', '10s', ['list']],
  ];
  for (const [name, value, args] of bad) {
    it(`${name}=${value}: exit 2 naming the variable, before anything runs`, () => {
      const r = args[0] === 'run' ? runUntouched(args.slice(1), { [name]: value }) : cli(args, { env: { [name]: value } });
      oneErrorLine(r, /./);
      assert.ok(r.stderr.startsWith(`pjrt-cts: error: $${name}: ${JSON.stringify(value)}: expected `), r.stderr);
      assert.match(r.stderr, /, an integer from 1 to 2147483647 \(Node's timers cannot wait longer than about 24\.8 days\)\n$/);
      assert.equal(r.stdout, '');
    });
  }

  it('a valid value is accepted', function () {
    if (!existsSync(PLUGIN)) this.skip();
    const r = cli(['run', '--filter', 'tier0.runner.client_create_destroy', '--json', path.join(tmpDir(), 'r.json')], { env: { PJRT_CTS_PREFLIGHT_TIMEOUT_MS: '20000' } });
    assert.equal(r.code, 0, r.stderr);
  });

  it('help still works with a bad value', () => {
    assert.equal(cli(['--help'], { env: { PJRT_CTS_INFO_TIMEOUT_MS: 'xyz' } }).code, 0);
  });
});

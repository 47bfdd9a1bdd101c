// PyTorch/XLA's plugin convention in `discover` and {"discover": "torch_xla:<name>"}: a venv of the test's own holds a
// stand-in torch_xla.experimental.plugins (DevicePlugin only) and a package registering `torch_xla.plugins` entry
// points by hand (its .dist-info/entry_points.txt), one of them the reference plugin with device_count 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import type { DiscoveredPlugin } from '../src/runner/discover.js';
import { cli, oneErrorLine, ROOT, tmpDir } from './runner-helpers.js';

const REFERENCE_LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

const STAND_IN = `class DevicePlugin:
    def library_path(self):
        raise NotImplementedError()

    def client_create_options(self):
        return {}
`;

/** Each registration: entry point name → the class body (a DevicePlugin subclass unless said otherwise). */
const REGISTERED: Record<string, string> = {
  ref: `class Ref(DevicePlugin):
    def library_path(self): return ${JSON.stringify(REFERENCE_LIB)}
    def client_create_options(self): return {'device_count': 2}`,
  typed: `class Typed(DevicePlugin):
    def library_path(self): return ${JSON.stringify(REFERENCE_LIB)}
    def client_create_options(self): return {'i': 2**60, 'f': 2.0, 'b': True, 's': 'x', 'l': [1, 2]}`,
  raises: `class Raises(DevicePlugin):
    def library_path(self): raise RuntimeError('no device here\\nsecond line')`,
  missing: `class Missing(DevicePlugin):
    def library_path(self): return '/nonexistent/libmissing.so'`,
  badopts: `class Badopts(DevicePlugin):
    def library_path(self): return ${JSON.stringify(REFERENCE_LIB)}
    def client_create_options(self): return {'nested': {'a': 1}}`,
  notdict: `class Notdict(DevicePlugin):
    def library_path(self): return ${JSON.stringify(REFERENCE_LIB)}
    def client_create_options(self): return [('device_count', 2)]`,
  huge: `class Huge(DevicePlugin):
    def library_path(self): return ${JSON.stringify(REFERENCE_LIB)}
    def client_create_options(self): return {'n': 2**70}`,
  notplugin: `class Notplugin:
    pass`,
};
const className = (name: string): string => name[0]!.toUpperCase() + name.slice(1);

/** A venv (no pip) with the stand-in torch_xla and the registering package; its python. */
function makeVenv(dir: string): string {
  const venv = path.join(dir, 'venv');
  const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const python = path.join(venv, 'bin', 'python');
  const site = spawnSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).stdout.trim();
  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(site, rel)), { recursive: true });
    writeFileSync(path.join(site, rel), text);
  };
  write('torch_xla/__init__.py', '');
  write('torch_xla/experimental/__init__.py', '');
  write('torch_xla/experimental/plugins.py', STAND_IN);
  // PyTorch/XLA instantiates the class an entry point names; `instance` names an instance instead.
  write('cts_fake_plugins.py', `from torch_xla.experimental.plugins import DevicePlugin\nprint('a plugin that prints on import')\n\n${Object.values(REGISTERED).join('\n\n')}\n\nINSTANCE = Ref()\n`);
  write('cts_fake_plugins-0.1.dist-info/METADATA', 'Metadata-Version: 2.1\nName: cts-fake-plugins\nVersion: 0.1\n');
  write('cts_fake_plugins-0.1.dist-info/entry_points.txt',
    `[torch_xla.plugins]\n${Object.keys(REGISTERED).map((n) => `${n} = cts_fake_plugins:${className(n)}`).join('\n')}\ninstance = cts_fake_plugins:INSTANCE\n`);
  return python;
}

describe('discover: torch_xla.plugins entry points', function () {
  this.timeout(120_000);
  const dir = tmpDir();
  let env: Record<string, string> = {};
  const config = path.join(dir, 'plugins.json');
  const entry = (name: string, createOptions: Record<string, number> = {}) => ({ library: { discover: `torch_xla:${name}` }, createOptions });

  before(function () {
    if (!existsSync(REFERENCE_LIB)) this.skip();
    env = { PJRT_CTS_PYTHON: makeVenv(dir), PYTHONPATH: '' };
    writeFileSync(config, JSON.stringify({
      default: 'tx',
      plugins: {
        tx: entry('REF'), 'tx-over': entry('ref', { device_count: 3 }),
        ...Object.fromEntries(['raises', 'missing', 'badopts', 'huge', 'notplugin', 'nosuch'].map((n) => [n, entry(n)])),
      },
    }));
  });

  it('lists each: its library and create options as typed values, a broken one as one line naming it', () => {
    const json = cli(['discover', '--json', '-c', config], { env });
    assert.equal(json.code, 0, json.stderr);
    const found = new Map((JSON.parse(json.stdout) as { discovered: DiscoveredPlugin[] }).discovered
      .filter((d) => d.source === 'torch_xla.plugins').map((d) => [d.name, d]));
    assert.deepEqual(found.get('ref'), { name: 'ref', path: REFERENCE_LIB, source: 'torch_xla.plugins', exists: true, createOptions: { device_count: 2 } });
    assert.deepEqual(found.get('instance'), { ...found.get('ref'), name: 'instance' });
    assert.deepEqual(found.get('typed')?.createOptions, { i: { int64: String(2n ** 60n) }, f: { float: 2 }, b: true, s: 'x', l: [1, 2] });
    const problems: Record<string, RegExp> = {
      raises: /^torch_xla\.plugins entry point raises \(cts_fake_plugins:Raises\): library_path\(\) raised RuntimeError: no device here$/,
      missing: /^torch_xla\.plugins entry point missing \(cts_fake_plugins:Missing\): library_path\(\) returned \/nonexistent\/libmissing\.so, which does not exist$/,
      badopts: /^torch_xla\.plugins entry point badopts \(cts_fake_plugins:Badopts\): client_create_options\(\)\['nested'\] is dict \{'a': 1\}: expected a str, bool, int, finite float or list of ints$/,
      notdict: /^torch_xla\.plugins entry point notdict \(cts_fake_plugins:Notdict\): client_create_options\(\) returned list \[\('device_count', 2\)\], not a dict$/,
      huge: /^torch_xla\.plugins entry point huge \(cts_fake_plugins:Huge\): client_create_options\(\): \$\.n: .*1180591620717411303424 does not fit in int64/,
      notplugin: /^torch_xla\.plugins entry point notplugin \(cts_fake_plugins:Notplugin\): it is a Notplugin, not a torch_xla\.experimental\.plugins\.DevicePlugin$/,
    };
    for (const [name, problem] of Object.entries(problems)) assert.match(found.get(name)?.problem ?? '', problem, name);

    const text = cli(['discover', '-c', config], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^ {2}tx\t.*libpjrt_reference\.so$/m);
    assert.match(text.stdout, /^ {2}ref\t.*libpjrt_reference\.so\t\(torch_xla\.plugins, create options \{"device_count":2\}\)$/m);
    for (const name of Object.keys(problems)) assert.match(text.stdout, new RegExp(`^ {2}${name}\\tunavailable: torch_xla\\.plugins entry point ${name} `, 'm'));
    assert.doesNotMatch(text.stdout + text.stderr, /Traceback|second line|a plugin that prints/);
  });

  it('run -p <entry> loads the library the DevicePlugin names, with its create options under the entry\'s', () => {
    const json = path.join(dir, 'tx.json');
    const r = cli(['run', '-c', config, '-p', 'tx', '--filter', 'tier1.client.platform_name', '--json', json], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    assert.equal(res.plugin.path, REFERENCE_LIB);
    assert.deepEqual(res.plugin.createOptions, { device_count: 2 });
    assert.equal(res.plugin.devices?.length, 2);
    const over = cli(['info', '-c', config, '-p', 'tx-over', '--json'], { env });
    assert.equal(over.code, 0, over.stderr);
    assert.equal((JSON.parse(over.stdout) as { devices: unknown[] }).devices.length, 3, 'the entry\'s createOptions win over the plugin\'s');
  });

  it('an entry naming a broken or absent registration: one line, exit 2', () => {
    const because: Record<string, RegExp> = {
      raises: /library_path\(\) raised RuntimeError: no device here \(see/,
      missing: /library_path\(\) returned \/nonexistent\/libmissing\.so, which does not exist/,
      badopts: /client_create_options\(\)\['nested'\] is dict/,
      nosuch: /no plugin found by discover "torch_xla:nosuch"/,
    };
    for (const [name, why] of Object.entries(because)) {
      const r = cli(['run', '-c', config, '-p', name, '--filter', 'tier0.api.version_major'], { env });
      oneErrorLine(r, new RegExp(`\\$\\.plugins\\.${name}\\.library: expected a library that resolves: .*${why.source}`));
      if (name !== 'nosuch') assert.match(r.stderr, new RegExp(`torch_xla\\.plugins entry point ${name} \\(cts_fake_plugins:`));
    }
  });
});

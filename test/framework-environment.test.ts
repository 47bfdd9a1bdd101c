// The framework tier judges the plugin, never the Python it was given: a workload whose Python lacks a module JAX
// imports on that workload's path (flatbuffers for jax.export) is `skip`, naming the module, not a plugin failure.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { missingPythonModule } from '../src/framework/run-workload.js';
import { WORKLOADS } from '../src/framework/workloads.js';
import { cli, tmpDir } from './runner-helpers.js';

const PYTHON = process.env['PJRT_CTS_PYTHON'];

/** A Python that runs PJRT_CTS_PYTHON with `module` hidden from import (a sitecustomize ahead of site-packages). */
function pythonWithout(module: string): string {
  const dir = tmpDir();
  writeFileSync(path.join(dir, 'sitecustomize.py'), [
    'import sys',
    'class _Hide:',
    '    def find_spec(self, name, path=None, target=None):',
    `        if name == ${JSON.stringify(module)} or name.startswith(${JSON.stringify(`${module}.`)}):`,
    '            raise ModuleNotFoundError("hidden by the test", name=name)',
    '        return None',
    'sys.meta_path.insert(0, _Hide())',
    '',
  ].join('\n'));
  const wrapper = path.join(dir, 'python');
  writeFileSync(wrapper, `#!/bin/sh\nPYTHONPATH=${dir} exec ${PYTHON} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

describe('framework tier: the Python it is given', function () {
  this.timeout(120_000);

  it('a workload declares the modules beyond jax it imports; one the Python lacks is named with how to install it', function () {
    const exported = WORKLOADS.find((w) => w.name === 'export_roundtrip');
    assert.deepEqual(exported?.pythonModules, ['flatbuffers']);
    const r = missingPythonModule('python3', { ...exported!, pythonModules: ['pjrt_cts_no_such_module'] });
    assert.match(r ?? '', /imports the Python module 'pjrt_cts_no_such_module' .*pip install pjrt_cts_no_such_module/);
  });

  it('without flatbuffers, export_roundtrip is skip naming it, and the other workloads still run', function () {
    if (!PYTHON || spawnSync(PYTHON, ['-c', 'import jax, flatbuffers']).status !== 0) this.skip();
    const python = pythonWithout('flatbuffers');
    assert.notEqual(spawnSync(python, ['-c', 'import flatbuffers']).status, 0, 'the wrapper hides flatbuffers');
    const out = path.join(tmpDir(), 'r.json');
    const r = cli(['run', '--plugin', 'reference', '--filter', 'tier4.jax.export_roundtrip', '--filter', 'tier4.jax.jit_grad_vmap', '--json', out],
      { env: { PJRT_CTS_PYTHON: python } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = (JSON.parse(readFileSync(out, 'utf8')) as ResultsFile).results;
    const byId = new Map(results.map((c) => [c.id, c]));
    assert.equal(byId.get('tier4.jax.export_roundtrip')?.status, 'skip');
    assert.match(byId.get('tier4.jax.export_roundtrip')?.message ?? '', /'flatbuffers'.*pip install flatbuffers/);
    assert.equal(byId.get('tier4.jax.jit_grad_vmap')?.status, 'pass');
  });
});

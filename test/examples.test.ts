// The examples for case authors (examples/first-cases.ts): outside the default catalogue, each ends as its comment
// says on the reference plugin, and each claim is proven by switching its fault on (as the fault matrix does).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const EXAMPLES = path.join(ROOT, 'dist', 'examples');

describe('examples suite', function () {
  this.timeout(120_000);
  const dir = tmpDir();
  // The reference entry with a topology name, so the needs_config example can run.
  const configured = path.join(dir, 'plugins.json');
  const entries = JSON.parse(readFileSync(path.join(ROOT, 'plugins.json'), 'utf8')) as { plugins: Record<string, { library: string }> };
  const reference = entries.plugins['reference']!;
  writeFileSync(configured, JSON.stringify({ default: 'reference', plugins: { reference: { ...reference, library: path.join(ROOT, reference.library), topology: 'reference' } } }));

  const run = (name: string, args: string[], env: Record<string, string> = {}): Map<string, ResultsFile['results'][number]> => {
    const json = path.join(dir, `${name}.json`);
    cli(['run', '--json', json, ...args], { env: { PJRT_CTS_SUITES: EXAMPLES, ...env } });
    const f = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    return new Map(f.results.map((r) => [r.id, r]));
  };

  it('is not in the default catalogue', async () => {
    const ids = (await loadCatalogue()).map((c) => c.id);
    assert.deepEqual(ids.filter((id) => id.startsWith('examples.')), []);
  });

  it('ends as documented on the reference plugin: pass, pass, unsupported, skip naming the entry field', () => {
    const r = run('plain', ['-p', 'reference']);
    assert.equal(r.get('examples.first.simple')?.status, 'pass');
    for (const id of ['f32.2x3', 'f32.4x1x5', 's32.2x3', 's32.4x1x5']) assert.equal(r.get(`examples.first.parameterised.${id}`)?.status, 'pass', id);
    assert.equal(r.get('examples.first.needs_capability')?.status, 'unsupported');
    assert.match(r.get('examples.first.needs_capability')?.message ?? '', /needs at least 16 addressable devices, the client has 4/);
    assert.equal(r.get('examples.first.needs_config')?.status, 'skip');
    assert.match(r.get('examples.first.needs_config')?.message ?? '', /topology/);
  });

  it('each example fails under the fault it claims', () => {
    const failed = (m: Map<string, ResultsFile['results'][number]>, id: string) => ['fail', 'crash'].includes(m.get(id)?.status ?? '');
    assert.ok(failed(run('f1', ['-p', 'reference', '--filter', '**.simple'], { PJRT_REFERENCE_FAULTS: 'wrong_element_type' }), 'examples.first.simple'));
    const dims = run('f2', ['-p', 'reference', '--filter', '**.parameterised.**'], { PJRT_REFERENCE_FAULTS: 'wrong_dims' });
    for (const id of dims.keys()) assert.ok(failed(dims, id), id);
    const sixteen = ['-p', 'reference', '--create-option', 'device_count=16', '--filter', '**.needs_capability'];
    assert.equal(run('f3a', sixteen).get('examples.first.needs_capability')?.status, 'pass');
    assert.ok(failed(run('f3', sixteen, { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_Client_BufferFromHostBuffer' }), 'examples.first.needs_capability'));
    const topo = ['--config', configured, '--filter', '**.needs_config'];
    assert.equal(run('f4a', topo).get('examples.first.needs_config')?.status, 'pass');
    assert.ok(failed(run('f4', topo, { PJRT_REFERENCE_FAULTS: 'crash_in=PJRT_TopologyDescription_Create' }), 'examples.first.needs_config'));
  });
});

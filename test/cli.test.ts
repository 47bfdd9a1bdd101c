// The CLI's other commands and its handling of bad input: one line, exit 2, no stack trace.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { cli, tmpDir } from './runner-helpers.js';

describe('cli', function () {
  this.timeout(60_000);
  const dir = tmpDir();

  it('list --json gives ids, tiers, requirements and catches without a plugin', () => {
    const r = cli(['list', '--json', '--tier', '0'], { fake: true });
    assert.equal(r.code, 0, r.stderr);
    const cases = JSON.parse(r.stdout) as { id: string; tier: number; catches: string[]; requires: object }[];
    assert.equal(cases.length, 7);
    assert.ok(cases.every((c) => c.tier === 0 && Array.isArray(c.catches) && typeof c.requires === 'object'));
  });

  it('bad plugins.json: one line naming the file, the JSON path and what was expected; exit 2', () => {
    const f = path.join(dir, 'plugins.json');
    writeFileSync(f, JSON.stringify({ default: 'x', plugins: { x: { library: 'lib.so', createOptions: { n: { bad: 1 } } } } }));
    const r = cli(['run', '--config', f], { fake: true });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, new RegExp(`^pjrt-cts: error: ${f.replace(/[.]/g, '\\.')}: \\$\\.plugins\\.x\\.createOptions\\.n: `));
    writeFileSync(f, '{ not json');
    assert.match(cli(['run', '--config', f], { fake: true }).stderr, /expected JSON/);
  });

  it('bad expectations file and bad flags exit 2 with one line', () => {
    const e = path.join(dir, 'exp.json');
    writeFileSync(e, JSON.stringify({ expectations: [{ tests: 'a.*', status: 'pass', reason: 'r' }] }));
    const r = cli(['run', '--plugin', '/bin/sh', '--expectations', e], { fake: true });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /exp\.json: \$\.expectations\[0\]\.status: /);
    for (const args of [['run', '--jobs', '0'], ['run', '--gate', 'one'], ['run', '--shard', '3/2'], ['run', '--no-such-flag'], ['run', '--plugin', 'nope'], ['run', '--create-option', 'novalue']]) {
      const x = cli(args, { fake: true });
      assert.equal(x.code, 2, `${args.join(' ')}: ${x.stderr}`);
      assert.doesNotMatch(x.stderr, /\n\s+at /, 'no stack trace');
    }
  });

  it('compare reports regressions, fixes, newly unsupported, new and removed ids; exit 1 on regression', () => {
    const base = (results: [string, ResultsFile['results'][number]['status']][]): ResultsFile => ({
      schemaVersion: 1, cts: { version: '0.1.0' }, startedAt: '', finishedAt: '', durationMs: 0, interrupted: false,
      run: { strict: false, maxTier: 3, filters: [], excludes: [], retries: 0, jobs: 1 }, plugin: { name: 'p', path: '/p.so' },
      environment: { node: '', platform: '', arch: '', cpus: 1, hostname: '' },
      results: results.map(([id, status]) => ({ id, area: 'a.b', tier: 1, status, durationMs: 1, source: 'header' as const, cite: 'test', requires: {} })),
      totals: { byStatus: {}, byTier: {} }, capabilities: {}, staleExpectations: [], exitCode: 0,
    });
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    writeFileSync(a, JSON.stringify(base([['a.b.1', 'pass'], ['a.b.2', 'fail'], ['a.b.3', 'pass'], ['a.b.4', 'pass']])));
    writeFileSync(b, JSON.stringify(base([['a.b.1', 'crash'], ['a.b.2', 'pass'], ['a.b.3', 'unsupported'], ['a.b.5', 'pass'], ['a.b.6', 'warn']])));
    writeFileSync(a, JSON.stringify(base([['a.b.1', 'pass'], ['a.b.2', 'fail'], ['a.b.3', 'pass'], ['a.b.4', 'pass'], ['a.b.6', 'pass']])));
    // pass → unsupported and removed ids are errors of their own (test/compare.test.ts); allowed here.
    const r = cli(['compare', a, b, '--json', '--allow-new-unsupported', '--allow-removed']);
    assert.equal(r.code, 1);
    const c = JSON.parse(r.stdout) as Record<string, { id: string }[]>;
    assert.deepEqual(c['regressions']!.map((x) => x.id), ['a.b.1']);
    assert.deepEqual(c['fixes']!.map((x) => x.id), ['a.b.2']);
    assert.deepEqual(c['newlyUnsupported']!.map((x) => x.id), ['a.b.3']);
    assert.deepEqual(c['newWarnings']!.map((x) => x.id), ['a.b.6'], 'pass → warn is a new warning, not a regression');
    assert.deepEqual(c['added']!.map((x) => x.id), ['a.b.5']);
    assert.deepEqual(c['removed']!.map((x) => x.id), ['a.b.4']);
    assert.equal(cli(['compare', a, a]).code, 0);
    assert.equal(cli(['compare', a, path.join(dir, 'missing.json')]).code, 2);
  });

  it('discover lists plugins from PJRT_NAMES_AND_LIBRARY_PATHS, PJRT_LIBRARY_PATH, jax_plugins and the libtpu package of python3', () => {
    const site = path.join(dir, 'site-packages');
    mkdirSync(path.join(site, 'jax_plugins', 'xla_cuda13'), { recursive: true });
    writeFileSync(path.join(site, 'jax_plugins', 'xla_cuda13', 'xla_cuda_plugin.so'), '');
    mkdirSync(path.join(site, 'libtpu'), { recursive: true });
    writeFileSync(path.join(site, 'libtpu', 'libtpu.so'), '');
    const r = cli(['discover', '--json'], { env: { PJRT_NAMES_AND_LIBRARY_PATHS: 'foo:/opt/foo.so,bar:/opt/bar.so', PJRT_LIBRARY_PATH: '/opt/libbaz.so', PYTHONPATH: site, PJRT_CTS_PYTHON: 'python3' } });
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout) as { configured: { name: string }[]; discovered: { name: string; path: string; source: string }[] };
    assert.deepEqual(d.configured.map((x) => x.name).sort(), ['cuda', 'libtpu', 'pjrt-ocl', 'reference', 'reference-asan', 'reference-tsan', 'reference-xla']);
    const names = d.discovered.map((x) => `${x.source}:${x.name}`);
    assert.ok(names.includes('PJRT_NAMES_AND_LIBRARY_PATHS:foo') && names.includes('PJRT_NAMES_AND_LIBRARY_PATHS:bar'));
    assert.ok(names.includes('PJRT_LIBRARY_PATH:baz'));
    assert.ok(d.discovered.some((x) => x.source === 'jax_plugins' && x.name === 'xla_cuda13' && x.path.endsWith('xla_cuda13/xla_cuda_plugin.so')));
    assert.ok(d.discovered.some((x) => x.source === 'python' && x.name === 'libtpu' && x.path === path.join(site, 'libtpu', 'libtpu.so')));
  });

  it('a plugins.json entry with {discover: "jax_plugins:cuda"} resolves through python3', () => {
    const site = path.join(dir, 'venv2', 'site-packages');
    mkdirSync(path.join(site, 'jax_plugins', 'xla_cuda13'), { recursive: true });
    writeFileSync(path.join(site, 'jax_plugins', 'xla_cuda13', 'xla_cuda_plugin.so'), '');
    const json = path.join(dir, 'cuda.json');
    const r = cli(['run', '--plugin', 'cuda', '--filter', 'tier0.basic.pass.*', '--json', json], { fake: true, env: { PYTHONPATH: site, PJRT_CUDA_PLUGIN: '' } });
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    assert.equal(res.plugin.path, path.join(site, 'jax_plugins', 'xla_cuda13', 'xla_cuda_plugin.so'));
    assert.deepEqual(res.plugin.createOptions, { platform_name: 'cuda', allocator: 'bfc', preallocate: false, memory_fraction: 0.05 });
    assert.deepEqual(res.plugin.topologyOptions, { topology: '1x1x4' });
    const none = cli(['run', '--plugin', 'cuda'], { fake: true, env: { PYTHONPATH: path.join(dir, 'empty'), PJRT_CUDA_PLUGIN: '' } });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /\$\.plugins\.cuda\.library: expected a library that resolves: environment variable PJRT_CUDA_PLUGIN is not set; no plugin found/);
  });

  it('schema writes JSON Schemas that match the committed ones', () => {
    const out = path.join(dir, 'schemas');
    assert.equal(cli(['schema', '--out', out]).code, 0);
    for (const f of ['plugins.schema.json', 'expectations.schema.json', 'results.schema.json', 'compare.schema.json', 'compat.schema.json', 'must-pass.schema.json']) {
      const s = JSON.parse(readFileSync(path.join(out, f), 'utf8')) as { $schema: string };
      assert.match(s.$schema, /json-schema\.org/);
      assert.equal(readFileSync(path.join(out, f), 'utf8'), readFileSync(path.join(import.meta.dirname, '..', '..', 'schemas', f), 'utf8'), `${f} is stale: run pjrt-cts schema`);
    }
  });
});

// Every case declares where its demand comes from, and the generated docs/conformance.md and README counts are current.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCases } from '../src/harness/registry.js';
import { SOURCES } from '../src/harness/types.js';
import { loadSuites } from '../src/worker/load-suites.js';
import { sharedCleanRun } from './clean-runs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('sources of demand', () => {
  before(async () => {
    if (allCases().length === 0) await loadSuites(path.join(root, 'dist', 'suites'));
  });

  it('every case has a source and a real citation', () => {
    const bad = allCases().filter((c) => !SOURCES.includes(c.source) || c.cite.trim().length < 12 || /TODO/.test(c.cite)).map((c) => `${c.id}: ${c.source} "${c.cite}"`);
    assert.deepEqual(bad, []);
  });

  it('every dependsOn names a registered case (not itself)', () => {
    const ids = new Set(allCases().map((c) => c.id));
    const bad = allCases().filter((c) => c.dependsOn !== undefined && (!ids.has(c.dependsOn) || c.dependsOn === c.id)).map((c) => `${c.id} → ${c.dependsOn}`);
    assert.deepEqual(bad, []);
  });

  it('docs/api-coverage.md names the slots that passing cases call (a run with --record-slots)', function () {
    this.timeout(120_000);
    if (!existsSync(path.join(root, 'build', 'reference-plugin', 'libpjrt_reference.so'))) this.skip();
    // npm test's clean runs recorded the slots already (clean-runs.ts); on its own, the script makes its runs.
    const shared = ['reference', 'reference-xla'].map(sharedCleanRun);
    const from = shared.every((f) => f) ? ['--results-dir', path.dirname(shared[0]!.results)] : [];
    const r = spawnSync(process.execPath, [path.join(root, 'dist', 'scripts', 'gen-api-coverage.js'), '--check', ...from], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('docs/conformance.md and the README counts are generated from the catalogue', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'dist', 'scripts', 'gen-conformance.js'), '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
});

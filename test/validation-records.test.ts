// A validation record (docs/validation/*.md) is true only for the case set it was made with: its recorded hash must
// be today's catalogue's, or the record must be refreshed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { caseSet, parseCaseSetLine } from '../src/harness/case-set.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { packageRoot } from '../src/config/paths.js';

const dir = path.join(packageRoot(), 'docs', 'validation');
const records = readdirSync(dir).filter((f) => f.endsWith('.md'));

describe('validation records', function () {
  this.timeout(120_000);

  it('caseSet depends on the ids, sources and claims only, not on their order', () => {
    const a = { id: 'tier1.x', source: 'header', catches: ['f1', 'f2'] };
    const b = { id: 'tier1.y', source: 'quality', catches: [] };
    assert.deepEqual(caseSet([a, b]), caseSet([b, { ...a, catches: ['f2', 'f1'] }]));
    assert.notEqual(caseSet([a, b]).hash, caseSet([a, { ...b, source: 'framework' }]).hash);
    assert.notEqual(caseSet([a, b]).hash, caseSet([{ ...a, catches: ['f1'] }, b]).hash);
    assert.notEqual(caseSet([a, b]).hash, caseSet([a]).hash);
  });

  it('the record measured on hardware (cuda.md) is projected onto today\'s case set, every measured non-pass read', function () {
    const r = spawnSync(process.execPath, [path.join(packageRoot(), 'dist', 'scripts', 'gen-measured-record.js'), 'docs/validation/cuda.md',
      'docs/validation/data/cuda-h100-2026-11-27.tsv', 'docs/validation/data/cuda-readings.json', 'expectations/cuda.json', '--check'], { cwd: packageRoot(), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('every record was made with today\'s case set', async () => {
    const today = caseSet(await loadCatalogue());
    assert.ok(records.length > 0, `${dir} has no record`);
    const stale = records.flatMap((f) => {
      const recorded = parseCaseSetLine(readFileSync(path.join(dir, f), 'utf8'));
      const page = `docs/validation/${f}`;
      if (!recorded) return [`${page} records no case set (no <!-- generated:case-set --> section)`];
      if (recorded.hash === today.hash) return [];
      return [`${page} was made with case set ${recorded.hash} (${recorded.cases} cases), today's catalogue is ${today.hash} (${today.cases} cases): `
        + `re-run its recipe (the page says how) and regenerate its tables with `
        + `node dist/scripts/gen-validation-tables.js ${page} RESULTS.json expectations/${path.basename(f, '.md')}.json`];
    });
    assert.deepEqual(stale, [], stale.join('\n'));
  });
});

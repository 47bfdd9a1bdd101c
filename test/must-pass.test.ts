// The must-pass list (certification/must-pass-<version>.json) against the catalogue: stale when a listed id is gone
// or a header/framework case is neither listed nor excluded with a reason; and the certification verdict.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadMustPass, type LoadedMustPass } from '../src/config/must-pass.js';
import type { CaseResult } from '../src/config/results.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { certify, defaultMustPassFile } from '../src/runner/certify.js';
import { ctsVersion } from '../src/config/paths.js';
import { cli, oneErrorLine, tmpDir } from './runner-helpers.js';

const REGENERATE = 'regenerate it: node dist/scripts/gen-must-pass.js (see its header), then review the diff';

describe('must-pass list', function () {
  this.timeout(60_000);
  const m = loadMustPass(defaultMustPassFile());

  it('belongs to this CTS version and parses against its schema', () => {
    assert.equal(m.list.ctsVersion, ctsVersion());
    assert.ok(m.list.cases.length > 0);
  });

  it('is not stale against the catalogue', async () => {
    const catalogue = await loadCatalogue();
    const ids = new Set(catalogue.map((c) => c.id));
    const listed = [...m.list.cases.map((c) => c.id), ...m.list.exclusions.map((e) => e.id)];
    assert.equal(new Set(listed).size, listed.length, 'an id is listed twice (cases and exclusions overlap)');
    const gone = listed.filter((id) => !ids.has(id));
    assert.deepEqual(gone, [], `ids on the must-pass list that no case has any more; ${REGENERATE}`);
    const known = new Set(listed);
    const quality = new Set(catalogue.filter((c) => c.source === 'quality').map((c) => c.id));
    assert.deepEqual(listed.filter((id) => quality.has(id)), [], 'quality cases never fail a gate, so none is on the list');
    const unjudged = catalogue.filter((c) => c.source !== 'quality' && !known.has(c.id)).map((c) => c.id);
    assert.deepEqual(unjudged, [], `header/framework cases neither on the list nor excluded; ${REGENERATE}`);
  });
});

describe('run --certify', function () {
  this.timeout(60_000);
  const list = (cases: LoadedMustPass['list']['cases']): LoadedMustPass => ({
    file: 'l.json', sha256: '0',
    list: {
      ctsVersion: '9.9.9', generated: { by: 't', regenerate: 't', rule: 't', from: {} }, review: { state: 'pending', note: '' },
      cases, exclusions: [],
    },
  });
  const result = (id: string, status: CaseResult['status']): CaseResult =>
    ({ id, status, tier: 0, area: 'a', durationMs: 0, catches: [], source: 'header' }) as unknown as CaseResult;

  it('certifies when every must-pass case passed, and an optional one may be unsupported', () => {
    const v = certify([result('a', 'pass'), result('b', 'unsupported')], list([{ id: 'a' }, { id: 'b', optional: 'needs a slot a plugin may leave null' }]));
    assert.equal(v.certified, true);
    assert.equal(v.text, 'certified against must-pass 9.9.9 (2 cases)');
  });

  it('names what is missing: unsupported without optional, a failure, a case not run', () => {
    const v = certify([result('a', 'unsupported'), result('b', 'fail')], list([{ id: 'a' }, { id: 'b' }, { id: 'c' }]));
    assert.equal(v.certified, false);
    assert.deepEqual(v.missing, [{ id: 'a', status: 'unsupported' }, { id: 'b', status: 'fail' }, { id: 'c', status: 'not run' }]);
    assert.match(v.text, /^NOT certified against must-pass 9\.9\.9 \(3 cases\): 3 did not pass: a \(unsupported\), b \(fail\), c \(not run\)$/);
  });

  it('bad input is exit 2: selection options, an unreadable or malformed list, another version\'s list', () => {
    const dir = tmpDir();
    oneErrorLine(cli(['run', '--certify', '--filter', 'tier0.**']), /--certify: --filter: expected no selection/);
    oneErrorLine(cli(['run', '--certify', path.join(dir, 'none.json')]), /cannot read .*none\.json: no such file \(ENOENT\)/);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ctsVersion: '0' }));
    oneErrorLine(cli(['run', '--certify', bad]), /bad\.json: \$\.generated/);
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...list([]).list, ctsVersion: '0.0.0-other' }));
    oneErrorLine(cli(['run', '--certify', other]), /other\.json: \$\.ctsVersion: expected the must-pass list of this CTS version/);
  });
});

// The personality table is data (fixtures/reference-plugin/personalities.json): its README table is current, every
// behaviour is read by the plugin's sources, and the plugin built from it is the one the runs use.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readPersonalities, withPersonalities } from '../src/docs/personalities.js';
import { ROOT } from './runner-helpers.js';

const PLUGIN = path.join(ROOT, 'fixtures', 'reference-plugin');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(cc|h)$/.test(e.name) ? [p] : [];
  });
}

describe('the personality table (personalities.json)', function () {
  const f = readPersonalities(ROOT);

  it('is valid, and names two personalities, reference first', function () {
    assert.deepEqual(f.personalities, ['reference', 'xla']);
  });

  it('the plugin README\'s table is generated from it (node dist/scripts/gen-personalities-doc.js)', function () {
    const readme = readFileSync(path.join(PLUGIN, 'README.md'), 'utf8');
    assert.equal(withPersonalities(readme, f), readme);
  });

  it('every behaviour is read by the plugin (a field nothing reads is no behaviour)', function () {
    const code = sources(path.join(PLUGIN, 'src')).map((p) => readFileSync(p, 'utf8')).join('\n');
    const unread = f.behaviours.filter((b) => !new RegExp(`(\\.|->)${b.field}\\b`).test(code)).map((b) => b.field);
    assert.deepEqual(unread, []);
  });

  it('every behaviour quotes the XLA line it follows, and the two personalities differ in it', function () {
    for (const b of f.behaviours) {
      assert.ok(b.upstream.quote.length > 5, b.field);
      assert.notDeepEqual(b.values['reference'], b.values['xla'], `${b.field}: the same in both personalities is no latitude taken`);
    }
  });
});

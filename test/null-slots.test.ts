// PJRT_REFERENCE_NULL_SLOTS / PJRT_REFERENCE_NULL_EXTENSIONS: the reference plugin's own switches that null chosen
// PJRT_Api slots and leave chosen extensions out of the chain, so that the `unsupported` paths of the cases stay
// tested. Every case that needs a nulled slot or extension must end `unsupported` with a reason naming it; none
// may fail. Unknown names make GetPjrtApi return NULL, as unknown faults do.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CatalogueEntry } from '../src/harness/types.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const NULL_SLOTS = ['PJRT_Buffer_UnpaddedDimensions', 'PJRT_Buffer_Memory', 'PJRT_Memory_AddressableByDevices', 'PJRT_ExecuteContext_Create'];
/** Extension id (PJRT_REFERENCE_NULL_EXTENSIONS) → the area that needs it and the type name its reason carries. */
const NULL_EXTENSIONS: Record<string, { area: string; type: string }> = {
  layouts: { area: 'tier2.ext.layouts.', type: 'Layouts' },
  profiler: { area: 'tier2.ext.profiler.', type: 'Profiler' },
};
const FILTERS = ['tier1.buffer.*', 'tier1.memory.*', 'tier2.ext.*'];
const ENV = { PJRT_REFERENCE_NULL_SLOTS: NULL_SLOTS.join(','), PJRT_REFERENCE_NULL_EXTENSIONS: Object.keys(NULL_EXTENSIONS).join(',') };

interface Row { id: string; status: string; message?: string }

const built = (): boolean => existsSync(path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so'));

describe('reference plugin: null slots and null extensions', function () {
  this.timeout(240_000);
  before(function () {
    if (!built()) this.skip();
  });

  it('every case needing a nulled slot or extension is unsupported, naming it; none fails', () => {
    const json = path.join(tmpDir(), 'r.json');
    const r = cli(['run', '--plugin', 'reference', '--jobs', '1', '--json', json, ...FILTERS.flatMap((f) => ['--filter', f])], { env: ENV });
    assert.equal(r.code, 0, r.stdout.slice(-3000) + r.stderr.slice(-2000));
    const rows = (JSON.parse(readFileSync(json, 'utf8')) as { results: Row[] }).results;
    const listed = cli(['list', '--json', ...FILTERS.flatMap((f) => ['--filter', f])]);
    const catalogue = new Map((JSON.parse(listed.stdout) as CatalogueEntry[]).map((c) => [c.id, c]));
    const bad = rows.filter((x) => ['fail', 'crash', 'timeout'].includes(x.status));
    assert.deepEqual(bad, [], 'no case may fail because a slot or extension is absent');
    let affected = 0;
    for (const row of rows) {
      const slot = catalogue.get(row.id)?.requires.slots?.find((s) => NULL_SLOTS.includes(s));
      const ext = Object.values(NULL_EXTENSIONS).find((e) => row.id.startsWith(e.area));
      const needed = slot ?? (ext ? `extension ${ext.type}` : undefined);
      if (!needed) continue;
      affected++;
      assert.equal(row.status, 'unsupported', `${row.id} needs ${needed}: ${row.message ?? ''}`);
      assert.ok(row.message?.includes(needed), `${row.id}: the reason must name ${needed}, got "${row.message ?? ''}"`);
    }
    assert.ok(affected >= 20, `only ${affected} cases needed a nulled slot or extension`);
  });

  it('info shows a nulled slot as null and the others as present', () => {
    const r = cli(['info', '--plugin', 'reference', '--json'], { env: { PJRT_REFERENCE_NULL_SLOTS: 'PJRT_Client_DmaMap' } });
    assert.equal(r.code, 0, r.stderr);
    const slots = (JSON.parse(r.stdout) as { slots: { name: string; state: string }[] }).slots;
    assert.deepEqual(slots.filter((s) => s.state !== 'present').map((s) => `${s.name}:${s.state}`), ['PJRT_Client_DmaMap:null']);
  });

  for (const [name, value] of [['PJRT_REFERENCE_NULL_SLOTS', 'PJRT_No_Such_Slot'], ['PJRT_REFERENCE_NULL_EXTENSIONS', 'no_such_extension']] as const) {
    it(`an unknown name in ${name} makes GetPjrtApi return NULL, with a message`, () => {
      const r = cli(['info', '--plugin', 'reference'], { env: { [name]: value } });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, new RegExp(`'${value}' in ${name}`));
      assert.match(r.stderr, /GetPjrtApi\(\) returned NULL/);
    });
  }
});

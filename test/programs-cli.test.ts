// `run --programs <dir>`: a vendor's corpus in the fixtures/programs format becomes external.program cases;
// a malformed one is bad input (exit 2, one line naming the file and JSON path), never a CTS failure.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, cli, tmpDir } from './runner-helpers.js';

const PROGRAMS = path.join(ROOT, 'fixtures', 'programs');
const PLUGIN = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

function corpusOf(names: string[]): string {
  const dir = tmpDir();
  for (const n of names) for (const ext of ['mlir', 'json']) copyFileSync(path.join(PROGRAMS, `${n}.${ext}`), path.join(dir, `my_${n}.${ext}`));
  return dir;
}

describe('cli: --programs', function () {
  this.timeout(120_000);

  it('lists and runs an external corpus as external.program.run.<name>', function () {
    if (!existsSync(CLI) || !existsSync(PLUGIN)) this.skip();
    const dir = corpusOf(['add_f32', 'maximum_f32']);
    try {
      const list = cli(['list', '--json', '--programs', dir]);
      assert.equal(list.code, 0, list.stderr);
      const ids = (JSON.parse(list.stdout) as { id: string }[]).map((c) => c.id).filter((id) => id.startsWith('external.'));
      assert.deepEqual(ids.sort(), ['external.program.run.my_add_f32', 'external.program.run.my_maximum_f32']);
      const json = path.join(dir, 'results', 'out.json'); // not out.json itself: the next run would read it as a sidecar
      const run = cli(['run', '--programs', dir, '--filter', 'external.**', '--json', json]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const recs = readFileSync(`${json}l`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: string; status?: string });
      assert.deepEqual(recs.filter((r) => r.id).map((r) => r.status), ['pass', 'pass']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a malformed corpus with exit 2 and one line naming the file and JSON path', function () {
    if (!existsSync(CLI)) this.skip();
    const dir = corpusOf(['add_f32']);
    try {
      const sidecar = path.join(dir, 'my_add_f32.json');
      const doc = JSON.parse(readFileSync(sidecar, 'utf8')) as { inputs: { dtype: string }[] };
      doc.inputs[0]!.dtype = 'f33';
      writeFileSync(sidecar, JSON.stringify(doc));
      for (const args of [['run', '--programs', dir], ['list', '--programs', path.join(dir, 'missing')]]) {
        const r = cli(args);
        assert.equal(r.code, 2, r.stderr);
        const lines = r.stderr.trim().split('\n');
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0]!, /^pjrt-cts: error: /);
      }
      assert.match(cli(['run', '--programs', dir]).stderr, /my_add_f32\.json: \$\.inputs\[0\]\.dtype: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The faults a corpus program claims live in its sidecar (`catches`), written by the generators from each spec's
// declared data and what follows from the program; an external corpus may leave them out.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCorpus } from '../src/corpus/load.js';
import { generateCorpus } from '../src/corpus/gen/index.js';
import { GENERATED } from '../src/corpus/gen/program.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const EXTERNAL_CATCHES = ['crash_in=PJRT_LoadedExecutable_Execute', 'wrong_element_type', 'output_element_types_wrong'];

describe('corpus claims (sidecar catches)', () => {
  const byName = new Map(generateCorpus().map((p) => [p.name, p.sidecar]));
  const catches = (name: string): readonly string[] => byName.get(name)?.catches ?? assert.fail(`no program ${name}`);

  it('every generated sidecar names its generator and claims at least its output element types', () => {
    for (const [name, s] of byName) {
      assert.equal(s.generated, GENERATED, name);
      assert.ok(s.catches?.includes('wrong_element_type') && s.catches.includes('output_element_types_wrong'), name);
    }
  });

  it('a one-op program claims its op off by one; a spec\'s declared faults are added to it', () => {
    assert.deepEqual(catches('atan2_f32'), ['op_off_by_one=atan2', 'atan2_operands_swapped', 'wrong_element_type', 'output_element_types_wrong']);
    assert.ok(!catches('tuple_nested').some((c) => c.startsWith('op_off_by_one')), 'a program of several ops has no op_off_by_one claim');
    assert.ok(catches('tuple_nested').includes('tuple_index_ignored'));
  });

  it('claims follow the program\'s data: batching faults only where a batch has more than one member', () => {
    assert.ok(catches('gather_batched_rows').includes('gather_ignores_batching_dims'));
    assert.ok(!catches('gather_batch_size_one').includes('gather_ignores_batching_dims'));
    assert.ok(catches('scatter_variadic_batched').includes('scatter_ignores_batching_dims'));
    assert.ok(!catches('scatter_batch_size_one_set').includes('scatter_ignores_batching_dims'));
    assert.ok(catches('triangular_solve_left_lower_c128').includes('triangular_solve_adjoint_not_conjugated'));
    assert.ok(!catches('triangular_solve_left_upper_batch_f32').includes('triangular_solve_adjoint_not_conjugated'), 'ADJOINT on a real type is TRANSPOSE');
  });

  it('an external sidecar without catches loads; its programs claim the execute crash and the element types', () => {
    const dir = tmpDir();
    const src = path.join(ROOT, 'fixtures', 'programs');
    copyFileSync(path.join(src, 'add_f32.mlir'), path.join(dir, 'add_f32.mlir'));
    const sidecar = JSON.parse(readFileSync(path.join(src, 'add_f32.json'), 'utf8')) as Record<string, unknown>;
    delete sidecar['catches'];
    delete sidecar['generated'];
    writeFileSync(path.join(dir, 'add_f32.json'), JSON.stringify(sidecar));
    const [entry] = loadCorpus(dir, { idPrefix: 'external.program' });
    assert.equal(entry?.catches, undefined);
    const r = cli(['list', '--json', '--programs', dir, '--filter', 'external.program.**']);
    assert.equal(r.code, 0, r.stderr);
    const listed = JSON.parse(r.stdout) as { id: string; catches: string[] }[];
    assert.deepEqual(listed.map((c) => [c.id, c.catches]), [['external.program.run.add_f32', EXTERNAL_CATCHES]]);
  });
});

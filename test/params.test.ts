// The parameter builder (src/harness/params.ts): products, dependent expansion, derived fields, filters, ids.
import assert from 'node:assert/strict';
import { params } from '../src/harness/params.js';

describe('params() builder', () => {
  it('combines values in call order: one id segment per value (an object\'s id)', () => {
    const rows = params().combine('dt', ['f32', 'bf16']).combine('shape', [{ id: '2x3', dims: [2, 3] }, { id: 'scalar', dims: [] }]).rows();
    assert.deepEqual(rows.map((r) => r.id), ['f32.2x3', 'f32.scalar', 'bf16.2x3', 'bf16.scalar']);
    assert.deepEqual(rows[1], { dt: 'f32', shape: { id: 'scalar', dims: [] }, id: 'f32.scalar' });
  });

  it('expands per row, derives fields without a segment, and filters', () => {
    const rows = params()
      .combine('n', [1, 2, 3])
      .expand('k', (p) => Array.from({ length: p.n }, (_, i) => i))
      .derive('sum', (p) => p.n + p.k)
      .filter((p) => p.sum !== 3)
      .unless((p) => p.k === 0 && p.n === 3)
      .rows();
    assert.deepEqual(rows.map((r) => [r.id, r.sum]), [['1.0', 1], ['2.0', 2], ['3.1', 4], ['3.2', 5]]);
  });

  it('combineWithParams merges a row\'s fields and takes its id as the segment', () => {
    const rows = params().combineWithParams([{ id: 'a', x: 1 }]).combine('flag', [true, false]).rows();
    assert.deepEqual(rows, [{ x: 1, flag: true, id: 'a.true' }, { x: 1, flag: false, id: 'a.false' }]);
  });

  it('a key is combined once (a type error), and a row needs at least one segment', () => {
    // @ts-expect-error 'dt' is already a field of the row
    void (() => params().combine('dt', ['f32']).combine('dt', ['bf16']));
    // @ts-expect-error 'id' is the row id, never a field
    void (() => params().combine('id', ['x']));
    assert.throws(() => params().derive('x', () => 1).rows(), /without an id segment/);
  });
});

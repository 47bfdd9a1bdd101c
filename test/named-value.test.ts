// Create options keep their PJRT_NamedValue type on the way through JSON (a tier-3 node's argv, an etcd task): an
// integral float stays kFloat (XLA's ValidateCreateOptions rejects a kInt64 for a float option such as
// memory_fraction), a large int64 stays exact, a list stays kInt64List.
import assert from 'node:assert/strict';
import { fromJson, toWire, type NamedValue } from '../src/config/named-value.js';
import { jsonOptions } from '../suites/_lib/multinode.js';

describe('create options through JSON (toWire / fromJson)', function () {
  it('every NamedValue type round-trips unchanged', function () {
    const values: NamedValue[] = ['cuda', true, false, 0n, -7n, 9007199254740993n, 0.05, 1, 2.0, -3, [1n, 2n, 3n], []];
    for (const v of values) {
      const back = fromJson(JSON.parse(JSON.stringify(toWire(v))));
      assert.deepEqual(back, v, `${String(v)} (${typeof v})`);
      assert.equal(typeof back, typeof v);
    }
  });

  it('the options a tier-3 node is launched with keep their types', function () {
    const wire = JSON.parse(JSON.stringify(jsonOptions({ memory_fraction: 1, preallocate: false, node_id: 3n })));
    assert.deepEqual(Object.fromEntries(Object.entries(wire).map(([k, v]) => [k, fromJson(v as never)])), { memory_fraction: 1, preallocate: false, node_id: 3n });
  });
});

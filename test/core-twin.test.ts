// The core twin a mixed program's refusal is judged by (src/corpus/core-twin.ts, suites/_lib/declined.ts): every corpus
// program that mixes core and non-core element types has one whose @main speaks core types only, or none because an
// op needs a complex type. (Whether the twins compile: test/declined-types.test.ts, on the reference plugin.)
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DTYPES, dtype } from '../src/abi/dtypes.js';
import { COMPLEX_ONLY_OPS, coreTwin } from '../src/corpus/core-twin.js';
import { loadCorpusOnce } from '../src/corpus/index.js';
import { mainSignature } from '../src/corpus/signature.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const coreSpellings = new Set(DTYPES.filter((d) => d.core).map((d) => d.mlir));

describe('core twins of the corpus\'s mixed programs', () => {
  const mixed = loadCorpusOnce(resolve(root, 'fixtures', 'programs')).filter((e) => e.dtypes.some((d) => dtype(d).core) && e.dtypes.some((d) => !dtype(d).core));

  it('there are mixed programs to judge', () => assert.ok(mixed.length > 0));

  it('each has a twin of core types only, or none for an op that needs a complex type', () => {
    for (const e of mixed) {
      const twin = coreTwin(e.program, e.dtypes, e.ops);
      if (twin.text === undefined) {
        assert.ok(e.ops.some((op) => COMPLEX_ONLY_OPS.includes(op)), `${e.name}: no twin (${twin.none})`);
        continue;
      }
      const sig = mainSignature(twin.text);
      assert.ok(sig, `${e.name}: the twin's @main has plain tensor types`);
      for (const t of [...sig.inputs, ...sig.outputs]) assert.ok(coreSpellings.has(t.element), `${e.name}: twin type ${t.element} is core`);
      const left = [...twin.text.matchAll(/tensor<(?:[0-9?]+x)*([^>]+(?:<[^>]*>)?)>/g)].map((m) => m[1]!).filter((t) => !coreSpellings.has(t));
      assert.deepEqual(left, [], `${e.name}: no non-core tensor type left`);
    }
  });

  it('a type spelled like a core one (s1 is i1, as pred) has no twin', () => {
    const twin = coreTwin('func.func @main(%a: tensor<2xi1>) -> tensor<2xi32>', ['s1', 's32'], ['convert']);
    assert.equal(twin.text, undefined);
    assert.match('none' in twin ? twin.none : '', /s1 is spelled like a core type/);
  });
});

// docs/corpus.md's coverage section is generated from the sidecars' declared ops (cheap and deterministic, so it is
// checked here); the declared ops are checked against the programs they describe, so the tables can trust them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultsFile } from '../src/config/results.js';
import { loadCorpus, type CorpusEntry } from '../src/corpus/index.js';
import { NOT_IN_CORPUS, SPEC_OPS } from '../src/corpus/spec-ops.js';
import { COVERAGE_MARKERS, coverageSection, errorSection, replaceBetween } from '../src/docs/corpus-doc.js';
import { ROOT } from './runner-helpers.js';

/**
 * Ops as they appear in op position: `= stablehlo.x`, `"stablehlo.x"(`, a reducer's `applies stablehlo.x`, and
 * `call @f`; CHLO and Shardy ops keep their dialect (`chlo.x`, `sdy.x`).
 */
function opsInText(text: string): Set<string> {
  const ops = new Set([...text.matchAll(/(?:=\s*|^\s*|applies\s+)"?(stablehlo|chlo|sdy)\.([a-z_0-9]+)/gm)].map((m) => (m[1] === 'stablehlo' ? m[2]! : `${m[1]!}.${m[2]!}`)));
  ops.delete('return');
  ops.delete('sdy.return');
  if (/=\s*call @/.test(text)) ops.add('call');
  return ops;
}

describe('docs/corpus.md: generated coverage', () => {
  let entries: CorpusEntry[];
  before(() => {
    entries = loadCorpus(join(ROOT, 'fixtures', 'programs'));
  });
  it('every sidecar declares exactly the ops its program holds', () => {
    for (const e of entries) assert.deepEqual([...new Set(e.ops)].sort(), [...opsInText(e.program)].sort(), `${e.name}: sidecar ops vs program`);
  });
  it('the coverage section is up to date (node dist/scripts/gen-corpus-doc.js)', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'corpus.md'), 'utf8');
    assert.equal(replaceBetween(doc, COVERAGE_MARKERS, coverageSection(entries)), doc, 'docs/corpus.md is out of date: run node dist/scripts/gen-corpus-doc.js');
  });
  it('every spec op the corpus leaves out has a reason, and the spec list has no duplicates', () => {
    assert.equal(new Set(SPEC_OPS).size, SPEC_OPS.length);
    for (const op of Object.keys(NOT_IN_CORPUS)) assert.ok(SPEC_OPS.includes(op), `${op} is not a spec op`);
    assert.throws(() => coverageSection(entries.filter((e) => !e.ops.includes('sort'))), /without a reason.*: sort/);
  });
  it('the error table lists inexact outputs per (ops, type) with the largest error and its program', () => {
    const [a, b] = entries.filter((e) => e.ops.length === 1 && e.ops[0] === 'exponential' && e.dtypes[0] === 'f32');
    assert.ok(a);
    const bound = { ulp: 4 };
    const results = {
      plugin: { name: 'p', path: '/p' },
      results: [
        { id: `tier1.program.run.${a.name}`, status: 'pass', details: { observedError: [{ output: 'output 0', dtype: 'f32', ulp: 3, abs: 1e-7, rel: 2e-7, bound }] } },
        ...(b ? [{ id: `tier1.program.run.${b.name}`, status: 'pass', details: { observedError: [{ output: 'output 0', dtype: 'f32', ulp: 1, abs: 1e-6, rel: 1e-8, bound }] } }] : []),
        { id: 'tier1.program.run.add_f32', status: 'pass', details: { observedError: [{ output: 'output 0', dtype: 'f32', ulp: 0, abs: 0, rel: 0, bound: { ulp: 0 } }] } },
      ],
    } as unknown as ResultsFile;
    const text = errorSection(entries, results);
    assert.match(text, new RegExp(`\\| \`exponential\` \\| f32 \\| ${b ? 2 : 1} \\| 3 \\| ${a.name} \\| ${b ? '1.00e-6' : '1.00e-7'} \\| 2.00e-7 \\| 4 ulp \\|`));
    assert.match(text, /1 of them have a bit-exact bound and matched exactly/);
    assert.doesNotMatch(text, /`add`/);
  });
});

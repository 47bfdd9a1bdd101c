import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dtype } from '../src/abi/dtypes.js';
import { CorpusError, compareValue, decodeElement, encodeElement, loadCorpus, packValue, unpackValue, type CorpusEntry } from '../src/corpus/index.js';
import { generateCorpus, programFiles } from '../src/corpus/gen/index.js';
import { floatLiteral } from '../src/corpus/gen/mlir.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpusDir = join(root, 'fixtures/programs');

describe('corpus: value encoding', () => {
  it('round-trips every special spelling', () => {
    const cases: [string, (number | string | boolean)[]][] = [
      ['f32', [1, 0.1, '-0', 'nan', 'inf', '-inf', '0x7fc00001', 1e-45]],
      ['bf16', [1, 0.1, '-0', 'nan', '0x7fc1', 9.2e-41]],
      ['f16', [65504, 5.9604645e-8, '-inf']],
      ['f64', [0.1, 5e-324, '-0']],
      ['s64', ['-9223372036854775808', '9223372036854775807', '0']],
      ['u64', ['18446744073709551615']],
      ['s8', [-128, 127]],
      ['pred', [true, false]],
    ];
    for (const [name, data] of cases) {
      const spec = { dtype: name, dims: [data.length], data };
      const back = unpackValue(name, spec.dims, packValue(spec));
      assert.deepEqual(unpackValue(name, spec.dims, packValue(back)), back, name);
    }
    assert.equal(encodeElement(dtype('f32'), 0x7fc00001n), '0x7fc00001');
    assert.equal(encodeElement(dtype('f32'), 0x3dcccccdn), 0.1);
    assert.equal(encodeElement(dtype('s64'), 0x8000000000000000n), '-9223372036854775808');
    assert.equal(decodeElement(dtype('bf16'), 1.00390625), 0x3f80n);
  });
  it('rejects out-of-range and malformed elements', () => {
    assert.throws(() => decodeElement(dtype('u8'), 256), /out of range/);
    assert.throws(() => decodeElement(dtype('s64'), 2 ** 60), /safe integer/);
    assert.throws(() => decodeElement(dtype('f16'), '0x10000'), /wider/);
    assert.throws(() => decodeElement(dtype('f32'), 'NaN'), /must be a number/);
    assert.throws(() => decodeElement(dtype('pred'), 'true'), /true or false/);
  });
});

describe('corpus: comparison', () => {
  const spec = (dt: string, data: (number | string | boolean)[]) => ({ dtype: dt, dims: [data.length], data });
  it('accepts any NaN, checks zero signs and counts ULPs', () => {
    const exp = spec('f32', ['nan', '-0', 1]);
    assert.equal(compareValue(exp, packValue(spec('f32', ['0xffc00000', '-0', 1])), {}), null);
    assert.match(compareValue(exp, packValue(spec('f32', ['nan', 0, 1])), {})!, /element 1 \[1\]: expected "-0".*got 0.*sign of zero/);
    assert.equal(compareValue(exp, packValue(spec('f32', ['nan', 0, 1])), { signedZeros: false }), null);
    const near = packValue(spec('f32', ['nan', '-0', 1.0000001]));
    assert.match(compareValue(exp, near, {})!, /1 ulp apart/);
    assert.equal(compareValue(exp, near, { ulp: 1 }), null);
    assert.equal(compareValue(exp, near, { rel: 1e-6 }), null);
  });
  it('is exact for integers and reports index, expected and actual', () => {
    const msg = compareValue({ dtype: 's32', dims: [2, 2], data: [1, 2, 3, 4] }, packValue({ dtype: 's32', dims: [4], data: [1, 2, 3, 5] }), { ulp: 100 });
    assert.equal(msg, 'output (s32[2,2]): 1 of 4 elements differ; first at element 3 [1,1]: expected 4, got 5: not equal');
    assert.match(compareValue(spec('s32', [1]), new Uint8Array(3), {})!, /expected 4 bytes, got 3/);
  });
});

describe('corpus: MLIR float literals', () => {
  const lit = (name: string, bits: bigint) => floatLiteral(dtype(name), bits);
  it('prints the way MLIR does', () => {
    assert.equal(lit('f32', 0x3f800000n), '1.000000e+00');
    assert.equal(lit('f32', 0x80000000n), '-0.000000e+00');
    assert.equal(lit('f32', 0x3dcccccdn), '1.000000e-01'); // 6 digits parse back to the same f32
    assert.equal(lit('f32', 0x3eaaaaabn), '0.333333343');
    assert.equal(lit('f32', 0x34000000n), '1.1920929E-7');
    assert.equal(lit('f32', 0x4b000000n), '0x4B000000');
    assert.equal(lit('f32', 0x7f800000n), '0x7F800000');
    assert.equal(lit('bf16', 0x3dcdn), '1.000980e-01');
    assert.equal(lit('bf16', 0x4049n), '3.140630e+00');
    assert.equal(lit('f64', 0x3fd5555555555555n), '0.33333333333333331');
  });
});

describe('corpus: fixtures/programs', () => {
  let entries: CorpusEntry[];
  before(() => {
    entries = loadCorpus(corpusDir);
  });
  it('holds at least 150 valid programs with the tier1.program id prefix', () => {
    assert.ok(entries.length >= 150, `${entries.length} programs`);
    for (const e of entries) {
      assert.equal(e.id, `tier1.program.${e.name}`);
      assert.ok(e.program.includes('func.func public @main'), e.name);
      assert.equal(e.inputs.length, e.replicas);
      assert.equal(e.outputs.length, e.replicas);
    }
  });
  it('covers every core dtype and the required ops', () => {
    const dtypes = new Set(entries.flatMap((e) => e.dtypes));
    for (const d of ['pred', 's8', 's16', 's32', 's64', 'u8', 'u16', 'u32', 'u64', 'f16', 'bf16', 'f32', 'f64']) assert.ok(dtypes.has(d), d);
    const ops = new Set(entries.flatMap((e) => e.ops));
    for (const op of ['constant', 'iota', 'power', 'cbrt', 'popcnt', 'compare', 'bitcast_convert', 'dot_general', 'reduce', 'while', 'case', 'if', 'call',
      'all_reduce', 'all_gather', 'reduce_scatter', 'all_to_all', 'collective_permute', 'replica_id']) assert.ok(ops.has(op), op);
    assert.ok(entries.some((e) => e.replicas === 2) && entries.some((e) => e.replicas === 4));
  });
  it('matches the generator and the oracle exactly (drift check)', () => {
    const generated = generateCorpus();
    assert.deepEqual(generated.map((p) => p.name).sort(), entries.map((e) => e.name));
    for (const p of generated) {
      const { mlir, json } = programFiles(p);
      assert.equal(readFileSync(join(corpusDir, `${p.name}.mlir`), 'utf8'), mlir, `${p.name}.mlir differs: run node dist/scripts/gen-corpus.js`);
      assert.equal(readFileSync(join(corpusDir, `${p.name}.json`), 'utf8'), json, `${p.name}.json differs: run node dist/scripts/gen-corpus.js`);
    }
  });
  it('expected outputs compare equal to themselves under their tolerance', () => {
    for (const e of entries) for (const r of e.outputs) for (const o of r) assert.equal(compareValue(o.spec, o.bytes, o.tolerance), null, e.name);
  });
});

describe('corpus: loader errors', () => {
  function corpusWith(name: string, sidecar: unknown, mlir = 'module @m attributes {mhlo.num_replicas = 1 : i32} {}'): string {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(sidecar));
    writeFileSync(join(dir, `${name}.mlir`), mlir);
    return dir;
  }
  const good = { description: 'd', ops: ['add'], dtypes: ['f32'], inputs: [{ dtype: 'f32', dims: [1], data: [1] }], outputs: [{ dtype: 'f32', dims: [1], data: [2] }] };
  it('names the file and the JSON path', () => {
    const dir = corpusWith('bad', { ...good, inputs: [{ dtype: 'f32', dims: [2], data: [1, 'x'] }] });
    assert.throws(() => loadCorpus(dir), (e: unknown) => e instanceof CorpusError && e.path === '$.inputs[0].data[1]' && e.message.startsWith(join(dir, 'bad.json')));
    const dir2 = corpusWith('bad2', { ...good, dtype: 'f32' });
    assert.throws(() => loadCorpus(dir2), /bad2\.json: \$: /);
    const dir3 = corpusWith('bad3', { ...good, outputs: [{ dtype: 'f33', dims: [1], data: [1] }] });
    assert.throws(() => loadCorpus(dir3), /\$\.outputs\[0\]\.dtype: unknown dtype/);
  });
  it('checks replicas against the program and the per-replica layout', () => {
    assert.throws(() => loadCorpus(corpusWith('r', { ...good, replicas: 2 })), /\$\.inputs: must hold one list of values per replica/);
    const two = { ...good, replicas: 2, inputs: [good.inputs, good.inputs], outputs: [good.outputs, good.outputs] };
    assert.throws(() => loadCorpus(corpusWith('r2', two)), /declares mhlo.num_replicas = 1/);
    const ok = loadCorpus(corpusWith('r3', two, 'module @m attributes {mhlo.num_replicas = 2 : i32} {}'));
    assert.equal(ok[0]!.inputs.length, 2);
    assert.equal(ok[0]!.id, 'tier1.program.r3');
  });
  it('supports an id prefix for external corpora and rejects orphan programs', () => {
    const dir = corpusWith('ext', good);
    assert.equal(loadCorpus(dir, { idPrefix: 'external.program' })[0]!.id, 'external.program.ext');
    copyFileSync(join(dir, 'ext.mlir'), join(dir, 'orphan.mlir'));
    assert.throws(() => loadCorpus(dir), /orphan\.mlir: \$: program has no \.json sidecar/);
  });
});

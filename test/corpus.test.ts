import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dtype } from '../src/abi/dtypes.js';
import { CorpusError, compareOutput, compareValue, decodeElement, encodeElement, loadCorpus, packValue, unpackValue, type CorpusEntry } from '../src/corpus/index.js';
import { generateCorpus, programFiles } from '../src/corpus/gen/index.js';
import { flushSubnormals } from '../src/corpus/gen/program.js';
import { Tensor } from '../src/oracle/tensor.js';
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
    assert.equal(msg, 'output (s32[2,2]): 1 of 4 elements differ: element 3 [1,1]: expected 4, got 5: not equal');
    assert.match(compareValue(spec('s32', [1]), new Uint8Array(3), {})!, /expected 4 bytes, got 3/);
  });
});

describe('corpus: latitude (subnormal flushing, signed zeros, alternatives)', () => {
  const spec = (dt: string, data: (number | string | boolean)[]) => ({ dtype: dt, dims: [data.length], data });
  const sub = 1e-45; // the smallest f32 subnormal
  it('subnormalsMayFlush accepts a zero of either sign for an expected subnormal, and nothing else', () => {
    const exp = spec('f32', [sub, -sub, 1]);
    const flushed = packValue(spec('f32', [0, '-0', 1]));
    assert.match(compareValue(exp, flushed, {})!, /2 of 3 elements differ/);
    assert.equal(compareValue(exp, flushed, { subnormalsMayFlush: true }), null);
    assert.equal(compareValue(exp, packValue(spec('f32', ['-0', 0, 1])), { subnormalsMayFlush: true }), null);
    // a normal number may not become zero, a zero may not become a subnormal, and a subnormal may not change value
    assert.match(compareValue(spec('f32', [1.2e-38]), packValue(spec('f32', [0])), { subnormalsMayFlush: true })!, /ulp apart/);
    assert.match(compareValue(spec('f32', [0]), packValue(spec('f32', [sub])), { subnormalsMayFlush: true })!, /ulp apart/);
    assert.match(compareValue(spec('f32', [sub]), packValue(spec('f32', [3e-45])), { subnormalsMayFlush: true })!, /1 ulp apart/);
    // bf16 and f64 subnormals alike
    assert.equal(compareValue(spec('bf16', [9.2e-41]), packValue(spec('bf16', [0])), { subnormalsMayFlush: true }), null);
    assert.equal(compareValue(spec('f64', [5e-324]), packValue(spec('f64', ['-0'])), { subnormalsMayFlush: true }), null);
  });
  it('signedZeros: false accepts −0 for +0 (a zero dot product) but no other value', () => {
    const exp = spec('f32', [0, 6]);
    assert.match(compareValue(exp, packValue(spec('f32', ['-0', 6])), {})!, /sign of zero differs/);
    assert.equal(compareValue(exp, packValue(spec('f32', ['-0', 6])), { signedZeros: false }), null);
    assert.match(compareValue(exp, packValue(spec('f32', [sub, 6])), { signedZeros: false })!, /ulp apart/);
  });
  it('an output matches its expected value or any listed alternative, and the message names them all', () => {
    const want = { spec: spec('f32', [1, 0, 1]), tolerance: { subnormalsMayFlush: true }, alternatives: [{ reason: 'inputs flushed', data: [1, 0, 0] }] };
    assert.equal(compareOutput(want, packValue(spec('f32', [1, 0, 1]))), null);
    assert.equal(compareOutput(want, packValue(spec('f32', [1, 0, 0]))), null);
    const msg = compareOutput(want, packValue(spec('f32', [2, 0, 1])), 'output 0')!;
    assert.match(msg, /^output 0 \(f32\[3\]\): 1 of 3 elements differ \(tolerance [^)]*\): element 0 \[0\]: expected 1.*; nor does it match the alternative accepted because inputs flushed: 2 of 3 elements differ/);
    // a mixture of the expected value and an alternative is not accepted
    assert.notEqual(compareOutput({ ...want, alternatives: [{ reason: 'r', data: [2, 2, 0] }] }, packValue(spec('f32', [2, 0, 1]))), null);
    // integers: the u64 power alternative
    const pow = { spec: spec('u64', ['1843124298495784449']), tolerance: {}, alternatives: [{ reason: 'XLA', data: ['1'] }] };
    assert.equal(compareOutput(pow, packValue(spec('u64', ['1']))), null);
    assert.equal(compareOutput(pow, packValue(spec('u64', ['1843124298495784449']))), null);
    assert.match(compareOutput(pow, packValue(spec('u64', ['0'])))!, /nor does it match the alternative accepted because XLA/);
  });
  it('implementationDefined elements accept any value; every other element is still compared', () => {
    const want = { spec: spec('s32', [3, -1, 7]), tolerance: {}, alternatives: [], implementationDefined: [{ reason: 'x / 0', elements: [1] }] };
    assert.equal(compareOutput(want, packValue(spec('s32', [3, 0, 7]))), null);
    assert.equal(compareOutput(want, packValue(spec('s32', [3, 2147483647, 7]))), null);
    assert.match(compareOutput(want, packValue(spec('s32', [3, 0, 8])))!, /1 of 3 elements differ: element 2 \[2\]: expected 7, got 8/);
    // alternatives are compared with the same open elements
    const alt = { ...want, alternatives: [{ reason: 'r', data: [4, 5, 7] }] };
    assert.equal(compareOutput(alt, packValue(spec('s32', [4, 123, 7]))), null);
  });
  it('the generator opens exactly the elements the spec leaves implementation-defined', () => {
    const byName = new Map(generateCorpus().map((p) => [p.name, p.sidecar]));
    const open = (n: string) => (byName.get(n)!.outputs as { implementationDefined?: { elements: number[] }[] }[])[0]!.implementationDefined?.flatMap((u) => u.elements) ?? [];
    // divide/remainder: x / 0 at 4, 7, 10 and INT_MIN / -1 at 5 (signed only); INT_MIN / 1 at 6 stays checked
    assert.deepEqual(open('divide_s32'), [4, 5, 7, 10]);
    assert.deepEqual(open('remainder_u8'), [4, 7, 10]);
    // shifts by >= the width (w, w + 1, −1 as unsigned, max)
    assert.deepEqual(open('shift_left_s8'), [3, 4, 9, 10]);
    assert.deepEqual(open('shift_right_arithmetic_u16'), [3, 4, 9, 10]);
    assert.deepEqual(open('shift_right_logical_s32'), [], 'JAX seeds its PRNG with shift_right_logical(seed, 32) = 0');
    // power: negative exponents of bases other than ±1 (2^-1); 0^0, (−1)^-3, 1^-5 stay checked
    assert.deepEqual(open('power_s32'), [7]);
    assert.deepEqual(open('power_u64'), []);
    // float → int: NaN, ±inf and values out of range; in-range values (−128.5 → −128, a subnormal → 0) stay checked
    const f2s8 = open('convert_f32_to_s8');
    for (const i of [8, 9, 10, 19, 21, 22, 23]) assert.ok(f2s8.includes(i), `convert_f32_to_s8 element ${i}`);
    for (const i of [0, 1, 2, 3, 4, 5, 6, 7, 20]) assert.ok(!f2s8.includes(i), `convert_f32_to_s8 element ${i}`);
    for (const n of ['add_s32', 'multiply_u32', 'convert_s32_to_u8', 'convert_f32_to_bf16', 'abs_s8', 'negate_s64']) assert.deepEqual(open(n), [], `${n}: wrap-around and rounding stay demanded`);
  });
  it('flushSubnormals flushes f32/f64/bf16 subnormals to a zero of their sign and leaves f16 alone', () => {
    const f = flushSubnormals(Tensor.of('f32', [4], [sub, -sub, 1, 1.2e-38]));
    assert.deepEqual(f.values().map((x) => Object.is(x, -0) ? '-0' : x), [0, '-0', 1, Math.fround(1.2e-38)]);
    const h = Tensor.of('f16', [1], [5.9604645e-8]);
    assert.equal(flushSubnormals(h), h);
  });
  it('the generator marks exactly the programs where XLA\'s answers differ from the spec\'s', () => {
    const byName = new Map(generateCorpus().map((p) => [p.name, p.sidecar]));
    const outs = (n: string) => byName.get(n)!.outputs as { tolerance?: { subnormalsMayFlush?: boolean; signedZeros?: boolean }; alternatives?: { data: unknown[] }[] }[];
    for (const n of ['add_f32', 'subtract_bf16', 'maximum_f64', 'ceil_f32', 'floor_bf16', 'sign_f64', 'convert_bf16_to_f32']) {
      assert.ok(outs(n).some((o) => o.tolerance?.subnormalsMayFlush), `${n}: subnormalsMayFlush`);
    }
    for (const n of ['ceil_f32', 'floor_f64', 'sign_bf16', 'convert_bf16_to_f64', 'convert_f32_to_pred', 'convert_f64_to_pred']) assert.ok(outs(n)[0]!.alternatives?.length, `${n}: flushed-input alternative`);
    assert.ok(!outs('convert_f64_to_pred')[0]!.tolerance?.subnormalsMayFlush, 'a pred output has no subnormals');
    assert.ok(outs('compare_float_f32').some((o) => o.alternatives?.length), 'compare FLOAT: flushed-input alternative');
    assert.ok(!outs('compare_totalorder_f32').some((o) => o.alternatives || o.tolerance?.subnormalsMayFlush), 'TOTALORDER compares bit patterns: no flush');
    for (const n of ['add_f16', 'ceil_f16', 'bitcast_convert_f32_to_s32', 'bitcast_convert_u32_to_f32', 'constant_f32', 'abs_f16']) {
      assert.ok(!outs(n).some((o) => o.alternatives || o.tolerance?.subnormalsMayFlush), `${n}: no flush latitude`);
    }
    assert.deepEqual(outs('power_u64')[0]!.alternatives!.map((a) => a.data.at(-1)), ['1']);
    assert.ok(!outs('power_s64')[0]!.alternatives, 'power_s64: every exponent below 64');
    assert.deepEqual(outs('add_pred')[0]!.alternatives!.map((a) => a.data), [[false, true, true, false]]);
    assert.equal((byName.get('dot_general_outer_f32')!.tolerance as { signedZeros?: boolean }).signedZeros, false);
    assert.equal(byName.get('dot_general_outer_s32')!.tolerance && (byName.get('dot_general_outer_s32')!.tolerance as { signedZeros?: boolean }).signedZeros, undefined);
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
      assert.equal(e.inputs.length, e.replicas * e.partitions);
      assert.equal(e.outputs.length, e.replicas * e.partitions);
    }
  });
  it('covers every core dtype and the required ops', () => {
    const dtypes = new Set(entries.flatMap((e) => e.dtypes));
    for (const d of ['pred', 's8', 's16', 's32', 's64', 'u8', 'u16', 'u32', 'u64', 'f16', 'bf16', 'f32', 'f64']) assert.ok(dtypes.has(d), d);
    const ops = new Set(entries.flatMap((e) => e.ops));
    for (const op of ['constant', 'iota', 'power', 'cbrt', 'popcnt', 'compare', 'bitcast_convert', 'dot_general', 'reduce', 'while', 'case', 'if', 'call',
      'all_reduce', 'all_gather', 'reduce_scatter', 'all_to_all', 'collective_permute', 'replica_id', 'partition_id']) assert.ok(ops.has(op), op);
    assert.ok(entries.some((e) => e.replicas === 2) && entries.some((e) => e.replicas === 4));
    assert.ok(entries.some((e) => e.partitions === 4) && entries.some((e) => e.replicas === 2 && e.partitions === 2));
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
    for (const e of entries) for (const r of e.outputs) for (const o of r) for (const a of o.alternatives) assert.equal(compareOutput(o, packValue({ ...o.spec, data: a.data })), null, `${e.name}: alternative`);
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
  it('validates alternatives: outputs only, with the value\'s element count and dtype', () => {
    const alt = (data: unknown[]) => ({ ...good, outputs: [{ dtype: 'f32', dims: [1], data: [2], alternatives: [{ reason: 'r', data }] }] });
    assert.equal(loadCorpus(corpusWith('a1', alt([3])))[0]!.outputs[0]![0]!.alternatives[0]!.reason, 'r');
    assert.throws(() => loadCorpus(corpusWith('a2', alt([3, 4]))), /\$\.outputs\[0\]\.alternatives\[0\]\.data: has 2 elements, dims \[1\] need 1/);
    assert.throws(() => loadCorpus(corpusWith('a3', alt(['x']))), /\$\.outputs\[0\]\.alternatives\[0\]\.data\[0\]: f32 element must be a number/);
    assert.throws(() => loadCorpus(corpusWith('a4', { ...good, inputs: [{ ...good.inputs[0], alternatives: [{ reason: 'r', data: [1] }] }] })), /\$\.inputs\[0\]\.alternatives: only outputs may list alternatives/);
    assert.throws(() => loadCorpus(corpusWith('a5', { ...good, tolerance: { subnormalsMayFlush: 'yes' } })), /\$\.tolerance\.subnormalsMayFlush/);
    const open = (elements: number[]) => ({ ...good, outputs: [{ dtype: 'f32', dims: [1], data: [2], implementationDefined: [{ reason: 'r', elements }] }] });
    assert.deepEqual(loadCorpus(corpusWith('o1', open([0])))[0]!.outputs[0]![0]!.implementationDefined, [{ reason: 'r', elements: [0] }]);
    assert.throws(() => loadCorpus(corpusWith('o2', open([1]))), /\$\.outputs\[0\]\.implementationDefined\[0\]\.elements\[0\]: element 1 is out of range/);
    assert.throws(() => loadCorpus(corpusWith('o3', { ...good, inputs: [{ ...good.inputs[0], implementationDefined: [{ reason: 'r', elements: [0] }] }] })), /\$\.inputs\[0\]\.implementationDefined: only outputs/);
  });
  it('checks replicas against the program and the per-replica layout', () => {
    assert.throws(() => loadCorpus(corpusWith('r', { ...good, replicas: 2 })), /\$\.inputs: must hold one list of values per program instance/);
    const two = { ...good, replicas: 2, inputs: [good.inputs, good.inputs], outputs: [good.outputs, good.outputs] };
    assert.throws(() => loadCorpus(corpusWith('r2', two)), /declares mhlo.num_replicas = 1/);
    const ok = loadCorpus(corpusWith('r3', two, 'module @m attributes {mhlo.num_replicas = 2 : i32} {}'));
    assert.equal(ok[0]!.inputs.length, 2);
    assert.equal(ok[0]!.id, 'tier1.program.r3');
  });
  it('checks partitions against the program and one list per replica × partition', () => {
    const four = { ...good, replicas: 2, partitions: 2, inputs: [1, 2, 3, 4].map(() => good.inputs), outputs: [1, 2, 3, 4].map(() => good.outputs) };
    assert.throws(() => loadCorpus(corpusWith('p1', { ...four, inputs: four.inputs.slice(0, 2) })), /\$\.inputs: must hold one list of values per program instance \(replicas × partitions = 4\)/);
    assert.throws(() => loadCorpus(corpusWith('p2', four, 'module @m attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {}')), /\$\.partitions: is 2 but .* declares mhlo.num_partitions = 1/);
    const ok = loadCorpus(corpusWith('p3', four, 'module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {}'));
    assert.equal(ok[0]!.inputs.length, 4);
    assert.equal(ok[0]!.partitions, 2);
  });
  it('supports an id prefix for external corpora and rejects orphan programs', () => {
    const dir = corpusWith('ext', good);
    assert.equal(loadCorpus(dir, { idPrefix: 'external.program' })[0]!.id, 'external.program.ext');
    copyFileSync(join(dir, 'ext.mlir'), join(dir, 'orphan.mlir'));
    assert.throws(() => loadCorpus(dir), /orphan\.mlir: \$: program has no \.json sidecar/);
  });
});

// What the corpus reports: per-output tolerances, every mismatching element (count and the first few), every
// element type of the dtype table in sidecars, the largest observed error of a matching float output, the
// capability cells a program decides, and — through the CLI with a temporary external corpus — element type, dims
// and mismatch findings and the observed error in the results file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostElementBytes } from '../src/abi/dtypes.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';
import { capabilityCells, compareValue, CORPUS_DTYPES, CorpusError, inspectOutput, loadCorpus, numericFloat, packValue, unpackValue } from '../src/corpus/index.js';
import { capabilityMatrix } from '../src/runner/summary.js';
import { CLI, ROOT, cli, oneErrorLine } from './runner-helpers.js';

const ONE_REPLICA = 'module @m attributes {mhlo.num_replicas = 1 : i32} {}';

function corpus(files: Record<string, { sidecar: unknown; mlir?: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-report-'));
  for (const [name, f] of Object.entries(files)) {
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(f.sidecar));
    writeFileSync(join(dir, `${name}.mlir`), f.mlir ?? ONE_REPLICA);
  }
  return dir;
}

const f32 = (dims: number[], data: (number | string)[], extra: object = {}) => ({ dtype: 'f32', dims, data, ...extra });
const sidecar = (outputs: unknown[], extra: object = {}) => ({ description: 'd', ops: ['add'], dtypes: ['f32'], inputs: [f32([1], [1])], outputs, ...extra });

describe('corpus report: per-output tolerance', () => {
  it('an output tolerance replaces the sidecar\'s for that output only; inputs may not have one', () => {
    const dir = corpus({ t: { sidecar: sidecar([f32([1], [1]), f32([1], [1], { tolerance: { ulp: 2 } })], { tolerance: { abs: 0.5 } }) } });
    try {
      const [a, b] = loadCorpus(dir)[0]!.outputs[0]!;
      assert.deepEqual(a!.tolerance, { abs: 0.5 });
      assert.deepEqual(b!.tolerance, { ulp: 2 });
      const twoUlpsUp = packValue(f32([1], ['0x3f800002']));
      assert.equal(inspectOutput(b!, twoUlpsUp).mismatch, null);
      assert.match(inspectOutput(b!, packValue(f32([1], ['0x3f800003']))).mismatch!, /1 of 1 elements differ \(tolerance \{"ulp":2\}\): element 0 \[0\]: expected 1 \(0x3f800000\), got 1\.0000004 \(0x3f800003\): 3 ulp apart$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const bad = corpus({ i: { sidecar: { ...sidecar([f32([1], [1])]), inputs: [f32([1], [1], { tolerance: { ulp: 1 } })] } } });
    try {
      assert.throws(() => loadCorpus(bad), /\$\.inputs\[0\]\.tolerance: only outputs may have a tolerance/);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

describe('corpus report: mismatches', () => {
  const expected = f32([3, 5], Array.from({ length: 15 }, (_, i) => i));
  const wrong = packValue(f32([3, 5], Array.from({ length: 15 }, (_, i) => (i % 7 === 3 ? i : i + 0.5))));
  it('counts every mismatching element and lists the first ten with multi-index, expected, got and bits', () => {
    const msg = compareValue(expected, wrong, {}, 'output 0')!;
    assert.match(msg, /^output 0 \(f32\[3,5\]\): 13 of 15 elements differ \(the first 10 listed\): element 0 \[0,0\]: expected 0 \(0x00000000\), got 0\.5 \(0x3f000000\): /);
    assert.equal(msg.match(/element \d+ \[\d,\d\]: expected/g)!.length, 10);
    assert.match(msg, /element 5 \[1,0\]: expected 5 \(0x40a00000\), got 5\.5 \(0x40b00000\): 1048576 ulp apart/);
    assert.doesNotMatch(msg, /element 3 \[0,3\]/); // matches, so not listed
    assert.doesNotMatch(msg, /element 12 \[2,2\]/); // the 11th mismatch
  });
  it('the number listed is a parameter; with all of them listed there is no "first" note', () => {
    const three = compareValue(expected, wrong, {}, 'output 0', new Set(), 3)!;
    assert.equal(three.match(/element \d+ \[/g)!.length, 3);
    assert.match(three, /13 of 15 elements differ \(the first 3 listed\)/);
    const all = compareValue(expected, wrong, {}, 'output 0', new Set(), 20)!;
    assert.equal(all.match(/element \d+ \[/g)!.length, 13);
    assert.match(all, /13 of 15 elements differ: /);
  });
});

describe('corpus report: element types', () => {
  it('accepts every element type of the dtype table, sub-byte types one element per host byte', () => {
    for (const d of CORPUS_DTYPES) {
      const data = d.kind === 'pred' ? [true, false] : d.kind === 'complex' ? [[1, 2], ['-0', 'nan']] : ['0x1', '0x0'];
      const dir = corpus({ [`v_${d.name}`]: { sidecar: { description: 'd', ops: ['add'], dtypes: [d.name], inputs: [], outputs: [{ dtype: d.name, dims: [2], data }] } } });
      try {
        const out = loadCorpus(dir)[0]!.outputs[0]![0]!;
        assert.equal(out.bytes.length, 2 * hostElementBytes(d), d.name);
        assert.deepEqual(unpackValue(d.name, [2], out.bytes).data.map(String), unpackValue(d.name, [2], packValue(unpackValue(d.name, [2], out.bytes))).data.map(String), d.name);
        assert.equal(compareValue(out.spec, out.bytes, {}), null, d.name);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    assert.deepEqual(unpackValue('s4', [4], packValue({ dtype: 's4', dims: [4], data: [1, -2, 7, -8] })).data, [1, -2, 7, -8]);
    assert.deepEqual([...packValue({ dtype: 's4', dims: [4], data: [1, -2, 7, -8] })], [0x01, 0x0e, 0x07, 0x08]);
    assert.deepEqual(packValue({ dtype: 'f8e5m2', dims: [2], data: [1.5, '-inf'] }), Uint8Array.from([0x3e, 0xfc]));
  });
  it('finite-only and NaN-less small floats take numbers in their own encodings; "nan" is an error where the type has none', () => {
    const fn = CORPUS_DTYPES.find((d) => d.name === 'f8e4m3fn')!;
    assert.equal(numericFloat(fn), true);
    assert.deepEqual([...packValue({ dtype: 'f8e4m3fn', dims: [3], data: [1.5, 448, 'nan'] })], [0x3c, 0x7e, 0x7f]);
    assert.deepEqual([...packValue({ dtype: 'f8e4m3fnuz', dims: [1], data: ['nan'] })], [0x80]);
    assert.throws(() => packValue({ dtype: 'f4e2m1fn', dims: [1], data: ['nan'] }), /f4e2m1fn has no NaN/);
    assert.equal(compareValue({ dtype: 'f8e4m3fn', dims: [1], data: ['0x3c'] }, Uint8Array.from([0x3d]), { ulp: 4 }), null);
    assert.match(compareValue({ dtype: 'f8e4m3fn', dims: [1], data: ['0x3c'] }, Uint8Array.from([0x3d]), {})!, /expected 1\.5 \(0x3c\), got 1\.6 \(0x3d\): 1 ulp apart/);
  });
  it('names an unknown element type with the file and JSON path', () => {
    const dir = corpus({ u: { sidecar: sidecar([{ dtype: 'f33', dims: [1], data: [1] }]) } });
    try {
      assert.throws(() => loadCorpus(dir), (e: unknown) => e instanceof CorpusError && e.path === '$.outputs[0].dtype' && /unknown dtype \(one of pred, .*f8e4m3fn/.test(e.message));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('corpus report: observed error', () => {
  it('a float output within its tolerance reports its largest ULP, absolute and relative error', () => {
    const want = { spec: f32([3], [1, 2, 0]), tolerance: { ulp: 4 }, alternatives: [] };
    const r = inspectOutput(want, packValue(f32([3], ['0x3f800003', '0x3fffffff', 0])));
    assert.equal(r.mismatch, null);
    assert.equal(r.observed!.ulp, 3);
    assert.equal(r.observed!.abs, 3 * 2 ** -23);
    assert.equal(r.observed!.rel, 3 * 2 ** -23);
    assert.deepEqual(inspectOutput(want, packValue(want.spec)).observed, { ulp: 0, abs: 0, rel: 0 });
    assert.equal(inspectOutput({ spec: { dtype: 's32', dims: [1], data: [1] }, tolerance: {}, alternatives: [] }, packValue({ dtype: 's32', dims: [1], data: [1] })).observed, undefined);
  });
  it('complex parts count as floats of the part type; flushed subnormals are matched by rule, not measured', () => {
    const c = inspectOutput({ spec: { dtype: 'c64', dims: [1], data: [[1, 4]] }, tolerance: { ulp: 2 }, alternatives: [] }, packValue({ dtype: 'c64', dims: [1], data: [[1, '0x40800002']] }));
    assert.equal(c.observed!.ulp, 2);
    const flushed = inspectOutput({ spec: f32([1], [1e-45]), tolerance: { subnormalsMayFlush: true }, alternatives: [] }, packValue(f32([1], [0])));
    assert.deepEqual(flushed, { mismatch: null, observed: { ulp: 0, abs: 0, rel: 0 } });
  });
});

describe('corpus report: capability cells', () => {
  it('a one-op program decides its (op, dtype) cells either way; a multi-op program only marks support', () => {
    assert.deepEqual(capabilityCells({ ops: ['convert'], dtypes: ['f32', 's32'] }, false), { 'convert/f32': false, 'convert/s32': false });
    assert.deepEqual(capabilityCells({ ops: ['convert'], dtypes: ['f32'] }, true), { 'convert/f32': true });
    assert.deepEqual(capabilityCells({ ops: ['reduce', 'add', 'constant'], dtypes: ['f32'] }, false), {});
    assert.deepEqual(capabilityCells({ ops: ['reduce', 'add'], dtypes: ['f32'] }, true), { 'reduce/f32': true, 'add/f32': true });
  });
  it('in the run\'s matrix a failing probe makes its cell unsupported, a failing multi-op program changes no cell, quality findings stay warn', () => {
    const result = (id: string, capabilities: Record<string, boolean>, source: CaseResult['source'] = 'framework'): CaseResult =>
      ({ id, area: 'tier1.program', tier: 1, status: 'pass', durationMs: 0, source, cite: '', requires: {}, capabilities });
    const m = capabilityMatrix([
      result('reduce_add', capabilityCells({ ops: ['reduce', 'add', 'constant'], dtypes: ['f32'] }, false)),
      result('add_f32', capabilityCells({ ops: ['add'], dtypes: ['f32'] }, true)),
      result('reduce_max', capabilityCells({ ops: ['reduce', 'maximum', 'constant'], dtypes: ['f32'] }, true)),
      result('divide_f32', capabilityCells({ ops: ['divide'], dtypes: ['f32'] }, false)),
      result('q', { 'sqrt/f32': false }, 'quality'),
    ]);
    assert.deepEqual(m, { 'add/f32': true, 'constant/f32': true, 'divide/f32': false, 'maximum/f32': true, 'reduce/f32': true, 'sqrt/f32': 'warn' });
  });
});

describe('corpus report: an external corpus through the CLI', function () {
  this.timeout(120_000);
  const PLUGIN = join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
  const add = (t: string, r = t) => `module @jit_add attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: ${t}, %arg1: ${t}) -> ${r} {
    %0 = stablehlo.add %arg0, %arg1 : ${t}
    return %0 : ${t}
  }
}
`;
  const ins = [f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([2, 3], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5])];
  const sums = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5];

  it('lists every mismatch and records the observed error of a passing output', function () {
    if (!existsSync(CLI) || !existsSync(PLUGIN)) this.skip();
    const dir = corpus({
      wrong: { sidecar: { description: 'wrong expected values', ops: ['add'], dtypes: ['f32'], inputs: ins, outputs: [f32([2, 3], [1.5, 9, 3.5, 9, 9, 6.5])] }, mlir: add('tensor<2x3xf32>') },
      near: { sidecar: { description: 'within tolerance', ops: ['add'], dtypes: ['f32'], inputs: ins, outputs: [f32([2, 3], sums.map((x, i) => (i === 4 ? '0x40b00002' : x)), { tolerance: { ulp: 4 } })] }, mlir: add('tensor<2x3xf32>') },
    });
    try {
      const json = join(dir, 'results', 'r.json'); // not in the corpus's top level: the next run would read it as a sidecar
      const r = cli(['run', '--plugin', 'reference', '--programs', dir, '--filter', 'external.**', '--json', json]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const results = (JSON.parse(readFileSync(json, 'utf8')) as ResultsFile).results;
      const by = (name: string) => results.find((x) => x.id === `external.program.run.${name}`)!;
      assert.equal(by('wrong').status, 'fail');
      assert.match(by('wrong').message!, /output 0 \(f32\[2,3\]\): 3 of 6 elements differ: element 1 \[0,1\]: expected 9 \(0x41100000\), got 2\.5 \(0x40200000\): .*; element 3 \[1,0\]: .*; element 4 \[1,1\]: expected 9/);
      assert.equal(by('near').status, 'pass', by('near').message);
      assert.deepEqual(by('near').details, { observedError: [{ output: 'output 0', dtype: 'f32', ulp: 2, abs: 2 * 2 ** -21, rel: 2 ** -20 / (5.5 + 2 ** -20), bound: { ulp: 4 } }] });
      assert.equal(by('wrong').details, undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A plugin returning the wrong element type or dims is caught by the fault matrix (wrong_element_type, wrong_dims);
  // a sidecar expecting another type than its program returns is the sidecar's mistake, refused before the run.
  it('a sidecar whose outputs disagree with its program\'s signature stops the run before it starts: exit 2, one line', function () {
    if (!existsSync(CLI)) this.skip();
    const dir = corpus({ shape: { sidecar: { description: 'wrong element type and dims', ops: ['add'], dtypes: ['f32', 's32'], inputs: ins, outputs: [{ dtype: 's32', dims: [3, 2], data: [1, 2, 3, 4, 5, 6] }] }, mlir: add('tensor<2x3xf32>') } });
    try {
      oneErrorLine(cli(['run', '--plugin', 'reference', '--programs', dir, '--filter', 'external.**']), /shape\.json: \$\.outputs\[0\]: is s32\[3,2\] \(tensor<3x2xi32>\) but @main in shape\.mlir returns tensor<2x3xf32> as result 0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sidecar naming an unknown element type stops the run before it starts: exit 2, one line', function () {
    if (!existsSync(CLI)) this.skip();
    const dir = corpus({ bad: { sidecar: { ...sidecar([f32([1], [1])]), dtypes: ['f8e4m3fnx'] }, mlir: add('tensor<1xf32>') } });
    try {
      oneErrorLine(cli(['run', '--plugin', 'reference', '--programs', dir, '--filter', 'external.**']), /bad\.json: \$\.dtypes\[0\]: unknown dtype/);
      writeFileSync(join(dir, 'bad.json'), '{ "description": ');
      oneErrorLine(cli(['run', '--plugin', 'reference', '--programs', dir, '--filter', 'external.**']), /bad\.json: \$: not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// One rule for a compiler's refusal (suites/_lib/declined.ts): a program built only of non-core element types that the
// compiler refuses, with any error, is `unsupported` with the compiler's message in every area that compiles it; the
// same refusal of a core type is a failure; a program mixing the two is judged by its core twin (s4 → s8, f8 → f16):
// a twin that compiles makes the refusal the non-core type's, a twin refused too makes it a core path's (a failure).
// The reference plugin's PJRT_REFERENCE_DECLINED_TYPES makes its compiler refuse programs of chosen types as XLA:GPU
// refuses f6 (UNKNOWN "failed to legalize operation 'arith.mulf'"). Around it: an execute that refuses a type the
// compiler and the upload accepted is a failure; PJRT_Compile's NOT_FOUND is no missing compiler when the probe
// program compiles (suites/_lib/aot.ts).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

interface Rec { id: string; status: string; message?: string }

function run(env: Record<string, string>, filters: string[], plugin = 'reference'): Rec[] {
  const json = path.join(tmpDir(), 'r.json');
  const r = cli(['run', '-p', plugin, '--json', json, ...filters.flatMap((f) => ['-f', f])], { env });
  assert.ok(existsSync(json), r.stdout + r.stderr);
  return (JSON.parse(readFileSync(json, 'utf8')) as { results: Rec[] }).results;
}
const declining = (types: string) => ({ PJRT_REFERENCE_DECLINED_TYPES: types });
const statuses = (recs: Rec[]) => Object.fromEntries(recs.map((r) => [r.id, r.status]));
const messageOf = (recs: Rec[], id: string) => recs.find((r) => r.id === id)?.message ?? '';

describe('a compiler that declines a type: unsupported for optional types, a failure for core ones', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so'))) this.skip();
  });

  it('f6e2m3fn and f8e4m3fn refused: the exhaustive, corpus and AOT cases of those types are unsupported, the others pass', function () {
    const recs = run(declining('f6e2m3fn,f8e4m3fn'), ['tier2.exhaustive.negate.*', 'tier2.exhaustive.add.*', 'tier1.program.run.abs_f8e4m3fn', 'tier1.aot_compile.program.abs_f8e4m3fn', 'tier1.program.run.abs_f32']);
    const ofType = (r: Rec) => /f6e2m3fn|f8e4m3fn$/.test(r.id);
    assert.ok(recs.filter(ofType).length >= 6, JSON.stringify(recs.map((r) => r.id)));
    for (const r of recs) {
      if (ofType(r)) {
        assert.equal(r.status, 'unsupported', `${r.id}: ${r.status} ${r.message ?? ''}`);
        assert.match(r.message ?? '', /the compiler declines a program of f(6e2m3fn|8e4m3fn) \(not a core element type\): PJRT_(Client_)?Compile returned UNKNOWN \("[^"]*failed to legalize operation/);
      } else assert.equal(r.status, 'pass', `${r.id}: ${r.status} ${r.message ?? ''}`);
    }
  });

  it('f32 refused: the same refusal of a core type is a failure, on a client and ahead of time', function () {
    const recs = run(declining('f32'), ['tier1.program.run.add_f32', 'tier1.aot_compile.program.add_f32']);
    assert.deepEqual(recs.map((r) => [r.id, r.status]).sort(), [['tier1.aot_compile.program.add_f32', 'fail'], ['tier1.program.run.add_f32', 'fail']]);
  });

  const MIXED = ['tier1.program.run.convert_bf16_to_f8e4m3', 'tier1.aot_compile.program.convert_bf16_to_f8e4m3'];

  it('a mixed program refused for its non-core type (f8e4m3) is unsupported: its core twin (f8e4m3 → f16) compiles', function () {
    const recs = run(declining('f8e4m3'), MIXED);
    assert.deepEqual(statuses(recs), Object.fromEntries(MIXED.map((id) => [id, 'unsupported'])), JSON.stringify(recs));
    for (const id of MIXED) assert.match(messageOf(recs, id), /declines a program of f8e4m3 \(not a core element type\); its core twin \(f8e4m3 → f16\) compiles: /);
  });

  it('a mixed program refused for its core type (bf16) fails: its core twin is refused too', function () {
    const recs = run(declining('bf16'), MIXED);
    assert.deepEqual(statuses(recs), Object.fromEntries(MIXED.map((id) => [id, 'fail'])), JSON.stringify(recs));
    for (const id of MIXED) assert.match(messageOf(recs, id), /core twin \(f8e4m3 → f16\) that compiles; here the twin is refused too/);
  });

  it('a mixed program whose op needs the non-core type (fft on c64) has no twin: its refusal is the type\'s', function () {
    const id = 'tier1.program.run.fft_1d_8_f32';
    const recs = run(declining('c64'), [id]);
    assert.equal(recs[0]?.status, 'unsupported', JSON.stringify(recs));
    assert.match(messageOf(recs, id), /declines a program of c64 \(not a core element type\); stablehlo\.fft has no form without a complex type: /);
  });
});

describe('what is no declined type: a run-time refusal, a NOT_FOUND from a compiler that exists', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so'))) this.skip();
  });

  it('an execute that refuses a type the compiler and the upload accepted fails, core type or not', function () {
    for (const t of ['f16', 'f8e4m3fn']) {
      const recs = run({ PJRT_REFERENCE_FAULTS: `execute_refuses_dtype=${t}` }, [`tier2.exhaustive.negate.${t}`]);
      assert.equal(recs[0]?.status, 'fail', JSON.stringify(recs));
      assert.match(recs[0]?.message ?? '', /PJRT_LoadedExecutable_Execute: UNIMPLEMENTED/);
    }
  });

  it('PJRT_Compile NOT_FOUND for a core program fails when the probe program compiles; a non-core one stays unsupported', function () {
    const recs = run({ PJRT_REFERENCE_FAULTS: 'aot_compile_not_found=multiply' }, ['tier1.aot_compile.program.multiply_f32', 'tier1.aot_compile.program.multiply_f8e4m3fn', 'tier1.aot_compile.program.add_f32']);
    assert.deepEqual(statuses(recs), {
      'tier1.aot_compile.program.multiply_f32': 'fail',
      'tier1.aot_compile.program.multiply_f8e4m3fn': 'unsupported',
      'tier1.aot_compile.program.add_f32': 'pass',
    }, JSON.stringify(recs));
    assert.match(messageOf(recs, 'tier1.aot_compile.program.multiply_f32'), /the probe program \(f32\[\] \+ 1\) compiles for the same target: the platform has a compiler/);
  });

  it('a platform without a compiler (XLA\'s CPU plugin: NOT_FOUND to every PJRT_Compile) stays unsupported, with the probe as evidence', function () {
    const recs = run({}, ['tier2.aot.compile_load_execute'], 'reference-xla');
    assert.equal(recs[0]?.status, 'unsupported', JSON.stringify(recs));
    assert.match(recs[0]?.message ?? '', /returned NOT_FOUND \("No compiler factory[^"]*"\), and NOT_FOUND to the probe program \(f32\[\] \+ 1\) too: the platform has no compiler/);
  });
});

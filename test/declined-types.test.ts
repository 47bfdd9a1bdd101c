// One rule for a compiler's refusal (suites/_lib/declined.ts): a program built around a non-core element type that
// the compiler refuses, with any error, is `unsupported` with the compiler's message in every area that compiles it;
// the same refusal of a core type is a failure. The reference plugin's PJRT_REFERENCE_DECLINED_TYPES makes its compiler
// refuse programs of chosen types as XLA:GPU refuses f6 (UNKNOWN "failed to legalize operation 'arith.mulf'").
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

interface Rec { id: string; status: string; message?: string }

function run(declined: string, filters: string[]): Rec[] {
  const json = path.join(tmpDir(), 'r.json');
  const r = cli(['run', '-p', 'reference', '--json', json, ...filters.flatMap((f) => ['-f', f])], { env: { PJRT_REFERENCE_DECLINED_TYPES: declined } });
  assert.ok(existsSync(json), r.stdout + r.stderr);
  return (JSON.parse(readFileSync(json, 'utf8')) as { results: Rec[] }).results;
}

describe('a compiler that declines a type: unsupported for optional types, a failure for core ones', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so'))) this.skip();
  });

  it('f6e2m3fn and f8e4m3fn refused: the exhaustive, corpus and AOT cases of those types are unsupported, the others pass', function () {
    const recs = run('f6e2m3fn,f8e4m3fn', ['tier2.exhaustive.negate.*', 'tier2.exhaustive.add.*', 'tier1.program.run.abs_f8e4m3fn', 'tier1.aot_compile.program.abs_f8e4m3fn', 'tier1.program.run.abs_f32']);
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
    const recs = run('f32', ['tier1.program.run.add_f32', 'tier1.aot_compile.program.add_f32']);
    assert.deepEqual(recs.map((r) => [r.id, r.status]).sort(), [['tier1.aot_compile.program.add_f32', 'fail'], ['tier1.program.run.add_f32', 'fail']]);
  });
});

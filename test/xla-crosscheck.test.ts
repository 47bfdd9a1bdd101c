// XLA as the corpus's referee (docs/xla-referee.md): the built-in corpus's expected outputs must accept what XLA's
// own CPU compiler (jaxlib) answers, under the corpus's comparison rules, and XLA must reject the invalid programs.
// Needs a python with jax: $PJRT_CTS_PYTHON, else .cache/xla-venv/bin/python (which .ci/run creates); without one
// these cases are skipped with the install recipe. Here a sample (every 5th program); PJRT_CTS_XLA_FULL=1 or
// `.ci/run` (`pjrt-cts xla-check`) runs the whole corpus.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCorpus } from '../src/corpus/index.js';
import { crossCheck, findPython, INSTALL_HINT, jaxProblem, renderCrossCheck, runXla, writeInvalidPrograms } from '../src/xla/crosscheck.js';
import { CLI, ROOT, cli, tmpDir } from './runner-helpers.js';

const PROGRAMS = path.join(ROOT, 'fixtures', 'programs');

/** The python to use, or null after printing why these cases are skipped. An explicit PJRT_CTS_PYTHON must work. */
function python(): string | null {
  const p = findPython();
  if (!p) {
    console.log(`      (skipped: no python with jax; ${INSTALL_HINT})`);
    return null;
  }
  const why = jaxProblem(p.python);
  if (why && p.source === 'PJRT_CTS_PYTHON') throw new Error(`PJRT_CTS_PYTHON: ${why}`);
  if (why) {
    console.log(`      (skipped: ${why}; ${INSTALL_HINT})`);
    return null;
  }
  return p.python;
}

function copyCorpus(names: string[]): string {
  const dir = tmpDir();
  for (const n of names) for (const ext of ['mlir', 'json']) copyFileSync(path.join(PROGRAMS, `${n}.${ext}`), path.join(dir, `${n}.${ext}`));
  return dir;
}

const edit = (file: string, f: (s: Record<string, unknown>) => void): void => {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  f(s);
  writeFileSync(file, JSON.stringify(s, null, 2));
};

describe('XLA cross-check (jaxlib CPU compiler as referee)', function () {
  this.timeout(300_000);
  let py: string | null = null;
  before(function () {
    py = python();
    if (!py) this.skip();
  });

  it('XLA agrees with every sampled corpus program and rejects every invalid program', function () {
    const entries = loadCorpus(PROGRAMS);
    const full = process.env['PJRT_CTS_XLA_FULL'] === '1';
    const only = full ? undefined : entries.filter((_, i) => i % 5 === 0).map((e) => e.name);
    // every replicated or partitioned program too: the several-device path is the one most likely to break
    const replicated = entries.filter((e) => e.replicas * e.partitions > 1).map((e) => e.name);
    const names = only ? [...new Set([...only, ...replicated])] : undefined;
    const inv = writeInvalidPrograms();
    try {
      const report = runXla({ python: py!, programs: PROGRAMS, invalid: [inv.dir], ...(names ? { only: names } : {}) });
      const res = crossCheck(entries, report);
      const text = renderCrossCheck(res, report);
      assert.equal(res.programs, names?.length ?? entries.length, text);
      assert.equal(res.invalid, inv.names.length, text);
      assert.equal(res.invalidRejected, res.invalid, text);
      assert.deepEqual(res.disagreements, [], text);
      assert.equal(res.agree, res.programs);
    } finally {
      inv.cleanup();
    }
  });

  it('XLA gives the sidecars\' results from the committed portable artifacts too (a sample: docs/artifacts.md)', function () {
    const entries = loadCorpus(PROGRAMS);
    const names = entries.filter((e, i) => i % 10 === 0 || (e.replicas > 1 && i % 3 === 0)).map((e) => e.name);
    const report = runXla({ python: py!, programs: PROGRAMS, only: names, form: 'artifact' });
    const res = crossCheck(entries, report);
    const text = renderCrossCheck(res, report);
    assert.equal(res.programs, names.length, text);
    assert.deepEqual(res.disagreements, [], text);
    assert.equal(res.agree, res.programs, text);
  });

  it('reports a disagreement: a wrong expected value, and answers of XLA\'s that the corpus has no latitude for', function () {
    const dir = copyCorpus(['add_s32', 'all_reduce_add_f32_r2']);
    try {
      edit(path.join(dir, 'add_s32.json'), (s) => {
        const o = (s['outputs'] as { data: unknown[] }[])[0]!;
        o.data[1] = Number(o.data[1]) + 1;
      });
      edit(path.join(dir, 'all_reduce_add_f32_r2.json'), (s) => {
        const o = (s['outputs'] as { data: unknown[] }[][])[1]![0]!;
        o.data[0] = 12345;
      });
      // XLA's CPU backend flushes subnormals and reads 6 bits of a u64 exponent: without subnormalsMayFlush or an
      // alternative, the spec's answers disagree with XLA's
      const binary = (name: string, op: string, t: string, dtype: string, a: unknown[], b: unknown[], want: unknown[]) => {
        const ty = `tensor<${a.length}x${t}>`;
        writeFileSync(path.join(dir, `${name}.mlir`), `module @jit_${name} attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: ${ty}, %arg1: ${ty}) -> ${ty} {
    %0 = stablehlo.${op} %arg0, %arg1 : ${ty}
    return %0 : ${ty}
  }
}
`);
        const v = (data: unknown[]) => ({ dtype, dims: [a.length], data });
        writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ description: name, ops: [op], dtypes: [dtype], inputs: [v(a), v(b)], outputs: [v(want)] }));
      };
      binary('flush_f32', 'add', 'f32', 'f32', [1, '0x00000001'], [2, '0x00000001'], [3, '0x00000002']);
      binary('pow_u64', 'power', 'ui64', 'u64', [3, 3], [2, 64], [9, '1843124298495784449']);
      const report = runXla({ python: py!, programs: dir });
      const res = crossCheck(loadCorpus(dir), report);
      assert.deepEqual(res.disagreeing.sort(), ['add_s32', 'all_reduce_add_f32_r2', 'flush_f32', 'pow_u64'], renderCrossCheck(res, report));
      const msg = (n: string) => res.disagreements.filter((d) => d.program === n).map((d) => d.message).join('\n');
      assert.match(msg('add_s32'), /1 of \d+ elements differ: element 1 \[1\]/);
      assert.match(msg('all_reduce_add_f32_r2'), /output 0 of replica 1 .*element 0/);
      assert.match(msg('flush_f32'), /element 1 \[1\]: expected 3e-45 \(0x00000002\), got 0 \(0x00000000\)/);
      assert.match(msg('pow_u64'), /expected "1843124298495784449", got "1"/);
      // the CLI: counts, and exit 1
      const r = cli(['xla-check', '--programs', dir, '--no-invalid', '--python', py!]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /4 programs: 0 agree .* 4 disagree/);
      assert.match(r.stdout, /unexplained disagreement\(s\) in 4 program\(s\)/);
      // with the corpus's latitude written in, the same answers agree
      edit(path.join(dir, 'flush_f32.json'), (s) => void (s['tolerance'] = { subnormalsMayFlush: true }));
      edit(path.join(dir, 'pow_u64.json'), (s) => {
        (s['outputs'] as Record<string, unknown>[])[0]!['alternatives'] = [{ reason: 'XLA reads 6 bits of the exponent', data: [9, 1] }];
      });
      const again = crossCheck(loadCorpus(dir), runXla({ python: py!, programs: dir, only: ['flush_f32', 'pow_u64'] }));
      assert.deepEqual(again.disagreements, []);
      assert.equal(again.viaTolerance, 1);
      assert.deepEqual(Object.values(again.viaAlternative), [1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the script decodes sidecar values to exactly the corpus loader\'s bytes (rounding, bit patterns, 64-bit, edge values)', function () {
    const dir = tmpDir();
    try {
      const cases: [string, string, unknown[]][] = [
        // 1 + 2^-8 + 2^-30: through f32 first it would round to the tie 1 + 2^-8 and then to 1 (double rounding)
        ['bf16', 'bf16', [1.003906250931322574615478515625, -1.003906250931322574615478515625, 3.3961514e38, 3.4e38, 1e-45, -1e-45, '-0', 'nan', '0x7fc1', '0xff81', 'inf']],
        ['f16', 'f16', [1.00048828125000001, 65519.99, 65520, 6e-8, 2.9e-8, 3e-8, '-0', '0x7e01', -65504]],
        ['f32', 'f32', [0.1, 3.4028235677973366e38, 3.4028235677973362e38, 1e-46, 7.006492321624085e-46, 7.006492321624086e-46, '0x7fc00001', '-inf', '1e-45']],
        ['f64', 'f64', [0.1, 5e-324, '0x7ff0000000000001', '-0', 1.7976931348623157e308]],
        ['u64', 'ui64', ['18446744073709551615', 0, '0x8000000000000000', 9007199254740991]],
        ['s64', 'i64', ['-9223372036854775808', '9223372036854775807', -1, '0xffffffffffffffff']],
        ['s8', 'i8', [-128, 127, '0x80', 0]],
        ['pred', 'i1', [true, false, 1, 0]],
      ];
      for (const [dtype, mlir, data] of cases) {
        const ty = `tensor<${data.length}x${mlir}>`;
        writeFileSync(path.join(dir, `id_${dtype}.mlir`), `module @jit_id attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: ${ty}) -> ${ty} {
    return %arg0 : ${ty}
  }
}
`);
        const v = { dtype, dims: [data.length], data };
        writeFileSync(path.join(dir, `id_${dtype}.json`), JSON.stringify({ description: 'identity', ops: ['return'], dtypes: [dtype], inputs: [v], outputs: [v] }));
      }
      const report = runXla({ python: py!, programs: dir });
      const res = crossCheck(loadCorpus(dir), report);
      assert.deepEqual(res.disagreements, [], renderCrossCheck(res, report));
      assert.equal(res.exact, cases.length, renderCrossCheck(res, report));
      const bf16 = report.programs.find((p) => p.name === 'id_bf16')!.inputs![0]![0]!;
      assert.equal(bf16.slice(0, 8), '813f81bf'); // 0x3f81, 0xbf81: rounded up, not to the f32 tie
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('expect fills missing outputs with XLA\'s results, and --check accepts them', function () {
    const names = ['add_s32', 'reduce_minimum_01_s8', 'all_reduce_add_f32_r2', 'maximum_f32', 'convert_f32_to_bf16'];
    const dir = copyCorpus(names);
    try {
      for (const n of names) edit(path.join(dir, `${n}.json`), (s) => void (s['outputs'] = s['replicas'] === 2 ? [[], []] : []));
      const before = cli(['expect', '--programs', dir, '--check', '--python', py!]);
      assert.equal(before.code, 1, before.stdout + before.stderr);
      const fill = cli(['expect', '--programs', dir, '--python', py!]);
      assert.equal(fill.code, 0, fill.stdout + fill.stderr);
      assert.match(fill.stdout, /5 of 5 sidecars run: 5 updated/);
      const check = cli(['expect', '--programs', dir, '--check', '--python', py!]);
      assert.equal(check.code, 0, check.stdout + check.stderr);
      assert.match(check.stdout, /5 programs: 5 match/);
      // where XLA gives the spec's answer bit for bit, the filled sidecar is the generated one
      for (const n of ['add_s32', 'reduce_minimum_01_s8', 'all_reduce_add_f32_r2']) {
        const want = JSON.parse(readFileSync(path.join(PROGRAMS, `${n}.json`), 'utf8')) as { outputs: unknown };
        const got = JSON.parse(readFileSync(path.join(dir, `${n}.json`), 'utf8')) as { outputs: unknown };
        assert.deepEqual(got.outputs, want.outputs, n);
      }
      // and the filled corpus passes the full cross-check
      const r = cli(['xla-check', '--programs', dir, '--no-invalid', '--python', py!]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('XLA commands without jax', function () {
  this.timeout(60_000);
  it('expect and xla-check end with exit 2 and one line saying how to install jax', function () {
    const dir = copyCorpus(['add_s32']);
    try {
      for (const args of [['expect', '--programs', dir], ['xla-check', '--programs', dir]]) {
        const r = cli(args, { env: { PJRT_CTS_PYTHON: path.join(dir, 'no-such-python') } });
        assert.equal(r.code, 2, r.stdout + r.stderr);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.match(r.stderr, /^pjrt-cts: error: (expect|xla-check): .*pip install jax==0\.10\.2 jaxlib==0\.10\.2/);
      }
      assert.ok(CLI);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

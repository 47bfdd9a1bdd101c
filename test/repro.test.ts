// Standalone reproducers (src/repro, docs/repro.md): bad input to `pjrt-cts repro` is one line and exit 2; the program
// reproducer's files carry exactly the corpus's bytes for every program that claims a fault; repro.py, run with the
// venv's jaxlib on the reference plugin, shows the wrong values under a representative set of those faults and passes
// on XLA's CPU client; repro.c, built with cc, shows the case's failure under the faults the covered API cases claim.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import picomatch from 'picomatch';
import { dtype } from '../src/abi/dtypes.js';
import { loadCorpus } from '../src/corpus/index.js';
import type { CaseResult, ResultsFile } from '../src/config/results.js';
import { loadCatalogue } from '../src/runner/catalogue.js';
import { pluginsFilePath, resolvePlugin } from '../src/runner/plugins.js';
import { writeApiRepro } from '../src/repro/api.js';
import { C_FAMILIES } from '../src/repro/families/index.js';
import { recordCase } from '../src/repro/calls.js';
import { loadRunFile } from '../src/repro/index.js';
import { npyBytes } from '../src/repro/npy.js';
import { writeProgramRepro } from '../src/repro/program.js';
import { programSource } from '../src/repro/program-source.js';
import { findPython, INSTALL_HINT, jaxProblem } from '../src/xla/crosscheck.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const run = promisify(execFile);
const PROGRAMS = path.join(ROOT, 'fixtures', 'programs');
const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');

/** Runs `jobs` at most `n` at a time (2 cores). */
async function pooled<T>(jobs: (() => Promise<T>)[], n = 2): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    for (let i = next++; i < jobs.length; i = next++) out[i] = await jobs[i]!();
  }));
  return out;
}

/** The .npy header's dict and the data after it. */
function readNpy(b: Buffer): { header: string; data: Buffer } {
  assert.equal(b.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const len = b.readUInt16LE(8);
  assert.equal((10 + len) % 64, 0, 'header padded to a multiple of 64');
  return { header: b.subarray(10, 10 + len).toString('latin1'), data: b.subarray(10 + len) };
}

/** The first line of a verdict up to its actual value: values read from freed memory differ from run to run. */
const judged = (line: string): string => line.replace(/, got .*$/, '');

describe('repro: standalone reproducers', function () {
  this.timeout(120_000);
  let results: string;
  let runFile: ResultsFile;

  before(function () {
    if (!existsSync(LIB)) this.skip();
    results = path.join(tmpDir(), 'faults.json');
    const r = cli(['run', '-p', 'reference', '-f', 'tier1.program.run.dot_general_matmul_s8_to_s32', '-f', 'tier2.dlpack.external_ref_keeps_memory', '--json', results],
      { env: { PJRT_REFERENCE_FAULTS: 'external_ref_ignored,op_off_by_one=dot_general' } });
    assert.equal(r.code, 1, r.stderr);
    runFile = loadRunFile(results);
  });

  it('bad input is one line and exit 2: a missing results file, an unknown id, an output that is a file or an input', function () {
    const out = tmpDir();
    const file = path.join(out, 'a-file');
    writeFileSync(file, 'x');
    const cases: [string[], RegExp][] = [
      [['repro', path.join(out, 'none.json'), 'x', '-o', out], /none\.json: \$: no such results file/],
      [['repro', results, 'tier9.no.such', '-o', out], /tier9\.no\.such: no case with this id in the results/],
      [['repro', results, 'tier2.dlpack.external_ref_keeps_memory', '-o', file], /a-file: expected a directory for the reproducers, but it is a file/],
      [['repro', results, 'tier2.dlpack.external_ref_keeps_memory', '-o', results], /faults\.json: expected a directory for the reproducers, but it is a file/],
    ];
    for (const [args, want] of cases) {
      const r = cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, want);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  it('writes .npy files of every element type as NumPy reads them (native types, or bit patterns of the host width)', function () {
    const b = Buffer.from(npyBytes(dtype('s32'), [2, 3], new Uint8Array(24).fill(7)));
    const { header, data } = readNpy(b);
    assert.match(header, /^\{'descr': '<i4', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    assert.equal(data.length, 24);
    assert.match(readNpy(Buffer.from(npyBytes(dtype('bf16'), [4], new Uint8Array(8)))).header, /'descr': '<u2'.*'shape': \(4,\)/);
    assert.match(readNpy(Buffer.from(npyBytes(dtype('pred'), [], new Uint8Array(1)))).header, /'descr': '\|b1'.*'shape': \(\)/);
  });

  it('the program reproducer of every corpus program that claims a fault carries the corpus\'s bytes', function () {
    const dir = tmpDir();
    const claiming = loadCorpus(PROGRAMS).filter((e) => e.catches?.length);
    assert.ok(claiming.length > 100);
    for (const e of claiming) {
      const src = programSource(e.id.replace('tier1.program.', 'tier1.program.run.'), undefined);
      assert.ok(typeof src !== 'string', String(src));
      const caseDir = path.join(dir, e.name);
      writeProgramRepro(caseDir, { ...runFile.results[0]!, id: `tier1.program.run.${e.name}` }, runFile, results, src, '0.1.0');
      const c = JSON.parse(readFileSync(path.join(caseDir, 'case.json'), 'utf8')) as { inputs: { file: string }[][]; outputs: { file: string }[][] };
      assert.equal(readFileSync(path.join(caseDir, 'program.mlir'), 'utf8'), e.program);
      e.inputs.forEach((vs, i) => vs.forEach((v, k) => assert.ok(readNpy(readFileSync(path.join(caseDir, c.inputs[i]![k]!.file))).data.equals(Buffer.from(v.bytes)), `${e.name} input ${i}/${k}`)));
      e.outputs.forEach((vs, i) => vs.forEach((v, k) => assert.ok(readNpy(readFileSync(path.join(caseDir, c.outputs[i]![k]!.file))).data.equals(Buffer.from(v.bytes)), `${e.name} output ${i}/${k}`)));
    }
  });

  /** A representative program per named fault; one of them needs 4 devices (a collective), one a sub-byte float. */
  const PROGRAM_FAULTS: [string, string][] = [
    ['op_off_by_one=dot_general', 'dot_general_matmul_s8_to_s32'], ['f8_convert_truncates', 'convert_f32_to_f4e2m1fn'],
    ['complex_multiply_sign_wrong', 'multiply_c128'],
    ['collective_permute_drops_wraparound', 'collective_permute_backward_ring_p4'],
  ];

  it('repro.py shows the wrong values under named faults and passes on XLA\'s CPU client', async function () {
    const p = findPython();
    const why = p ? jaxProblem(p.python) : 'no python with jax';
    if (!p || why) {
      console.log(`      (pending: ${why}; ${INSTALL_HINT})`);
      if (p?.source === 'PJRT_CTS_PYTHON') throw new Error(`PJRT_CTS_PYTHON: ${why}`);
      return this.skip();
    }
    const dir = tmpDir();
    const write = (name: string): string => {
      const id = `tier1.program.run.${name}`;
      const src = programSource(id, undefined);
      assert.ok(typeof src !== 'string');
      const d = path.join(dir, name);
      writeProgramRepro(d, { ...runFile.results[0]!, id }, runFile, results, src, '0.1.0');
      return path.join(d, 'repro.py');
    };
    const py = async (script: string, args: string[], faults?: string): Promise<{ code: number; out: string }> => {
      try {
        const r = await run(p.python, [script, ...args], { env: { ...process.env, ...(faults ? { PJRT_REFERENCE_FAULTS: faults } : {}) } });
        return { code: 0, out: r.stdout };
      } catch (e) {
        const x = e as { code?: number; stdout?: string; stderr?: string };
        return { code: x.code ?? -1, out: `${x.stdout ?? ''}${x.stderr ?? ''}` };
      }
    };
    const jobs = [
      ...PROGRAM_FAULTS.map(([fault, name]) => async () => ({ what: `${name} under ${fault}`, want: 1, ...(await py(write(name), ['--plugin', LIB], fault)) })),
      async () => ({ what: 'dot_general_matmul_s8_to_s32 without a fault', want: 0, ...(await py(write('dot_general_matmul_s8_to_s32'), ['--plugin', LIB])) }),
      async () => ({ what: 'dot_general_matmul_s8_to_s32 on XLA\'s CPU client', want: 0, ...(await py(write('dot_general_matmul_s8_to_s32'), ['--platform', 'cpu'])) }),
    ];
    for (const r of await pooled(jobs)) {
      assert.equal(r.code, r.want, `${r.what}:\n${r.out}`);
      assert.match(r.out, r.want ? /: fail: (replica \d+ (partition \d+ )?)?output \d .*elements? differ/ : /: pass: every output matches/, r.what);
      if (r.want) assert.match(r.out, /\n {2}got {6}[\s\S]*\n {2}expected /, `${r.what}: got vs expected`);
    }
  });

  it('repro.c shows the case\'s failure under each fault the covered API cases claim', async function () {
    const cc = spawnSync('cc', ['--version']);
    if (cc.status !== 0) {
      console.log('      (pending: no C compiler `cc` on PATH; apt-get install gcc)');
      return this.skip();
    }
    const catalogue = await loadCatalogue();
    const reference = resolvePlugin(pluginsFilePath(), 'reference');
    // one case per (family, claimed fault): each fault the family's cases claim is shown by one of its reproducers
    const pairs = new Map<string, { id: string; fault: string }>();
    for (const f of C_FAMILIES) {
      const covered = picomatch(f.covers as string[], { dot: true });
      for (const e of catalogue.filter((x) => covered(x.id))) for (const fault of e.catches) if (!pairs.has(`${f.name}/${fault}`)) pairs.set(`${f.name}/${fault}`, { id: e.id, fault });
    }
    // and the client compile of the truncated program, which the CUDA run crashed in
    pairs.set('client compile/compile_accepts_garbage', { id: 'tier1.compile.rejects_bad_program.truncated', fault: 'compile_accepts_garbage' });
    assert.ok(pairs.size >= 12, `${pairs.size} pairs`);
    const dir = tmpDir();
    const byId = new Map(catalogue.map((e) => [e.id, e]));
    const outcomes = await pooled([...pairs.values()].map(({ id, fault }) => async () => {
      const plugin = { ...reference, env: { ...reference.env, PJRT_REFERENCE_FAULTS: fault } };
      const rec = await recordCase(byId.get(id)!, plugin, 'the test');
      const result: CaseResult = { ...runFile.results[0]!, id, status: rec.status as CaseResult['status'], ...(rec.message !== undefined ? { message: rec.message } : {}) };
      const d = path.join(dir, `${id}-${fault.replace(/\W/g, '_')}`);
      const w = writeApiRepro(d, result, runFile, results, rec, '0.1.0');
      assert.equal(w.kind, 'c', `${id}: ${w.why}`);
      await run('cc', ['repro.c', '-ldl', '-o', 'repro'], { cwd: d });
      let out = '';
      try {
        out = (await run('./repro', [LIB], { cwd: d, env: { ...process.env, PJRT_REFERENCE_FAULTS: fault } })).stdout;
      } catch (e) {
        out = (e as { stdout?: string }).stdout ?? '';
      }
      const line = out.trim().split('\n').at(-1)!;
      const first = (rec.message ?? '').split('\n')[0]!.replace(/^quality check \(never fails a gate\) ended \w+: /, '');
      const status = rec.status === 'warn' ? /ended (\w+):/.exec(rec.message ?? '')?.[1] ?? 'warn' : rec.status;
      return { id, fault, status, case: `${id}: ${status}: ${first}`, c: line };
    }));
    for (const o of outcomes) {
      assert.ok(['fail', 'crash', 'timeout', 'warn'].includes(o.status), `${o.id} under ${o.fault}: the case itself ended ${o.status}`);
      assert.equal(judged(o.c), judged(o.case), `${o.id} under ${o.fault}`);
    }
  });
});

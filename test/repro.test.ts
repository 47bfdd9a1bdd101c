// Standalone reproducers (src/repro, docs/repro.md): bad input to `pjrt-cts repro` is one line and exit 2; the program
// reproducer's files carry exactly the corpus's bytes for every program that claims a fault, and an exhaustive one's
// accepted patterns are exactly what the CTS accepts; repro.py, run with the venv's jaxlib on the reference plugin,
// shows the wrong values under a representative set of faults of each program kind (corpus, exhaustive, the suites'
// own) and passes on XLA's CPU client; repro.c, built with cc, shows the case's failure under every fault the covered
// API cases claim (the cases recorded in shared workers that switch faults through the `faults` create option).
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
import { acceptedSets, checkResults, hostBytes, inputsOf } from '../src/corpus/exhaustive.js';
import { writeApiRepro } from '../src/repro/api.js';
import { C_FAMILIES } from '../src/repro/families/index.js';
import { recordCases, type Recording } from '../src/repro/calls.js';
import { loadRunFile } from '../src/repro/index.js';
import { npyBytes } from '../src/repro/npy.js';
import { writeProgramRepro } from '../src/repro/program.js';
import { corpusProgram, programSource } from '../src/repro/program-source.js';
import { findPython, INSTALL_HINT, jaxProblem } from '../src/xla/crosscheck.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const run = promisify(execFile);
const PROGRAMS = path.join(ROOT, 'fixtures', 'programs');
const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
/** A recorded case and its repro.c get this long (a fault that hangs ends in this time, in both). */
const TIMEOUT_MS = 4000;
const READ_AT_LOAD = new Set((JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'reference-plugin', 'faults.json'), 'utf8')) as { faults: { name: string; atLoad?: boolean }[] }).faults.filter((f) => f.atLoad).map((f) => f.name));

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
/** Faults whose values vary with the process's history (memory read after a free, an alternating answer): the rule must match. */
const HISTORY_DEPENDENT = new Set(['platform_name_unstable', 'external_ref_ignored']);
const ruleOnly = (line: string): string => line.replace(/: expected .*$/, '');
/**
 * Faults whose crash comes from whichever plugin thread lets go of a resource last (the reference plugin releases a
 * view's memory there): under load the call in flight can be the next one, in the case and in repro.c alike.
 */
const RELEASED_ON_A_THREAD = new Set(['view_null_delete_callback_called']);
const anyCall = (line: string): string => line.replace(/ during PJRT_\w+:/, ' during a PJRT call:');

interface Pair { id: string; fault: string }

/**
 * One case per (C family, claimed fault), and the CUDA findings' cases under the faults that stand in for them
 * (docs/validation/cuda-repro/), each recorded with its fault on: the faults the plugin switches per client in two
 * shared workers (the `faults` create option), those it reads at load each in a worker of its own.
 */
async function recordPairs(): Promise<Map<Pair, Recording>> {
  const catalogue = await loadCatalogue();
  const reference = resolvePlugin(pluginsFilePath(), 'reference');
  const pairs = new Map<string, Pair>();
  for (const f of C_FAMILIES) {
    const covered = picomatch(f.covers as string[], { dot: true });
    for (const e of catalogue.filter((x) => covered(x.id))) for (const fault of e.catches) if (!pairs.has(`${f.name}/${fault}`)) pairs.set(`${f.name}/${fault}`, { id: e.id, fault });
  }
  pairs.set('cuda D1', { id: 'tier2.dlpack.view_without_delete_callback', fault: 'view_null_delete_callback_called' });
  pairs.set('cuda D3', { id: 'tier1.compile.reads_only_code_size.truncated', fault: 'program_read_as_c_string' });
  pairs.set('cuda D3 aot', { id: 'tier1.aot_compile.reads_only_code_size.truncated', fault: 'program_read_as_c_string' });
  assert.ok(pairs.size >= 40, `${pairs.size} pairs`);
  const byId = new Map(catalogue.map((e) => [e.id, e]));
  const list = [...pairs.values()];
  const atLoad = (x: Pair) => READ_AT_LOAD.has(x.fault.split('=')[0]!);
  const out = new Map<Pair, Recording>();
  const switching = list.filter((x) => !atLoad(x));
  const shared = recordCases(switching.map((x) => ({ entry: byId.get(x.id)!, createOptions: { ...reference.createOptions, faults: x.fault } })), reference, 'the test', { lanes: 2, timeoutMs: TIMEOUT_MS })
    .then((recs) => switching.forEach((x, i) => out.set(x, recs[i]!)));
  const own = pooled(list.filter(atLoad).map((x) => async () => {
    const [r] = await recordCases([{ entry: byId.get(x.id)! }], { ...reference, env: { ...reference.env, PJRT_REFERENCE_FAULTS: x.fault } }, 'the test', { timeoutMs: TIMEOUT_MS });
    out.set(x, r!);
  }), 1);
  await Promise.all([shared, own]);
  return new Map(list.map((x) => [x, out.get(x)!]));
}

/** The exhaustive case whose mismatch count the script must repeat, and the fault that makes them. */
const EXHAUSTIVE_CASE = 'tier2.exhaustive.exponential.f16';
const EXHAUSTIVE_FAULT = 'exp_f16_approx_in_half';

describe('repro: standalone reproducers', function () {
  this.timeout(120_000);
  let results: string;
  let runFile: ResultsFile;

  /** The C families' cases recorded under their faults, started before the tests (their waits overlap the Python ones). */
  let recordings: Promise<Map<Pair, Recording> | undefined>;

  before(function () {
    if (!existsSync(LIB)) this.skip();
    recordings = spawnSync('cc', ['--version']).status === 0 ? recordPairs() : Promise.resolve(undefined);
    recordings.catch(() => undefined); // awaited (and reported) by its test
    results = path.join(tmpDir(), 'faults.json');
    const r = cli(['run', '-p', 'reference', '-f', 'tier1.program.run.dot_general_matmul_s8_to_s32', '-f', 'tier2.dlpack.external_ref_keeps_memory', '-f', EXHAUSTIVE_CASE, '--json', results],
      { env: { PJRT_REFERENCE_FAULTS: `external_ref_ignored,op_off_by_one=dot_general,${EXHAUSTIVE_FAULT}` } });
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
      [['repro', results, 'tier2.dlpack.external_ref_keeps_memory', '-o', file], /--output: \S*a-file: expected a directory, but \S*a-file is not one/],
      [['repro', results, 'tier2.dlpack.external_ref_keeps_memory', '-o', results], /faults\.json: expected a path that is not an input: it is the <results> /],
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
      const src = corpusProgram(e.id.replace('tier1.program.', 'tier1.program.run.'));
      assert.ok(src !== undefined && typeof src !== 'string', String(src));
      const caseDir = path.join(dir, e.name);
      writeProgramRepro(caseDir, { ...runFile.results[0]!, id: `tier1.program.run.${e.name}` }, runFile, results, src, '0.1.0');
      const c = JSON.parse(readFileSync(path.join(caseDir, 'case.json'), 'utf8')) as { inputs: { file: string }[][]; outputs: { file: string }[][] };
      assert.equal(readFileSync(path.join(caseDir, 'program.mlir'), 'utf8'), e.program);
      e.inputs.forEach((vs, i) => vs.forEach((v, k) => assert.ok(readNpy(readFileSync(path.join(caseDir, c.inputs[i]![k]!.file))).data.equals(Buffer.from(v.bytes)), `${e.name} input ${i}/${k}`)));
      e.outputs.forEach((vs, i) => vs.forEach((v, k) => assert.ok(readNpy(readFileSync(path.join(caseDir, c.outputs[i]![k]!.file))).data.equals(Buffer.from(v.bytes)), `${e.name} output ${i}/${k}`)));
    }
  });

  it('an exhaustive reproducer accepts per element exactly what the CTS accepts', function () {
    // one trial per case: each element's result near the ends of its accepted intervals, or any pattern
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (const [op, dt] of [['log', 'f8e5m2'], ['sine', 'f8e4m3fn'], ['multiply', 'f4e2m1fn'], ['power', 'f6e2m3fn'], ['atan2', 'f4e2m1fn'], ['exponential', 'f8e8m0fnu']] as const) {
      const d = dtype(dt);
      const inputs = inputsOf(op, d);
      const acc = acceptedSets(op, d, inputs);
      const count = 2 ** d.bits;
      const got = inputs.args[0]!.map((_, i) => {
        const k = acc.offsets[i]! + Math.floor(rnd() * (acc.offsets[i + 1]! - acc.offsets[i]!));
        const r = rnd();
        const v = r < 0.35 ? acc.lo[k]! - 1 : r < 0.7 ? acc.hi[k]! + 1 : r < 0.8 ? acc.expected[i]! : Math.floor(rnd() * count);
        return ((v % count) + count) % count;
      });
      const outside = got.filter((a, i) => !Array.from({ length: acc.offsets[i + 1]! - acc.offsets[i]! }, (_, k) => acc.offsets[i]! + k).some((k) => acc.lo[k]! <= a && a <= acc.hi[k]!)).length;
      const cts = checkResults(op, d, inputs, hostBytes(d, got)).mismatches;
      assert.ok(cts > 0, `${op} ${dt}: the trial has mismatches`);
      assert.equal(outside, cts, `${op} ${dt}: elements outside the accepted intervals vs the CTS's mismatches`);
    }
  });

  /** Per program kind, a named fault and a program it shows in: corpus, exhaustive, the suites' own (one of them on 4 devices). */
  const PROGRAM_FAULTS: [string, string][] = [
    ['op_off_by_one=dot_general', 'tier1.program.run.dot_general_matmul_s8_to_s32'], [EXHAUSTIVE_FAULT, EXHAUSTIVE_CASE],
    ['int_overflow_saturates', 'tier1.execute.numerics.int_add_wraps'], ['all_reduce_wrong_groups', 'tier1.replicated.collective.all_reduce_singleton_groups.all'],
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
    const catalogue = new Map((await loadCatalogue()).map((e) => [e.id, e]));
    const written = new Map<string, string>();
    const write = async (id: string): Promise<string> => {
      const known = written.get(id);
      if (known) return known;
      const src = await programSource(id, undefined, runFile, catalogue.get(id));
      assert.ok(src !== undefined && typeof src !== 'string', `${id}: ${String(src)}`);
      const d = path.join(dir, id);
      writeProgramRepro(d, { ...runFile.results[0]!, id }, runFile, results, src, '0.1.0');
      written.set(id, path.join(d, 'repro.py'));
      return path.join(d, 'repro.py');
    };
    const py = async (script: string, args: string[], faults?: string): Promise<{ code: number; out: string }> => {
      try {
        const r = await run(p.python, [script, ...args], { env: { ...process.env, ...(faults ? { PJRT_REFERENCE_FAULTS: faults } : {}) }, maxBuffer: 1 << 26 });
        return { code: 0, out: r.stdout };
      } catch (e) {
        const x = e as { code?: number; stdout?: string; stderr?: string };
        return { code: x.code ?? -1, out: `${x.stdout ?? ''}${x.stderr ?? ''}` };
      }
    };
    for (const [, id] of PROGRAM_FAULTS) await write(id);
    const jobs = [
      ...PROGRAM_FAULTS.map(([fault, id]) => async () => ({ id, what: `${id} under ${fault}`, want: 1, ...(await py(written.get(id)!, ['--plugin', LIB], fault)) })),
      async () => ({ id: 'tier1.replicated.collective.all_reduce_singleton_groups.all', what: 'the replicated collective without a fault', want: 0, ...(await py(written.get('tier1.replicated.collective.all_reduce_singleton_groups.all')!, ['--plugin', LIB])) }),
      async () => ({ id: EXHAUSTIVE_CASE, what: `${EXHAUSTIVE_CASE} on XLA's CPU client`, want: 0, ...(await py(written.get(EXHAUSTIVE_CASE)!, ['--platform', 'cpu'])) }),
    ];
    const cts = runFile.results.find((r) => r.id === EXHAUSTIVE_CASE);
    for (const r of await pooled(jobs)) {
      assert.equal(r.code, r.want, `${r.what}:\n${r.out.slice(-4000)}`);
      assert.match(r.out, r.want ? /: fail: (replica \d+ (partition \d+ )?)?output \d .*(elements? differ|mismatches of)/ : /: pass: every output matches/, r.what);
      if (r.want) assert.match(r.out, /\n {2}got {6}[\s\S]*\n {2}expected /, `${r.what}: got vs expected`);
      // the exhaustive verdict is the CTS's: the same number of mismatches
      if (r.want && r.id === EXHAUSTIVE_CASE) assert.equal(/: (\d+) mismatches of/.exec(r.out)?.[1], /, (\d+) mismatches,/.exec(cts?.message ?? '')?.[1], `${r.what}: the CTS's count (${cts?.message?.slice(0, 200)})`);
    }
  });

  it('repro.c shows the case\'s failure under each fault the covered API cases claim', async function () {
    this.timeout(300_000);
    const recorded = await recordings;
    if (!recorded) {
      console.log('      (pending: no C compiler `cc` on PATH; apt-get install gcc)');
      return this.skip();
    }
    const dir = tmpDir();
    const outcomes = await pooled([...recorded].map(([x, rec]) => async () => {
      const result: CaseResult = { ...runFile.results[0]!, id: x.id, status: rec.status as CaseResult['status'], ...(rec.message !== undefined ? { message: rec.message } : {}) };
      const d = path.join(dir, `${x.id}-${x.fault.replace(/\W/g, '_')}`);
      const w = writeApiRepro(d, result, runFile, results, rec, '0.1.0');
      assert.equal(w.kind, 'c', `${x.id}: ${w.why}`);
      await run('cc', ['repro.c', '-ldl', '-o', 'repro'], { cwd: d });
      let out = '';
      try {
        out = (await run('./repro', [LIB, '--timeout-ms', String(TIMEOUT_MS)], { cwd: d, env: { ...process.env, PJRT_REFERENCE_FAULTS: x.fault } })).stdout;
      } catch (e) {
        out = (e as { stdout?: string }).stdout ?? '';
      }
      const line = out.trim().split('\n').at(-1)!;
      const first = (rec.message ?? '').split('\n')[0]!.replace(/^quality check \(never fails a gate\) ended \w+: /, '');
      const status = rec.status === 'warn' ? /ended (\w+):/.exec(rec.message ?? '')?.[1] ?? 'warn' : rec.status;
      return { ...x, status, case: `${x.id}: ${status}: ${first}`, c: line };
    }));
    for (const o of outcomes) {
      assert.ok(['fail', 'crash', 'timeout', 'warn'].includes(o.status), `${o.id} under ${o.fault}: the case itself ended ${o.status}`);
      const cut = HISTORY_DEPENDENT.has(o.fault) ? ruleOnly : RELEASED_ON_A_THREAD.has(o.fault) ? anyCall : judged;
      assert.equal(cut(o.c), cut(o.case), `${o.id} under ${o.fault}`);
    }
  });
});

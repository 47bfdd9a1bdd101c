// Standalone reproducers (src/repro, docs/repro.md): bad input to `pjrt-cts repro` is one line and exit 2; the program
// reproducer's files carry exactly the corpus's bytes for every program that claims a fault, and an exhaustive one's
// accepted patterns are exactly what the CTS accepts; repro.py, run with the venv's jaxlib on the reference plugin,
// shows the wrong values under a representative set of faults of each program kind (corpus, exhaustive, the suites'
// own) and passes on XLA's CPU client; repro.c, built with cc, shows the case's failure under every fault the covered
// API cases claim (the cases recorded in shared workers that switch faults through the `faults` create option).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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
import { verdictLine } from '../src/repro/readme.js';
import { corpusProgram, programSource } from '../src/repro/program-source.js';
import { findPython, INSTALL_HINT, jaxProblem } from '../src/xla/crosscheck.js';
import { cli, ROOT, tmpDir } from './runner-helpers.js';

const run = promisify(execFile);
const PROGRAMS = path.join(ROOT, 'fixtures', 'programs');
const LIB = path.join(ROOT, 'build', 'reference-plugin', 'libpjrt_reference.so');
/**
 * A recorded case and its repro.c get this long (a fault that hangs ends in this time, in both). On 2 cores shared
 * with other work (load 8 and more) a worker can take 4 s to reach a crashing call: that case is then recorded as a
 * timeout while repro.c crashes, hence 8 s.
 */
const TIMEOUT_MS = 8000;
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
 * view's memory there): under load the call in flight can be the next one, or none yet, in the case and in repro.c
 * alike.
 */
const RELEASED_ON_A_THREAD = new Set(['view_null_delete_callback_called']);
const anyCall = (line: string): string => line.replace(/ (during PJRT_\w+|with no traced PJRT call in flight):/, ' at any point:');

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

/** The exhaustive case whose report the script must repeat, and the fault that makes it fail. */
const EXHAUSTIVE_CASE = 'tier2.exhaustive.exponential.f16';
const EXHAUSTIVE_FAULT = 'exp_f16_approx_in_half';

/**
 * Per program kind, a named fault and a program it shows in: corpus (integers; floats with NaN, signed zeros and a
 * tolerance), exhaustive, the suites' own (one of them on 4 devices). The run of `before` has them all on at once.
 */
const PROGRAM_FAULTS: [string, string][] = [
  ['op_off_by_one=dot_general', 'tier1.program.run.dot_general_matmul_s8_to_s32'], ['atan2_operands_swapped', 'tier1.program.run.atan2_f32'],
  [EXHAUSTIVE_FAULT, EXHAUSTIVE_CASE], ['int_overflow_saturates', 'tier1.execute.numerics.int_add_wraps'],
  ['all_reduce_wrong_groups', 'tier1.replicated.collective.all_reduce_singleton_groups.all'],
];
/** The API case of the run (recorded again by `repro`), its fault, and a case the run passed. */
const API_CASE = 'tier2.dlpack.external_ref_keeps_memory';
const API_FAULT = 'external_ref_ignored';
const PASSED_CASE = 'tier1.execute.one_plus_one';
const RUN_FAULTS = [API_FAULT, ...PROGRAM_FAULTS.map(([f]) => f)].join(',');

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = path.join(dir, f);
  return statSync(p).isDirectory() ? filesUnder(p) : [p];
});

/** The directories of the machine a reproducer must not name (docs/repro.md), and any path under the usual roots. */
function machinePaths(file: string, also: readonly string[]): string[] {
  const text = readFileSync(file).toString('latin1');
  const dirs = [ROOT, tmpdir(), homedir(), process.cwd(), ...also];
  return [...dirs.filter((d) => text.includes(d)), ...(text.match(/(?:\/work|\/tmp|\/root|\/home)\/[^\s"'`)]*/g) ?? [])];
}

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
    const r = cli(['run', '-p', 'reference', ...[API_CASE, PASSED_CASE, ...PROGRAM_FAULTS.map(([, id]) => id)].flatMap((id) => ['-f', id]), '--json', results],
      { env: { PJRT_REFERENCE_FAULTS: RUN_FAULTS } });
    assert.equal(r.code, 1, r.stderr);
    runFile = loadRunFile(results);
    assert.equal(runFile.results.find((x) => x.id === PASSED_CASE)?.status, 'pass');
  });

  it('bad input is one line and exit 2, and creates nothing: a missing results file, an unknown id, a case that passed, an output that is a file or an input', function () {
    const out = tmpDir();
    const fresh = path.join(out, 'not-yet', 'repros');
    const file = path.join(out, 'a-file');
    writeFileSync(file, 'x');
    const cases: [string[], RegExp][] = [
      [['repro', path.join(out, 'none.json'), 'x', '-o', fresh], /none\.json: \$: no such results file/],
      [['repro', results, 'tier9.no.such', '-o', fresh], /tier9\.no\.such: no case with this id in the results/],
      [['repro', results, API_CASE, PASSED_CASE, '-o', fresh], new RegExp(`${PASSED_CASE.replace(/\./g, '\\.')}: the case ended pass in this run: there is no failure to reproduce`)],
      [['repro', results, API_CASE, '-o', file], /--output: \S*a-file: expected a directory, but \S*a-file is not one/],
      [['repro', results, API_CASE, '-o', results], /faults\.json: expected a path that is not an input: it is the <results> /],
    ];
    for (const [args, want] of cases) {
      const r = cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, want);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.ok(!existsSync(path.join(out, 'not-yet')), `${args.join(' ')}: created ${fresh}`);
    }
  });

  it('records an API case in the run\'s fault environment, and writes no path of this machine into any reproducer', function () {
    this.timeout(240_000);
    // the run's library here, and (its path made portable, as committed results are) the reference plugin instead
    const portable = path.join(tmpDir(), 'portable.json');
    writeFileSync(portable, JSON.stringify({ ...runFile, plugin: { ...runFile.plugin, path: path.basename(runFile.plugin.path) } }));
    for (const [file, where] of [[results, 'recorded on the run\'s plugin'], [portable, 'recorded on `libpjrt_reference.so`']] as const) {
      const out = path.join(tmpDir(), 'repros');
      const ids = file === results ? [API_CASE, ...PROGRAM_FAULTS.map(([, id]) => id)] : [API_CASE];
      const r = cli(['repro', file, ...ids, '-o', out]);
      assert.equal(r.code, 0, r.stderr);
      const readme = readFileSync(path.join(out, API_CASE, 'README.md'), 'utf8');
      assert.ok(readme.includes(where), readme);
      assert.match(readme, new RegExp(`the case ended ${runFile.results.find((x) => x.id === API_CASE)!.status} there`), 'recorded with the run\'s fault on');
      assert.ok(readme.includes(`PJRT_REFERENCE_FAULTS=${RUN_FAULTS}`), 'the README says which faults show it');
      for (const id of ids.filter((x) => x !== API_CASE)) assert.ok(readFileSync(path.join(out, id, 'README.md'), 'utf8').includes(`PJRT_REFERENCE_FAULTS=${RUN_FAULTS}`), `${id}: the README says which faults show it`);
      for (const f of filesUnder(out)) assert.deepEqual(machinePaths(f, [file, out, runFile.plugin.path]), [], `${f} names a path of this machine`);
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

  it('repro.py prints the case\'s own verdict line under named faults, passes on XLA\'s CPU client, and exits 2 on bad usage', async function () {
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
      writeProgramRepro(d, runFile.results.find((r) => r.id === id)!, runFile, results, src, '0.1.0');
      written.set(id, path.join(d, 'repro.py'));
      return path.join(d, 'repro.py');
    };
    /** stdout (the verdict line is its last) and stderr apart: JAX warns on stderr about a plugin by path */
    const py = async (script: string, args: string[], faults?: string): Promise<{ code: number; out: string; err: string }> => {
      try {
        const r = await run(p.python, [script, ...args], { env: { ...process.env, ...(faults ? { PJRT_REFERENCE_FAULTS: faults } : {}) }, maxBuffer: 1 << 26 });
        return { code: 0, out: r.stdout, err: r.stderr };
      } catch (e) {
        const x = e as { code?: number; stdout?: string; stderr?: string };
        return { code: x.code ?? -1, out: x.stdout ?? '', err: x.stderr ?? '' };
      }
    };
    for (const [, id] of PROGRAM_FAULTS) await write(id);
    const jobs = [
      ...PROGRAM_FAULTS.map(([fault, id]) => async () => ({ id, what: `${id} under ${fault}`, want: 1, ...(await py(written.get(id)!, ['--plugin', LIB], RUN_FAULTS)) })),
      async () => ({ id: 'tier1.replicated.collective.all_reduce_singleton_groups.all', what: 'the replicated collective without a fault', want: 0, ...(await py(written.get('tier1.replicated.collective.all_reduce_singleton_groups.all')!, ['--plugin', LIB])) }),
      async () => ({ id: EXHAUSTIVE_CASE, what: `${EXHAUSTIVE_CASE} on XLA's CPU client`, want: 0, ...(await py(written.get(EXHAUSTIVE_CASE)!, ['--platform', 'cpu'])) }),
    ];
    const script = written.get(PROGRAM_FAULTS[0]![1])!;
    const usage = [
      async () => ({ what: 'a plugin file that does not exist', ...(await py(script, ['--plugin', path.join(tmpDir(), 'none.so')])) }),
      async () => ({ what: 'a platform JAX does not have', ...(await py(script, ['--platform', 'no_such_platform'])) }),
    ];
    for (const r of await pooled(jobs)) {
      assert.equal(r.code, r.want, `${r.what}:\n${r.out.slice(-4000)}${r.err.slice(-2000)}`);
      const line = r.out.trim().split('\n').at(-1)!;
      if (r.want) {
        // word for word the line the README promises: the CTS's verdict (rule, expected, findings or report)
        assert.equal(line, verdictLine(runFile.results.find((x) => x.id === r.id)!), r.what);
        assert.ok(readFileSync(path.join(path.dirname(written.get(r.id)!), 'README.md'), 'utf8').includes(`\n${line}\n`), `${r.what}: the README promises it`);
        assert.match(r.out, /\n {2}got {6}[\s\S]*\n {2}expected /, `${r.what}: got vs expected`);
      } else {
        assert.match(line, /: pass: every output matches$/, r.what);
      }
    }
    for (const r of await pooled(usage)) {
      assert.equal(r.code, 2, `${r.what}: exit 2 (1 says the failure reproduced):\n${r.out}${r.err}`);
      assert.match(r.err, /^repro\.py: /m, r.what);
    }
    const bare = spawnSync('python3', ['-c', 'import jax'], { encoding: 'utf8' });
    if (bare.status !== 0 && bare.error === undefined) {
      const r = spawnSync('python3', [script, '--platform', 'cpu'], { encoding: 'utf8' });
      assert.equal(r.status, 2, `no jax: exit 2:\n${r.stderr}`);
      assert.match(r.stderr, /^repro\.py: needs jax/);
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
    const compileText = new Set<string>();
    const outcomes = await pooled([...recorded].map(([x, rec]) => async () => {
      const result: CaseResult = { ...runFile.results[0]!, id: x.id, status: rec.status as CaseResult['status'], ...(rec.message !== undefined ? { message: rec.message } : {}) };
      const d = path.join(dir, `${x.id}-${x.fault.replace(/\W/g, '_')}`);
      const w = writeApiRepro(d, result, runFile, results, rec, '0.1.0');
      assert.equal(w.kind, 'c', `${x.id}: ${w.why}`);
      if (/^tier1\.(aot_)?compile\./.test(x.id) && /\/\* code_\d+: .*(, as text:\n \* \S|: not text \()/.test(readFileSync(path.join(d, 'repro.c'), 'utf8'))) compileText.add(x.id);
      await run('cc', ['repro.c', '-ldl', '-o', 'repro'], { cwd: d });
      let out = '';
      try {
        out = (await run('./repro', [LIB, '--timeout-ms', String(TIMEOUT_MS)], { cwd: d, env: { ...process.env, PJRT_REFERENCE_FAULTS: x.fault } })).stdout;
      } catch (e) {
        out = (e as { stdout?: string }).stdout ?? '';
      }
      const line = out.trim().split('\n').at(-1)!;
      const verdict = verdictLine(result);
      return { ...x, status: verdict.slice(x.id.length + 2).split(':')[0]!, case: verdict, c: line };
    }));
    const compileCases = [...recorded.keys()].filter((x) => /^tier1\.(aot_)?compile\./.test(x.id)).map((x) => x.id);
    assert.ok(compileCases.length > 0 && compileCases.every((id) => compileText.has(id)), `every compile reproducer carries its program's text (or says it has none): ${compileCases.filter((id) => !compileText.has(id)).join(', ')}`);
    for (const o of outcomes) {
      assert.ok(['fail', 'crash', 'timeout', 'warn'].includes(o.status), `${o.id} under ${o.fault}: the case itself ended ${o.status}`);
      const cut = HISTORY_DEPENDENT.has(o.fault) ? ruleOnly : RELEASED_ON_A_THREAD.has(o.fault) ? anyCall : judged;
      assert.equal(cut(o.c), cut(o.case), `${o.id} under ${o.fault}`);
    }
  });
});

// A program case's reproducer: the program as the case sent it (StableHLO text, or the portable artifact when the
// plugin compiles artifacts only), its inputs and expected outputs as .npy, case.json (dtypes, dims, tolerance,
// alternatives, the run's create options) and repro.py, which runs it through jaxlib's own client of any plugin.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dtype, type DtypeRow } from '../abi/dtypes.js';
import { MISMATCHES_LISTED } from '../corpus/compare.js';
import { FLAG_FLUSH_IN_F32, FLAG_FLUSH_SUBNORMAL, FLAG_SKIP } from '../corpus/exhaustive.js';
import { canonicalNanBits, hasNan, hasSign, smallestNormal } from '../oracle/floats.js';
import { partDtype } from '../oracle/tensor.js';
import { packageRoot } from '../config/paths.js';
import type { CaseResult, ResultsFile } from '../config/results.js';
import { artifactOf } from '../harness/program-forms.js';
import { npyBytes, npyDescr } from './npy.js';
import type { AcceptedIntervals, ExhaustiveReportData, ExpectedValue, ProgramSource, ProgramValue } from './program-source.js';
import { scrubber } from './portable.js';
import { commandPlugin, readme, verdictLine, type ReproExtras } from './readme.js';

/** Platforms JAX installs plugins for itself (jax[cuda], jax[rocm], jax[tpu]) or has built in. */
const JAX_PLATFORMS = ['cuda', 'rocm', 'tpu', 'cpu'];

interface NpyRef { file: string; dtype: string; dims: number[]; bits?: true }

function writeNpy(dir: string, rel: string, v: ProgramValue | { dtype: string; dims: number[]; bytes: Uint8Array }): NpyRef {
  const d = dtype(v.dtype);
  writeFileSync(path.join(dir, rel), npyBytes(d, v.dims, v.bytes));
  return { file: rel, dtype: v.dtype, dims: [...v.dims], ...(npyDescr(d).bits ? { bits: true as const } : {}) };
}

/**
 * What repro.py needs to show and compare an element type as the CTS does (src/corpus/compare.ts, values.ts): its
 * width and kind; a float's canonical NaN (spelled "nan", any other NaN by its bits), smallest normal, and whether its
 * ULP distances are signed; a complex type's part.
 */
interface TypeInfo { name: string; kind: string; bits: number; canonicalNan?: string; smallestNormal?: number; signed?: boolean; part?: TypeInfo }
function typeInfo(d: DtypeRow): TypeInfo {
  if (d.kind === 'complex') return { name: d.name, kind: d.kind, bits: d.bits, part: typeInfo(partDtype(d)) };
  if (d.kind !== 'float') return { name: d.name, kind: d.kind, bits: d.bits };
  return {
    name: d.name, kind: d.kind, bits: d.bits, smallestNormal: smallestNormal(d), signed: hasSign(d),
    ...(hasNan(d) ? { canonicalNan: `0x${canonicalNanBits(d).toString(16)}` } : {}),
  };
}

/** An exhaustive report's judge tables as .npy files beside the accepted intervals, and its fixed parts. */
function writeReport(dir: string, stem: string, r: ExhaustiveReportData) {
  const file = (part: string, d: string, v: Uint8Array | Uint32Array | Int32Array) => {
    const rel = `${stem}.judge_${part}.npy`;
    writeFileSync(path.join(dir, rel), npyBytes(dtype(d), [v.length], new Uint8Array(v.buffer, v.byteOffset, v.byteLength)));
    return rel;
  };
  return {
    op: r.op, limit: r.limit, listed: r.listed, tolerance: r.tolerance, unitRange: r.unitRange, zeros: r.zeros,
    flagBits: { skip: FLAG_SKIP, flushSubnormal: FLAG_FLUSH_SUBNORMAL, flushInF32: FLAG_FLUSH_IN_F32 },
    flags: file('flags', 'u8', r.flags), altOffsets: file('alt_offsets', 'u32', r.altOffsets), alt: file('alt', 's32', r.alt),
  };
}

/** The intervals of an output's accepted patterns as three uint32 .npy files (offsets, lo, hi). */
function writeAccepted(dir: string, stem: string, a: AcceptedIntervals) {
  const u32 = dtype('u32');
  const file = (part: string, v: Uint32Array) => {
    const rel = `${stem}.accept_${part}.npy`;
    writeFileSync(path.join(dir, rel), npyBytes(u32, [v.length], new Uint8Array(v.buffer, v.byteOffset, v.byteLength)));
    return rel;
  };
  return { offsets: file('offsets', a.offsets), lo: file('lo', a.lo), hi: file('hi', a.hi), notCompared: a.notCompared, rule: a.rule };
}

export interface WrittenProgram { form: 'text' | 'artifact'; programFile: string }

/** The form the case sent: the text when the plugin compiled text (or nothing is known), else the artifact. */
function formOf(run: ResultsFile, src: ProgramSource): { form: 'text' | 'artifact'; bytes: Uint8Array } {
  const accepted = run.plugin.programForms?.accepted;
  if (accepted && !accepted.includes('text') && accepted.includes('artifact')) {
    const a = artifactOf(src.text, src.artifactFile);
    if (a) return { form: 'artifact', bytes: a };
  }
  return { form: 'text', bytes: Buffer.from(src.text, 'utf8') };
}

export function writeProgramRepro(dir: string, result: CaseResult, run: ResultsFile, resultsFile: string, src: ProgramSource, ctsVersion: string, extra: ReproExtras = {}): WrittenProgram {
  const scrub = scrubber(run, resultsFile, dir);
  mkdirSync(path.join(dir, 'inputs'), { recursive: true });
  mkdirSync(path.join(dir, 'expected'), { recursive: true });
  const { form, bytes } = formOf(run, src);
  const programFile = form === 'text' ? 'program.mlir' : 'program.mlirbc';
  writeFileSync(path.join(dir, programFile), bytes);
  const multi = src.inputs.length > 1;
  const inst = (i: number): string => (multi ? `i${i}_` : '');
  const inputs = src.inputs.map((vs, i) => vs.map((v, k) => writeNpy(dir, `inputs/${inst(i)}arg${k}.npy`, v)));
  const outputs = src.outputs.map((vs, i) => vs.map((v: ExpectedValue, k) => ({
    ...writeNpy(dir, `expected/${inst(i)}out${k}.npy`, v),
    type: typeInfo(dtype(v.dtype)),
    tolerance: v.tolerance,
    toleranceJson: JSON.stringify(v.tolerance),
    ...(v.open.length ? { implementationDefined: v.open } : {}),
    ...(v.alternatives.length
      ? { alternatives: v.alternatives.map((a, j) => ({ ...writeNpy(dir, `expected/${inst(i)}out${k}.alt${j + 1}.npy`, { ...v, bytes: a.bytes }), reason: a.reason })) }
      : {}),
    ...(v.accepted ? { accepted: writeAccepted(dir, `expected/${inst(i)}out${k}`, v.accepted) } : {}),
    ...(v.report ? { report: writeReport(dir, `expected/${inst(i)}out${k}`, v.report) } : {}),
    ...(v.anyValue ? { anyValue: v.anyValue } : {}),
  })));
  const createOptions = run.plugin.createOptions ?? {};
  const caseJson = {
    id: result.id, description: src.description, verdict: { ...src.verdict, listed: MISMATCHES_LISTED }, program: programFile, form, replicas: src.replicas, partitions: src.partitions,
    platform: run.plugin.platformName ?? run.plugin.name, createOptions, inputs, outputs, ...(src.elementwise ? { elementwise: true } : {}),
  };
  writeFileSync(path.join(dir, 'case.json'), scrub(`${JSON.stringify(caseJson, null, 2)}\n`));
  copyFileSync(path.join(packageRoot(), 'src', 'repro', 'templates', 'repro.py'), path.join(dir, 'repro.py'));
  const platform = run.plugin.platformName;
  const accepted = src.outputs.some((vs) => vs.some((v) => v.accepted));
  const byPath = { cmd: `python3 repro.py --plugin ${commandPlugin(run, extra)}`, what: 'On the plugin, loaded by path as JAX registers a plugin (jax installed; the create options of the run, from case.json, are passed; `--option name=value` adds or overrides one):' };
  const jaxHas = platform !== undefined && JAX_PLATFORMS.includes(platform);
  const commands = [
    ...(jaxHas ? [{ cmd: `python3 repro.py --platform ${platform}`, what: `Through the ${platform} plugin JAX itself brings up (e.g. \`pip install -U "jax[cuda13]"\` for cuda; no path needed):` }, { ...byPath, what: `Or ${byPath.what.charAt(0).toLowerCase()}${byPath.what.slice(1)}` }] : [byPath]),
    { cmd: 'python3 repro.py --platform cpu', what: 'XLA\'s own CPU client, for comparison (any jax install):' },
  ];
  writeFileSync(path.join(dir, 'README.md'), scrub(readme({
    result, run, resultsFile, ctsVersion, extra,
    shows: `\`repro.py\` compiles the program \`${programFile}\` (${src.description}) with jaxlib's client of the plugin, runs it on the inputs of \`inputs/\` ` +
      `(${src.replicas * src.partitions > 1 ? `${src.replicas} replica(s) × ${src.partitions} partition(s), one device each` : 'one device'}) and compares every output with \`expected/\` ${accepted ? 'element by element against every result the CTS accepts there (the `.accept_*.npy` intervals: the op\'s accuracy bound and the CTS\'s comparison rules, exported by the CTS), so it counts the mismatches the case counted' : 'under the sidecar\'s tolerance'}, printing got vs expected. It needs only jax (and numpy, ml_dtypes, which jax brings).`,
    commands,
    expect: [
      'It prints the plugin, each output as got vs expected, and one verdict line; exit 1 when an output differs, 0 when every output matches, 3 when the plugin refuses to create a client, compile or run the program, 2 bad usage (no jax, no such plugin file or platform, too few devices).',
      `When the failure reproduces, the verdict line is the case's, word for word (what the CTS printed):\n\n\`\`\`\n${verdictLine(result)}\n\`\`\``,
    ],
    files: [
      { name: programFile, what: form === 'text' ? 'the StableHLO program as the case sent it (text; jaxlib parses it and hands the plugin a portable artifact, as JAX does)' : 'the portable artifact (VHLO bytecode) the case sent' },
      { name: 'inputs/*.npy', what: `the arguments${multi ? ' of each program instance (`i<instance>_arg<k>`)' : ''}` },
      { name: 'expected/*.npy', what: accepted ? 'the oracle\'s result per element, and the patterns the CTS accepts per element as intervals: element i accepts `lo[k]..hi[k]` (bit patterns) for `offsets[i] <= k < offsets[i+1]`; an element the CTS does not compare accepts every pattern; the `.judge_*.npy` tables let the script word its report as the CTS does (per element: compared or not, whether a zero counts as a flushed result, the results the oracle gives for its inputs read as ±0 or ±smallest normal)' : 'the expected outputs (`.alt<k>` files: other answers the sidecar accepts, each with its reason in case.json)' },
      { name: 'case.json', what: 'dtypes, dims, tolerance, implementation-defined elements and the run\'s create options' },
      { name: 'repro.py', what: 'the script (jaxlib\'s `compile_and_load` and `execute_sharded`, as `jax.jit` runs a program)' },
    ],
    notes: ['A `.npy` of a type numpy lacks (bf16, the f8/f6/f4 floats, s4/u4/s2/u2) holds its bit patterns as unsigned integers of its host width; `repro.py` views them as the `ml_dtypes` type case.json names.'],
  })));
  return { form, programFile };
}

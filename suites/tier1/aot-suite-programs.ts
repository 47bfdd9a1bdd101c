// Tier 1 — ahead-of-time compilation of every program text the suites compile (fixtures/artifacts/index.json: the
// texts a reference run compiles, kept in fixtures/artifacts/texts/, with the replicas and partitions each was compiled
// for), as aot-compile.ts does for the corpus. No sidecar: the outputs are read from @main's signature, and the rest of
// the executable's metadata is checked as for a corpus program. The texts jaxlib refuses to serialize (index "rejected")
// and those of BAD_PROGRAMS must be rejected. Faults are claimed on one witness program (the same path for every one).
import { existsSync, readFileSync } from 'node:fs';
import type { CaseContext } from '../../src/harness/index.js';
import { DTYPES } from '../../src/abi/dtypes.js';
import { readSuiteIndex, suiteTextFile, textSha256 } from '../../src/corpus/artifacts.js';
import { mainSignature } from '../../src/corpus/signature.js';
import type { Program } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { compileTarget, noCompilerIsUnsupported } from '../_lib/aot.js';
import { compileDeclined } from '../_lib/declined.js';
import { isUnsupported } from '../_lib/errors.js';
import { BAD_PROGRAMS } from '../_lib/programs.js';
import { aotCompile, checkAotExecutable, t, type AotExpectation } from './aot-compile.js';


const CITE =
  'PJRT_Compile against a topology, as JAX\'s ahead-of-time path does (jax.experimental.topologies → PjRtCApiCompiler), of every program ' +
  'the suites compile on a client; the executable reports what @main returns (PJRT_Executable_NumOutputs, OutputElementTypes, ' +
  'OutputDimensions, OutputMemoryKinds "one per output"), the compile options\' NumReplicas/NumPartitions, Name, Fingerprint, Serialize, ' +
  'GetCostAnalysis, GetCompiledMemoryStats, OptimizedProgram and the Layouts extension\'s output layouts';

// i1 is pred (s1 shares the spelling): the first dtype of a spelling wins.
const dtypeOfMlir = new Map([...DTYPES].reverse().map((d) => [d.mlir, d.name]));
const short = (sha: string): string => sha.slice(0, 12);
const textOf = (sha: string): string | undefined => (existsSync(suiteTextFile(sha)) ? readFileSync(suiteTextFile(sha), 'utf8') : undefined);

/** The element types of @main's inputs and outputs (those the CTS knows). */
function dtypesOf(text: string): string[] {
  const sig = mainSignature(text);
  return [...(sig?.inputs ?? []), ...(sig?.outputs ?? [])].flatMap((t) => dtypeOfMlir.get(t.element) ?? []);
}

/** @main's outputs as dtypes and dims; undefined when the signature is not plain static tensors of known types. */
function outputsOf(text: string): AotExpectation['outputs'] {
  const outs = mainSignature(text)?.outputs;
  if (!outs || outs.some((o) => !dtypeOfMlir.has(o.element))) return undefined;
  return outs.map((o) => ({ dtype: dtypeOfMlir.get(o.element)!, dims: o.dims }));
}

const index = readSuiteIndex();
const invalid = new Map(BAD_PROGRAMS.map((b) => [textSha256(b.text), b]));
const programs = Object.entries(index?.programs ?? {}).filter(([sha]) => !invalid.has(sha)).flatMap(([sha, p]) => {
  const text = textOf(sha);
  return text === undefined ? [] : [{ id: short(sha), sha, text, dtypes: dtypesOf(text), want: { name: short(sha), replicas: p.replicas, partitions: p.partitions, outputs: outputsOf(text) } }];
});
const rejected = [...new Set([...Object.keys(index?.rejected ?? {}), ...Object.keys(index?.programs ?? {}).filter((sha) => invalid.has(sha))])].sort().flatMap((sha) => {
  const text = textOf(sha);
  // A text no BAD_PROGRAMS entry names is malformed text too ("not a program"): the fault that compiles garbage shows in it.
  return text === undefined ? [] : [{ id: invalid.get(sha)?.id ?? short(sha), sha, text, catches: invalid.get(sha)?.catches ?? ['compile_accepts_garbage'] }];
});

/** The witness: the first single-device program whose outputs are known claims the executable-metadata faults; every
 * other program claims its output count where its signature gives one, else its name. */
const WITNESS = programs.find((p) => p.want.replicas * p.want.partitions === 1 && p.want.outputs?.length)?.id;
const WITNESS_FAULTS = ['num_outputs_wrong', 'output_element_types_wrong', 'executable_name_empty', 'executable_counts_zero', 'cost_analysis_malformed',
  'compiled_memory_stats_negative', 'optimized_program_size_mismatch', 'output_layouts_count_short'];

/** The text, unless the plugin compiles portable artifacts only (then the committed artifact). */
function programOf(ctx: CaseContext<unknown>, sha: string, text: string): Program {
  const forms = ctx.config.programForms;
  if (!forms || forms.includes('text')) return { code: text, format: 'mlir' };
  const file = suiteTextFile(sha).replace(/texts[/\\](\w+)\.mlir$/, '$1.mlirbc');
  if (!existsSync(file)) ctx.unsupported('the plugin compiles portable artifacts only and this program has none');
  return { code: new Uint8Array(readFileSync(file)), format: 'mlir' };
}

if (programs.length > 0) {
  t.case('suite_program', { source: 'header', cite: CITE, catches: (p: { id: string; want: { outputs?: unknown } }) => (p.id === WITNESS ? WITNESS_FAULTS : p.want.outputs ? ['num_outputs_wrong'] : ['executable_name_empty']) }).params(programs).run(async (ctx) => {
    const { sha, text, want } = ctx.p;
    let exe;
    try {
      exe = await noCompilerIsUnsupported(ctx, () => aotCompile(ctx, programOf(ctx, sha, text), want), { topology: await compileTarget(ctx) });
    } catch (err) {
      if (isUnsupported(err)) throw err;
      // no suite program mixes core and non-core types (a mixed one would need its core twin: _lib/declined.ts)
      const declined = await compileDeclined(err, { dtypes: ctx.p.dtypes });
      if (declined) ctx.unsupported(declined);
      throw err;
    }
    if (!want.outputs) ctx.log('@main\'s outputs are not plain static tensors: output count, types and dims not checked');
    checkAotExecutable(ctx, exe, want);
  });
}

if (rejected.length > 0) {
  t.case('suite_program_rejected', {
    source: 'header',
    cite: 'PJRT_Program.format "mlir": "code string takes MLIR module bytecode (or string)" — a text the suites compile as invalid (jaxlib refuses to serialize it) is no module, ahead of time as on a client; PJRT_Compile names no error code, so any error passes',
    control: `PJRT_Compile of the witness suite program against the same topology succeeds`,
    catches: (p: { catches: string[] }) => p.catches,
  }).params(rejected).run(async (ctx) => {
    const forms = ctx.config.programForms;
    if (forms && !forms.includes('text')) ctx.unsupported('the plugin compiles portable artifacts only, and jaxlib cannot serialize this text');
    const witness = programs.find((p) => p.id === WITNESS);
    if (witness) await check.control('PJRT_Compile of the witness suite program against the same topology', async () => noCompilerIsUnsupported(ctx, () => aotCompile(ctx, programOf(ctx, witness.sha, witness.text), witness.want), { topology: await compileTarget(ctx) }));
    const topology = await compileTarget(ctx);
    await check.rejects(() => ctx.plugin.compile(topology, { code: ctx.p.text, format: 'mlir' }, {}, { scope: ctx.scope }),
      `PJRT_Compile of an invalid program (${ctx.p.id}) against a topology must return an error, not succeed or crash`);
  });
}

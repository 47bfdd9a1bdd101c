// Tier 1 — ahead-of-time compilation of the program corpus, as JAX's AOT path does it (jax.experimental.topologies:
// PJRT_TopologyDescription_Create from a name, then PJRT_Compile against it): no client, so it runs in the
// compile-only profile on a plugin without devices (libtpu on a machine without a TPU). One case per corpus program;
// each checks what the header promises and frameworks read of the executable against the program's sidecar.
// A program the compiler declines for a capability (_lib/declined.ts compileDeclined) is unsupported with its message, recorded per (op, type) in the
// capability matrix. The claimed faults are proven on the witness programs (the same code path for every program).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { area, type CaseContext } from '../../src/harness/index.js';
import { capabilityCells, loadCorpusOnce, type CorpusEntry } from '../../src/corpus/index.js';
import { Layouts, parseLayoutText, type CodePlacement, type Executable, type Program } from '../../src/pjrt/index.js';
import { packageRoot } from '../../src/config/paths.js';
import { dtype } from '../../src/abi/dtypes.js';
import { enumDef } from '../../src/abi/enums.js';
import * as check from '../_lib/check.js';
import { aotProgram, COMPILE_TIMEOUT_MS, compileTarget, noCompilerIsUnsupported } from '../_lib/aot.js';
import { compileDeclined } from '../_lib/declined.js';
import { isPjrtError, isUnsupported } from '../_lib/errors.js';
import { BAD_PROGRAMS } from '../_lib/programs.js';
import { READS_ONLY_CODE_SIZE_CITE, READS_WITHIN_TERMINATED_CITE } from '../_lib/program-code.js';
import { spmdBuildOptions } from '../_lib/shardy.js';

/** The area, shared with the suites' programs (aot-suite-programs.ts). */
export const t = area('tier1.aot_compile', {
  tier: 1, client: 'none', timeoutMs: COMPILE_TIMEOUT_MS,
  requires: { slots: ['PJRT_TopologyDescription_Create', 'PJRT_Compile', 'PJRT_Executable_NumOutputs'] },
});

const CITE =
  'PJRT_Compile "Compiles a program in specified format (such as MLIR or HLO) with given `options`" against a topology, as JAX\'s ahead-of-time ' +
  'path does (jax.experimental.topologies → PjRtCApiCompiler); the executable reports what the program returns: PJRT_Executable_NumOutputs, ' +
  'OutputElementTypes, OutputDimensions, OutputMemoryKinds ("one per output"), NumReplicas/NumPartitions, Name; Fingerprint, Serialize, ' +
  'GetCostAnalysis, GetCompiledMemoryStats, OptimizedProgram, and the Layouts extension\'s output layouts (one per output, of its rank)';

/** The program of `e` in the form the plugin compiles: its text, or the committed artifact for an artifact-only plugin. */
const programOf = (ctx: CaseContext<unknown>, e: CorpusEntry): Program => aotProgram(ctx, e.program, e.mlirFile.replace(/\.mlir$/, '.mlirbc'));

/** Optional metadata: absent slot or UNIMPLEMENTED (the header lets these be unimplemented) is no finding. */
function optional<T>(ctx: CaseContext<unknown>, what: string, f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (isUnsupported(e) || (isPjrtError(e) && e.codeName === 'UNIMPLEMENTED')) {
      ctx.log(`${what}: ${isPjrtError(e) ? `UNIMPLEMENTED ("${e.message}")` : 'slot absent'}`);
      return undefined;
    }
    throw e;
  }
}

/** What an AOT executable is checked against: the devices it was compiled for and, when known, its outputs (replica 0's). */
export interface AotExpectation {
  name: string;
  replicas: number;
  partitions: number;
  outputs?: readonly { dtype: string; dims: readonly number[] }[];
}

const expectationOf = (e: CorpusEntry): AotExpectation => ({ name: e.name, replicas: e.replicas, partitions: e.partitions, outputs: e.outputs[0]! });

/** Compiles `program` for `want`'s replicas and partitions against the topology (unsupported when it has too few devices). */
export async function aotCompile(ctx: CaseContext<unknown>, program: Program, want: AotExpectation): Promise<Executable> {
  const topology = await compileTarget(ctx);
  const n = want.replicas * want.partitions;
  const ids = topology.deviceDescriptions().map((d) => d.id);
  if (ids.length < n) ctx.unsupported(`the program needs ${n} devices; topology "${ctx.config.topology ?? ''}" describes ${ids.length}`);
  const deviceAssignment = Array.from({ length: want.replicas }, (_, r) => ids.slice(r * want.partitions, (r + 1) * want.partitions));
  const options = { numReplicas: want.replicas, numPartitions: want.partitions, deviceAssignment, ...spmdBuildOptions(want.partitions) };
  return ctx.plugin.compile(topology, program, options, { scope: ctx.scope });
}

/**
 * Compiles `e` against the topology. A refusal is a capability the plugin lacks when the platform has no compiler
 * (the probe program is refused the same way: _lib/aot.ts) or the compiler declines the program (_lib/declined.ts,
 * a mixed program judged by its core twin, compiled the same way); any other refusal fails the case.
 */
export async function aotCompileEntry(ctx: CaseContext<unknown>, e: CorpusEntry): Promise<Executable> {
  const want = expectationOf(e);
  try {
    const exe = await noCompilerIsUnsupported(ctx, () => aotCompile(ctx, programOf(ctx, e), want), { topology: await compileTarget(ctx) });
    for (const [cell, ok] of Object.entries(capabilityCells(e, true))) ctx.capability(cell, ok);
    return exe;
  } catch (err) {
    const declined = isUnsupported(err) ? undefined : await compileDeclined(err, { dtypes: e.dtypes, text: e.program, ops: e.ops }, (text) => aotCompile(ctx, aotProgram(ctx, text), want));
    if (isUnsupported(err) || declined) for (const [cell, ok] of Object.entries(capabilityCells(e, false))) ctx.capability(cell, ok);
    if (declined) ctx.unsupported(declined);
    throw err;
  }
}

/** Checks an AOT corpus executable's metadata against the sidecar (outputs of replica 0; every replica returns the same shapes). */
export const checkExecutable = (ctx: CaseContext<unknown>, exe: Executable, e: CorpusEntry): void => checkAotExecutable(ctx, exe, expectationOf(e));

/** Checks an AOT executable's metadata: the outputs only when `want` knows them. */
export function checkAotExecutable(ctx: CaseContext<unknown>, exe: Executable, e: AotExpectation): void {
  const want = e.outputs;
  const tooNew = want && typesTooNew(ctx.plugin.apiVersion.minor, want.map((o) => o.dtype));
  if (want) {
    check.equal(exe.numOutputs(), want.length, `PJRT_Executable_NumOutputs of ${e.name} (the program returns ${want.length} outputs)`);
    const types = tooNew ? undefined : optional(ctx, 'PJRT_Executable_OutputElementTypes', () => exe.outputElementTypes());
    if (types) check.equal(types, want.map((o) => o.dtype), 'PJRT_Executable_OutputElementTypes must be the program\'s output types');
    const dims = optional(ctx, 'PJRT_Executable_OutputDimensions', () => exe.outputDimensions());
    if (dims) check.equal(dims, want.map((o) => [...o.dims]), 'PJRT_Executable_OutputDimensions must be the program\'s output dims');
  }
  const count = want?.length ?? exe.numOutputs();
  const kinds = optional(ctx, 'PJRT_Executable_OutputMemoryKinds', () => exe.outputMemoryKinds());
  if (kinds) {
    check.equal(kinds.length, count, 'PJRT_Executable_OutputMemoryKinds lists one memory kind per output');
    kinds.forEach((k, i) => check.nonEmptyString(k, `output ${i}'s memory kind must name a memory kind`));
  }
  check.equal(exe.numReplicas(), e.replicas, 'PJRT_Executable_NumReplicas must be the compile options\' num_replicas');
  check.equal(exe.numPartitions(), e.partitions, 'PJRT_Executable_NumPartitions must be the compile options\' num_partitions');
  check.nonEmptyString(exe.name(), 'PJRT_Executable_Name must name the executable');
  const fp = optional(ctx, 'PJRT_Executable_Fingerprint ("May not be implemented by all platforms")', () => exe.fingerprint());
  if (fp !== undefined) check.equal(exe.fingerprint(), fp, 'PJRT_Executable_Fingerprint of one executable must not change between calls');
  const bytes = optional(ctx, 'PJRT_Executable_Serialize', () => exe.serialize());
  if (bytes) check.ok(bytes.length > 0, 'PJRT_Executable_Serialize of a compiled executable must produce bytes', '> 0 bytes', '0 bytes');
  const cost = optional(ctx, 'PJRT_Executable_GetCostAnalysis', () => exe.costAnalysis());
  if (cost) {
    for (const name of Object.keys(cost)) check.nonEmptyString(name, 'every cost analysis property has a name');
    const again = optional(ctx, 'PJRT_Executable_GetCostAnalysis', () => exe.costAnalysis());
    if (again) check.equal(check.show(again), check.show(cost), 'PJRT_Executable_GetCostAnalysis of one executable must give the same properties on every call');
  }
  const stats = optional(ctx, 'PJRT_Executable_GetCompiledMemoryStats', () => exe.compiledMemoryStats());
  if (stats) for (const [k, v] of Object.entries(stats)) check.ok(v >= 0n, `compiled memory stats: ${k} is a size in bytes`, '≥ 0', String(v));
  const optimized = optional(ctx, 'PJRT_Executable_OptimizedProgram', () => exe.optimizedProgram());
  if (optimized) {
    check.ok(optimized.code.length > 0, 'PJRT_Executable_OptimizedProgram must return the optimized program', '> 0 bytes', '0 bytes');
    check.equal(optimized.code.length, optimized.querySize, 'PJRT_Executable_OptimizedProgram: the size query must equal the bytes written');
  }
  if (ctx.plugin.raw.extensionChain().entries.some((x) => x.typeName === Layouts.TYPE)) {
    const layouts = optional(ctx, 'PJRT_Layouts_PJRT_Executable_GetOutputLayouts', () => new Layouts(ctx.plugin.raw).outputs(exe));
    if (layouts) {
      check.equal(layouts.length, count, 'GetOutputLayouts_Args.layouts "Has length `num_outputs`"');
      const tiled: string[] = [];
      layouts.forEach((l, i) => {
        const p = parseLayoutText(l);
        check.ok(p !== null, `output ${i}'s layout must be XLA layout text (PjRtLayout::Deserialize parses it)`, 'text like "{1,0}" or "{1,0:T(8,128)}"', JSON.stringify(l));
        const rank = want?.[i]?.dims.length;
        if (rank !== undefined) check.equal([...p.minorToMajor].sort((a, b) => a - b), [...Array(rank).keys()], `output ${i}'s layout: minor_to_major is a permutation of its dimensions`);
        if (p.rest) tiled.push(`output ${i} ${l}`);
      });
      if (tiled.length) ctx.log(`tiled output layouts: ${tiled.join(', ')}`);
    }
  }
  if (tooNew) ctx.unsupported(`PJRT_Executable_OutputElementTypes not asked: ${tooNew}`);
}

/**
 * The output types a plugin of API minor `minor` has no PJRT_Buffer_Type for (added in a later header), as a reason
 * naming the minor; undefined when it has them all. Asking OutputElementTypes for them is asking for a value its
 * header does not define (libtpu 0.112 aborts: "Element type of the shape is not supported in C API layer").
 */
export function typesTooNew(minor: number, dtypes: readonly string[]): string | undefined {
  const members = enumDef('PJRT_Buffer_Type').members;
  const newer = [...new Set(dtypes)].map((d) => ({ d, m: members.find((x) => x.name === dtype(d).pjrt) })).filter((x) => x.m && x.m.since > minor);
  if (!newer.length) return undefined;
  return newer.map((x) => `PJRT_Buffer_Type_${x.m!.name} (${x.d}) needs 0.${x.m!.since}`).join(', ') + `; the plugin speaks 0.${minor}`;
}

/** The witness programs that claim the executable-metadata faults (each shows every one of them); every other program claims the output count. */
const WITNESSES: Readonly<Record<string, readonly string[]>> = {
  add_f32: ['num_outputs_wrong', 'output_element_types_wrong', 'executable_name_empty', 'executable_counts_zero', 'cost_analysis_malformed',
    'compiled_memory_stats_negative', 'optimized_program_size_mismatch', 'output_layouts_count_short'],
};

const dir = path.join(packageRoot(), 'fixtures', 'programs');
const entries: readonly CorpusEntry[] = existsSync(dir) ? loadCorpusOnce(dir) : [];
const rows = entries.map((e) => ({ id: e.name, entry: e }));

/** NOT_FOUND for a core program from a compiler that compiles the probe program is a failure (_lib/aot.ts): shown on one. */
const NOT_FOUND_WITNESS = { id: 'multiply_f32', fault: 'aot_compile_not_found=multiply' };

const programCatches = (p: { id: string }): readonly string[] => [...(WITNESSES[p.id] ?? ['num_outputs_wrong']), ...(p.id === NOT_FOUND_WITNESS.id ? [NOT_FOUND_WITNESS.fault] : [])];

if (rows.length > 0) {
  t.case('program', { source: 'header', cite: CITE, catches: programCatches }).params(rows).run(async (ctx) => {
    const e = ctx.p.entry;
    const exe = await aotCompileEntry(ctx, e);
    checkExecutable(ctx, exe, e);
  });
}

const entry = (name: string): CorpusEntry | undefined => entries.find((e) => e.name === name);
const FINGERPRINT = 'PJRT_Executable_Fingerprint: "A unique fingerprint for `executable`. Two executables that were produced by compiling with identical inputs (same program, compile options, compiler version, etc.) should have the same fingerprint. May not be implemented by all platforms." (UNIMPLEMENTED → unsupported)';

t.case('fingerprint_stable_across_compiles', { source: 'header', cite: FINGERPRINT, catches: ['fingerprint_unstable'], requires: { slots: ['PJRT_Executable_Fingerprint'] } }).run(async (ctx) => {
  const e = entry('add_f32');
  if (!e) return ctx.skip('the corpus has no add_f32');
  const [a, b] = [await aotCompileEntry(ctx, e), await aotCompileEntry(ctx, e)];
  const fa = await check.unimplementedIsUnsupported(ctx, 'the header allows Fingerprint to be unimplemented', () => a.fingerprint());
  check.equal(b.fingerprint(), fa, 'two AOT compiles of one program with the same options against one topology must fingerprint the same');
});

t.case('fingerprint_distinct', {
  source: 'header', cite: `${FINGERPRINT}; a fingerprint is "unique" to its executable: add and multiply of the same operands are different executables`,
  catches: ['fingerprint_constant'], requires: { slots: ['PJRT_Executable_Fingerprint'] },
}).run(async (ctx) => {
  const [e1, e2] = [entry('add_f32'), entry('multiply_f32')];
  if (!e1 || !e2) return ctx.skip('the corpus lacks add_f32 or multiply_f32');
  const fa = await check.unimplementedIsUnsupported(ctx, 'the header allows Fingerprint to be unimplemented', async () => (await aotCompileEntry(ctx, e1)).fingerprint());
  const fb = (await aotCompileEntry(ctx, e2)).fingerprint();
  check.ok(fa !== fb, 'the fingerprints of two different programs must differ', 'different fingerprints', `both ${fa}`);
});

t.case('rejects_bad_program', {
  source: 'header',
  cite: 'PJRT_Program.format "mlir": "code string takes MLIR module bytecode (or string)" — text that is no valid module cannot be compiled, ahead of time as on a client; PJRT_Compile names no error code, so any error passes',
  control: 'PJRT_Compile of add_f32 against the same topology succeeds',
  catches: (p: { catches: string[] }) => p.catches,
})
  .params(BAD_PROGRAMS)
  .run(async (ctx) => {
    const valid = entry('add_f32');
    if (valid) await check.control('PJRT_Compile of add_f32 against the same topology', () => aotCompileEntry(ctx, valid));
    const topology = await compileTarget(ctx);
    await check.rejects(() => ctx.plugin.compile(topology, { code: ctx.p.text, format: 'mlir' }, {}, { scope: ctx.scope }),
      `PJRT_Compile of a malformed program (${ctx.p.id}) against a topology must return an error, not succeed or crash`);
  });

/** add_f32 compiled ahead of time with its code placed right before a PROT_NONE page (src/pjrt/program-args.ts). */
async function aotCompileAt(ctx: CaseContext<unknown>, placement: CodePlacement): Promise<void> {
  const e = entry('add_f32');
  if (!e) return ctx.skip('the corpus lacks add_f32');
  await aotCompileEntry(ctx, e); // the program compiles as frameworks pass it: a failure here is not this case's
  await aotCompile(ctx, { ...programOf(ctx, e), placement }, expectationOf(e));
}

/** The first 80 bytes of add_f32 (cut inside a token), right before a PROT_NONE page: PJRT_Compile must only refuse it. */
async function aotRejectAtGuard(ctx: CaseContext<unknown>): Promise<void> {
  const e = entry('add_f32');
  if (!e) return ctx.skip('the corpus lacks add_f32');
  const topology = await compileTarget(ctx);
  await check.rejects(() => ctx.plugin.compile(topology, { code: e.program.slice(0, 80), format: 'mlir', placement: 'guard_after_code' }, {}, { scope: ctx.scope }),
    'a truncated program given as exactly code_size bytes should be rejected with an error, without reading past them (quality)');
}

t.case('reads_within_terminated_code', {
  source: 'header',
  cite: READS_WITHIN_TERMINATED_CITE,
  catches: ['program_lookahead_past_end'],
}).run((ctx) => aotCompileAt(ctx, 'guard_after_nul'));

t.case('reads_only_code_size', {
  source: 'quality',
  cite: READS_ONLY_CODE_SIZE_CITE,
  catches: ['program_read_as_c_string', 'program_lookahead_past_end'],
})
  .params([{ id: 'valid' }, { id: 'truncated' }] as const)
  .run((ctx) => (ctx.p.id === 'valid' ? aotCompileAt(ctx, 'guard_after_code') : aotRejectAtGuard(ctx)));

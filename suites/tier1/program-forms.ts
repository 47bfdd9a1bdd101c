// Tier 1 — program forms: StableHLO as text and as a portable artifact (VHLO MLIR bytecode, what JAX sends).
// The artifacts are committed (src/corpus/artifacts.ts, docs/artifacts.md); which forms the plugin accepts is
// probed here in the case itself (src/harness/program-forms.ts decides the same once per worker for other cases).
import { existsSync, readFileSync } from 'node:fs';
import { compareVersions, corpusDir, PROBE_OPS, storedArtifact, versionArtifacts } from '../../src/corpus/artifacts.js';
import { compareOutput, loadCorpusOnce, type CorpusEntry } from '../../src/corpus/index.js';
import { area, artifactOf, PROBE_PROGRAM, programForms, versionString, type CaseContext } from '../../src/harness/index.js';
import type { Client, LoadedExecutable, Program } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { isPjrtError } from '../_lib/errors.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { checkedOutputs, soleOutput } from '../_lib/outputs.js';

const t = area('tier1.program_forms', { tier: 1, requires: { slots: ['PJRT_Client_Compile'] } });

/** Where JAX's portable artifacts come from, in XLA's C-API client (the code every PJRT plugin gets from JAX). */
const JAX_SENDS_ARTIFACTS =
  'XLA\'s C-API client (xla/pjrt/c_api_client/pjrt_c_api_client.cc SerializeProgram) sends every MLIR module as format "mlir" ' +
  'through xla::Serialize → SerializeUsingVersionedStablehlo (xla/pjrt/mlir_to_hlo.cc), which calls ' +
  'mlir::stablehlo::serializePortableArtifact at the plugin\'s stablehlo_current_version (GetPluginStablehloVersionOrDefault)';
const HEADER_FORMS = 'PJRT_Program.format "mlir": "code string takes MLIR module bytecode (or string)"';

const describeError = (e: unknown): string => (isPjrtError(e) ? `${e.codeName} "${e.message}"` : e instanceof Error ? e.message : String(e));

/** The probe program (f32[] x + 1) compiled from `program` and run on 41: must give 42. */
async function runProbe(client: Client, program: Program, what: string): Promise<void> {
  const exe = await client.compile(program);
  const device = exe.addressableDevices()[0]!;
  const arg = await client.upload(f32([41]), { dtype: 'f32', dims: [], device });
  const out = await soleOutput(await exe.execute([[arg]])).toHost({ dtype: 'f32', dims: [] });
  check.equal(readF32(out), [42], `${what}: the probe program x + 1 must compute 41 + 1 = 42`);
}

t.case('accepted', {
  source: 'framework',
  cite: `${HEADER_FORMS}; ${JAX_SENDS_ARTIFACTS}: a plugin that compiles neither form of a trivial program can run no framework's program`,
  catches: ['crash_in=PJRT_Client_Compile'],
}).run(async (ctx) => {
  const forms: string[] = [];
  const why: string[] = [];
  for (const [form, code] of [['text', PROBE_PROGRAM], ['artifact', artifactOf(PROBE_PROGRAM)]] as const) {
    if (code === undefined) {
      why.push(`artifact: no committed artifact of the probe program`);
      continue;
    }
    try {
      (await ctx.client.compile({ code, format: 'mlir' })).destroy();
      forms.push(form);
      ctx.capability(`program_form/${form}`, true);
    } catch (e) {
      if (!isPjrtError(e)) throw e;
      why.push(`${form}: ${describeError(e)}`);
      ctx.capability(`program_form/${form}`, false);
    }
  }
  check.ok(forms.length > 0, 'the plugin must compile a trivial StableHLO program as text or as a portable artifact (JAX sends artifacts)', 'text or artifact accepted', why.join('; '));
  ctx.log(`accepted program forms: ${forms.join(', ')}`);
});

t.case('artifact_accepted', {
  source: 'framework',
  cite: `${HEADER_FORMS} — bytecode first; ${JAX_SENDS_ARTIFACTS}: a plugin that rejects portable artifacts can run no JAX program, whatever text it accepts`,
  catches: ['compile_rejects_bytecode'],
  requires: { slots: ['PJRT_LoadedExecutable_Execute'] },
}).run(async (ctx) => {
  const probe = artifactOf(PROBE_PROGRAM);
  if (!probe) return ctx.unsupported('no committed artifact of the probe program (run node dist/scripts/gen-artifacts.js)');
  await runProbe(ctx.client, { code: probe, format: 'mlir' }, 'the probe program as a portable artifact');
});

/** Unsupported unless the plugin accepts artifacts (the worker's decision, with its reason). */
async function needArtifacts(ctx: CaseContext<unknown>): Promise<void> {
  const f = await programForms(ctx.client);
  if (!f.accepted.includes('artifact')) ctx.unsupported(`the plugin does not compile portable artifacts (${f.how}: ${f.rejected.artifact ?? '?'})`);
}

/** The plugin's StableHLO version attribute, or unsupported when it reports none. */
function pluginVersion(ctx: CaseContext<unknown>, name: 'stablehlo_minimum_version' | 'stablehlo_current_version'): string {
  if (!ctx.plugin.has('PJRT_Plugin_Attributes')) ctx.unsupported('PJRT_Plugin_Attributes is null, so the plugin reports no StableHLO version');
  const v = versionString(ctx.plugin.attributes()[name]);
  if (!v) ctx.unsupported(`the plugin reports no ${name} attribute (an int64 list of three)`);
  return v;
}

const VERSION_CITE = (which: string): string =>
  `pjrt_c_api.h PJRT_Plugin_Attributes: "Common keys include xla_version, stablehlo_current_version, and stablehlo_minimum_version" ` +
  `(pjrt_c_api_helpers.cc GetXlaPluginCAttributes: vhlo::Version::getCurrentVersion / getMinimumVersion); ${JAX_SENDS_ARTIFACTS}, ` +
  `and an older framework serializes at its own older version (SerializeUsingVersionedStablehlo: "Usually the plugin is older than the framework"): ` +
  `an artifact at the plugin's ${which} version must compile`;

t.case('artifact_minimum_version', {
  source: 'framework',
  cite: VERSION_CITE('minimum'),
  catches: ['crash_in=PJRT_Client_Compile', 'crash_in=PJRT_LoadedExecutable_Execute'],
  requires: { slots: ['PJRT_LoadedExecutable_Execute'] },
}).run(async (ctx) => {
  await needArtifacts(ctx);
  const min = pluginVersion(ctx, 'stablehlo_minimum_version');
  const stored = versionArtifacts();
  if (!stored) return ctx.unsupported('no committed every-version artifacts (run node dist/scripts/gen-artifacts.js)');
  // The plugin's minimum, or the oldest version jaxlib writes when the plugin reads older ones too.
  const at = [...stored.files.keys()].sort(compareVersions).find((v) => compareVersions(v, min) >= 0);
  if (!at) return ctx.unsupported(`no committed artifact at or above the plugin's stablehlo_minimum_version ${min}`);
  if (at !== min) ctx.log(`no artifact at exactly ${min} (jaxlib writes VHLO versions from ${[...stored.files.keys()].sort(compareVersions)[0]}); sent ${at}`);
  await runProbe(ctx.client, { code: readFileSync(stored.files.get(at)!), format: 'mlir' }, `artifact at StableHLO ${at} (plugin minimum ${min})`);
});

t.case('artifact_current_version', {
  source: 'framework',
  cite: VERSION_CITE('current'),
  catches: ['crash_in=PJRT_Client_Compile', 'crash_in=PJRT_LoadedExecutable_Execute'],
  requires: { slots: ['PJRT_LoadedExecutable_Execute'] },
}).run(async (ctx) => {
  await needArtifacts(ctx);
  const cur = pluginVersion(ctx, 'stablehlo_current_version');
  const stored = versionArtifacts();
  if (!stored) return ctx.unsupported('no committed every-version artifacts (run node dist/scripts/gen-artifacts.js)');
  // The plugin's current version, or the newest jaxlib writes when the plugin is newer than that.
  const at = [...stored.files.keys()].sort(compareVersions).reverse().find((v) => compareVersions(v, cur) <= 0);
  if (!at) return ctx.unsupported(`no committed artifact at or below the plugin's stablehlo_current_version ${cur}`);
  if (at !== cur) ctx.log(`no artifact at exactly ${cur}; sent the newest at or below it, ${at}`);
  await runProbe(ctx.client, { code: readFileSync(stored.files.get(at)!), format: 'mlir' }, `artifact at StableHLO ${at} (plugin current ${cur})`);
});

t.case('rejects_truncated_artifact', {
  source: 'header',
  cite: `${HEADER_FORMS}; PJRT_Program.code: "Serialized code in the specified format": half of a portable artifact is no module and cannot be compiled; no error code is named, so any error passes`,
  control: 'the whole artifact compiles',
  catches: ['crash_in=PJRT_Client_Compile'],
}).run(async (ctx) => {
  await needArtifacts(ctx);
  const whole = artifactOf(PROBE_PROGRAM);
  if (!whole) return ctx.unsupported('no committed artifact of the probe program (run node dist/scripts/gen-artifacts.js)');
  await check.control('compile the whole artifact', async () => (await ctx.client.compile({ code: whole, format: 'mlir' })).destroy());
  const truncated = whole.subarray(0, Math.floor(whole.length / 2));
  await check.rejects(async () => (await ctx.client.compile({ code: truncated, format: 'mlir' })).destroy(), `a portable artifact truncated to ${truncated.length} of ${whole.length} bytes must be rejected with an error, not compiled or crash`);
});

// The same corpus program as text and as artifact: one single-replica program per distinct op set.
const corpusRows = (): { id: string; entry: CorpusEntry }[] => {
  if (!existsSync(corpusDir())) return [];
  const seen = new Set<string>();
  const rows: { id: string; entry: CorpusEntry }[] = [];
  for (const e of loadCorpusOnce(corpusDir())) {
    const key = e.ops.join('+');
    if (e.replicas * e.partitions !== 1 || seen.has(key)) continue;
    seen.add(key);
    rows.push({ id: e.name, entry: e });
  }
  return rows;
};

/**
 * Runs a one-replica corpus program compiled from `program`; each output's problem (vs the sidecar), if any. A compile
 * that answers UNIMPLEMENTED makes the case unsupported, as tier1.program.run calls the same program.
 */
async function corpusOutputs(ctx: CaseContext<unknown>, e: CorpusEntry, program: Program, form: string): Promise<string[]> {
  const { client } = ctx;
  let exe: LoadedExecutable;
  try {
    exe = await client.compile(program);
  } catch (err) {
    if (isPjrtError(err) && err.codeName === 'UNIMPLEMENTED') ctx.unsupported(`compile as ${form}: ${err.message}`);
    return [`compile as ${form} failed: ${describeError(err)}`];
  }
  const device = exe.addressableDevices()[0]!;
  const args = await Promise.all(e.inputs[0]!.map((v) => client.upload(v.bytes, { dtype: v.dtype, dims: v.dims, device })));
  const want = e.outputs[0]!;
  const outputs = checkedOutputs(await exe.execute([args]), want.length);
  const problems: string[] = [];
  for (let k = 0; k < want.length; k++) {
    const bytes = await outputs[0]![k]!.toHost({ dtype: want[k]!.dtype, dims: want[k]!.dims });
    const why = compareOutput(want[k]!, bytes, `as ${form}, output ${k}`);
    if (why) problems.push(why);
  }
  return problems;
}

t.case('text_and_artifact_agree', {
  source: 'framework',
  cite: `${HEADER_FORMS}: text and bytecode are two encodings of one module; what is compared is the program's results, i.e. StableHLO operation semantics, which JAX relies on whichever form it sends — ${JAX_SENDS_ARTIFACTS}`,
  // The same program's basic run: when it fails, this case's failure is that one's, counted once.
  dependsOn: (p: { id: string }) => `tier1.program.run.${p.id}`,
  // A reader with a wrong op-table entry rejects every artifact using that op (the text still compiles), and one that
  // loses compare's direction fails every program with a compare. Ops of the form probe are left out: a reader
  // fault there reads as a plugin that takes no artifacts (unsupported).
  catches: (p: { entry: CorpusEntry }) => {
    const op = p.entry.ops.find((o) => !PROBE_OPS.includes(o) && !o.includes('.'));
    const own = [
      ...(op ? [`bytecode_reader_misreads_op=${op}`] : []),
      ...(p.entry.ops.includes('compare') ? ['bytecode_reader_drops_attr=comparison_direction'] : []),
    ];
    return own.length ? own : ['crash_in=PJRT_LoadedExecutable_Execute'];
  },
  requires: { slots: ['PJRT_LoadedExecutable_Execute'] },
})
  .params(corpusRows())
  .run(async (ctx) => {
    const e = ctx.p.entry;
    const f = await programForms(ctx.client);
    const missing = (['text', 'artifact'] as const).filter((x) => !f.accepted.includes(x));
    if (missing.length) ctx.unsupported(`needs both program forms; the plugin does not compile ${missing.join(' or ')} (${f.how}: ${missing.map((m) => f.rejected[m]).join('; ')})`);
    const stored = storedArtifact(e.program);
    if (!stored) return ctx.unsupported(`no committed artifact of ${e.name} (run node dist/scripts/gen-artifacts.js)`);
    const problems = [
      ...(await corpusOutputs(ctx, e, { code: e.program, format: 'mlir' }, 'text')),
      ...(await corpusOutputs(ctx, e, { code: readFileSync(stored.file), format: 'mlir' }, `artifact (StableHLO ${stored.version})`)),
    ];
    if (problems.length) check.fail(`${e.name} compiled as text and as a portable artifact must both give the program's results (the sidecar's)`, 'the sidecar outputs from both forms', problems.join('; '));
  });

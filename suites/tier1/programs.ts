// Tier 1 — the program corpus (fixtures/programs): each program compiled, run on its inputs (per replica), and
// every output checked for its element type, its dims and its values against the sidecar. Records the op × dtype
// capability matrix (one-op programs are the probes, src/corpus/capability.ts) and, for float outputs that match,
// the largest error observed against their bound.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { area, externalProgramsDir, programFor, type CaseContext } from '../../src/harness/index.js';
import { capabilityCells, CORPUS_EXPECTED, corpusRule, findingsText, inspectOutput, instanceLabel, loadCorpus, loadCorpusOnce, outputLabel, type CorpusEntry, type HostValue } from '../../src/corpus/index.js';
import type { ObservedError } from '../../src/config/results.js';
import type { Buffer, Device, LoadedExecutable } from '../../src/pjrt/index.js';
import { packageRoot } from '../../src/config/paths.js';
import * as check from '../_lib/check.js';
import { compileDeclined } from '../_lib/declined.js';
import { isPjrtError, isUnsupported } from '../_lib/errors.js';
import { uploadOrUnsupported } from '../_lib/transfer.js';
import { spmdBuildOptions } from '../_lib/shardy.js';

const t = area('tier1.program', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

/** The demand of a corpus case: the op semantics of the StableHLO spec, which JAX (and PyTorch/XLA, TensorFlow) compile to. */
const CITE =
  'StableHLO spec op semantics (openxla/stablehlo docs/spec.md), which JAX lowers jit to; PJRT_Buffer_ElementType/Dimensions, ' +
  'PJRT_Executable_Output*; latitude: docs/corpus.md';

/**
 * The faults a corpus program claims are its sidecar's `catches`, which the generators write from each op's and
 * program's declared data (src/corpus/gen/claims.ts). An external corpus's sidecar may leave them out: its programs
 * claim what every program shows (the execute crash and the output element types).
 */
const EXTERNAL_CATCHES = ['crash_in=PJRT_LoadedExecutable_Execute', 'wrong_element_type', 'output_element_types_wrong'];

const dir = path.join(packageRoot(), 'fixtures', 'programs');
const entries: readonly CorpusEntry[] = existsSync(dir) ? loadCorpusOnce(dir) : [];
const rows = entries.map((e) => ({ id: e.name, entry: e }));

/**
 * Compiles and runs one corpus program. The device assignment is explicit — the first replicas × partitions
 * addressable devices, instance i = replica · partitions + partition on device i — as JAX's jit passes one device's
 * id (jax/_src/interpreters/pxla.py → compiler.get_compile_options) and PyTorch/XLA's PjRtComputationClient::Compile
 * fills DeviceAssignment(device_count, 1) itself: neither calls PJRT_Client_DefaultDeviceAssignment. A program with
 * several partitions is compiled as JAX compiles one (suites/_lib/shardy.ts spmdBuildOptions) and gets
 * one argument list per addressable device of the executable, replica-major, as PJRT_LoadedExecutable_Execute's
 * argument_lists are ordered.
 */
/** A corpus entry; `artifactFile`: the external corpus's own portable artifact of the program, if it ships one. */
type RunEntry = CorpusEntry & { artifactFile?: string };

async function runEntry(ctx: CaseContext<unknown>, e: RunEntry): Promise<{ exe: LoadedExecutable; outputs: Buffer[][] }> {
  const { client } = ctx;
  const n = e.replicas * e.partitions;
  const devices: Device[] = client.addressableDevices().slice(0, n);
  if (devices.length < n) {
    const shape = e.partitions > 1 ? `${e.replicas} replica(s) × ${e.partitions} partitions` : `${n} replicas`;
    ctx.unsupported(`the program needs ${n} devices (${shape}); the client has ${devices.length} addressable device(s)`);
  }
  const deviceAssignment = Array.from({ length: e.replicas }, (_, r) => devices.slice(r * e.partitions, (r + 1) * e.partitions).map((d) => d.id));
  const options = { numReplicas: e.replicas, numPartitions: e.partitions, deviceAssignment, ...spmdBuildOptions(e.partitions) };
  let exe: LoadedExecutable;
  try {
    exe = await client.compile(await programFor(client, e.program, e.artifactFile), options);
  } catch (err) {
    // a program mixing core and non-core types is judged by its core twin, compiled the same way
    const declined = await compileDeclined(err, { dtypes: e.dtypes, text: e.program, ops: e.ops }, async (text) => client.compile(await programFor(client, text), options));
    if (declined) {
      for (const [cell, ok] of Object.entries(capabilityCells(e, false))) ctx.capability(cell, ok);
      ctx.unsupported(declined);
    }
    throw err;
  }
  // a plugin may lack a non-core element type (f8, f4 …): its upload is then unsupported, never a failure
  const args = await Promise.all(devices.map((device, r) => Promise.all(e.inputs[r]!.map((v) => uploadOrUnsupported(ctx, client, v.bytes, { dtype: v.dtype, dims: v.dims, device })))));
  const { outputs } = await exe.execute(args);
  return { exe, outputs };
}

const describeError = (err: unknown): string =>
  isPjrtError(err) ? `${err.codeName} "${err.message}"` : err instanceof Error ? `${err.name}: ${err.message}` : String(err);

/** What one getter returns, or the error it raised as a finding (UnsupportedError: the slot is absent, no finding). */
function probe<T>(what: string, f: () => T, problems: string[]): T | undefined {
  try {
    return f();
  } catch (err) {
    if (isUnsupported(err)) return undefined;
    problems.push(`${what} failed: ${describeError(err)}`);
    return undefined;
  }
}

/**
 * The executable's own view of its outputs (PJRT_Executable_OutputElementTypes / OutputDimensions), where the
 * plugin has the slots: absent slots and UNIMPLEMENTED are no finding (JAX reads output types from the program).
 */
function executableFindings(exe: LoadedExecutable, want: HostValue[], problems: string[]): void {
  const x = probe('PJRT_LoadedExecutable_GetExecutable', () => exe.executable(), problems);
  if (!x) return;
  const optional = <T>(slot: string, f: () => T): T | undefined => {
    try {
      return f();
    } catch (err) {
      if (isUnsupported(err) || (isPjrtError(err) && err.codeName === 'UNIMPLEMENTED')) return undefined;
      problems.push(`${slot} failed: ${describeError(err)}`);
      return undefined;
    }
  };
  try {
    const types = optional('PJRT_Executable_OutputElementTypes', () => x.outputElementTypes());
    const wantTypes = want.map((o) => o.dtype);
    if (types && check.show(types) !== check.show(wantTypes)) problems.push(`PJRT_Executable_OutputElementTypes: expected ${check.show(wantTypes)}, got ${check.show(types)}`);
    const dims = optional('PJRT_Executable_OutputDimensions', () => x.outputDimensions());
    const wantDims = want.map((o) => o.dims);
    if (dims && check.show(dims) !== check.show(wantDims)) problems.push(`PJRT_Executable_OutputDimensions: expected ${check.show(wantDims)}, got ${check.show(dims)}`);
  } finally {
    x.destroy();
  }
}

/**
 * Every replica's outputs, each as separate findings so one bug does not hide another: the number of outputs,
 * each output's element type (PJRT_Buffer_ElementType) and dims (PJRT_Buffer_Dimensions), and its values, read
 * into a destination sized from the expected dtype and dims (no ToHostBuffer size query). `observed`: the largest
 * error of each float output whose values matched.
 */
async function outputFindings(e: CorpusEntry, outputs: Buffer[][]): Promise<{ problems: string[]; observed: ObservedError[] }> {
  const problems: string[] = [];
  const observed: ObservedError[] = [];
  const n = e.replicas * e.partitions;
  for (let r = 0; r < n; r++) {
    const want = e.outputs[r]!;
    const got = outputs[r] ?? [];
    const who = instanceLabel(r, e.replicas, e.partitions);
    const at = (k: number) => outputLabel(who, k);
    if (got.length !== want.length) problems.push(`${who ? `${who}: ` : ''}expected ${want.length} outputs, got ${got.length}`);
    for (let k = 0; k < Math.min(got.length, want.length); k++) {
      const b = got[k]!;
      const w = want[k]!;
      const type = probe(`${at(k)}: PJRT_Buffer_ElementType`, () => b.elementType(), problems);
      if (type !== undefined && type !== w.dtype) problems.push(`${at(k)}: PJRT_Buffer_ElementType: expected ${w.dtype}, got ${type}`);
      const dims = probe(`${at(k)}: PJRT_Buffer_Dimensions`, () => b.dims(), problems);
      if (dims !== undefined && check.show(dims) !== check.show(w.dims)) problems.push(`${at(k)}: PJRT_Buffer_Dimensions: expected ${check.show(w.dims)}, got ${check.show(dims)}`);
      let bytes: Uint8Array | undefined;
      try {
        bytes = await b.toHost({ dtype: w.dtype, dims: w.dims });
      } catch (err) {
        if (isUnsupported(err)) throw err;
        problems.push(`${at(k)}: PJRT_Buffer_ToHostBuffer into ${w.bytes.length} bytes (${w.dtype}[${w.dims.join(',')}]) failed: ${describeError(err)}`);
      }
      if (bytes) {
        const r = inspectOutput(w, bytes, at(k));
        if (r.mismatch) problems.push(r.mismatch);
        else if (r.observed) observed.push({ output: at(k), dtype: w.dtype, ...r.observed, bound: boundOf(w) });
      }
    }
  }
  return { problems, observed };
}

/** The distance bounds of an output's tolerance (an absent `ulp` is 0: bit-exact up to the other bounds). */
function boundOf(w: HostValue): ObservedError['bound'] {
  const t = w.tolerance;
  return { ulp: t.ulp ?? 0, ...(t.abs !== undefined ? { abs: t.abs } : {}), ...(t.rel !== undefined ? { rel: t.rel } : {}) };
}

/** Runs one corpus program and checks every program instance's outputs against the sidecar. */
async function checkEntry(ctx: CaseContext<{ entry: RunEntry }>): Promise<void> {
  const e = ctx.p.entry;
  const { exe, outputs } = await runEntry(ctx, e);
  const { problems, observed } = await outputFindings(e, outputs);
  executableFindings(exe, e.outputs[0]!, problems);
  for (const [cell, ok] of Object.entries(capabilityCells(e, problems.length === 0))) ctx.capability(cell, ok);
  if (observed.length) ctx.detail('observedError', observed);
  if (problems.length) {
    check.fail(corpusRule(e.name, e.description), CORPUS_EXPECTED, findingsText(problems));
  }
}

if (rows.length > 0) {
  t.case('run', { source: 'framework', cite: CITE, catches: (p: { entry: CorpusEntry }) => p.entry.catches ?? EXTERNAL_CATCHES }).params(rows).run(checkEntry);
}

// --programs <dir>: a vendor's own corpus in the same format, as external.program.run.<name>.
const externalDir = externalProgramsDir();
if (externalDir) {
  const external = area('external.program', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });
  // A vendor's corpus may ship `<name>.mlirbc` portable artifacts for plugins that compile nothing else.
  const externalRows = loadCorpus(externalDir, { idPrefix: 'external.program' }).map((e) => ({ id: e.name, entry: { ...e, artifactFile: e.mlirFile.replace(/\.mlir$/, '.mlirbc') } }));
  if (externalRows.length > 0) {
    external.case('run', { source: 'framework', cite: CITE, catches: (p: { entry: CorpusEntry }) => p.entry.catches ?? EXTERNAL_CATCHES }).params(externalRows).run(checkEntry);
  }
}

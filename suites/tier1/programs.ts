// Tier 1 — the program corpus (fixtures/programs): each program compiled, run on its inputs (per replica), and
// every output checked for its element type, its dims and its values against the sidecar. Records the op × dtype
// capability matrix (one-op programs are the probes, src/corpus/capability.ts) and, for float outputs that match,
// the largest error observed against their bound.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { area, externalProgramsDir, programFor, type CaseContext } from '../../src/harness/index.js';
import { dtype } from '../../src/abi/index.js';
import { capabilityCells, inspectOutput, loadCorpus, type CorpusEntry, type HostValue } from '../../src/corpus/index.js';
import type { ObservedError } from '../../src/config/results.js';
import type { Buffer, Device, LoadedExecutable } from '../../src/pjrt/index.js';
import { packageRoot } from '../../src/runner/paths.js';
import * as check from '../_lib/check.js';
import { isPjrtError, isUnsupported } from '../_lib/errors.js';
import { assignment } from '../_lib/exec.js';
import { uploadOrUnsupported } from '../_lib/transfer.js';
import { SMALL_FLOAT_CATCHES } from '../../src/corpus/gen/small-float-specs.js';
import { SUB_BYTE_CATCHES } from '../../src/corpus/gen/sub-byte-specs.js';

const t = area('tier1.program', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

/** The demand of a corpus case: the op semantics of the StableHLO spec, which JAX (and PyTorch/XLA, TensorFlow) compile to. */
const CITE =
  'StableHLO spec op semantics (openxla/stablehlo docs/spec.md), which JAX lowers jit to; PJRT_Buffer_ElementType/Dimensions, ' +
  'PJRT_Executable_Output*; latitude: docs/corpus.md';

/** Whether adding one to every element of `v` changes it (the op_off_by_one fault on a one-op program's result). */
function plusOneShows(v: HostValue): boolean {
  const d = dtype(v.dtype);
  const data = v.spec.data;
  if (d.kind === 'pred') return data.some((x) => x === false);
  if (d.kind === 'float') return data.some((x) => x === '-0' || (typeof x === 'number' && Math.abs(x) < 2 ** (d.mantissaBits ?? 0)));
  return (d.kind === 'sint' || d.kind === 'uint') && data.length > 0;
}

/** Dims that read differently reversed (the wrong_dims / output_dims_reversed faults report dims reversed). */
const reversalShows = (dims: readonly number[]) => dims.join(',') !== [...dims].reverse().join(',');

/**
 * Kernel faults that every corpus program whose first op (its subject) is the key shows — `op`, or `op/kind` for
 * programs on one dtype kind: the generator puts the elements that expose them in each program (a 0 for
 * count_leading_zeros, operands that differ for atan2, a mantissa that rounds up for reduce_precision, a
 * get_tuple_element of an index other than 0 for tuple, imaginary parts for complex (and in every complex constant), b·d ≠ 0 for complex multiply,
 * keys the comparator ties, with payloads that tell them apart, in every stable sort; a negative start index in
 * every gather; an input whose untouched elements are not zero in every scatter; a nonzero last result row in
 * every reduce_window; both factors of each cholesky input, both NO_TRANSPOSE and a transposed solve of each
 * triangular_solve system (complex ones also ADJOINT), all four fft_types on each fft shape).
 */
const KERNEL_FAULTS: Readonly<Record<string, readonly string[]>> = {
  atan2: ['atan2_operands_swapped'],
  count_leading_zeros: ['clz_of_zero_wrong'],
  reduce_precision: ['reduce_precision_truncates'],
  tuple: ['tuple_index_ignored'],
  complex: ['imag_returns_real_part'],
  'constant/complex': ['complex_literal_parts_swapped'],
  'multiply/complex': ['complex_multiply_sign_wrong'],
  sort: ['sort_ties_reversed'],
  gather: ['gather_negative_index_as_unsigned'],
  scatter: ['scatter_starts_from_zeros'],
  reduce_window: ['reduce_window_last_dropped'],
  cholesky: ['cholesky_ignores_lower'],
  triangular_solve: ['triangular_solve_ignores_transpose'],
  'triangular_solve/complex': ['triangular_solve_adjoint_not_conjugated'],
  fft: ['fft_inverse_unscaled', 'rfft_last_bin_dropped'],
  // the subject op of a program that also holds its shape / sizes / padding constants, or a region (+1 on its result)
  ...Object.fromEntries(['dynamic_iota', 'dynamic_reshape', 'dynamic_broadcast_in_dim', 'dynamic_pad', 'dynamic_gather', 'map', 'composite'].map((op) => [op, [`op_off_by_one=${op}`]])),
};

/**
 * Faults that only some programs of an op show, by program name. Collectives: the padded replica_groups programs,
 * the programs with partition_id on a partition other than its replica, rings whose wrap-around pair is not between
 * neighbouring ids, reduce_scatter along dim 1, all_reduce with several operands, and flattened ids that name
 * no replica when read as replica ids. Convolution and select_and_scatter: asymmetric or negative padding, rhs
 * dilation, feature and batch groups (operands whose groups differ), windows with tied elements, and positions that
 * several windows select or whose init value is not the scatter's identity. dynamic_slice and dynamic_update_slice:
 * the start-index clamping programs (a negative and a too-large start in each). gather and scatter: the batching
 * programs whose batches are more than one; scatter: the variadic programs.
 */
const PROGRAM_FAULTS: readonly { match: RegExp; faults: readonly string[] }[] = [
  { match: /^all_reduce_padded_groups_/, faults: ['replica_groups_padding_included'] },
  { match: /(^|_)partition_id_/, faults: ['partition_id_returns_replica_id'] },
  { match: /^collective_permute_(forward|backward)_ring_p4$|^collective_permute_ring_f32_r4$/, faults: ['collective_permute_drops_wraparound'] },
  { match: /^reduce_scatter_dim1_/, faults: ['reduce_scatter_wrong_dim'] },
  { match: /^all_reduce_variadic_/, faults: ['variadic_all_reduce_first_only'] },
  { match: /^all_reduce_flattened_ids_|^all_reduce_partitions_p4$|^reduce_scatter_dim\d_p4$|^all_gather_partitions_dim1_p4$/, faults: ['global_device_ids_ignored'] },
  { match: /^convolution_(1d_negative_padding|2d_nchw_oihw_stride|2d_transposed|2d_window_reversal|3d_ndhwc)_/, faults: ['conv_padding_low_high_swapped'] },
  { match: /^convolution_(2d_atrous|1d_mixed)_/, faults: ['conv_ignores_rhs_dilation'] },
  { match: /^convolution_(2d_depthwise|2d_feature_groups|1d_mixed)_/, faults: ['conv_feature_groups_ignored'] },
  { match: /^convolution_2d_batch_groups_/, faults: ['conv_batch_groups_ignored'] },
  { match: /^select_and_scatter_(max_pool_grad|min_pool_grad|ties)_/, faults: ['select_and_scatter_last_tie_wins'] },
  { match: /^select_and_scatter_(min_pool_grad|overlapping|padded|scatter_maximum|spec_example)_/, faults: ['select_and_scatter_overwrites'] },
  { match: /^dynamic_slice_clamped_/, faults: ['dynamic_slice_clamps_to_dim'] },
  { match: /^dynamic_update_slice_clamped_/, faults: ['dynamic_slice_clamps_to_dim'] },
  { match: /^gather_batched_/, faults: ['gather_ignores_batching_dims'] },
  { match: /^scatter_batched_|^scatter_variadic_batched$/, faults: ['scatter_ignores_batching_dims'] },
  { match: /^scatter_variadic_/, faults: ['scatter_variadic_second_dropped'] },
  { match: /^constant_f8e8m0fnu_zero_literal$/, faults: ['e8m0_zero_literal_is_nan'] },
];

/**
 * A one-op program returns that op's result, so `op_off_by_one=<op>` shows wherever +1 does, and so do the op's
 * KERNEL_FAULTS. Other programs (regions, branches, reducers) claim their kernel and program faults; their
 * semantic faults are claimed by tier1.execute (the execute crash is claimed by one-op-less cases elsewhere: each
 * crash costs the fault matrix a fresh worker). Every program checks its outputs' element types (buffer and
 * executable); dims where a reversal shows.
 */
function catchesOf(e: CorpusEntry): string[] {
  const [op] = e.ops;
  const values = e.ops.length === 1 && op && e.outputs.flat().some(plusOneShows) ? [`op_off_by_one=${op}`] : [];
  const kinds = new Set(e.dtypes.map((d) => dtype(d).kind));
  const kind = kinds.size === 1 ? `/${[...kinds][0]}` : '';
  if (op) values.push(...(KERNEL_FAULTS[op] ?? []), ...(kind ? KERNEL_FAULTS[op + kind] ?? [] : []));
  values.push(...(SMALL_FLOAT_CATCHES[e.name] ?? []));
  values.push(...(SUB_BYTE_CATCHES[e.name] ?? []));
  values.push(...PROGRAM_FAULTS.filter((x) => x.match.test(e.name)).flatMap((x) => x.faults));
  const dims = e.outputs[0]!.some((o) => reversalShows(o.dims)) ? ['wrong_dims', 'output_dims_reversed'] : [];
  return [...values, 'wrong_element_type', 'output_element_types_wrong', ...dims];
}

const dir = path.join(packageRoot(), 'fixtures', 'programs');
const entries: CorpusEntry[] = existsSync(dir) ? loadCorpus(dir) : [];
const rows = entries.map((e) => ({ id: e.name, entry: e }));

/**
 * Compiles and runs one corpus program. The device assignment is explicit — the first replicas × partitions
 * addressable devices, instance i = replica · partitions + partition on device i — as JAX's jit passes one device's
 * id (jax/_src/interpreters/pxla.py → compiler.get_compile_options) and PyTorch/XLA's PjRtComputationClient::Compile
 * fills DeviceAssignment(device_count, 1) itself: neither calls PJRT_Client_DefaultDeviceAssignment. A program with
 * several partitions is compiled as JAX compiles one (use_spmd_partitioning when num_partitions > 1, pxla.py) and gets
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
  let exe: LoadedExecutable;
  try {
    exe = await client.compile(await programFor(client, e.program, e.artifactFile), {
      numReplicas: e.replicas,
      numPartitions: e.partitions,
      deviceAssignment,
      ...(e.partitions > 1 ? { useSpmdPartitioning: true } : {}),
    });
  } catch (err) {
    if (isPjrtError(err) && err.codeName === 'UNIMPLEMENTED') {
      for (const [cell, ok] of Object.entries(capabilityCells(e, false))) ctx.capability(cell, ok);
      ctx.unsupported(`compile: ${err.message}`);
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
    const who = n === 1 ? '' : e.partitions > 1 ? `replica ${Math.floor(r / e.partitions)} partition ${r % e.partitions}` : `replica ${r}`;
    const at = (k: number) => (who ? `${who} output ${k}` : `output ${k}`);
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
    check.fail(
      `${e.name} (${e.description}): every output must have the program's element type and dims (PJRT_Buffer_ElementType/Dimensions, PJRT_Executable_Output*) and the values StableHLO defines (or one the sidecar accepts)`,
      'the sidecar outputs',
      `${problems.length} finding(s): ${problems.join('; ')}`,
    );
  }
}

if (rows.length > 0) {
  t.case('run', { source: 'framework', cite: CITE, catches: (p: { entry: CorpusEntry }) => catchesOf(p.entry) }).params(rows).run(checkEntry);
}

// --programs <dir>: a vendor's own corpus in the same format, as external.program.run.<name>.
const externalDir = externalProgramsDir();
if (externalDir) {
  const external = area('external.program', { tier: 1, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });
  // A vendor's corpus may ship `<name>.mlirbc` portable artifacts for plugins that compile nothing else.
  const externalRows = loadCorpus(externalDir, { idPrefix: 'external.program' }).map((e) => ({ id: e.name, entry: { ...e, artifactFile: e.mlirFile.replace(/\.mlir$/, '.mlirbc') } }));
  if (externalRows.length > 0) {
    external.case('run', { source: 'framework', cite: CITE, catches: ['crash_in=PJRT_LoadedExecutable_Execute', 'wrong_element_type', 'output_element_types_wrong'] }).params(externalRows).run(checkEntry);
  }
}

// A generated corpus program: its text and its sidecar, built from oracle tensors.
import { DTYPES, dtype as dtypeByName, type DtypeRow } from '../../abi/dtypes.js';
import { bitsToFloat, epsilon, floatToBits, largestFinite, smallestNormal, smallestSubnormal } from '../../oracle/floats.js';
import { convert } from '../../oracle/convert.js';
import { Tensor, type Scalar } from '../../oracle/tensor.js';
import { compareValue, isSubnormal } from '../compare.js';
import type { SidecarInput, Tolerance, Value } from '../schema.js';
import { tensorToValue } from '../values.js';
import { FuncBuilder, moduleText, tensorType, typeOf } from './mlir.js';

export interface Program {
  name: string;
  text: string;
  sidecar: SidecarInput;
}

/** Other accepted results of a one-replica program (one tensor per output; undefined: no alternative there). */
export interface Alternative {
  reason: string;
  outputs: readonly (Tensor | undefined)[];
}

/** The element types whose subnormals XLA's CPU compiler flushes to zero (inputs and results). f16 is computed in f32 there and keeps them. */
export const FLUSH_DTYPES: ReadonlySet<string> = new Set(['f32', 'f64', 'bf16']);
export const FLUSH_REASON = "XLA's CPU compiler flushes subnormal f32/f64/bf16 inputs to zero (this is the result of the flushed inputs)";

function hasSubnormal(t: Tensor): boolean {
  if (!FLUSH_DTYPES.has(t.dtype.name)) return false;
  for (let i = 0; i < t.size; i++) if (isSubnormal(t.dtype, t.get(i) as number)) return true;
  return false;
}

/** `t` with every subnormal element replaced by a zero of the same sign (FLUSH_DTYPES only). */
export function flushSubnormals(t: Tensor): Tensor {
  if (!FLUSH_DTYPES.has(t.dtype.name)) return t;
  const r = new Tensor(t.dtype, t.dims, Uint8Array.from(t.bytes));
  for (let i = 0; i < t.size; i++) {
    const x = bitsToFloat(t.dtype, t.bits(i));
    if (isSubnormal(t.dtype, x)) r.setBits(i, floatToBits(t.dtype, x < 0 ? -0 : 0));
  }
  return r;
}

export interface ProgramDef {
  name: string;
  description: string;
  ops: readonly string[];
  text: string;
  /** per argument; per program instance (replica-major) then per argument when replicas × partitions > 1 */
  inputs: readonly Tensor[] | readonly (readonly Tensor[])[];
  outputs: readonly Tensor[] | readonly (readonly Tensor[])[];
  tolerance?: Tolerance;
  replicas?: number;
  /** SPMD partitions per replica (default 1) */
  partitions?: number;
  /** one replica: other accepted results (the spec's latitude, XLA's answers) */
  alternatives?: readonly Alternative[];
  /**
   * One replica, arithmetic on floats: the program's computation. When an f32/f64/bf16 input or result is subnormal,
   * those results may be flushed to zero (`subnormalsMayFlush`) and the results of the flushed inputs are accepted.
   */
  recompute?: (inputs: readonly Tensor[]) => readonly Tensor[];
  /** one replica, per output: elements whose value the StableHLO spec leaves implementation-defined (not compared) */
  open?: readonly (readonly OpenElements[] | undefined)[];
  /** one replica, per output: its own tolerance (bounds that depend on the output, e.g. on its norm) */
  outputTolerances?: readonly Tolerance[];
}

/** Elements of one output whose value is implementation-defined, and why. */
export interface OpenElements {
  reason: string;
  elements: number[];
}

function flat(ts: readonly Tensor[] | readonly (readonly Tensor[])[]): Tensor[] {
  return (ts as readonly (Tensor | readonly Tensor[])[]).flatMap((t) => (t instanceof Tensor ? [t] : [...t]));
}

export function program(p: ProgramDef): Program {
  const used = new Set(flat(p.inputs).concat(flat(p.outputs)).map((t) => t.dtype.name));
  const dtypes = DTYPES.filter((d) => used.has(d.name)).map((d) => d.name);
  const replicas = p.replicas ?? 1;
  const partitions = p.partitions ?? 1;
  const enc = (ts: readonly Tensor[] | readonly (readonly Tensor[])[]) =>
    replicas * partitions > 1 ? (ts as readonly (readonly Tensor[])[]).map((r) => r.map(tensorToValue)) : (ts as readonly Tensor[]).map(tensorToValue);
  let outputs = enc(p.outputs);
  if (replicas * partitions === 1 && p.open) {
    outputs = (outputs as Value[]).map((v, k) => {
      const open = (p.open![k] ?? []).filter((u) => u.elements.length > 0);
      return open.length ? { ...v, implementationDefined: open.map((u) => ({ reason: u.reason, elements: [...u.elements] })) } : v;
    });
  }
  if (replicas * partitions === 1 && p.outputTolerances) outputs = (outputs as Value[]).map((v, k) => ({ ...v, tolerance: p.outputTolerances![k]! }));
  if (replicas * partitions === 1 && (p.alternatives || p.recompute)) outputs = withAlternatives(p, outputs as Value[]);
  const sidecar: SidecarInput = {
    description: p.description,
    ops: [...new Set(p.ops)],
    dtypes,
    inputs: enc(p.inputs),
    outputs,
    tolerance: p.tolerance ?? {},
    replicas,
    ...(partitions > 1 ? { partitions } : {}),
  };
  return { name: p.name, text: p.text, sidecar };
}

/** The outputs of a one-replica program with their accepted alternatives and flush tolerance attached. */
function withAlternatives(p: ProgramDef, values: Value[]): Value[] {
  const ins = p.inputs as readonly Tensor[];
  const outs = p.outputs as readonly Tensor[];
  const alts: Alternative[] = [...(p.alternatives ?? [])];
  const flush = p.recompute !== undefined && [...ins, ...outs].some(hasSubnormal);
  if (flush && ins.some(hasSubnormal)) alts.push({ reason: FLUSH_REASON, outputs: p.recompute!(ins.map(flushSubnormals)) });
  const base = p.tolerance ?? {};
  return values.map((v, k) => {
    const tol: Tolerance = flush && FLUSH_DTYPES.has(v.dtype) ? { ...base, subnormalsMayFlush: true } : base;
    const accepted: { reason: string; data: Value['data'] }[] = [];
    for (const a of alts) {
      const t = a.outputs[k];
      if (!t) continue;
      const alt = tensorToValue(t);
      const open = new Set((v.implementationDefined ?? []).flatMap((u) => u.elements));
      const seen = [v.data, ...accepted.map((x) => x.data)].some((data) => compareValue({ ...v, data }, t.bytes, tol, 'output', open) === null);
      if (!seen) accepted.push({ reason: a.reason, data: alt.data });
    }
    return { ...v, ...(tol !== base ? { tolerance: tol } : {}), ...(accepted.length ? { alternatives: accepted } : {}) };
  });
}

/** A one-op program: `main(args...) -> op(args...)`, with the elementwise type-suffix rule. `recompute` as in ProgramDef. */
export function singleOp(name: string, op: string, args: readonly Tensor[], out: Tensor, description: string, tolerance?: Tolerance, extraOps: readonly string[] = [], more: Pick<ProgramDef, 'alternatives' | 'recompute' | 'open'> = {}): Program {
  const f = new FuncBuilder('main');
  const vs = args.map((a) => f.arg(typeOf(a)));
  const same = args.every((a) => typeOf(a) === typeOf(out));
  const suffix = same ? typeOf(out) : `(${args.map(typeOf).join(', ')}) -> ${typeOf(out)}`;
  const r = f.op(`stablehlo.${op} ${vs.join(', ')} : ${suffix}`);
  return program({
    name,
    description,
    ops: [op, ...extraOps],
    text: moduleText(name, [f.text([{ value: r, type: typeOf(out) }])]),
    inputs: args,
    outputs: [out],
    ...(tolerance ? { tolerance } : {}),
    ...more,
  });
}

// ---- value helpers ----
export const dt = dtypeByName;

export function vec(d: DtypeRow, values: readonly Scalar[]): Tensor {
  return Tensor.of(d, [values.length], values);
}

export function intRange(d: DtypeRow): { min: bigint; max: bigint } {
  const w = BigInt(d.bits);
  return d.kind === 'sint' ? { min: -(1n << (w - 1n)), max: (1n << (w - 1n)) - 1n } : { min: 0n, max: (1n << w) - 1n };
}

/** Integers given in signed form, wrapped into `d` (so −1 is the all-ones pattern for unsigned types). */
export function ints(d: DtypeRow, xs: readonly bigint[]): Tensor {
  return vec(d, xs.map((x) => (d.kind === 'sint' ? BigInt.asIntN(d.bits, x) : BigInt.asUintN(d.bits, x))));
}

export function floatConsts(d: DtypeRow): { max: number; sub: number; norm: number; eps: number } {
  return { max: largestFinite(d), sub: smallestSubnormal(d), norm: smallestNormal(d), eps: epsilon(d) };
}

export const FLOATS = DTYPES.filter((d) => d.core && d.kind === 'float');
export const SINTS = DTYPES.filter((d) => d.core && d.kind === 'sint');
export const UINTS = DTYPES.filter((d) => d.core && d.kind === 'uint');
export const INTS = [...SINTS, ...UINTS];
export const PRED = dtypeByName('pred');

/** One program: several conversions of one input, one result each. */
export function fanOut(name: string, from: Tensor, targets: readonly DtypeRow[], description: string): Program {
  const f = new FuncBuilder('main');
  const x = f.arg(typeOf(from));
  const results = targets.map((t) => {
    const type = tensorType(t, from.dims);
    return { value: f.op(`stablehlo.convert ${x} : (${typeOf(from)}) -> ${type}`), type };
  });
  return program({ name, description, ops: ['convert'], text: moduleText(name, [f.text(results)]), inputs: [from], outputs: targets.map((t) => convert(from, t)) });
}

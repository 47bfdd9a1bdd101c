// A generated corpus program: its text and its sidecar, built from oracle tensors.
import { DTYPES, dtype as dtypeByName, type DtypeRow } from '../../abi/dtypes.js';
import { epsilon, largestFinite, smallestNormal, smallestSubnormal } from '../../oracle/floats.js';
import { Tensor, type Scalar } from '../../oracle/tensor.js';
import type { SidecarInput, Tolerance } from '../schema.js';
import { tensorToValue } from '../values.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';

export interface Program {
  name: string;
  text: string;
  sidecar: SidecarInput;
}

export interface ProgramDef {
  name: string;
  description: string;
  ops: readonly string[];
  text: string;
  /** per argument; per replica then per argument when replicas > 1 */
  inputs: readonly Tensor[] | readonly (readonly Tensor[])[];
  outputs: readonly Tensor[] | readonly (readonly Tensor[])[];
  tolerance?: Tolerance;
  replicas?: number;
}

function flat(ts: readonly Tensor[] | readonly (readonly Tensor[])[]): Tensor[] {
  return (ts as readonly (Tensor | readonly Tensor[])[]).flatMap((t) => (t instanceof Tensor ? [t] : [...t]));
}

export function program(p: ProgramDef): Program {
  const used = new Set(flat(p.inputs).concat(flat(p.outputs)).map((t) => t.dtype.name));
  const dtypes = DTYPES.filter((d) => used.has(d.name)).map((d) => d.name);
  const replicas = p.replicas ?? 1;
  const enc = (ts: readonly Tensor[] | readonly (readonly Tensor[])[]) =>
    replicas > 1 ? (ts as readonly (readonly Tensor[])[]).map((r) => r.map(tensorToValue)) : (ts as readonly Tensor[]).map(tensorToValue);
  const sidecar: SidecarInput = {
    description: p.description,
    ops: [...new Set(p.ops)],
    dtypes,
    inputs: enc(p.inputs),
    outputs: enc(p.outputs),
    tolerance: p.tolerance ?? {},
    replicas,
  };
  return { name: p.name, text: p.text, sidecar };
}

/** A one-op program: `main(args...) -> op(args...)`, with the elementwise type-suffix rule. */
export function singleOp(name: string, op: string, args: readonly Tensor[], out: Tensor, description: string, tolerance?: Tolerance, extraOps: readonly string[] = []): Program {
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

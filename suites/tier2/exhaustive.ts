// Tier 2 — exhaustive numerics of the small float types (f16, bf16, and every other float type of 16 bits or fewer
// the oracle encodes): each unary elementwise op over every representable input in one program, each binary op over
// a GRID_SIDE × GRID_SIDE grid of operands (specials, subnormals, extremes, and evenly spaced values), the results
// checked against the oracle within XLA's own accuracy bound for the op (src/oracle/accuracy.ts). A case's message
// gives the input count, the mismatches and the largest observed error (ulp, absolute, relative) against the bound.
import { area, type CaseContext } from '../../src/harness/index.js';
import { dtype } from '../../src/abi/index.js';
import { checkResults, describeReport, EXHAUSTIVE_BINARY, EXHAUSTIVE_UNARY, hostBytes, inputsOf, programText, smallFloatTypes } from '../../src/corpus/exhaustive.js';
import { boundOf } from '../../src/oracle/accuracy.js';
import * as check from '../_lib/check.js';
import { isPjrtError } from '../_lib/errors.js';
import { opsOrUnsupported, run1 } from '../_lib/exec.js';

const t = area('tier2.exhaustive', { tier: 2, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute', 'PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] } });

const SPEC = 'StableHLO spec op semantics (openxla/stablehlo docs/spec.md), which JAX lowers jnp ufuncs on float16/bfloat16 to';
const XLA_BOUND =
  "XLA, which JAX compiles through, holds its own CPU and GPU backends to these bounds in its exhaustive tests (xla/tests/exhaustive/, every f16/bf16 input); a result outside the largest of them is one no XLA backend would give a JAX program";

/**
 * Where `op_off_by_one` (one more on every result) stays inside the bound: our bounds for types XLA never tests follow
 * its type-independent rules, which on f4, f6, f8e4m3 and f8e3m4 allow a relative error the +1 on
 * atan2's and cbrt's small results stays under. Those cases claim the execute crash instead (the fault matrix checks
 * both lists).
 */
const OFF_BY_ONE_WITHIN_BOUND: Readonly<Record<string, readonly string[]>> = {
  atan2: ['f8e4m3', 'f8e3m4', 'f4e2m1fn', 'f6e2m3fn', 'f6e3m2fn'],
  cbrt: ['f4e2m1fn', 'f6e2m3fn', 'f6e3m2fn'],
};

/**
 * Faults the area shows, per op and type: an f16 exp from a cheap polynomial in half precision; log1p as log(1 + x)
 * with 1 + x rounded to the type; sine/cosine with the argument reduced by a float 2π; bf16 results truncated
 * (shows where the bound is exact: the arithmetic ops); f16 subnormal results flushed (where two normal operands give
 * a subnormal exact result: the arithmetic ops).
 */
const FAULTS: Readonly<Record<string, readonly string[]>> = {
  'exponential/f16': ['exp_f16_approx_in_half'],
  'log_plus_one/f16': ['log1p_as_log_of_sum'],
  'log_plus_one/bf16': ['log1p_as_log_of_sum'],
  'sine/f16': ['sine_cosine_float_pi_reduction'],
  'sine/bf16': ['sine_cosine_float_pi_reduction'],
  'cosine/f16': ['sine_cosine_float_pi_reduction'],
  'cosine/bf16': ['sine_cosine_float_pi_reduction'],
  ...Object.fromEntries(['add', 'subtract', 'multiply', 'divide'].flatMap((op) => [[`${op}/bf16`, ['bf16_truncates']], [`${op}/f16`, ['f16_flush_subnormals']]])),
};

interface Row { id: string; op: string; dt: string }

const rows = (ops: readonly string[]): Row[] => smallFloatTypes().flatMap((d) => ops.map((op) => ({ id: `${op}.${d.name}`, op, dt: d.name })));

/** Where the bound comes from decides the source: XLA's own bound or an exact op is framework; our extrapolation is quality. */
function sourceOf(p: Row): 'framework' | 'quality' {
  const b = boundOf(p.op, dtype(p.dt));
  return !b || b.xla || b.source.startsWith('ours: exact') ? 'framework' : 'quality';
}

function cite(p: Row): string {
  const b = boundOf(p.op, dtype(p.dt));
  if (!b) return `${SPEC}: ${p.op} has an exact result, every input must give it`;
  return b.xla ? `${SPEC}; bound: ${b.source}; ${XLA_BOUND}` : `${SPEC}; bound: ${b.source}`;
}

async function runOne(ctx: CaseContext<Row>): Promise<void> {
  const p = ctx.p;
  const d = dtype(p.dt);
  const inputs = inputsOf(p.op, d);
  const n = inputs.args[0]!.length;
  let out: Uint8Array;
  try {
    [out] = (await opsOrUnsupported(ctx, () =>
      run1(ctx.client, programText(p.op, d, n), inputs.args.map((a) => ({ dtype: d.name, dims: [n], data: hostBytes(d, a) })), [{ dtype: d.name, dims: [n] }]),
    )) as [Uint8Array];
  } catch (e) {
    // a plugin without the element type refuses its buffers
    if (isPjrtError(e) && e.codeName === 'UNIMPLEMENTED') ctx.unsupported(`${e.slot}: ${e.message}`);
    throw e;
  }
  const r = checkResults(p.op, d, inputs, out);
  const text = describeReport(r, d);
  ctx.capability(`${p.op}/${p.dt}`, r.mismatches === 0);
  if (r.mismatches) check.fail({ key: 'PJRT_LoadedExecutable_Execute:within-accuracy-bound', text: `${p.op} on every ${d.name} input must stay within the op's accuracy bound` }, 'no mismatch', text);
  ctx.log(text);
}

for (const [name, ops] of [['unary', EXHAUSTIVE_UNARY], ['binary', EXHAUSTIVE_BINARY]] as const) {
  for (const p of rows(ops)) {
    // one case per (op, type): the source and cite depend on the type's bound
    t.case(p.op, {
      source: sourceOf(p),
      cite: cite(p),
      catches: [...(FAULTS[`${p.op}/${p.dt}`] ?? []), OFF_BY_ONE_WITHIN_BOUND[p.op]?.includes(p.dt) ? 'crash_in=PJRT_LoadedExecutable_Execute' : `op_off_by_one=${p.op}`],
      description: name === 'unary' ? `${p.op} over every ${p.dt} bit pattern` : `${p.op} over a dense grid of ${p.dt} operand pairs`,
    })
      .params([{ ...p, id: p.dt }])
      .run(runOne);
  }
}

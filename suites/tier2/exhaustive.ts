// Tier 2 — exhaustive numerics of the small float types (f16, bf16, and every other float type of 16 bits or fewer
// the oracle encodes): each unary elementwise op over every representable input in one program, each binary op over
// a GRID_SIDE × GRID_SIDE grid of operands (specials, subnormals, extremes, and evenly spaced values), the results
// checked against the oracle within XLA's own accuracy bound for the op (src/oracle/accuracy.ts). A case's message
// gives the input count, the mismatches and the largest observed error (ulp, absolute, relative) against the bound.
import { area, params, type CaseContext } from '../../src/harness/index.js';
import { dtype } from '../../src/abi/index.js';
import { checkResults, describeReport, EXHAUSTIVE_BINARY, EXHAUSTIVE_EXPECTED, EXHAUSTIVE_UNARY, exhaustiveCatches, exhaustiveRule, hostBytes, inputsOf, programText, smallFloatTypes } from '../../src/corpus/exhaustive.js';
import { boundOf } from '../../src/oracle/accuracy.js';
import * as check from '../_lib/check.js';
import { declinedIsUnsupported } from '../_lib/declined.js';
import { uploadOrUnsupported } from '../_lib/transfer.js';
import { run1 } from '../_lib/exec.js';

const t = area('tier2.exhaustive', { tier: 2, heavy: true, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute', 'PJRT_Client_BufferFromHostBuffer', 'PJRT_Buffer_ToHostBuffer'] } });

const SPEC = 'StableHLO spec op semantics (openxla/stablehlo docs/spec.md), which JAX lowers jnp ufuncs on float16/bfloat16 to';
const XLA_BOUND =
  "XLA, which JAX compiles through, holds its own CPU and GPU backends to these bounds in its exhaustive tests (xla/tests/exhaustive/, every f16/bf16 input); a result outside the largest of them is one no XLA backend would give a JAX program";

interface Row { id: string; op: string; dt: string }

/** Every (type, op) pair, type-major; each becomes a case `<op>` with the one row `<dt>`. */
const pairs = (ops: readonly string[]) => params().combine('dt', smallFloatTypes().map((d) => d.name)).combine('op', ops).rows();

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
  // A plugin without the element type declines its program or refuses its buffers (uploadOrUnsupported); a type the
  // compiler accepted and the upload created has no excuse at execute or read-back.
  const [out] = (await declinedIsUnsupported(ctx, [d.name], () =>
    run1(ctx.client, programText(p.op, d, n), inputs.args.map((a) => ({ dtype: d.name, dims: [n], data: hostBytes(d, a) })), [{ dtype: d.name, dims: [n] }], undefined,
      (a, device) => uploadOrUnsupported(ctx, ctx.client, a.data, { dtype: a.dtype, dims: a.dims, device })),
  )) as [Uint8Array];
  const r = checkResults(p.op, d, inputs, out);
  const text = describeReport(r, d);
  ctx.capability(`${p.op}/${p.dt}`, r.mismatches === 0);
  if (r.mismatches) check.fail(exhaustiveRule(p.op, d), EXHAUSTIVE_EXPECTED, text);
  ctx.log(text);
}

for (const [name, ops] of [['unary', EXHAUSTIVE_UNARY], ['binary', EXHAUSTIVE_BINARY]] as const) {
  for (const { op, dt } of pairs(ops)) {
    const p: Row = { id: dt, op, dt };
    // one case per (op, type): the source and cite depend on the type's bound
    t.case(p.op, {
      source: sourceOf(p),
      cite: cite(p),
      catches: exhaustiveCatches(p.op, p.dt),
      description: name === 'unary' ? `${p.op} over every ${p.dt} bit pattern` : `${p.op} over a dense grid of ${p.dt} operand pairs`,
    })
      .params([p])
      .run(runOne);
  }
}

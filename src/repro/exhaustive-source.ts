// An exhaustive case's program (`tier2.exhaustive.<op>.<type>`): the one-op program over every input of a unary op or
// a grid of a binary op, as the case builds it, and per element every result pattern the CTS accepts (the op's bound,
// XLA's skip rules, subnormal inputs read as ±0 or ±smallest normal, flushed results), so the script applies the
// CTS's own acceptance and counts the same mismatches.
import { dtype } from '../abi/dtypes.js';
import { acceptedSets, boundWords, EXHAUSTIVE_BINARY, EXHAUSTIVE_EXPECTED, EXHAUSTIVE_UNARY, exhaustiveRule, FIRST_MISMATCHES, hostBytes, inputsOf, judgeTables, programText, smallFloatTypes } from '../corpus/exhaustive.js';
import { boundOf } from '../oracle/accuracy.js';
import type { ProgramSource } from './program-source.js';

const PREFIX = 'tier2.exhaustive.';

function parse(id: string): { op: string; dt: string } | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const [op, dt, ...rest] = id.slice(PREFIX.length).split('.');
  if (!op || !dt || rest.length) return undefined;
  return { op, dt };
}

export const isExhaustiveCase = (id: string): boolean => parse(id) !== undefined;

function ruleWords(op: string, dt: string): string {
  const b = boundOf(op, dtype(dt));
  if (!b) return 'exact (StableHLO defines the result exactly); any NaN for a NaN';
  const parts = [b.ulp ? `${b.ulp} ulp` : '', b.rel ? `rel ${b.rel.toPrecision(3)}` : '', b.abs ? `abs ${b.abs.toPrecision(3)}` : ''].filter(Boolean);
  return `${parts.join(' or ') || 'exact'}${b.strictZeros ? ', signed zeros strict' : ''}${b.subnormalResultMayFlush ? ', subnormal results may flush' : ''}${b.unitRange ? ', results within [-1, 1]' : ''}${b.skip.length ? `, not compared: ${b.skip.join(', ')}` : ''}; subnormal inputs may be read as ±0 or ±smallest normal (${b.source})`;
}

export function exhaustiveSource(id: string): ProgramSource | string | undefined {
  const p = parse(id);
  if (!p) return undefined;
  if (![...EXHAUSTIVE_UNARY, ...EXHAUSTIVE_BINARY].includes(p.op) || !smallFloatTypes().some((d) => d.name === p.dt)) return `${id}: no exhaustive case of this CTS`;
  const d = dtype(p.dt);
  const inputs = inputsOf(p.op, d);
  const n = inputs.args[0]!.length;
  const acc = acceptedSets(p.op, d, inputs);
  const binary = EXHAUSTIVE_BINARY.includes(p.op);
  return {
    description: binary ? `${p.op} over a dense grid of ${p.dt} operand pairs (${n})` : `${p.op} over every ${p.dt} bit pattern (${n})`,
    verdict: { rule: exhaustiveRule(p.op, d).text, expected: EXHAUSTIVE_EXPECTED },
    text: programText(p.op, d, n), replicas: 1, partitions: 1, elementwise: true,
    inputs: [inputs.args.map((a) => ({ dtype: d.name, dims: [n], bytes: hostBytes(d, a) }))],
    outputs: [[{
      dtype: d.name, dims: [n], bytes: hostBytes(d, Array.from(acc.expected)), tolerance: {}, alternatives: [], open: [],
      accepted: { offsets: acc.offsets, lo: acc.lo, hi: acc.hi, notCompared: acc.notCompared, rule: ruleWords(p.op, p.dt) },
      report: { op: p.op, limit: boundWords(p.op, d), listed: FIRST_MISMATCHES, ...judgeTables(p.op, d, inputs) },
    }]],
    from: `src/corpus/exhaustive.ts (inputsOf, programText, acceptedSets) and src/oracle/accuracy.ts (the bound of ${p.op} on ${p.dt})`,
  };
}

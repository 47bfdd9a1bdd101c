// XLA as the referee of the exhaustive area (tier2.exhaustive): every exhaustive program of the small float types
// (all inputs of a unary op, the operand grid of a binary op) run through XLA's CPU compiler (jaxlib, via
// scripts/xla-crosscheck.py) and XLA's results checked against the oracle within the same bounds the area uses.
// Prints one line per (op, type) with the largest observed errors; exits 1 when XLA breaks a bound.
// Usage: node dist/scripts/xla-exhaustive.js [--python PY] [--dtype NAME ...] [--op NAME ...]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { dtype } from '../src/abi/index.js';
import { checkResults, EXHAUSTIVE_BINARY, EXHAUSTIVE_UNARY, inputsOf, programText, smallFloatTypes, type ExhaustiveInputs } from '../src/corpus/exhaustive.js';
import type { DtypeRow } from '../src/abi/dtypes.js';
import { pythonWithJax, runXla, XLA_CPU_UNCOMPUTED_TYPES } from '../src/xla/crosscheck.js';

function args(flag: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => { if (a === flag && process.argv[i + 1]) out.push(process.argv[i + 1]!); });
  return out;
}

const hexOf = (d: DtypeRow, b: number) => `0x${b.toString(16).padStart(Math.ceil(d.bits / 4), '0')}`;

const py = pythonWithJax(args('--python')[0]);
if ('problem' in py) {
  console.error(`xla-exhaustive: ${py.problem}`);
  process.exit(2);
}
const requested = args('--dtype').length ? args('--dtype').map(dtype) : smallFloatTypes();
const types = requested.filter((d) => XLA_CPU_UNCOMPUTED_TYPES[d.name] === undefined);
for (const d of requested) {
  const why = XLA_CPU_UNCOMPUTED_TYPES[d.name];
  if (why !== undefined) console.log(`${d.name}: not refereed: ${why}`);
}
const ops = args('--op').length ? args('--op') : [...EXHAUSTIVE_UNARY, ...EXHAUSTIVE_BINARY];

const dir = mkdtempSync(path.join(tmpdir(), 'pjrt-cts-exhaustive-'));
const programs = new Map<string, { op: string; d: DtypeRow; inputs: ExhaustiveInputs }>();
try {
  for (const d of types) {
    for (const op of ops) {
      const inputs = inputsOf(op, d);
      const n = inputs.args[0]!.length;
      const name = `exhaustive_${op}_${d.name}`;
      const values = inputs.args.map((a) => ({ dtype: d.name, dims: [n], data: a.map((b) => hexOf(d, b)) }));
      // the sidecar's outputs are not compared here (the area's checker is): the first input stands in
      const sidecar = { description: `${op} on ${d.name}, exhaustive`, ops: [op], dtypes: [d.name], inputs: values, outputs: [values[0]], tolerance: {}, replicas: 1 };
      writeFileSync(path.join(dir, `${name}.mlir`), programText(op, d, n));
      writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(sidecar));
      programs.set(name, { op, d, inputs });
    }
  }
  const t0 = performance.now();
  const report = runXla({ python: py.python, programs: dir });
  const seconds = (performance.now() - t0) / 1000;
  let broken = 0;
  console.log(`XLA exhaustive check (jaxlib ${String((report as unknown as { jaxlib?: string }).jaxlib ?? '?')}, ${report.programs.length} programs, ${seconds.toFixed(1)} s including XLA's ${String((report as unknown as { seconds?: number }).seconds ?? '?')} s)`);
  console.log('op\tdtype\tinputs\tmismatches\tnot compared\tsubnormal-input readings\tflushed results\tmax ulp\tmax abs\tmax rel\tbound');
  for (const p of report.programs) {
    const prog = programs.get(p.name);
    if (!prog) continue;
    if (p.status !== 'ok' || !p.outputs) {
      broken++;
      console.log(`${prog.op}\t${prog.d.name}\tXLA error: ${p.error?.code} ${p.error?.message.split('\n')[0]}`);
      continue;
    }
    const bytes = Uint8Array.from(Buffer.from(p.outputs[0]![0]!.hex, 'hex'));
    const r = checkResults(prog.op, prog.d, prog.inputs, bytes);
    if (r.mismatches) broken++;
    const b = r.bound;
    const bound = b ? [b.ulp ? `${b.ulp} ulp` : '', b.rel ? `rel ${b.rel.toPrecision(3)}` : '', b.abs ? `abs ${b.abs.toPrecision(3)}` : ''].filter(Boolean).join(' | ') || 'exact' : 'exact';
    console.log(`${r.op}\t${r.dtype}\t${r.inputs}\t${r.mismatches}\t${r.skipped}\t${r.substituted}\t${r.flushed}\t${r.maxUlp}\t${r.maxAbs.toPrecision(3)}\t${r.maxRel.toPrecision(3)}\t${bound}`);
    for (const m of r.first.slice(0, 3)) console.log(`  mismatch: inputs ${m.inputs.map((x) => hexOf(prog.d, x)).join(', ')} expected ${hexOf(prog.d, m.expected)} got ${hexOf(prog.d, m.got)}: ${m.why}`);
  }
  console.log(broken ? `${broken} program(s) where XLA breaks the bound or fails` : 'XLA stays within every bound');
  process.exitCode = broken ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

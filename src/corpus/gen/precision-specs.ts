// reduce_precision: per float dtype, a few target formats with ties, overflow, underflow and the IEEE specials.
import type { DtypeRow } from '../../abi/dtypes.js';
import { roundTo } from '../../oracle/floats.js';
import { reducePrecision, type PrecisionFormat } from '../../oracle/precision.js';
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, floatConsts, program, vec, type Program } from './program.js';

/** Target formats per operand dtype; every one drops mantissa bits, so each program has elements that round. */
const FORMATS: Record<string, readonly PrecisionFormat[]> = {
  f32: [{ exponentBits: 5, mantissaBits: 10 }, { exponentBits: 8, mantissaBits: 7 }, { exponentBits: 4, mantissaBits: 3 }, { exponentBits: 5, mantissaBits: 2 }],
  f64: [{ exponentBits: 8, mantissaBits: 23 }, { exponentBits: 5, mantissaBits: 10 }, { exponentBits: 4, mantissaBits: 3 }],
  f16: [{ exponentBits: 4, mantissaBits: 3 }, { exponentBits: 5, mantissaBits: 2 }, { exponentBits: 8, mantissaBits: 7 }],
  bf16: [{ exponentBits: 5, mantissaBits: 2 }, { exponentBits: 4, mantissaBits: 3 }],
};
/** Formats without mantissa bits, where NaN becomes +inf (every value is a power of two or a special). */
const NO_MANTISSA: Record<string, readonly PrecisionFormat[]> = {
  f32: [{ exponentBits: 5, mantissaBits: 0 }],
  f64: [{ exponentBits: 8, mantissaBits: 0 }],
};

/**
 * Values around the reduced format's rounding points and range (those the operand dtype holds exactly): ties to
 * even either way, above and below a half, the reduced largest finite and just above it (overflow to ±inf), the
 * reduced smallest normal and values below it (underflow to ±0), the operand's own extremes and the specials.
 */
function inputs(d: DtypeRow, f: PrecisionFormat): Tensor {
  const c = floatConsts(d);
  const u = 2 ** -f.mantissaBits; // the reduced format's ulp at 1
  const bias = 2 ** (f.exponentBits - 1) - 1;
  const max = (2 - u) * 2 ** bias;
  const minNormal = 2 ** (1 - bias);
  const candidates = [
    0, -0, 1, -1, Infinity, -Infinity, NaN,
    1 + u / 2, 1 + 1.5 * u, -(1 + u * 0.75), 1 + u / 4, 3 + u * 1.5, -0.1, 3.14159,
    max, -max, max * (1 + u / 4), max * (1 + u / 2), -max * (1 + u),
    minNormal, -minNormal, minNormal / 2, minNormal * 0.75, minNormal * (1 - u / 8),
    c.max, -c.max, c.sub, -c.norm,
  ];
  const exact = candidates.filter((v) => !Number.isFinite(v) || roundTo(d, v) === v);
  return vec(d, exact);
}

const NAN_KEPT_REASON = "XLA's CPU compiler keeps NaN in compiled code (its constant folder and the spec's interpreter give +inf)";

/** `r` with the NaN elements of `x` copied back (what a backend that keeps NaN gives). */
function nanKept(x: Tensor, r: Tensor): Tensor {
  const out = r.gather(r.dims, (i) => i);
  for (let i = 0; i < x.size; i++) if (Number.isNaN(x.get(i) as number)) out.setBits(i, x.bits(i));
  return out;
}

/** x followed by a negative NaN and a signalling-payload NaN (bit patterns), to show that no NaN survives. */
function withNaNs(d: DtypeRow, x: Tensor): Tensor {
  const w = BigInt(d.bits);
  const expMask = ((1n << BigInt(d.exponentBits!)) - 1n) << BigInt(d.mantissaBits!);
  const extra = [(1n << (w - 1n)) | expMask | (1n << BigInt(d.mantissaBits! - 1)), expMask | 1n];
  const r = new Tensor(d, [x.size + extra.length]);
  for (let i = 0; i < x.size; i++) r.setBits(i, x.bits(i));
  extra.forEach((b, k) => r.setBits(x.size + k, b));
  return r;
}

export function precisionPrograms(): Program[] {
  const out: Program[] = [];
  const all = Object.entries(FORMATS).map(([name, formats]) => [name, [...formats, ...(NO_MANTISSA[name] ?? [])]] as const);
  for (const [name, formats] of all) {
    const d = dt(name);
    for (const fmt of formats) {
      const x = fmt.mantissaBits === 0 ? withNaNs(d, inputs(d, fmt)) : inputs(d, fmt);
      const format = `e${fmt.exponentBits}m${fmt.mantissaBits}`;
      const f = new FuncBuilder('main');
      const a = f.arg(typeOf(x));
      const r = f.op(`stablehlo.reduce_precision ${a}, format = ${format} : ${typeOf(x)}`);
      const id = `reduce_precision_${format}_${d.name}`;
      out.push(program({
        name: id,
        description: fmt.mantissaBits === 0
          ? `reduce_precision of ${d.name} to ${format}: no mantissa bits, so every NaN (either sign, any payload) becomes +inf`
          : `reduce_precision of ${d.name} to ${format}: ties to even, overflow to ±inf, underflow to ±0, NaN kept`,
        ops: ['reduce_precision'],
        text: moduleText(id, [f.text([{ value: r, type: typeOf(x) }])]),
        inputs: [x],
        outputs: [reducePrecision(x, fmt)],
        ...(fmt.mantissaBits === 0 ? { alternatives: [{ reason: NAN_KEPT_REASON, outputs: [nanKept(x, reducePrecision(x, fmt))] }] } : {}),
        recompute: ([y]) => [reducePrecision(y!, fmt)],
        catches: ['reduce_precision_truncates'], // every input has a mantissa that rounds up
      }));
    }
  }
  return out;
}

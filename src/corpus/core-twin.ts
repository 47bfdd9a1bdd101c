// A program's core twin: the same program with every element type outside the core set (src/abi/dtypes.ts `core`)
// replaced by a core type of its kind — s2/s4 by s8, u2/u4 by u8, the small floats by f16, c64/c128 by their real
// element type. When a plugin refuses a program that mixes core and non-core types, its twin tells whose refusal it
// is: a twin that compiles shows the core path works, so the refusal is the non-core type's (suites/_lib/declined.ts).
import { dtype, DTYPES, type DtypeRow } from '../abi/dtypes.js';

/** Ops whose operands or results are complex by definition: a program with one has no form without the type. */
export const COMPLEX_ONLY_OPS: readonly string[] = ['complex', 'fft'];

/** The core type that stands in for non-core `d`, or undefined when the text could not tell them apart. */
function standIn(d: DtypeRow): DtypeRow | undefined {
  if (DTYPES.some((c) => c.core && c.mlir === d.mlir)) return undefined; // s1 is spelled as pred (i1)
  if (d.kind === 'sint') return dtype('s8');
  if (d.kind === 'uint') return dtype('u8');
  if (d.kind === 'float') return dtype('f16');
  if (d.kind === 'complex') return dtype(d.bits === 64 ? 'f32' : 'f64');
  return undefined;
}

export type CoreTwin =
  | { text: string; /** `s4 → s8, …` */ replaced: string }
  | { text?: undefined; /** why there is none */ none: string };

/** The core twin of `text`, whose element types are `dtypes` (dtype names) and whose StableHLO ops are `ops`. */
export function coreTwin(text: string, dtypes: readonly string[], ops: readonly string[]): CoreTwin {
  const needsComplex = ops.find((op) => COMPLEX_ONLY_OPS.includes(op));
  const optional = [...new Set(dtypes)].map((n) => dtype(n)).filter((d) => !d.core);
  if (needsComplex && optional.some((d) => d.kind === 'complex')) return { none: `stablehlo.${needsComplex} has no form without a complex type` };
  let twin = text;
  const replaced: string[] = [];
  for (const d of optional) {
    const core = standIn(d);
    if (!core) return { none: `${d.name} is spelled like a core type (${d.mlir})` };
    // the element type ends a tensor type: `tensor<4x8xi4>`, `tensor<i4>`
    const escaped = d.mlir.replace(/[.*+?^${}()|[\]\\<>]/g, '\\$&');
    twin = twin.replace(new RegExp(`(tensor<(?:[0-9?]+x)*)${escaped}>`, 'g'), `$1${core.mlir}>`);
    replaced.push(`${d.name} → ${core.name}`);
  }
  return { text: twin, replaced: replaced.join(', ') };
}

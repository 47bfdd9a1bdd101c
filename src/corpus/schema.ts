// zod schema of a corpus sidecar (`<name>.json` next to `<name>.mlir`).
import { z } from 'zod';
import { CORPUS_DTYPES, decodeElement, ValueError } from './values.js';

const DTYPE_NAMES = new Set(CORPUS_DTYPES.map((d) => d.name));

/** One element: pred, integer or float spelling, or a complex element's [real, imaginary] pair. */
const ElementSchema = z.union([z.number(), z.string(), z.boolean(), z.tuple([z.union([z.number(), z.string()]), z.union([z.number(), z.string()])])]);

const ToleranceSchema = z.strictObject({
  /** max distance in units in the last place of the output's own dtype */
  ulp: z.number().int().nonnegative().optional(),
  /** max |actual − expected| / |expected| */
  rel: z.number().nonnegative().optional(),
  /** max |actual − expected| */
  abs: z.number().nonnegative().optional(),
  /** when false, +0 and −0 compare equal (default true: the sign of zero must match) */
  signedZeros: z.boolean().optional(),
  /**
   * when true, an expected subnormal may come back as a zero of either sign (the result flushed to zero, as XLA's
   * CPU backend does for f32/f64/bf16). Results computed from flushed inputs are listed as `alternatives`.
   */
  subnormalsMayFlush: z.boolean().optional(),
  /** where the bounds come from (e.g. XLA's exhaustive tests for the op); informational, not compared */
  source: z.string().optional(),
});
export type Tolerance = z.infer<typeof ToleranceSchema>;

const ValueSchema = z
  .strictObject({
    dtype: z.string().refine((s) => DTYPE_NAMES.has(s), {
      message: `unknown dtype (one of ${[...DTYPE_NAMES].join(', ')})`,
    }),
    dims: z.array(z.number().int().nonnegative()),
    data: z.array(ElementSchema),
    /** outputs only: this output's tolerance, replacing the sidecar's (not merged with it) */
    tolerance: ToleranceSchema.optional(),
    /**
     * outputs only: other results that are accepted as well, each with the reason the answer is left open (the
     * StableHLO spec's latitude, or what XLA's compiler does). Same dtype and dims; the same tolerance applies.
     */
    alternatives: z.array(z.strictObject({ reason: z.string().min(1), data: z.array(ElementSchema) })).min(1).optional(),
    /**
     * outputs only: elements (flat row-major indices) whose value the StableHLO spec leaves implementation-defined
     * (integer division by zero, shifts by the bit width or more, out-of-range float → integer conversion …): any
     * value is accepted there. Each entry gives the reason.
     */
    implementationDefined: z.array(z.strictObject({ reason: z.string().min(1), elements: z.array(z.number().int().nonnegative()).min(1) })).min(1).optional(),
  })
  .superRefine((v, ctx) => {
    const d = CORPUS_DTYPES.find((x) => x.name === v.dtype);
    if (!d) return;
    const n = v.dims.reduce((a, b) => a * b, 1);
    if (v.data.length !== n) {
      ctx.addIssue({ code: 'custom', path: ['data'], message: `has ${v.data.length} elements, dims [${v.dims.join(', ')}] need ${n}` });
      return;
    }
    const elements = (data: readonly z.infer<typeof ElementSchema>[], path: PropertyKey[]) =>
      data.forEach((e, i) => {
        try {
          decodeElement(d, e);
        } catch (err) {
          if (!(err instanceof ValueError)) throw err;
          ctx.addIssue({ code: 'custom', path: [...path, i], message: err.message });
        }
      });
    elements(v.data, ['data']);
    v.implementationDefined?.forEach((u, k) =>
      u.elements.forEach((i, j) => {
        if (i >= n) ctx.addIssue({ code: 'custom', path: ['implementationDefined', k, 'elements', j], message: `element ${i} is out of range (the value has ${n} elements)` });
      }),
    );
    v.alternatives?.forEach((a, k) => {
      if (a.data.length !== n) ctx.addIssue({ code: 'custom', path: ['alternatives', k, 'data'], message: `has ${a.data.length} elements, dims [${v.dims.join(', ')}] need ${n}` });
      else elements(a.data, ['alternatives', k, 'data']);
    });
  });
export type Value = z.infer<typeof ValueSchema>;

const Values = z.array(ValueSchema);

export const SidecarSchema = z
  .strictObject({
    /** generated sidecars: what wrote the file and how to regenerate it (informational) */
    generated: z.string().min(1).optional(),
    description: z.string().min(1),
    /**
     * Faults of the reference plugin (fixtures/reference-plugin/faults.json, 'name' or 'name=arg') this program's
     * values expose: tier1.program claims them (the fault matrix proves each). The generators write it from each
     * op's and program's declared data; an external corpus may leave it out.
     */
    catches: z.array(z.string().min(1)).optional(),
    /** StableHLO op names (without the `stablehlo.` prefix) the program exercises */
    ops: z.array(z.string().min(1)).min(1),
    /** element types (dtype table names) the program uses */
    dtypes: z.array(z.string().refine((s) => DTYPE_NAMES.has(s), { message: 'unknown dtype' })).min(1),
    /**
     * One program instance (replicas × partitions = 1): one list of arguments. N > 1 instances: N lists, one per
     * instance, in the order replica-major (instance i = replica · partitions + partition), likewise outputs.
     */
    inputs: z.union([Values, z.array(Values)]),
    outputs: z.union([Values, z.array(Values)]),
    tolerance: ToleranceSchema.default({}),
    replicas: z.number().int().min(1).default(1),
    /** SPMD partitions per replica (mhlo.num_partitions) */
    partitions: z.number().int().min(1).default(1),
  })
  .superRefine((s, ctx) => {
    const n = s.replicas * s.partitions;
    for (const key of ['inputs', 'outputs'] as const) {
      const v = s[key];
      const perInstance = v.length > 0 && Array.isArray(v[0]);
      if (n === 1 && perInstance) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'must be a flat list of values when replicas × partitions is 1' });
      } else if (n > 1 && (!perInstance || v.length !== n)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `must hold one list of values per program instance (replicas × partitions = ${n})` });
      }
    }
    const inputs = (n > 1 && Array.isArray(s.inputs[0]) ? (s.inputs as Value[][]) : [s.inputs as Value[]]);
    inputs.forEach((vs, r) =>
      vs.forEach((v, k) => {
        if (v.alternatives) ctx.addIssue({ code: 'custom', path: n > 1 ? ['inputs', r, k, 'alternatives'] : ['inputs', k, 'alternatives'], message: 'only outputs may list alternatives' });
        if (v.implementationDefined) ctx.addIssue({ code: 'custom', path: n > 1 ? ['inputs', r, k, 'implementationDefined'] : ['inputs', k, 'implementationDefined'], message: 'only outputs may have implementationDefined elements' });
        if (v.tolerance) ctx.addIssue({ code: 'custom', path: n > 1 ? ['inputs', r, k, 'tolerance'] : ['inputs', k, 'tolerance'], message: 'only outputs may have a tolerance' });
      }),
    );
    if (n > 1 && Array.isArray(s.outputs[0])) {
      const per = s.outputs as Value[][];
      if (per.some((o) => o.length !== per[0]!.length)) ctx.addIssue({ code: 'custom', path: ['outputs'], message: 'every program instance must have the same number of outputs' });
    }
  });
/** The sidecar as written (defaults not applied). */
export type SidecarInput = z.input<typeof SidecarSchema>;
/** A validated sidecar. */
export type Sidecar = z.output<typeof SidecarSchema>;

/** `$.inputs[0].data[3]` */
export function jsonPath(path: readonly PropertyKey[]): string {
  return '$' + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
}

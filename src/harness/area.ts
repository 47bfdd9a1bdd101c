// area(name, opts).case(name, opts).params(rows).run(fn): registers one case per param row.
import { mergeRequires, normalizeRequires, registerCase, validateIdPart } from './registry.js';
import { SOURCES, type AreaOptions, type ClientNeed, type CaseDef, type CaseFn, type CaseOptions, type ParamRow } from './types.js';

function clientNeed(c: ClientNeed | boolean | undefined): ClientNeed {
  return c === undefined || c === true ? 'shared' : c === false ? 'none' : c;
}

export class CaseBuilder<P> {
  private rows: readonly ParamRow[] | undefined;
  constructor(
    private readonly areaName: string,
    private readonly areaOpts: AreaOptions,
    private readonly name: string,
    private readonly opts: CaseOptions,
  ) {}

  /**
   * One case per row; the row's `id` (one or more dot-separated segments) is appended to the case id. Rows come
   * as a list or from the parameter builder (`params().combine(…)`, src/harness/params.ts).
   */
  params<Q extends ParamRow>(given: readonly Q[] | { rows(): Q[] }): CaseBuilder<Q> {
    const rows = 'rows' in given ? given.rows() : given;
    if (rows.length === 0) throw new Error(`pjrt-cts: ${this.areaName}.${this.name}: .params() got no rows`);
    const next = new CaseBuilder<Q>(this.areaName, this.areaOpts, this.name, this.opts);
    next.rows = rows;
    return next;
  }

  run(fn: CaseFn<P>): void {
    const { areaName: area, areaOpts: a, name, opts: o } = this;
    const requires = mergeRequires(normalizeRequires(a.requires), normalizeRequires(o.requires));
    for (const row of this.rows ?? [undefined]) {
      if (row) validateIdPart(row.id, 'param id');
      const catches = typeof o.catches === 'function' ? (o.catches as (p: ParamRow | undefined) => readonly string[])(row) : o.catches;
      const depSpec = o.dependsOn ?? a.dependsOn;
      const dependsOn = typeof depSpec === 'function' ? (depSpec as (p: ParamRow | undefined) => string)(row) : depSpec;
      const def: CaseDef = {
        id: row ? `${area}.${name}.${row.id}` : `${area}.${name}`,
        area, tier: a.tier, name, catches: [...catches], requires, source: o.source, cite: o.cite,
        ...(o.selfTest ? { selfTest: o.selfTest } : {}), ...(o.control ? { control: o.control } : {}),
        ...(dependsOn ? { dependsOn } : {}),
        required: o.required ?? a.required ?? false,
        p: row,
        fn: fn as CaseFn<never>,
        ...(row ? { paramId: row.id } : {}),
        ...((o.timeoutMs ?? a.timeoutMs) !== undefined ? { timeoutMs: o.timeoutMs ?? a.timeoutMs } : {}),
        ...((o.slow ?? a.slow) ? { slow: true as const } : {}),
        ...((o.heavy ?? a.heavy) ? { heavy: true as const } : {}),
        client: clientNeed(o.client ?? a.client),
        ...((o.description ?? a.description) ? { description: o.description ?? a.description } : {}),
      };
      registerCase(def);
    }
  }
}

export class Area {
  constructor(
    readonly name: string,
    readonly opts: AreaOptions,
  ) {
    validateIdPart(name, 'area name');
    if (!Number.isInteger(opts.tier) || opts.tier < 0) throw new Error(`pjrt-cts: area ${name}: tier must be a non-negative integer`);
  }

  case(name: string, opts: CaseOptions): CaseBuilder<undefined> {
    validateIdPart(name, 'case name');
    if (!SOURCES.includes(opts.source)) throw new Error(`pjrt-cts: ${this.name}.${name}: source must be one of ${SOURCES.join(', ')}`);
    if (!opts.cite?.trim()) throw new Error(`pjrt-cts: ${this.name}.${name}: cite the evidence for the case's demand`);
    return new CaseBuilder<undefined>(this.name, this.opts, name, opts);
  }
}

export function area(name: string, opts: AreaOptions): Area {
  return new Area(name, opts);
}

// area(name, opts).case(name, opts).params(rows).run(fn): registers one case per param row.
import { mergeRequires, normalizeRequires, registerCase, validateIdPart } from './registry.js';
import type { AreaOptions, CaseDef, CaseFn, CaseOptions, ParamRow } from './types.js';

export class CaseBuilder<P> {
  private rows: readonly ParamRow[] | undefined;
  constructor(
    private readonly areaName: string,
    private readonly areaOpts: AreaOptions,
    private readonly name: string,
    private readonly opts: CaseOptions,
  ) {}

  /** One case per row; the row's `id` (one or more dot-separated segments) is appended to the case id. */
  params<Q extends ParamRow>(rows: readonly Q[]): CaseBuilder<Q> {
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
      const def: CaseDef = {
        id: row ? `${area}.${name}.${row.id}` : `${area}.${name}`,
        area, tier: a.tier, name, catches: [...catches], requires,
        required: o.required ?? a.required ?? false,
        p: row,
        fn: fn as CaseFn<never>,
        ...(row ? { paramId: row.id } : {}),
        ...((o.timeoutMs ?? a.timeoutMs) !== undefined ? { timeoutMs: o.timeoutMs ?? a.timeoutMs } : {}),
        ...((o.client ?? a.client) !== undefined ? { client: o.client ?? a.client } : {}),
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
    return new CaseBuilder<undefined>(this.name, this.opts, name, opts);
  }
}

export function area(name: string, opts: AreaOptions): Area {
  return new Area(name, opts);
}

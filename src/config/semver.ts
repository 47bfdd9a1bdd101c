// The small part of semver that expectation entries need: exact versions and ranges built from
// comparators (>=1.2.0 <2), caret (^1.2), tilde (~1.2.3), x-ranges (1.x) and '||' alternatives.
type Triple = [number, number, number];

function parse(v: string): { t: Triple; parts: number } | undefined {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$/.exec(v.trim());
  if (!m) return undefined;
  const raw = [m[1], m[2], m[3]];
  let parts = 0;
  const t: Triple = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const s = raw[i];
    if (s === undefined || /^[xX*]$/.test(s)) break;
    t[i] = Number(s);
    parts = i + 1;
  }
  return { t, parts };
}

function cmp(a: Triple, b: Triple): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0) ? -1 : 1;
  return 0;
}

function bump(t: Triple, parts: number): Triple {
  if (parts <= 0) return [Infinity, 0, 0];
  const out: Triple = [t[0], t[1], t[2]];
  out[parts - 1] = (out[parts - 1] ?? 0) + 1;
  for (let i = parts; i < 3; i++) out[i] = 0;
  return out;
}

function comparator(c: string, v: Triple): boolean | undefined {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(c);
  if (!m) return undefined;
  const op = m[1] ?? '=';
  const p = parse(m[2] ?? '');
  if (!p) return undefined;
  const { t, parts } = p;
  switch (op) {
    case '>=': return cmp(v, t) >= 0;
    case '>': return parts < 3 ? cmp(v, bump(t, parts)) >= 0 : cmp(v, t) > 0;
    case '<=': return parts < 3 ? cmp(v, bump(t, parts)) < 0 : cmp(v, t) <= 0;
    case '<': return cmp(v, t) < 0;
    case '~': return cmp(v, t) >= 0 && cmp(v, bump(t, Math.min(Math.max(parts, 1), 2))) < 0;
    case '^': {
      const lead = t[0] !== 0 ? 1 : t[1] !== 0 || parts < 3 ? Math.min(2, Math.max(parts, 1)) : 3;
      return cmp(v, t) >= 0 && cmp(v, bump(t, lead)) < 0;
    }
    default: return cmp(v, t) >= 0 && cmp(v, bump(t, parts)) < 0 && (parts < 3 ? true : cmp(v, t) === 0);
  }
}

/** True when `range` is a syntactically valid range this module understands. */
export function validRange(range: string): boolean {
  return satisfies('0.0.0', range) !== undefined;
}

/** undefined when the version or the range cannot be parsed. */
export function satisfies(version: string, range: string): boolean | undefined {
  const v = parse(version);
  if (!v) return undefined;
  const alternatives = range.split('||').map((s) => s.trim());
  let any = false;
  for (const alt of alternatives) {
    const comps = alt === '' || alt === '*' ? [] : alt.split(/\s+/);
    let all = true;
    for (const c of comps) {
      const r = comparator(c, v.t);
      if (r === undefined) return undefined;
      all &&= r;
    }
    any ||= all;
  }
  return any;
}

// The capability matrix as a text table: rows × columns from keys 'row/column'.
import type { CapabilityValue } from '../src/config/results.js';

/** The sorted row and column names of a matrix whose keys are 'row/column' (or 'row' alone: column ''). */
export function matrixAxes(m: Record<string, CapabilityValue>): { rows: string[]; cols: string[] } {
  const rows = new Set<string>();
  const cols = new Set<string>();
  for (const key of Object.keys(m)) {
    const i = key.indexOf('/');
    rows.add(i < 0 ? key : key.slice(0, i));
    cols.add(i < 0 ? '' : key.slice(i + 1));
  }
  return { rows: [...rows].sort(), cols: [...cols].sort() };
}

export function renderMatrix(
  m: Record<string, CapabilityValue>,
  mark: { yes: string; no: string; warn: string; none: string } = { yes: '✓', no: '✗', warn: '!', none: '·' },
): string {
  const { rows, cols } = matrixAxes(m);
  if (!rows.length) return '(no capabilities recorded)';
  const w0 = Math.max(...rows.map((r) => r.length), 2);
  const ws = cols.map((c) => Math.max(c.length, 1));
  const line = (first: string, cells: string[]): string => [first.padEnd(w0), ...cells.map((x, i) => x.padEnd(ws[i]!))].join('  ').trimEnd();
  const out = [line('', cols)];
  for (const r of rows) {
    out.push(line(r, cols.map((c) => {
      const v = m[c ? `${r}/${c}` : r];
      return v === undefined ? mark.none : v === 'warn' ? mark.warn : v ? mark.yes : mark.no;
    })));
  }
  if (Object.values(m).includes('warn')) out.push(`(${mark.warn}: only quality checks found it lacking)`);
  return out.join('\n');
}

// JSON layout of sidecars: 2-space indentation, arrays of scalars kept on one line.
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function formatJson(v: unknown, indent = ''): string {
  const j = v as Json;
  if (Array.isArray(j)) {
    if (j.every((x) => x === null || typeof x !== 'object')) return `[${j.map((x) => JSON.stringify(x)).join(', ')}]`;
    const inner = indent + '  ';
    return `[\n${j.map((x) => inner + formatJson(x, inner)).join(',\n')}\n${indent}]`;
  }
  if (j !== null && typeof j === 'object') {
    const entries = Object.entries(j).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${formatJson(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(j);
}

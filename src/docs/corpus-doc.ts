// The generated sections of docs/corpus.md: what the corpus covers (from the sidecars' declared ops and dtypes and
// the StableHLO spec's op list) and how close a run's float outputs came to their bounds (from a results file).
import { DTYPES } from '../abi/dtypes.js';
import type { ObservedError, ResultsFile } from '../config/results.js';
import type { CorpusEntry } from '../corpus/load.js';
import { NOT_IN_CORPUS, SPEC_OPS, SPEC_SOURCE } from '../corpus/spec-ops.js';

export const COVERAGE_MARKERS = ['<!-- corpus-coverage:begin (node dist/scripts/gen-corpus-doc.js) -->', '<!-- corpus-coverage:end -->'] as const;
export const ERROR_MARKERS = ['<!-- corpus-errors:begin (node dist/scripts/gen-corpus-doc.js --results FILE) -->', '<!-- corpus-errors:end -->'] as const;

const byDtypeOrder = (a: string, b: string) => DTYPES.findIndex((d) => d.name === a) - DTYPES.findIndex((d) => d.name === b);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Ops × element types: ● a one-op program (a probe) covers the cell, ○ only programs of several ops do. */
function coverageTable(entries: readonly CorpusEntry[]): string {
  const ops = [...new Set(entries.flatMap((e) => e.ops))].sort(cmp);
  const dtypes = [...new Set(entries.flatMap((e) => e.dtypes))].sort(byDtypeOrder);
  const lines = [`| op | programs | probes | ${dtypes.join(' | ')} |`, `|---|---:|---:|${dtypes.map(() => ':-:').join('|')}|`];
  for (const op of ops) {
    const all = entries.filter((e) => e.ops.includes(op));
    const probes = all.filter((e) => e.ops.length === 1);
    const cell = (d: string) => (probes.some((e) => e.dtypes.includes(d)) ? '●' : all.some((e) => e.dtypes.includes(d)) ? '○' : '');
    lines.push(`| \`${op}\` | ${all.length} | ${probes.length} | ${dtypes.map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The spec's ops the corpus does not run, each with its reason; throws when one lacks a reason. */
function absentTable(entries: readonly CorpusEntry[]): { table: string; covered: number } {
  const inCorpus = new Set(entries.flatMap((e) => e.ops));
  const absent = SPEC_OPS.filter((op) => !inCorpus.has(op));
  const unexplained = absent.filter((op) => !NOT_IN_CORPUS[op]);
  if (unexplained.length) throw new Error(`spec ops absent from the corpus without a reason in src/corpus/spec-ops.ts NOT_IN_CORPUS: ${unexplained.join(', ')}`);
  const lines = ['| op | why it is not in the corpus |', '|---|---|', ...absent.map((op) => `| \`${op}\` | ${NOT_IN_CORPUS[op]} |`)];
  return { table: lines.join('\n'), covered: SPEC_OPS.length - absent.length };
}

/** The coverage section: ops × types, programs per op, and the spec's ops left out with reasons. */
export function coverageSection(entries: readonly CorpusEntry[]): string {
  const probes = entries.filter((e) => e.ops.length === 1).length;
  const { table, covered } = absentTable(entries);
  const outside = [...new Set(entries.flatMap((e) => e.ops))].filter((op) => !SPEC_OPS.includes(op)).sort(cmp);
  const chlo = outside.filter((op) => op.startsWith('chlo.'));
  const extra = outside.filter((op) => !op.startsWith('chlo.'));
  const notes = [
    ...(extra.length ? [`${extra.map((o) => `\`${o}\``).join(', ')} ${extra.length === 1 ? 'is' : 'are'} not a StableHLO op (func dialect)`] : []),
    ...(chlo.length ? [`the ${chlo.length} \`chlo.*\` rows are CHLO ops, which XLA's compiler legalises to StableHLO (docs/artifacts.md: their artifacts)`] : []),
  ];
  return [
    `${entries.length} programs, ${probes} of them probes (one declared op). Rows: the ops the sidecars declare (\`ops\`); ` +
      '● a probe covers the op on that element type (it decides the capability-matrix cell), ○ only programs of several ops do; ' +
      '`programs`: programs declaring the op, `probes`: those declaring it alone.',
    '',
    coverageTable(entries),
    '',
    `The corpus runs ${covered} of the ${SPEC_OPS.length} ops of the StableHLO spec ([${SPEC_SOURCE.file}](https://github.com/${SPEC_SOURCE.repo}/blob/${SPEC_SOURCE.commit}/${SPEC_SOURCE.file}) ` +
      `at \`${SPEC_SOURCE.commit.slice(0, 12)}\`)${notes.map((n) => `; ${n}`).join('')}. The others, and why:`,
    '',
    table,
  ].join('\n');
}

interface ErrorRow { op: string; dtype: string; outputs: number; worst: ObservedError; program: string; maxAbs: number; maxRel: number }

/** Largest observed error per (ops, output type) over the passing programs of a results file. */
export function errorSection(entries: readonly CorpusEntry[], results: ResultsFile): string {
  const byId = new Map(entries.map((e) => [`tier1.program.run.${e.name}`, e]));
  const rows = new Map<string, ErrorRow>();
  let exact = 0;
  let measured = 0;
  for (const r of results.results) {
    const e = byId.get(r.id);
    if (!e || r.status !== 'pass') continue;
    for (const o of r.details?.observedError ?? []) {
      measured++;
      const op = e.ops.join(' + ');
      const bounded = o.bound.ulp !== 0 || o.bound.abs !== undefined || o.bound.rel !== undefined;
      if (!bounded && o.ulp === 0) {
        exact++;
        continue;
      }
      const key = `${op}\u0000${o.dtype}`;
      const row = rows.get(key);
      if (!row) rows.set(key, { op, dtype: o.dtype, outputs: 1, worst: o, program: e.name, maxAbs: o.abs, maxRel: o.rel });
      else {
        row.outputs++;
        if (o.ulp > row.worst.ulp) Object.assign(row, { worst: o, program: e.name });
        row.maxAbs = Math.max(row.maxAbs, o.abs);
        row.maxRel = Math.max(row.maxRel, o.rel);
      }
    }
  }
  const num = (x: number) => (x === 0 ? '0' : x < 1e-3 || x >= 1e4 ? x.toExponential(2) : x.toPrecision(3));
  const bound = (b: ObservedError['bound']) => [`${b.ulp ?? 0} ulp`, ...(b.abs !== undefined ? [`abs ${b.abs}`] : []), ...(b.rel !== undefined ? [`rel ${b.rel}`] : [])].join(', ');
  const sorted = [...rows.values()].sort((a, b) => cmp(a.op, b.op) || byDtypeOrder(a.dtype, b.dtype));
  return [
    `From a run of the \`${results.plugin.name}\` plugin (${results.plugin.platformName ?? 'platform unknown'}): ${measured} float outputs of passing programs; ` +
      `${exact} of them have a bit-exact bound and matched exactly. The others, per (ops, output type): the largest error observed ` +
      '(ULPs of the output type; absolute; relative to the expected value) against the bound the sidecar sets (any one bound suffices).',
    '',
    '| ops | type | outputs | largest ulp | in program | largest abs | largest rel | bound |',
    '|---|---|---:|---:|---|---:|---:|---|',
    ...sorted.map((r) => `| \`${r.op}\` | ${r.dtype} | ${r.outputs} | ${r.worst.ulp} | ${r.program} | ${num(r.maxAbs)} | ${num(r.maxRel)} | ${bound(r.worst.bound)} |`),
  ].join('\n');
}

/** `doc` with the text between the two markers replaced by `body`; undefined when the markers are missing. */
export function replaceBetween(doc: string, [begin, end]: readonly [string, string], body: string): string | undefined {
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) return undefined;
  return `${doc.slice(0, i + begin.length)}\n${body}\n${doc.slice(j)}`;
}

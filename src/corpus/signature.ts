// A program's @main signature against its sidecar: a person's sidecar with too few inputs, or a dtype or shape its
// program does not take, is their mistake, not the plugin's. Checked before a run (`--programs`) as bad input.
import { basename } from 'node:path';
import { DTYPES } from '../abi/dtypes.js';
import { CorpusError, type CorpusEntry, type HostValue } from './load.js';

/** One tensor type of a signature: element type as MLIR spells it, and static dims. */
interface TensorType { element: string; dims: number[] }

/** The text from `open` (an opening bracket) to its matching close, exclusive; undefined when unbalanced. */
function balanced(text: string, open: number): { inner: string; end: number } | undefined {
  const pairs: Record<string, string> = { '(': ')', '<': '>', '{': '}', '[': ']' };
  const stack: string[] = [];
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '-' && text[i + 1] === '>') i++; // `->` is no closing bracket
    else if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack.at(-1)) {
      stack.pop();
      if (!stack.length) return { inner: text.slice(open + 1, i), end: i + 1 };
    }
  }
  return undefined;
}

/** Splits at commas outside brackets and quotes. */
function topLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (quoted) {
      if (c === '"' && list[i - 1] !== '\\') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '-' && list[i + 1] === '>') {
      cur += '->';
      i++;
      continue;
    } else if ('(<{['.includes(c)) depth++;
    else if (')>}]'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** `tensor<2x3xf32>` → {f32, [2, 3]}; undefined for anything else (dynamic dims, tuples, tokens). */
export function tensorType(text: string): TensorType | undefined {
  const m = /^tensor<((?:\d+x)*)([A-Za-z][\w<>]*)>$/.exec(text.replace(/^%\w+\s*:\s*/, '').replace(/\s*\{.*\}\s*$/s, '').trim());
  if (!m) return undefined;
  return { element: m[2]!, dims: m[1] ? m[1].slice(0, -1).split('x').map(Number) : [] };
}

/** The parameter and result types of `func.func … @main`, or undefined when they are not all plain static tensors. */
export function mainSignature(program: string): { inputs: TensorType[]; outputs: TensorType[] } | undefined {
  const at = /func\.func\s+(?:public\s+)?@main\s*\(/.exec(program);
  if (!at) return undefined;
  const params = balanced(program, at.index + at[0].length - 1);
  if (!params) return undefined;
  const rest = program.slice(params.end).trimStart();
  if (!rest.startsWith('->')) return undefined;
  const after = rest.slice(2).trimStart();
  let results: string[];
  if (after.startsWith('(')) {
    const r = balanced(after, 0);
    if (!r) return undefined;
    results = topLevel(r.inner);
  } else {
    const m = /^tensor<[^>]*(?:<[^>]*>)?[^>]*>/.exec(after);
    if (!m) return undefined;
    results = [m[0]];
  }
  const inputs = topLevel(params.inner).map(tensorType);
  const outputs = results.map(tensorType);
  if (inputs.some((t) => !t) || outputs.some((t) => !t)) return undefined;
  return { inputs: inputs as TensorType[], outputs: outputs as TensorType[] };
}

const mlirOf = new Map(DTYPES.map((d) => [d.name, d.mlir]));
const show = (t: TensorType): string => `tensor<${t.dims.map((d) => `${d}x`).join('')}${t.element}>`;

function compare(jsonFile: string, side: 'inputs' | 'outputs', values: readonly HostValue[], types: readonly TensorType[], program: string, multi: boolean): void {
  const where = (i?: number): string => `$.${side}${multi ? '[0]' : ''}${i === undefined ? '' : `[${i}]`}`;
  if (values.length !== types.length) {
    throw new CorpusError(jsonFile, where(), `has ${values.length} value(s) but @main in ${program} ${side === 'inputs' ? 'takes' : 'returns'} ${types.length}`);
  }
  values.forEach((v, i) => {
    const t = types[i]!;
    const want: TensorType = { element: mlirOf.get(v.dtype) ?? v.dtype, dims: v.dims };
    if (want.element !== t.element || want.dims.join('x') !== t.dims.join('x')) {
      throw new CorpusError(jsonFile, where(i), `is ${v.dtype}[${v.dims.join(',')}] (${show(want)}) but @main in ${program} ${side === 'inputs' ? `takes ${show(t)} as argument ${i}` : `returns ${show(t)} as result ${i}`}`);
    }
  });
}

/** Throws a CorpusError naming the sidecar when its values disagree with the program's @main signature. */
export function checkSignature(e: CorpusEntry): void {
  const sig = mainSignature(e.program);
  if (!sig) return; // a signature this reader cannot follow is left to the plugin
  const multi = e.replicas * e.partitions > 1;
  compare(e.jsonFile, 'inputs', e.inputs[0] ?? [], sig.inputs, basename(e.mlirFile), multi);
  compare(e.jsonFile, 'outputs', e.outputs[0] ?? [], sig.outputs, basename(e.mlirFile), multi);
}

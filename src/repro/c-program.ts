// A C reproducer's source: the case's identity, the run's create options, the runtime (templates/prelude.c, the same
// in every reproducer) and the case's calls (a family's body, c-families.ts). It includes the pjrt_c_api.h the CTS
// generates from its ABI table, copied beside it, and builds with `cc repro.c -ldl`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENUMS } from '../abi/index.js';
import { packageRoot } from '../config/paths.js';
import type { NamedValue } from '../config/named-value.js';

/** A C string literal of `s` (bytes outside printable ASCII escaped in octal). */
export function cString(s: string | Uint8Array): string {
  const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s);
  let out = '"';
  for (const x of b) {
    if (x === 0x22 || x === 0x5c) out += `\\${String.fromCharCode(x)}`;
    else if (x === 0x0a) out += '\\n"\n  "';
    else if (x >= 0x20 && x < 0x7f && x !== 0x3f) out += String.fromCharCode(x);
    else out += `\\${x.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** A C array initializer of bytes, 16 a line. */
export function cBytes(b: Uint8Array): string {
  const rows: string[] = [];
  for (let i = 0; i < b.length; i += 16) rows.push(`  ${Array.from(b.subarray(i, i + 16), (x) => `0x${x.toString(16).padStart(2, '0')}`).join(', ')},`);
  return `{\n${rows.join('\n')}\n}`;
}

function optionInit(name: string, v: NamedValue, list: string): string {
  const head = `{ .struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = ${cString(name)}, .name_size = ${Buffer.byteLength(name)}`;
  if (typeof v === 'string') return `${head}, .type = PJRT_NamedValue_kString, .string_value = ${cString(v)}, .value_size = ${Buffer.byteLength(v)} }`;
  if (typeof v === 'boolean') return `${head}, .type = PJRT_NamedValue_kBool, .bool_value = ${v}, .value_size = 1 }`;
  if (typeof v === 'bigint') return `${head}, .type = PJRT_NamedValue_kInt64, .int64_value = ${v}LL, .value_size = 1 }`;
  if (typeof v === 'number') return `${head}, .type = PJRT_NamedValue_kFloat, .float_value = ${v}f, .value_size = 1 }`;
  return `${head}, .type = PJRT_NamedValue_kInt64List, .int64_array_value = ${list}, .value_size = ${v.length} }`;
}

function optionsFunction(fn: string, what: string, options: Readonly<Record<string, NamedValue>>): string {
  const entries = Object.entries(options);
  const listName = (k: string) => `${fn}_list_${k.replace(/\W/g, '_')}`;
  const lists = entries.filter(([, v]) => Array.isArray(v)).map(([k, v]) => `static const int64_t ${listName(k)}[] = { ${(v as bigint[]).map((x) => `${x}LL`).join(', ')} };\n`).join('');
  const body = entries.length
    ? `  static const PJRT_NamedValue options[] = {\n${entries.map(([k, v]) => `    ${optionInit(k, v, listName(k))},`).join('\n')}\n  };\n  *out = options;\n  return ${entries.length};`
    : '  *out = NULL;\n  return 0;';
  return `${lists}/* ${what} */\nstatic size_t ${fn}(const PJRT_NamedValue** out) {\n${body}\n}\n`;
}

export interface CProgram {
  caseId: string;
  timeoutMs: number;
  /** the comment at the top: what the program shows, generated from which results */
  about: string[];
  options: Readonly<Record<string, NamedValue>>;
  /** what PJRT_TopologyDescription_Create is given: the create options and the entry's topologyOptions */
  topologyOptions: Readonly<Record<string, NamedValue>>;
  /** file-level declarations the body needs (data arrays, callbacks) */
  declarations: string;
  /** the statements of `static void body(void)` */
  body: string;
}

const prelude = (): string => readFileSync(path.join(packageRoot(), 'src', 'repro', 'templates', 'prelude.c'), 'utf8');

export function cProgram(p: CProgram): string {
  const codes = ENUMS.find((e) => e.name === 'PJRT_Error_Code')!.members;
  const names = Array.from({ length: Math.max(...codes.map((m) => m.value)) + 1 }, (_, i) => codes.find((m) => m.value === i)?.name ?? `UNKNOWN_CODE_${i}`);
  return [
    `/* ${p.about.join('\n * ')}\n *\n * Build: cc repro.c -ldl -o repro      Run: ./repro /path/to/plugin.so [--code-placement P] [--timeout-ms N] [-o name=value]... */`,
    `#define CASE_ID ${cString(p.caseId)}`,
    `#define CASE_TIMEOUT_MS ${p.timeoutMs}L`,
    `static const char* const CODE_NAMES[] = { ${names.map((n) => `"${n}"`).join(', ')} };`,
    prelude().trimEnd(),
    optionsFunction('case_options', 'The create options of the run (plugins.json entry and -o), as the CTS passed them.', p.options).trimEnd(),
    optionsFunction('case_topology_options', 'What the CTS passed PJRT_TopologyDescription_Create: the create options and the entry\'s topologyOptions.', p.topologyOptions).trimEnd(),
    p.declarations.trimEnd(),
    `static void body(void) {\n${p.body.trimEnd()}\n}\n`,
  ].filter(Boolean).join('\n\n');
}

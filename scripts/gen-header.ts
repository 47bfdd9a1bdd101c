// Writes fixtures/reference-plugin/include/pjrt_c_api.h, the extension headers pjrt_c_api_<id>_extension.h and the
// call-trace shim's list of PJRT_Api slots (native/call-trace/pjrt_api_slots.h) from the ABI table in src/abi.
// Usage: node dist/scripts/gen-header.js [--check]   (--check: exit 1 if the committed header is stale)

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import {
  API_SLOTS, CALLBACKS, ENUMS, EXTENSION_HEADERS, OPAQUE_TYPES, PJRT_API_MAJOR, PJRT_API_MINOR, STRUCTS, structDef,
  type EnumDef, type ExtensionHeaderDef, type FieldDef, type StructDef,
} from '../src/abi/index.js';

export const HEADER_PATH = fileURLToPath(new URL('../../fixtures/reference-plugin/include/pjrt_c_api.h', import.meta.url));
/** The PJRT_Api slots as an X-macro, for the call-trace shim (native/call-trace). */
export const SLOTS_HEADER_PATH = fileURLToPath(new URL('../../native/call-trace/pjrt_api_slots.h', import.meta.url));
/** The file name of an extension's generated header. */
export const extensionHeaderFile = (h: ExtensionHeaderDef): string => `pjrt_c_api_${h.id}_extension.h`;

const GUARD = 'PJRT_CTS_PJRT_C_API_H_';

/** `type name` with function-pointer types spelled around the name: `void (*name)(char*)`. */
function declare(type: string, name: string): string {
  if (type.includes('(*)')) return type.replace('(*)', `(*${name})`);
  // A member named like its own type (every PJRT_Api slot): C++ needs the type qualified as ::T.
  if (type === `${name}*`) return `PJRT_FN_TYPE(${name})* ${name}`;
  return `${type} ${name}`;
}

function since(minor: number): string {
  return `0.${minor}`;
}

function fieldLines(f: FieldDef, owner: StructDef, indent: string): string[] {
  const notes = [f.since > owner.since ? `since ${since(f.since)}` : '', f.comment ?? ''].filter(Boolean).join('; ');
  const tail = notes ? `  // ${notes}` : '';
  if (!f.anonymous) return [`${indent}${declare(f.type, f.name)};${tail}`];
  const inner = structDef(f.type);
  return [
    `${indent}${inner.union ? 'union' : 'struct'} {${tail}`,
    ...inner.fields.flatMap((m) => fieldLines(m, inner, `${indent}  `)),
    `${indent}};`,
  ];
}

function structBlock(s: StructDef): string[] {
  const notes = [s.since > 0 ? `since ${since(s.since)}` : '', s.comment ?? ''].filter(Boolean).join('; ');
  const last = s.fields[s.fields.length - 1];
  if (!last) throw new Error(`${s.name} has no fields`);
  return [
    ...(notes ? [`// ${s.name}: ${notes}`] : []),
    `struct ${s.name} {`,
    ...s.fields.flatMap((f) => fieldLines(f, s, '  ')),
    '};',
    `PJRT_DEFINE_STRUCT_TRAITS(${s.name}, ${last.name})`,
    '',
  ];
}

/** Struct definitions ordered so that every by-value member is defined first (of one header: `extension`). */
function orderedStructs(extension?: string): StructDef[] {
  const out: StructDef[] = [];
  const done = new Set<string>();
  const visit = (s: StructDef): void => {
    if (done.has(s.name)) return;
    done.add(s.name);
    for (const f of s.fields) {
      const base = f.type.replace(/^const\s+/, '').trim();
      if (!f.type.includes('*') && STRUCTS.some((x) => x.name === base)) visit(structDef(base));
    }
    if (!s.inline && s.extension === extension) out.push(s);
  };
  STRUCTS.forEach(visit);
  return out;
}

function enumBlock(e: EnumDef): string[] {
  const L = ['typedef enum {'];
  for (const m of e.members) {
    const notes = [m.since > 0 ? `since ${since(m.since)}` : '', m.comment ?? ''].filter(Boolean).join('; ');
    L.push(`  ${e.prefix}${m.name} = ${m.value},${notes ? `  // ${notes}` : ''}`);
  }
  L.push(`} ${e.name};`, '');
  return L;
}

function generateHeader(): string {
  const L: string[] = [];
  L.push(
    '/* GENERATED FILE — DO NOT EDIT.',
    ' * Produced by scripts/gen-header.ts from the ABI table in src/abi; regenerate with `npm run gen:header`.',
    ' *',
    ` * The PJRT C API, version ${PJRT_API_MAJOR}.${PJRT_API_MINOR}, with the official type, member and enum names, so`,
    ' * code written against the official pjrt_c_api.h compiles against this header. Layouts are LP64.',
    ' * Every struct, field, PJRT_Api slot and enum value matches the upstream header of the same minor (same',
    ' * offsets, sizes and values). Differences from that header: PJRT_Error and PJRT_Memory are opaque here (the',
    ' * official header gives them a `vtable` function-table pointer member since 0.107/0.105); the extensions',
    ' * the CTS tests have their own generated headers (pjrt_c_api_<name>_extension.h); `GetPjrtApi` is declared here (the official header leaves that to each plugin\'s header);',
    ' * PJRT_Chunk and PJRT_LogicalDeviceIds also get a `*_STRUCT_SIZE` constant; PJRT_Api slots carry no',
    ' * PJRT_NO_DISCARD ([[nodiscard]] under clang C++); enum values are spelled out.',
    ' */',
    '',
    `#ifndef ${GUARD}`,
    `#define ${GUARD}`,
    '',
    '#include <stdbool.h>',
    '#include <stddef.h>',
    '#include <stdint.h>',
    '',
    `#define PJRT_API_MAJOR ${PJRT_API_MAJOR}`,
    `#define PJRT_API_MINOR ${PJRT_API_MINOR}`,
    '',
    '// Bytes up to the end of `last_field`: excludes tail padding, unlike sizeof.',
    '#define PJRT_STRUCT_SIZE(struct_type, last_field) \\',
    '  (offsetof(struct_type, last_field) + sizeof(((struct_type*)0)->last_field))',
    '',
    '#ifdef __cplusplus',
    '// Fails to compile when `last_field` is not the last member of `sname`.',
    '#define PJRT_CHECK_STRUCT_SIZE(sname, last_field)                                  \\',
    '  static_assert(sizeof(sname) == (PJRT_STRUCT_SIZE(sname, last_field) + alignof(sname) - 1) / \\',
    '                                     alignof(sname) * alignof(sname),              \\',
    '                "last field of " #sname);',
    '#else',
    '#define PJRT_CHECK_STRUCT_SIZE(sname, last_field)',
    '#endif',
    '',
    '// A PJRT_Api member has the name of its function type; C++ needs that type spelled ::T there.',
    '#ifdef __cplusplus',
    '#define PJRT_FN_TYPE(fn_type) ::fn_type',
    '#else',
    '#define PJRT_FN_TYPE(fn_type) fn_type',
    '#endif',
    '',
    '// Defines `<sname>_STRUCT_SIZE`, the value callers put in `struct_size`.',
    '#define PJRT_DEFINE_STRUCT_TRAITS(sname, last_field)                     \\',
    '  enum { sname##_STRUCT_SIZE = PJRT_STRUCT_SIZE(sname, last_field) }; \\',
    '  PJRT_CHECK_STRUCT_SIZE(sname, last_field)',
    '',
    '#ifdef __cplusplus',
    'extern "C" {',
    '#endif',
    '',
    '// ----------------------------------------------------------------- opaque handles',
    ...OPAQUE_TYPES.map((t) => `typedef struct ${t} ${t};`),
    '',
    '// ----------------------------------------------------------------- struct names',
    ...STRUCTS.filter((s) => !s.inline && !s.extension).map((s) => `typedef struct ${s.name} ${s.name};`),
    '',
    '// ----------------------------------------------------------------- enums',
  );
  for (const e of ENUMS.filter((x) => !x.extension)) L.push(...enumBlock(e));
  L.push('// ----------------------------------------------------------------- callbacks');
  for (const c of CALLBACKS) {
    L.push(`${c.since > 0 ? `// since ${since(c.since)}\n` : ''}typedef ${c.ret} (*${c.name})(${c.params});`);
  }
  L.push('', '// ----------------------------------------------------------------- structs');
  const api = orderedStructs();
  for (const s of api.filter((x) => x.name !== 'PJRT_Api')) L.push(...structBlock(s));
  L.push('// ----------------------------------------------------------------- functions');
  for (const s of API_SLOTS) {
    const ret = s.returnsVoid ? 'void' : 'PJRT_Error*';
    L.push(`typedef ${ret} ${s.name}(${s.args}* args);${s.since > 0 ? `  // since ${since(s.since)}` : ''}`);
  }
  L.push('', '// ----------------------------------------------------------------- PJRT_Api');
  L.push(...structBlock(structDef('PJRT_Api')));
  L.push(
    '// The plugin entry point.',
    'const PJRT_Api* GetPjrtApi(void);',
    '',
    '#ifdef __cplusplus',
    '}  // extern "C"',
    '#endif',
    '',
    `#endif  // ${GUARD}`,
    '',
  );
  return L.join('\n');
}

/** One extension's header: its version macro, opaque types, enums and structs (function tables spelled inline). */
function generateExtensionHeader(h: ExtensionHeaderDef): string {
  const guard = `PJRT_CTS_PJRT_C_API_${h.id.toUpperCase()}_EXTENSION_H_`;
  const structs = orderedStructs(h.id);
  return [
    '/* GENERATED FILE — DO NOT EDIT.',
    ' * Produced by scripts/gen-header.ts from src/abi/extensions.ts; regenerate with `npm run gen:header`.',
    ' *',
    ` * The ${h.type} extension (PJRT_Extension_Type_${h.type}, since 0.${h.since}): ${h.comment}.`,
    ' * Same struct and member names, offsets and sizes as the upstream header; function-table members are',
    ' * declared with their function-pointer types spelled out (upstream names a typedef per function).',
    ' */',
    '',
    `#ifndef ${guard}`,
    `#define ${guard}`,
    '',
    '#include "pjrt_c_api.h"',
    '',
    '#ifdef __cplusplus',
    'extern "C" {',
    '#endif',
    '',
    `#define ${h.versionMacro} ${h.version}`,
    '',
    ...h.opaque.map((t) => `typedef struct ${t} ${t};`),
    ...structs.map((s) => `typedef struct ${s.name} ${s.name};`),
    '',
    ...ENUMS.filter((e) => e.extension === h.id).flatMap(enumBlock),
    ...structs.flatMap(structBlock),
    '#ifdef __cplusplus',
    '}  // extern "C"',
    '#endif',
    '',
    `#endif  // ${guard}`,
    '',
  ].join('\n');
}

/** `PJRT_CTS_API_SLOTS(X)`: X(index, name) for every PJRT_Api slot of pjrt_c_api.h, in header order. */
function generateSlotsHeader(): string {
  const guard = 'PJRT_CTS_PJRT_API_SLOTS_H_';
  const last = API_SLOTS.length - 1;
  return [
    '/* GENERATED FILE — DO NOT EDIT.',
    ' * Produced by scripts/gen-header.ts from the ABI table in src/abi; regenerate with `npm run gen:header`.',
    ' *',
    ` * Every function slot of PJRT_Api in pjrt_c_api.h (API ${PJRT_API_MAJOR}.${PJRT_API_MINOR}), in header order, as an X-macro:`,
    ' * PJRT_CTS_API_SLOTS(X) expands to X(index, name) once per slot, index counting from 0. A slot\'s function type',
    ' * is that of the PJRT_Api member of its name.',
    ' */',
    '',
    `#ifndef ${guard}`,
    `#define ${guard}`,
    '',
    '#define PJRT_CTS_API_SLOTS(X) \\',
    ...API_SLOTS.map((s, i) => `  X(${i}, ${s.name})${i === last ? '' : ' \\'}`),
    '',
    `#endif  // ${guard}`,
    '',
  ].join('\n');
}

/** Every generated header: path → text. */
export function generatedHeaders(): Map<string, string> {
  const out = new Map([[HEADER_PATH, generateHeader()], [SLOTS_HEADER_PATH, generateSlotsHeader()]]);
  for (const h of EXTENSION_HEADERS) out.set(join(dirname(HEADER_PATH), extensionHeaderFile(h)), generateExtensionHeader(h));
  return out;
}

function main(argv: readonly string[]): number {
  const headers = generatedHeaders();
  if (argv.includes('--check')) {
    let stale = 0;
    for (const [path, text] of headers) {
      let current = '';
      try { current = readFileSync(path, 'utf8'); } catch { /* missing counts as stale */ }
      if (current !== text) { console.error(`${path} is stale; run \`npm run gen:header\``); stale++; }
    }
    return stale ? 1 : 0;
  }
  for (const [path, text] of headers) {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}

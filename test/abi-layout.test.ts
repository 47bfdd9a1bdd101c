import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_SLOTS, DTYPES, ENUMS, EXTENSION_HEADERS, PJRT_API_MINOR, STRUCTS, apiStructSize, enumMember, enumValue, layoutOf, slotIndex,
  slotOffset, structDef, structNames,
} from '../src/abi/index.js';
import { HEADER_PATH, extensionHeaderFile, generatedHeaders } from '../scripts/gen-header.js';

const OFFICIAL_STYLE = fileURLToPath(new URL('../../test/native/layout-probe/official_style.cc', import.meta.url));

const hasCc = spawnSync('cc', ['--version']).status === 0;

/** A C program that prints, for every struct, field and enum member, what the compiler makes of the header. */
function probeSource(): string {
  const L: string[] = ['#include <stdio.h>', '#include "pjrt_c_api.h"',
    ...EXTENSION_HEADERS.map((h) => `#include "${extensionHeaderFile(h)}"`), 'int main(void) {'];
  const out = (fmt: string, ...vals: string[]): void => {
    L.push(`  printf("${fmt}\\n", ${vals.join(', ')});`);
  };
  for (const name of structNames()) {
    out(`S ${name} %zu %zu`, `sizeof(${name})`, `(size_t)${name}_STRUCT_SIZE`);
    const layout = layoutOf(name);
    const members = layout.fields.flatMap((f) =>
      f.anonymous ? layoutOf(structDef(name).fields.find((d) => d.name === f.name)!.type).fields.map((m) => m.name) : [f.name]);
    for (const m of members) out(`F ${name} ${m} %zu %zu`, `offsetof(${name}, ${m})`, `sizeof(((${name}*)0)->${m})`);
  }
  for (const e of ENUMS) for (const m of e.members) out(`E ${e.name} ${m.name} %d`, `(int)${e.prefix}${m.name}`);
  L.push('  return 0;', '}');
  return L.join('\n');
}

describe('abi: layout table', () => {
  it('PJRT_Api_STRUCT_SIZE at several minors matches the digest', () => {
    for (const minor of [110, 111, 112, 113, 114]) assert.equal(apiStructSize(minor), 1144, `0.${minor}`);
    assert.equal(apiStructSize(95), 1080);
    assert.equal(apiStructSize(92), 1072);
    assert.equal(apiStructSize(), apiStructSize(PJRT_API_MINOR));
  });

  it('slot i sits at 40 + 8*i and the table has 138 slots', () => {
    assert.equal(API_SLOTS.length, 138);
    API_SLOTS.forEach((s, i) => {
      assert.equal(slotIndex(s.name), i);
      assert.equal(slotOffset(s.name), 40 + 8 * i, s.name);
    });
    assert.equal(slotOffset('PJRT_Client_Create'), 120);
    assert.equal(slotOffset('PJRT_TopologyDescription_GetMemorySpaceKindIds'), 1136);
  });

  it('every slot names an Args struct that exists, and only Error_Destroy/Error_Message return void', () => {
    for (const s of API_SLOTS) {
      assert.ok(s.args, s.name);
      assert.ok(structDef(s.args).since <= s.since || s.since === 0, `${s.args} newer than its slot`);
    }
    assert.deepEqual(API_SLOTS.filter((s) => s.returnsVoid).map((s) => s.name), ['PJRT_Error_Destroy', 'PJRT_Error_Message']);
  });

  it('enum values', () => {
    assert.equal(enumValue('PJRT_Buffer_Type', 'F32'), 11);
    assert.equal(enumValue('PJRT_Buffer_Type', 'BF16'), 13);
    assert.equal(enumValue('PJRT_Buffer_Type', 'U1'), 31);
    assert.equal(enumValue('PJRT_Buffer_Type', 'F6E3M2FN'), 33);
    assert.equal(enumValue('PJRT_Error_Code', 'INVALID_ARGUMENT'), 3);
    assert.equal(enumValue('PJRT_HostBufferSemantics', 'kImmutableZeroCopy'), 2);
    assert.equal(enumMember('PJRT_Error_Code', 12), 'UNIMPLEMENTED');
    assert.equal(enumMember('PJRT_Error_Code', 99), undefined);
    assert.throws(() => enumValue('PJRT_Buffer_Type', 'F33'));
  });

  it('every dtypes.ts row names a PJRT_Buffer_Type member', () => {
    for (const d of DTYPES) assert.doesNotThrow(() => enumValue('PJRT_Buffer_Type', d.pjrt), d.name);
  });

  it('known Args layouts at the newest minor', () => {
    const lookup = layoutOf('PJRT_Client_LookupDevice_Args');
    assert.equal(lookup.field('id').offset, 24);
    assert.equal(lookup.field('device').offset, 32);
    assert.equal(layoutOf('PJRT_Event_IsReady_Args').structSize, 25);
    assert.equal(layoutOf('PJRT_Event_IsReady_Args').sizeof, 32);
    const ml = layoutOf('PJRT_Buffer_MemoryLayout');
    assert.deepEqual([ml.structSize, ml.sizeof, ml.field('type').offset, ml.field('strides').offset], [76, 80, 72, 16]);
    const nv = layoutOf('PJRT_NamedValue');
    assert.deepEqual([nv.structSize, nv.field('int64_value').offset, nv.field('value_size').offset], [56, 40, 48]);
    assert.equal(layoutOf('PJRT_Buffer_GetMemoryLayout_Args').structSize, 104);
    assert.equal(layoutOf('PJRT_Device_MemoryStats_Args').structSize, 201);
    assert.equal(layoutOf('PJRT_Device_MemoryStats_Args', 112).structSize, 185);
    assert.equal(layoutOf('PJRT_Client_BufferFromHostBuffer_Args').structSize, 120);
  });

  it('an older minor drops appended fields', () => {
    const cc60 = layoutOf('PJRT_Client_Create_Args', 60);
    assert.equal(cc60.has('kv_try_get_callback'), false);
    assert.equal(cc60.structSize, 72);
    assert.equal(layoutOf('PJRT_Client_Create_Args', 61).structSize, 88);
    const sizes: Array<[number, number]> = [[38, 52], [39, 72], [64, 80], [76, 88], [78, 112], [97, 120], [108, 121],
      [112, 144], [113, 144], [114, 144]];
    for (const [minor, size] of sizes) assert.equal(layoutOf('PJRT_ExecuteOptions', minor).structSize, size, `0.${minor}`);
    assert.equal(layoutOf('PJRT_Executable_DeserializeAndLoad_Args', 70).structSize, 48);
    assert.throws(() => layoutOf('PJRT_Client_Load_Args', 94), /does not exist/);
  });

  it('every struct lays out at every minor it exists at', () => {
    for (const s of STRUCTS) {
      for (let minor = s.since; minor <= PJRT_API_MINOR; minor++) {
        const l = layoutOf(s.name, minor);
        assert.ok(l.structSize <= l.sizeof && l.sizeof % l.align === 0, `${s.name}@0.${minor}`);
      }
    }
  });

  it('fields added after their struct carry a later `since`, and since values never go back', () => {
    for (const s of STRUCTS) {
      let prev = 0;
      for (const f of s.fields) {
        assert.ok(f.since >= s.since, `${s.name}.${f.name}`);
        if (!s.union) assert.ok(f.since >= prev, `${s.name}.${f.name} appended out of order`);
        prev = Math.max(prev, f.since);
      }
    }
  });
});

describe('abi: generated header', function () {
  this.timeout(60_000);

  it('official-style C++ plugin code compiles against it', function () {
    if (spawnSync('c++', ['--version']).status !== 0) this.skip();
    execFileSync('c++', ['-std=c++17', '-Wall', '-Wextra', '-pedantic', '-Werror', '-fsyntax-only',
      '-I', dirname(HEADER_PATH), OFFICIAL_STYLE]);
  });

  it('the committed headers (pjrt_c_api.h, the extension headers, the call-trace shim\'s slot list) equal the generator output', () => {
    for (const [path, text] of generatedHeaders()) assert.equal(readFileSync(path, 'utf8'), text, path);
  });

  it('extension structs: known upstream STRUCT_SIZE values', () => {
    const sizes: Array<[string, number]> = [['PJRT_Layouts_Extension', 80], ['PJRT_MemoryDescriptions_Extension', 40],
      ['PJRT_Stream_Extension', 40], ['PJRT_FFI_Extension', 48], ['PJRT_Profiler_Extension', 40],
      ['PLUGIN_Profiler_Api', 104], ['PJRT_FFI_UserData_Add_Args', 40], ['PJRT_MemoryDescription_Kind_Args', 44]];
    for (const [name, size] of sizes) assert.equal(layoutOf(name).structSize, size, name);
  });

  it('compiles as C11, and the compiler agrees with layout.ts on every offset, size and value', function () {
    if (!hasCc) this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'pjrt-abi-'));
    try {
      const src = join(dir, 'probe.c');
      writeFileSync(src, probeSource());
      const exe = join(dir, 'probe');
      execFileSync('cc', ['-std=c11', '-Wall', '-Werror', '-I', dirname(HEADER_PATH), '-o', exe, src]);
      const lines = execFileSync(exe, { encoding: 'utf8' }).trim().split('\n');
      let checked = 0;
      for (const line of lines) {
        const [kind, a, b, c, d] = line.split(' ');
        if (kind === 'S') {
          const l = layoutOf(a!);
          assert.deepEqual([Number(b), Number(c)], [l.sizeof, l.structSize], `${a}: sizeof, STRUCT_SIZE`);
        } else if (kind === 'F') {
          const f = layoutOf(a!).field(b!);
          assert.deepEqual([Number(c), Number(d)], [f.offset, f.size], `${a}.${b}: offset, size`);
        } else {
          assert.equal(Number(c), enumValue(a!, b!), `${a}.${b}`);
        }
        checked++;
      }
      assert.ok(checked > 1000, `only ${checked} checks`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

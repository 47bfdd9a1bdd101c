// The API cases a C reproducer is generated for, family by family: each body makes the case's calls in the case's
// order with the case's arguments (the program bytes, compile options, topology name and whether a view got an
// on_delete_callback are taken from the calls the case was recorded making, src/repro/calls.ts) and performs the
// case's check with the case's rule text, so that it prints the verdict line the case printed. A case of no family
// here gets its recorded call sequence instead (README: which families are covered).
import picomatch from 'picomatch';
import { dtype } from '../abi/dtypes.js';
import type { LogLine, LoggedBytes, LoggedValue } from '../ffi/call-log.js';
import { pattern } from '../../suites/_lib/patterns.js';
import { cBytes, cString } from './c-program.js';

export interface FamilyInput {
  id: string;
  /** the case's calls, recorded (call lines only, in order) */
  calls: readonly Extract<LogLine, { at: 'call' }>[];
}

/** What a family writes into repro.c, and what it reproduces in words (the README's first line). */
export interface CBody { declarations: string; body: string; shows: string; variants?: { flag: string; what: string }[] }

interface Family {
  name: string;
  /** id globs of the cases it reproduces */
  covers: readonly string[];
  build(input: FamilyInput): CBody | string;
}

const isBytes = (v: LoggedValue | undefined): v is LoggedBytes => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as LoggedBytes).size === 'number';

/** The bytes of a recorded byte string (undefined when it was not recorded whole). */
function bytesOf(v: LoggedValue | undefined): Uint8Array | undefined {
  if (!isBytes(v)) return undefined;
  const b = v.text !== undefined ? Buffer.from(v.text, 'utf8') : Buffer.from(v.hex ?? '', 'hex');
  return b.length === v.size ? new Uint8Array(b) : undefined;
}

const field = (o: LoggedValue | undefined, k: string): LoggedValue | undefined =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, LoggedValue>)[k] : undefined;

const lastCall = (input: FamilyInput, slot: string, back = 0) => input.calls.filter((c) => c.slot === slot).at(-1 - back);

/** The recorded view call said NULL or a function for on_delete_callback. */
function viewCallback(input: FamilyInput): { pass: boolean } | string {
  const v = lastCall(input, 'PJRT_Client_CreateViewOfDeviceBuffer');
  if (!v) return 'the recorded calls hold no PJRT_Client_CreateViewOfDeviceBuffer';
  return { pass: v.args['on_delete_callback'] !== null };
}

const dataArray = (name: string, b: Uint8Array): string => `static const unsigned char ${name}[${b.length}] = ${cBytes(b)};`;
const callbackWords = (pass: boolean): string => (pass ? 'with an on_delete_callback' : 'with on_delete_callback = NULL (the header: "optional and can be a nullptr")');

/** A view over a buffer's memory kept by an external reference: pointer from `pointerFn`, bytes read back through the view. */
function viewOfBufferBody(o: { dt: string; n: number; pointerFn: string; deleteFirst: boolean; rule: string; callback: boolean }): CBody {
  const d = dtype(o.dt);
  const host = pattern(d, [o.n]);
  const type = `PJRT_Buffer_Type_${d.pjrt}`;
  const body = [
    `  static const int64_t dims[] = { ${o.n} };`,
    '  PJRT_Client* client = create_client();',
    '  PJRT_Device* device = device_at(client, 0);',
    `  PJRT_Buffer* buf = upload(client, device, ${type}, dims, 1, host);`,
    '  external_ref(buf, 1);',
    `  void* ptr = ${o.pointerFn}(buf);`,
    ...(o.deleteFirst
      ? [
        '  delete_buffer(buf);',
        '  /* memory churn that would reuse freed storage */',
        `  static unsigned char churn[${host.length}];`,
        '  memset(churn, 0xee, sizeof churn);',
        `  for (int i = 0; i < 8; i++) upload(client, device, ${type}, dims, 1, churn);`,
      ]
      : []),
    `  PJRT_Buffer* view = create_view(client, device, ptr, ${type}, dims, 1, ${o.callback ? 1 : 0});`,
    `  static unsigned char got[${host.length}];`,
    '  to_host(view, got, sizeof got);',
    `  check_bytes(${cString(o.rule)}, got, host, sizeof got);`,
    '  destroy_buffer(view);',
    '  external_ref(buf, 0);',
  ];
  return {
    declarations: dataArray('host', host),
    body: body.join('\n'),
    shows: `a view (PJRT_Client_CreateViewOfDeviceBuffer ${callbackWords(o.callback)}) over the memory of a ${o.dt}[${o.n}] buffer${o.deleteFirst ? ' deleted while an external reference holds it' : ''}: its bytes are read back, then the view is destroyed`,
  };
}

const FAMILIES: readonly Family[] = [
  {
    name: 'views and callbacks',
    covers: ['tier2.dlpack.external_ref_keeps_memory', 'tier2.dlpack.view_over_unsafe_pointer', 'tier2.dlpack.view_on_delete_called_once', 'tier2.abi_skew.older_struct_size_tail_ignored'],
    build(input) {
      const cb = viewCallback(input);
      if (typeof cb === 'string') return cb;
      switch (input.id) {
        case 'tier2.dlpack.external_ref_keeps_memory':
          return viewOfBufferBody({ dt: 's32', n: 4096, pointerFn: 'opaque_pointer', deleteFirst: true, callback: cb.pass, rule: 'an outstanding external reference must keep the memory (and its bytes) alive after PJRT_Buffer_Delete' });
        case 'tier2.dlpack.view_over_unsafe_pointer':
          return viewOfBufferBody({ dt: 'f32', n: 32, pointerFn: 'unsafe_pointer', deleteFirst: false, callback: cb.pass, rule: 'the memory at UnsafePointer should hold the buffer\'s bytes' });
        case 'tier2.dlpack.view_on_delete_called_once':
          return onDeleteOnce();
        default:
          return olderStructView(cb.pass);
      }
    },
  },
  {
    name: 'TransferLiteral',
    covers: ['tier2.async_transfer.transfer_literal', 'tier2.async_transfer.transfer_literal_sub_byte'],
    build: transferLiteral,
  },
  {
    name: 'compile of a given program',
    covers: ['tier1.compile.rejects_bad_program.*', 'tier1.compile.rejects_bad_program_code.*', 'tier1.aot_compile.rejects_bad_program.*', 'tier1.aot_compile.suite_program_rejected.*'],
    build: (input) => (input.id.startsWith('tier1.aot_compile.') ? aotRejects(input) : clientRejects(input)),
  },
];

function onDeleteOnce(): CBody {
  const host = pattern(dtype('u8'), [96]);
  const body = [
    '  static const int64_t dims[] = { 96 };',
    '  PJRT_Client* client = create_client();',
    '  PJRT_Device* device = device_at(client, 0);',
    '  PJRT_Buffer* buf = upload(client, device, PJRT_Buffer_Type_U8, dims, 1, host);',
    '  external_ref(buf, 1);',
    '  void* ptr = opaque_pointer(buf);',
    '  if (ptr == NULL) fail("OpaqueDeviceMemoryDataPointer must be non-null for a live buffer", "an address", "NULL");',
    '  PJRT_Buffer* view = create_view(client, device, ptr, PJRT_Buffer_Type_U8, dims, 1, 1);',
    '  char got[64];',
    '  usleep(50000);',
    '  snprintf(got, sizeof got, "%d", view_deletes);',
    '  if (view_deletes != 0) fail("on_delete_callback must not be called while the view is alive (the view is not done with the memory)", "0", got);',
    '  destroy_buffer(view);',
    '  int n = settled_view_deletes(1, 2000);',
    '  snprintf(got, sizeof got, "%d", n);',
    '  if (n != 1) fail("on_delete_callback must be called exactly once when the view buffer is destroyed", "1", got);',
    '  if (view_deleted_ptr != ptr) {',
    '    char want[64];',
    '    snprintf(want, sizeof want, "%lun", (unsigned long)(uintptr_t)ptr);',
    '    snprintf(got, sizeof got, "%lun", (unsigned long)(uintptr_t)view_deleted_ptr);',
    '    fail("on_delete_callback must receive the device_buffer_ptr of the view", want, got);',
    '  }',
    '  external_ref(buf, 0);',
  ];
  return { declarations: dataArray('host', host), body: body.join('\n'), shows: 'a view with an on_delete_callback: the callback must not run while the view lives, and run once, with the viewed pointer, when it is destroyed' };
}

function olderStructView(callback: boolean): CBody {
  const host = pattern(dtype('u8'), [64]);
  const body = [
    '  static const int64_t dims[] = { 64 };',
    '  PJRT_Client* client = create_client();',
    '  PJRT_Device* device = device_at(client, 0);',
    '  ARGS(PJRT_Device_DefaultMemory_Args, dm);',
    '  dm.device = device;',
    '  MUST(PJRT_Device_DefaultMemory, dm);',
    '  ARGS(PJRT_Client_AddressableMemories_Args, ms);',
    '  ms.client = client;',
    '  MUST(PJRT_Client_AddressableMemories, ms);',
    '  PJRT_Memory* decoy = NULL;',
    '  for (size_t i = 0; i < ms.num_addressable_memories && decoy == NULL; i++) if (ms.addressable_memories[i] != dm.memory) decoy = ms.addressable_memories[i];',
    '  if (decoy == NULL) { printf("%s: skip: needs a second addressable memory to place behind the older struct\\n", case_id); fflush(stdout); _exit(4); }',
    '  PJRT_Buffer* buf = upload(client, device, PJRT_Buffer_Type_U8, dims, 1, host);',
    '  external_ref(buf, 1); /* keeps the viewed memory alive while the view exists */',
    '  /* the struct_size of a caller whose header predates `memory`; the bytes past it are garbage (0xcd), except the memory',
    '     pointer a plugin that misreads the struct would use */',
    '  ARGS(PJRT_Client_CreateViewOfDeviceBuffer_Args, a);',
    '  size_t older = offsetof(PJRT_Client_CreateViewOfDeviceBuffer_Args, memory);',
    '  a.struct_size = older;',
    '  memset((char*)&a + older, 0xcd, sizeof a - older);',
    '  a.memory = decoy;',
    '  a.client = client;',
    '  a.device_buffer_ptr = opaque_pointer(buf);',
    '  a.dims = dims;',
    '  a.num_dims = 1;',
    '  a.element_type = PJRT_Buffer_Type_U8;',
    '  a.device = device;',
    ...(callback ? ['  a.on_delete_callback = count_view_delete;'] : ['  a.on_delete_callback = NULL;', '  a.on_delete_callback_arg = NULL;']),
    '  PJRT_Error* e = CALL(PJRT_Client_CreateViewOfDeviceBuffer, a);',
    '  if (e == NULL) {',
    '    ARGS(PJRT_Buffer_Memory_Args, m);',
    '    m.buffer = a.buffer;',
    '    MUST(PJRT_Buffer_Memory, m);',
    '    destroy_buffer(a.buffer);',
    '    if (m.memory == decoy) {',
    '      char want[256], got[256], dl[64], dk[64];',
    '      memory_label(dm.memory, dl, sizeof dl);',
    '      memory_label(decoy, dk, sizeof dk);',
    '      snprintf(want, sizeof want, "a memory of the device (e.g. its default, %s), not %s", dl, dk);',
    '      snprintf(got, sizeof got, "memory %s, the one past struct_size", dk);',
    '      fail("a view made by device (no memory field within struct_size) must not be placed by the memory pointer found past struct_size (the caller did not provide that field)", want, got);',
    '    }',
    '  } else {',
    '    char why[2048];',
    '    error_text(e, why, sizeof why);',
    '    printf("(a clean error, which the case accepts: %s)\\n", why);',
    '  }',
    '  external_ref(buf, 0);',
  ];
  return {
    declarations: '#include <stddef.h>\n' + dataArray('host', host),
    body: body.join('\n'),
    shows: `PJRT_Client_CreateViewOfDeviceBuffer with the struct_size of a caller that predates its \`memory\` field (${callbackWords(callback)}); the view is then destroyed`,
  };
}

/** The recorded shape_layout of TransferLiteral: NULL, or the dense major-to-minor layout (rank-1 … 0), as C. */
function literalLayout(input: FamilyInput, rank: number): { decl: string; arg: string; words: string } | string {
  const call = lastCall(input, 'PJRT_AsyncHostToDeviceTransferManager_TransferLiteral');
  if (!call) return 'the recorded calls hold no PJRT_AsyncHostToDeviceTransferManager_TransferLiteral';
  const layout = call.args['shape_layout'];
  if (layout === null) return { decl: '', arg: 'NULL', words: 'shape_layout = NULL' };
  const m2m = field(field(layout, 'tiled'), 'minor_to_major') ?? field(layout, 'minor_to_major');
  const dense = Array.from({ length: rank }, (_, i) => rank - 1 - i);
  if (field(layout, 'type') !== 'Tiled' || JSON.stringify(m2m) !== JSON.stringify(dense)) return 'the recorded shape_layout is not the dense major-to-minor one this family generates';
  return {
    decl: `static const int64_t minor_to_major[] = { ${dense.join(', ')} };`,
    arg: '&layout',
    words: `a dense major-to-minor shape_layout`,
  };
}

function transferLiteral(input: FamilyInput): CBody | string {
  const sub = input.id.endsWith('_sub_byte');
  const [dt, dims] = sub ? ['s4', [5, 3]] as const : ['f32', [2, 3]] as const;
  const d = dtype(dt);
  const host = pattern(d, dims);
  const layout = literalLayout(input, dims.length);
  if (typeof layout === 'string') return layout;
  const type = `PJRT_Buffer_Type_${d.pjrt}`;
  const rule = sub ? 'an s4 literal transferred with TransferLiteral must come back unchanged (one element per host byte)' : 'a literal transferred with TransferLiteral must come back unchanged';
  const body = [
    `  static const int64_t dims[] = { ${dims.join(', ')} };`,
    '  PJRT_Client* client = create_client();',
    '  PJRT_Device* device = device_at(client, 0);',
    ...(sub ? [`  destroy_buffer(upload(client, device, ${type}, dims, 2, host)); /* the element type is supported at all */`] : []),
    '  ARGS(PJRT_Device_DefaultMemory_Args, dm);',
    '  dm.device = device;',
    '  MUST(PJRT_Device_DefaultMemory, dm);',
    '  ARGS(PJRT_ShapeSpec, spec);',
    '  spec.dims = dims;',
    '  spec.num_dims = 2;',
    `  spec.element_type = ${type};`,
    '  ARGS(PJRT_Client_CreateBuffersForAsyncHostToDevice_Args, cb);',
    '  cb.client = client;',
    '  cb.shape_specs = &spec;',
    '  cb.num_shape_specs = 1;',
    '  cb.memory = dm.memory;',
    '  MUST(PJRT_Client_CreateBuffersForAsyncHostToDevice, cb);',
    '  ARGS(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args, rb);',
    '  rb.transfer_manager = cb.transfer_manager;',
    '  rb.buffer_index = 0;',
    '  MUST(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer, rb);',
    ...(layout.decl ? [
      '  ARGS(PJRT_Buffer_MemoryLayout, layout);',
      '  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;',
      '  layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;',
      '  layout.tiled.minor_to_major = minor_to_major;',
      '  layout.tiled.minor_to_major_size = 2;',
    ] : []),
    '  ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args, tl);',
    '  tl.transfer_manager = cb.transfer_manager;',
    '  tl.buffer_index = 0;',
    '  tl.data = host;',
    '  tl.shape_dims = dims;',
    '  tl.shape_num_dims = 2;',
    `  tl.shape_element_type = ${type};`,
    `  tl.shape_layout = ${layout.arg};`,
    '  MUST(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral, tl);',
    '  await_event(tl.done_with_h2d_transfer, "PJRT_Event_Await");',
    '  ARGS(PJRT_Buffer_ReadyEvent_Args, r);',
    '  r.buffer = rb.buffer_out;',
    '  MUST(PJRT_Buffer_ReadyEvent, r);',
    '  await_event(r.event, "PJRT_Event_Await");',
    `  static unsigned char got[${host.length}];`,
    '  to_host(rb.buffer_out, got, sizeof got);',
    `  check_bytes(${cString(rule)}, got, host, sizeof got);`,
  ];
  return {
    declarations: [dataArray('host', host), layout.decl].filter(Boolean).join('\n'),
    body: body.join('\n'),
    shows: `PJRT_Client_CreateBuffersForAsyncHostToDevice of one ${dt}[${dims.join(',')}] buffer in the device's default memory, then PJRT_AsyncHostToDeviceTransferManager_TransferLiteral of the host literal with ${layout.words}; the buffer is read back`,
  };
}

/** The control and the bad program of a rejects case, as recorded: the last two compiles. */
function compiles(input: FamilyInput, slot: string): { control: Extract<LogLine, { at: 'call' }>; bad: Extract<LogLine, { at: 'call' }> } | string {
  const bad = lastCall(input, slot);
  const control = lastCall(input, slot, 1);
  if (!bad || !control) return `the recorded calls hold no control and bad ${slot}`;
  return { control, bad };
}

function programDecl(prefix: string, c: Extract<LogLine, { at: 'call' }>): { decl: string; format: string; options: string } | string {
  const program = c.args['program'];
  const code = bytesOf(field(program, 'code'));
  const format = bytesOf(field(program, 'format'));
  const options = bytesOf(c.args['compile_options']) ?? new Uint8Array(0);
  if (!code || !format) return `the recorded ${c.slot} has no whole program`;
  return {
    decl: [
      `static const unsigned char ${prefix}_code[${Math.max(code.length, 1)}] = ${code.length ? cBytes(code) : '{ 0 }'};`,
      `#define ${prefix.toUpperCase()}_CODE_SIZE ${code.length}`,
      `static const unsigned char ${prefix}_options[${Math.max(options.length, 1)}] = ${options.length ? cBytes(options) : '{ 0 }'};`,
      `#define ${prefix.toUpperCase()}_OPTIONS_SIZE ${options.length}`,
    ].join('\n'),
    format: Buffer.from(format).toString('utf8'),
    options: `${prefix}_options, ${prefix.toUpperCase()}_OPTIONS_SIZE`,
  };
}

const NUL_VARIANT = [{ flag: '--nul-terminate', what: 'the same bytes followed by a NUL after code_size (the CTS sends code_size bytes; nothing in the header promises a terminator after them)' }];

function rejectsText(input: FamilyInput): string {
  const p = input.id.split('.').at(-1)!;
  return input.id.includes('.rejects_bad_program_code.')
    ? `a malformed program (${p}) should be reported as INVALID_ARGUMENT (quality)`
    : input.id.startsWith('tier1.aot_compile.suite_program_rejected.')
      ? `PJRT_Compile of an invalid program (${p}) against a topology must return an error, not succeed or crash`
      : input.id.startsWith('tier1.aot_compile.')
        ? `PJRT_Compile of a malformed program (${p}) against a topology must return an error, not succeed or crash`
        : `compiling a malformed program (${p}) must return an error, not succeed or crash`;
}

function clientRejects(input: FamilyInput): CBody | string {
  const c = compiles(input, 'PJRT_Client_Compile');
  if (typeof c === 'string') return c;
  const control = programDecl('control', c.control);
  const bad = programDecl('bad', c.bad);
  if (typeof control === 'string') return control;
  if (typeof bad === 'string') return bad;
  const code = input.id.includes('.rejects_bad_program_code.');
  const body = [
    '  char why[4096];',
    '  PJRT_Client* client = create_client();',
    '  /* the positive control: a valid module compiles */',
    `  PJRT_Program control = program_of(control_code, CONTROL_CODE_SIZE, ${cString(control.format)});`,
    `  PJRT_LoadedExecutable* ok = client_compile(client, &control, ${control.options}, why, sizeof why);`,
    '  if (ok == NULL) fail("positive control failed (compile a valid module), so the negative check that follows cannot be judged", "success on valid input", why);',
    `  PJRT_Program bad = program_of(bad_code, BAD_CODE_SIZE, ${cString(bad.format)});`,
    `  printf("compiling %d bytes%s\\n", BAD_CODE_SIZE, nul_terminate ? " followed by a NUL" : " followed by non-NUL bytes");`,
    '  fflush(stdout);',
    `  PJRT_LoadedExecutable* exe = client_compile(client, &bad, ${bad.options}, why, sizeof why);`,
    `  if (exe != NULL) fail(${cString(rejectsText(input))}, "${code ? 'an error (INVALID_ARGUMENT)' : 'an error'}", "success (<LoadedExecutable>)");`,
    ...(code
      ? [
        '  if (strncmp(why, "INVALID_ARGUMENT:", 17) != 0) {',
        '    char got[4200], *colon = strchr(why, \':\');',
        '    snprintf(got, sizeof got, "%.*s (\\"%s\\")", (int)(colon ? colon - why : 0), why, colon ? colon + 2 : why);',
        `    fail(${cString(rejectsText(input))}, "error code INVALID_ARGUMENT", got);`,
        '  }',
      ]
      : []),
    '  printf("the plugin rejected it: %s\\n", why);',
  ];
  return {
    declarations: `${control.decl}\n${bad.decl}`,
    body: body.join('\n'),
    shows: `PJRT_Client_Compile of a valid module (the positive control), then of the malformed program \`${input.id.split('.').at(-1)}\` exactly as the case sent it (${(bytesOf(field(c.bad.args['program'], 'code')) ?? []).length} bytes${field(field(c.bad.args['program'], 'code'), 'nul') === true ? ', followed by a NUL' : ', not NUL-terminated'})`,
    variants: NUL_VARIANT,
  };
}

function aotRejects(input: FamilyInput): CBody | string {
  const c = compiles(input, 'PJRT_Compile');
  const topo = lastCall(input, 'PJRT_TopologyDescription_Create');
  if (typeof c === 'string') return c;
  if (!topo) return 'the recorded calls hold no PJRT_TopologyDescription_Create';
  const name = bytesOf(topo.args['topology_name']) ?? new Uint8Array(0);
  const withOptions = (topo.args['num_options'] ?? 0) !== 0;
  const control = programDecl('control', c.control);
  const bad = programDecl('bad', c.bad);
  if (typeof control === 'string') return control;
  if (typeof bad === 'string') return bad;
  const body = [
    '  char why[4096];',
    '  ARGS(PJRT_Plugin_Initialize_Args, init);',
    '  MUST(PJRT_Plugin_Initialize, init);',
    `  PJRT_TopologyDescription* topology = create_topology(${cString(name)}, ${name.length}, ${withOptions ? 1 : 0});${withOptions ? ' /* with the create options, as the CTS passes them */' : ''}`,
    '  /* the positive control: a valid module compiles */',
    `  PJRT_Program control = program_of(control_code, CONTROL_CODE_SIZE, ${cString(control.format)});`,
    `  PJRT_Executable* ok = aot_compile(topology, &control, ${control.options}, why, sizeof why);`,
    `  if (ok == NULL) fail(${cString(`positive control failed (${input.id.startsWith('tier1.aot_compile.suite_program_rejected.') ? 'PJRT_Compile of the witness suite program against the same topology' : 'PJRT_Compile of add_f32 against the same topology'}), so the negative check that follows cannot be judged`)}, "success on valid input", why);`,
    `  PJRT_Program bad = program_of(bad_code, BAD_CODE_SIZE, ${cString(bad.format)});`,
    `  printf("compiling %d bytes%s\\n", BAD_CODE_SIZE, nul_terminate ? " followed by a NUL" : " followed by non-NUL bytes");`,
    '  fflush(stdout);',
    `  PJRT_Executable* exe = aot_compile(topology, &bad, ${bad.options}, why, sizeof why);`,
    `  if (exe != NULL) fail(${cString(rejectsText(input))}, "an error", "success (<Executable>)");`,
    '  printf("the plugin rejected it: %s\\n", why);',
  ];
  return {
    declarations: `${control.decl}\n${bad.decl}`,
    body: body.join('\n'),
    shows: `PJRT_Compile (ahead of time, against the topology "${Buffer.from(name).toString('utf8')}") of a valid module, then of the malformed program \`${input.id.split('.').at(-1)}\` exactly as the case sent it`,
    variants: NUL_VARIANT,
  };
}

/** The family that reproduces `id` in C, if any. */
export function familyOf(id: string): { name: string; build: (input: FamilyInput) => CBody | string } | undefined {
  return FAMILIES.find((f) => picomatch(f.covers as string[], { dot: true })(id));
}

/** Every family with the cases it covers (for the docs and the tests). */
export const C_FAMILIES: readonly { name: string; covers: readonly string[] }[] = FAMILIES.map((f) => ({ name: f.name, covers: f.covers }));

// Views and callbacks: a view (PJRT_Client_CreateViewOfDeviceBuffer) over a buffer's memory kept by an external
// reference, with the on_delete_callback the case recorded passing (a counting one) or NULL, read back and destroyed.
import { dtype } from '../../abi/dtypes.js';
import { pattern } from '../../../suites/_lib/patterns.js';
import { cString, dataArray, lastCall, type CBody, type Family, type FamilyInput } from './recorded.js';

/**
 * Whether the case's view got an on_delete_callback: as recorded, or, when the case ended before its view, as the case
 * makes it (every view of the CTS passes a counting callback, but view_without_delete_callback's).
 */
function viewCallback(input: FamilyInput): { pass: boolean } {
  const v = lastCall(input, 'PJRT_Client_CreateViewOfDeviceBuffer');
  return { pass: v ? v.args['on_delete_callback'] !== null : input.id !== 'tier2.dlpack.view_without_delete_callback' };
}

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
    '  to_host(view, got, sizeof got, 1);',
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

/** A u8[n] buffer of `host` on device 0 held by an external reference, and `ptr`, its memory's (non-null) address. */
const pinnedU8 = (n: number): string[] => [
  `  static const int64_t dims[] = { ${n} };`,
  '  PJRT_Client* client = create_client();',
  '  PJRT_Device* device = device_at(client, 0);',
  '  PJRT_Buffer* buf = upload(client, device, PJRT_Buffer_Type_U8, dims, 1, host);',
  '  external_ref(buf, 1);',
  '  void* ptr = opaque_pointer(buf);',
  '  if (ptr == NULL) fail("OpaqueDeviceMemoryDataPointer must be non-null for a live buffer", "an address", "NULL");',
];

function onDeleteOnce(): CBody {
  const host = pattern(dtype('u8'), [96]);
  const body = [
    ...pinnedU8(96),
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

/** A view made with the recorded on_delete_callback (NULL, for this case), read, destroyed; the viewed buffer read after. */
function withoutCallback(callback: boolean): CBody {
  const host = pattern(dtype('u8'), [128]);
  const body = [
    ...pinnedU8(128),
    `  PJRT_Buffer* view = create_view(client, device, ptr, PJRT_Buffer_Type_U8, dims, 1, ${callback ? 1 : 0});`,
    '  static unsigned char got[128];',
    '  to_host(view, got, sizeof got, 1);',
    '  check_bytes("a view made without an on_delete_callback must show the bytes of the memory it views", got, host, sizeof got);',
    '  usleep(50000); /* the plugin\'s threads let go of the view first, as they have by the time the CTS destroys it */',
    '  printf("destroying the view\\n");',
    '  fflush(stdout);',
    '  destroy_buffer(view);',
    '  to_host(buf, got, sizeof got, 1);',
    '  check_bytes("destroying a view without an on_delete_callback must leave the viewed buffer intact", got, host, sizeof got);',
    '  external_ref(buf, 0);',
  ];
  return {
    declarations: dataArray('host', host),
    body: body.join('\n'),
    shows: `a view (PJRT_Client_CreateViewOfDeviceBuffer ${callbackWords(callback)}) over the memory of a u8[128] buffer held by an external reference: its bytes are read back through the view, the view is destroyed (PJRT_Buffer_Destroy), then the viewed buffer is read again`,
  };
}

export const VIEWS: Family = {
  name: 'views and callbacks',
  covers: [
    'tier2.dlpack.view_without_delete_callback', 'tier2.dlpack.external_ref_keeps_memory', 'tier2.dlpack.view_over_unsafe_pointer',
    'tier2.dlpack.view_on_delete_called_once', 'tier2.abi_skew.older_struct_size_tail_ignored',
  ],
  build(input) {
    const cb = viewCallback(input);
    switch (input.id) {
      case 'tier2.dlpack.view_without_delete_callback':
        return withoutCallback(cb.pass);
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
};

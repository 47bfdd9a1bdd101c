// TransferLiteral: PJRT_Client_CreateBuffersForAsyncHostToDevice of one buffer, then
// PJRT_AsyncHostToDeviceTransferManager_TransferLiteral of the case's literal with the recorded shape_layout (NULL, or
// the dense major-to-minor layout), its events awaited and the buffer read back.
import { dtype } from '../../abi/dtypes.js';
import { pattern } from '../../../suites/_lib/patterns.js';
import { cString, dataArray, field, lastCall, type CBody, type Family, type FamilyInput } from './recorded.js';

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
  const nullLayout = input.id.endsWith('_null_layout');
  const [dt, dims] = sub ? ['s4', [5, 3]] as const : ['f32', [2, 3]] as const;
  const d = dtype(dt);
  const host = pattern(d, dims);
  const layout = literalLayout(input, dims.length);
  if (typeof layout === 'string') return layout;
  const type = `PJRT_Buffer_Type_${d.pjrt}`;
  const rule = sub ? 'an s4 literal transferred with TransferLiteral must come back unchanged (one element per host byte)'
    : nullLayout ? 'a literal transferred with shape_layout = NULL was taken, so it must be read as the dense default'
      : 'a literal transferred with TransferLiteral must come back unchanged';
  // the quality case accepts a clean error from the transfer or its event (check.okOrCleanError)
  const transfer = nullLayout
    ? [
      '  PJRT_Error* te = CALL(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral, tl);',
      '  if (te == NULL && tl.done_with_h2d_transfer != NULL) {',
      '    ARGS(PJRT_Event_Await_Args, aw);',
      '    aw.event = tl.done_with_h2d_transfer;',
      '    te = CALL(PJRT_Event_Await, aw);',
      '  }',
      '  if (te != NULL) {',
      '    char why[2048];',
      '    error_text(te, why, sizeof why);',
      '    printf("(a clean error, which the case accepts: %s)\\n", why);',
      '    return;',
      '  }',
    ]
    : ['  MUST(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral, tl);', '  await_event(tl.done_with_h2d_transfer, "PJRT_Event_Await");'];
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
    ...transfer,
    '  ARGS(PJRT_Buffer_ReadyEvent_Args, r);',
    '  r.buffer = rb.buffer_out;',
    '  MUST(PJRT_Buffer_ReadyEvent, r);',
    '  await_event(r.event, "PJRT_Event_Await");',
    `  static unsigned char got[${host.length}];`,
    '  to_host(rb.buffer_out, got, sizeof got, 2);',
    `  check_bytes(${cString(rule)}, got, host, sizeof got);`,
  ];
  return {
    declarations: [dataArray('host', host), layout.decl].filter(Boolean).join('\n'),
    body: body.join('\n'),
    shows: `PJRT_Client_CreateBuffersForAsyncHostToDevice of one ${dt}[${dims.join(',')}] buffer in the device's default memory, then PJRT_AsyncHostToDeviceTransferManager_TransferLiteral of the host literal with ${layout.words}; the buffer is read back`,
  };
}

export const TRANSFER_LITERAL: Family = {
  name: 'TransferLiteral',
  covers: ['tier2.async_transfer.transfer_literal', 'tier2.async_transfer.transfer_literal_sub_byte', 'tier2.async_transfer.transfer_literal_null_layout'],
  build: transferLiteral,
};

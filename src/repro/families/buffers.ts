// Buffer from host / to host: PJRT_Client_BufferFromHostBuffer of the case's host data (the element type and dims as
// recorded, the data the case's pattern for them), its events awaited, then the property the case checks: the bytes
// read back with ToHostBuffer, the element type, the dims, the unpadded dims, the on-device size, or the size ToHostBuffer
// reports for dst = NULL. A type the plugin refuses (UNIMPLEMENTED, or INVALID_ARGUMENT for a non-core type) ends it
// unsupported, as the case ends.
import { ENUMS } from '../../abi/index.js';
import { DTYPES, byteSize, hostElementBytes, hostSize, pattern, type DtypeRow } from '../../../suites/_lib/patterns.js';
import { cString, dataArray, lastCall, type CBody, type Family, type FamilyInput } from './recorded.js';

const ROUNDTRIP = 'host→device→host must be bit-exact (PJRT_Client_BufferFromHostBuffer then PJRT_Buffer_ToHostBuffer)';

/** The uploaded type and dims, as the case's BufferFromHostBuffer was recorded. */
function uploaded(input: FamilyInput): { d: DtypeRow; dims: number[] } | string {
  const call = lastCall(input, 'PJRT_Client_BufferFromHostBuffer');
  if (!call) return 'the recorded calls hold no PJRT_Client_BufferFromHostBuffer';
  const d = DTYPES.find((x) => x.pjrt === call.args['type']);
  const dims = call.args['dims'];
  if (!d || (dims !== null && !(Array.isArray(dims) && dims.every((x) => typeof x === 'number')))) return 'the recorded BufferFromHostBuffer has no type or dims this family knows';
  return { d, dims: (dims ?? []) as number[] };
}

const shapeText = (dims: readonly number[]): string => JSON.stringify(dims);

function build(input: FamilyInput): CBody | string {
  const u = uploaded(input);
  if (typeof u === 'string') return u;
  const { d, dims } = u;
  const host = pattern(d, dims);
  const rank = dims.length;
  const type = `PJRT_Buffer_Type_${d.pjrt}`;
  const head = [
    `  static const int64_t dims[${Math.max(rank, 1)}] = { ${dims.join(', ') || '0'} };`,
    '  PJRT_Client* client = create_client();',
    '  PJRT_Device* device = device_at(client, 0);',
    `  PJRT_Buffer* buf = upload_or_unsupported(client, device, ${type}, dims, ${rank}, host, ${d.core ? 1 : 0}, ${cString(`${d.name}${shapeText(dims)}`)});`,
  ];
  const what = input.id.split('.')[2]!;
  const upload = `PJRT_Client_BufferFromHostBuffer of a ${d.name}${shapeText(dims)} array (the case's pattern), its events awaited, then`;
  const declarations = dataArray('host', host);
  switch (what) {
    case 'roundtrip':
      return {
        declarations,
        body: [...head, `  static unsigned char got[${Math.max(host.length, 1)}];`, `  to_host(buf, got, ${host.length}, ${rank});`, `  check_bytes(${cString(`${ROUNDTRIP}${d.bits < 8 ? ' (one element per host byte)' : ''}`)}, got, host, ${host.length});`].join('\n'),
        shows: `${upload} PJRT_Buffer_ToHostBuffer (dense host layout): the bytes must come back bit-exact`,
      };
    case 'to_host_size_query':
      return {
        declarations,
        body: [
          ...head,
          '  ARGS(PJRT_Buffer_ToHostBuffer_Args, q);',
          '  q.src = buf;',
          '  MUST(PJRT_Buffer_ToHostBuffer, q);',
          '  if (q.event != NULL) { ARGS(PJRT_Event_Destroy_Args, ed); ed.event = q.event; MUST(PJRT_Event_Destroy, ed); }',
          '  char want[32], got[32];',
          `  snprintf(want, sizeof want, "%d", ${hostSize(d, dims)});`,
          '  snprintf(got, sizeof got, "%zu", q.dst_size);',
          `  if (q.dst_size != ${hostSize(d, dims)}) fail(${cString(`PJRT_Buffer_ToHostBuffer with dst = NULL must set dst_size to the size needed for the dense default host layout (${dims.length ? dims.join('×') : 'scalar'} × ${hostElementBytes(d)} bytes)`)}, want, got);`,
        ].join('\n'),
        shows: `${upload} PJRT_Buffer_ToHostBuffer with dst = NULL: dst_size must be the dense host size, ${hostSize(d, dims)} bytes`,
      };
    case 'element_type':
      return {
        declarations: `${declarations}\nstatic const char* const TYPE_NAMES[] = { ${typeNames()} };`,
        body: [
          ...head,
          '  ARGS(PJRT_Buffer_ElementType_Args, a);',
          '  a.buffer = buf;',
          '  MUST(PJRT_Buffer_ElementType, a);',
          '  char got[64];',
          '  snprintf(got, sizeof got, "\\"%s\\"", a.type >= 0 && a.type < (int)(sizeof TYPE_NAMES / sizeof *TYPE_NAMES) ? TYPE_NAMES[a.type] : "?");',
          `  if (strcmp(got, ${cString(JSON.stringify(d.name))}) != 0) fail("PJRT_Buffer_ElementType must report the \`type\` the buffer was created with (BufferFromHostBuffer: \\"the type of the resulting output buffer\\")", ${cString(JSON.stringify(d.name))}, got);`,
        ].join('\n'),
        shows: `${upload} PJRT_Buffer_ElementType: ${d.pjrt}`,
      };
    case 'dimensions':
    case 'unpadded_dimensions': {
      const unpadded = what === 'unpadded_dimensions';
      const slot = unpadded ? 'PJRT_Buffer_UnpaddedDimensions' : 'PJRT_Buffer_Dimensions';
      const rule = unpadded
        ? 'PJRT_Buffer_UnpaddedDimensions of a buffer without dynamic dimensions must equal its dims (header: only dynamic dimensions may be smaller)'
        : 'PJRT_Buffer_Dimensions must report the dims the buffer was created with ("the size of each dimension")';
      return {
        declarations,
        body: [
          ...head,
          `  ARGS(${slot}_Args, a);`,
          '  a.buffer = buf;',
          `  MUST(${slot}, a);`,
          `  char got[1024] = "[";`,
          `  for (size_t i = 0; i < a.num_dims; i++) snprintf(got + strlen(got), sizeof got - strlen(got), "%s%lld", i ? "," : "", (long long)a.${unpadded ? 'unpadded_dims' : 'dims'}[i]);`,
          '  strcat(got, "]");',
          `  if (strcmp(got, ${cString(shapeText(dims))}) != 0) fail(${cString(rule)}, ${cString(shapeText(dims))}, got);`,
        ].join('\n'),
        shows: `${upload} ${slot}: ${shapeText(dims)}`,
      };
    }
    case 'on_device_size': {
      const min = byteSize(d, dims);
      return {
        declarations,
        body: [
          ...head,
          '  ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, a);',
          '  a.buffer = buf;',
          '  MUST(PJRT_Buffer_OnDeviceSizeInBytes, a);',
          '  char got[32];',
          '  snprintf(got, sizeof got, "%zu", a.on_device_size_in_bytes);',
          `  if (a.on_device_size_in_bytes < ${min}) fail("PJRT_Buffer_OnDeviceSizeInBytes (\\"the number of bytes of the buffer storage on the device\\") must cover the data it stores", ${cString(`≥ ${min} (elements × element bits / 8)`)}, got);`,
        ].join('\n'),
        shows: `${upload} PJRT_Buffer_OnDeviceSizeInBytes: at least ${min} bytes`,
      };
    }
    default:
      return 'no body for this case';
  }
}

/** The CTS's name of each PJRT_Buffer_Type, by value (a C initializer). */
function typeNames(): string {
  const members = ENUMS.find((e) => e.name === 'PJRT_Buffer_Type')!.members;
  const max = Math.max(...members.map((m) => m.value));
  return Array.from({ length: max + 1 }, (_, v) => {
    const m = members.find((x) => x.value === v);
    const d = m && DTYPES.find((x) => m.name === x.pjrt || m.name === `PJRT_Buffer_Type_${x.pjrt}`);
    return `"${d?.name ?? m?.name ?? `type ${v}`}"`;
  }).join(', ');
}

export const BUFFERS: Family = {
  name: 'buffer from host / to host',
  covers: [
    'tier1.transfer.roundtrip.*', 'tier1.transfer.to_host_size_query.*', 'tier1.buffer.element_type.*', 'tier1.buffer.dimensions.*',
    'tier1.buffer.unpadded_dimensions.*', 'tier1.buffer.on_device_size.*',
  ],
  build,
};

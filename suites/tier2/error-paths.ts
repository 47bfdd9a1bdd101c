// Tier 2 — errors held by the case (code, message, payloads, then PJRT_Error_Destroy), caller-made events set
// with an error, and the version attributes frameworks read.
import { area } from '../../src/harness/index.js';
import { ERROR_TABLE_SINCE, ErrorHandle, Event } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { attributeList } from '../_lib/named.js';

const t = area('tier2.error_paths', { tier: 2 });

/** An error the plugin returns and the case holds: LookupDevice of an id no device has. */
function heldError(plugin: import('../../src/pjrt/index.js').Plugin, client: import('../../src/pjrt/index.js').Client): ErrorHandle {
  const ids = client.devices().map((d) => d.id);
  const missing = Math.max(...ids) + 1000;
  const a = plugin.raw.args('PJRT_Client_LookupDevice').ptr('client', client.ptr).i32('id', missing);
  const e = ErrorHandle.fromCall(plugin.raw, 'PJRT_Client_LookupDevice', a);
  if (e === null) check.fail(`PJRT_Client_LookupDevice(${missing}) of an id no device has must fail`, 'an error', 'success');
  return e;
}

t.case('error_read_then_destroyed', {
  source: 'header',
  cite: 'PJRT_Error_Message: "`message` has the lifetime of `error`"; PJRT_Error_GetCode returns its code; PJRT_Error_Destroy "Frees `error`" — reading a held error until it is destroyed, then destroying it, must work',
  catches: ['crash_in=PJRT_Error_Destroy', 'empty_error_message'],
  requires: { slots: ['PJRT_Client_LookupDevice', 'PJRT_Error_Destroy', 'PJRT_Error_Message', 'PJRT_Error_GetCode'] },
}).run(({ plugin, client }) => {
  const e = heldError(plugin, client);
  const first = e.message();
  check.ok(first.length > 0, 'a held error must carry a message', 'a non-empty message', '""');
  check.ok(e.code() !== 'OK', 'a held error must carry a code other than OK', 'an error code', e.code());
  check.equal(e.message(), first, 'the message must stay the same until the error is destroyed');
  e.destroy();
});

t.case('error_payloads_well_formed', {
  source: 'header',
  cite: 'PJRT_Error_ForEachPayload: "Iterates over the stored payloads and calls the `visitor` callable for each one" — each visit is a stored (key, value) pair: a key of key_size bytes (an error without payloads visits nothing)',
  catches: ['error_payload_bogus'],
  requires: { slots: ['PJRT_Client_LookupDevice', 'PJRT_Error_ForEachPayload', 'PJRT_Error_Destroy'] },
}).run(({ plugin, client }) => {
  const e = heldError(plugin, client);
  try {
    for (const p of e.payloads()) {
      check.ok(p.key !== null && p.key.length > 0, 'every visited payload must have a key (a stored payload is a key/value pair)', 'a non-empty key', p.key === null ? `NULL key with key_size ${p.keySize}` : '""');
      check.ok(p.value !== null || p.valueSize === 0, `payload '${p.key}': a value of value_size bytes`, 'a value pointer', `NULL with value_size ${p.valueSize}`);
    }
  } finally {
    e.destroy();
  }
});

t.case('error_function_table', {
  description: 'a PJRT_Error starts with a PJRT_Error_FunctionTable whose functions read and free it as the PJRT_Error_* slots do',
  source: 'header',
  cite: 'pjrt_c_api.h 0.107 ("Added PJRT_Error_FunctionTable"): "struct PJRT_Error { const struct PJRT_Error_FunctionTable* vtable; }", the table holding destroy, message, get_code and for_each_payload — added "so it can be used in APIs where a PJRT_Api is not available" (upstream\'s change): XLA\'s PjrtErrorToStatus(PJRT_Error*) (pjrt_c_api_status_utils.cc) reads an error through it alone, calling message, get_code, then destroy, and XLA\'s own plugins\' PJRT_Error_* slots call the same table (pjrt_c_api_wrapper_impl.cc)',
  catches: ['error_function_table_null'],
  requires: { slots: ['PJRT_Client_LookupDevice', 'PJRT_Error_Destroy', 'PJRT_Error_Message', 'PJRT_Error_GetCode'], minMinor: ERROR_TABLE_SINCE },
}).run(({ plugin, client }) => {
  const e = heldError(plugin, client);
  try {
    const table = e.functionTable();
    check.ok(table !== null && table !== undefined, 'a PJRT_Error of a 0.107+ plugin must start with its PJRT_Error_FunctionTable', 'a table pointer', 'NULL');
    const { view } = table;
    check.ok(view.readable, 'PJRT_Error.vtable must point to a PJRT_Error_FunctionTable', 'readable memory', `0x${view.address.toString(16)}, not mapped readable`);
    for (const name of ['destroy', 'message', 'get_code']) {
      const f = view.functions[name];
      check.ok(f !== undefined && f.isCode, `PJRT_Error_FunctionTable.${name} must be a function (XLA's PjrtErrorToStatus calls it without a check)`, 'an address in executable memory', f === undefined ? 'NULL' : `0x${f.address.toString(16)}`);
    }
    check.equal(table.message!(), e.message(), 'PJRT_Error_FunctionTable.message must give what PJRT_Error_Message gives');
    check.equal(table.code!(), e.code(), 'PJRT_Error_FunctionTable.get_code must give what PJRT_Error_GetCode gives');
    const each = view.functions['for_each_payload'];
    if (each !== undefined) {
      check.ok(each.isCode, 'PJRT_Error_FunctionTable.for_each_payload must be NULL or a function', 'an address in executable memory', `0x${each.address.toString(16)}`);
      if (plugin.raw.has('PJRT_Error_ForEachPayload')) check.equal(table.payloads!(), e.payloads(), 'PJRT_Error_FunctionTable.for_each_payload must visit what PJRT_Error_ForEachPayload visits');
    }
    table.destroy!(); // frees the error, as PjrtErrorToStatus does: the handle is destroyed with it
  } finally {
    e.destroy();
  }
});

t.case('event_set_with_error', {
  source: 'header',
  cite: 'PJRT_Event_Set: "Sets the PJRT_Event as completed with the given error code and message" — awaiting it then returns that error (UNIMPLEMENTED from Create → unsupported)',
  catches: ['event_set_drops_error'],
  requires: { slots: ['PJRT_Event_Create', 'PJRT_Event_Set', 'PJRT_Event_Await', 'PJRT_Event_Destroy'] },
}).run((ctx) => check.unimplementedIsUnsupported(ctx, 'caller-made events are not offered by this plugin', async () => {
  const ev = Event.create(ctx.plugin.raw);
  const MESSAGE = 'pjrt-cts set this event with an error';
  try {
    ev.set(13, MESSAGE);
    const e = await check.rejects(() => ev.await(), 'awaiting an event set with an error must return that error', ['INTERNAL']);
    check.ok(e.message.includes(MESSAGE), 'the awaited error must carry the message given to PJRT_Event_Set', `a message containing "${MESSAGE}"`, `"${e.message}"`);
  } finally {
    ev.destroy();
  }
}));

const versionOf = (v: unknown): number[] | null =>
  Array.isArray(v) && v.length >= 3 && v.every((x) => typeof x === 'bigint' || typeof x === 'number') ? v.map(Number) : null;
const cmp = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

t.case('stablehlo_current_version_shape', {
  source: 'framework',
  cite: 'XLA\'s C-API client reads plugin attribute stablehlo_current_version as an int64 list and formats v[0].v[1].v[2] as the StableHLO version it serializes for (xla/pjrt/c_api_client/pjrt_c_api_client.cc; std::get of another type throws)',
  catches: ['stablehlo_current_version_as_string'],
  requires: { slots: ['PJRT_Plugin_Attributes'] },
}).run(({ plugin }) => {
  const a = attributeList(plugin).find((e) => e.name === 'stablehlo_current_version');
  if (a === undefined) return;
  check.equal(a.kind, 'kInt64List', 'stablehlo_current_version must be an int64 list (XLA\'s client std::get<std::vector<int64_t>>s it)');
  check.ok(versionOf(a.value) !== null && versionOf(a.value)!.every((x) => x >= 0), 'stablehlo_current_version must have major, minor, patch (XLA reads v[0..2])', 'three non-negative numbers', check.show(a.value));
});

t.case('stablehlo_version_window', {
  source: 'quality',
  cite: 'plugin attributes stablehlo_minimum_version and stablehlo_current_version (XLA\'s GetXlaPluginCAttributes) bound the StableHLO versions a plugin accepts; a minimum above the current version is a window no program fits',
  catches: ['stablehlo_version_window_inverted'],
  requires: { slots: ['PJRT_Plugin_Attributes'] },
}).run(({ plugin }) => {
  const attrs = attributeList(plugin);
  const cur = versionOf(attrs.find((e) => e.name === 'stablehlo_current_version')?.value);
  const min = versionOf(attrs.find((e) => e.name === 'stablehlo_minimum_version')?.value);
  if (cur === null || min === null) return;
  check.ok(cmp(min, cur) <= 0, 'stablehlo_minimum_version must not be above stablehlo_current_version', `≤ ${cur.join('.')}`, min.join('.'));
});

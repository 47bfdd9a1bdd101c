// Tier 0 — PJRT_Error objects: provoked by bad calls, each must carry a code in range and a message,
// and PJRT_Error_Destroy must work on it.
import { area } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { ERROR_CODES } from '../_lib/errors.js';
import type { Client } from '../../src/pjrt/index.js';

const t = area('tier0.errors', { tier: 0, requires: { slots: ['PJRT_Error_GetCode', 'PJRT_Error_Message', 'PJRT_Error_Destroy'] } });

const SHAPE_FAULTS = ['empty_error_message', 'error_code_out_of_range'];

/** Bad calls and the codes a conforming plugin may answer with. */
const PROVOCATIONS: readonly { id: string; codes: string[]; call: (c: Client) => unknown; wrongCode?: boolean }[] = [
  { id: 'lookup_device_negative', codes: ['INVALID_ARGUMENT', 'NOT_FOUND'], call: (c) => c.lookupDevice(-1), wrongCode: true },
  { id: 'lookup_device_huge', codes: ['INVALID_ARGUMENT', 'NOT_FOUND'], call: (c) => c.lookupDevice(1 << 30), wrongCode: true },
  { id: 'lookup_addressable_negative', codes: ['INVALID_ARGUMENT', 'NOT_FOUND'], call: (c) => c.lookupAddressableDevice(-1), wrongCode: true },
  { id: 'compile_unknown_format', codes: ['INVALID_ARGUMENT', 'UNIMPLEMENTED'], call: (c) => c.compile({ code: 'x', format: 'no_such_format' }) },
  { id: 'compile_garbage', codes: ['INVALID_ARGUMENT'], call: (c) => c.compile({ code: 'not a program' }), wrongCode: true },
];

t.case('provoked', { catches: (p: { wrongCode?: boolean }) => [...SHAPE_FAULTS, ...(p.wrongCode ? ['wrong_error_code'] : [])] })
  .params(PROVOCATIONS)
  .run(async ({ client, p }) => {
    await check.rejects(() => p.call(client), `${p.id} must fail with a clean PJRT_Error`, p.codes);
  });

t.case('raw_get_code_message_destroy', { catches: SHAPE_FAULTS }).run(async ({ plugin, client }) => {
  const raw = plugin.raw;
  const a = raw.args('PJRT_Client_LookupDevice').ptr('client', client.ptr).i32('id', -1);
  const err = raw.callRaw('PJRT_Client_LookupDevice', a);
  check.ok(err !== null, 'PJRT_Client_LookupDevice(-1) must return a PJRT_Error', 'an error', 'NULL (success)');
  const c = raw.args('PJRT_Error_GetCode').ptr('error', err);
  const e2 = raw.callRaw('PJRT_Error_GetCode', c);
  check.ok(e2 === null, 'PJRT_Error_GetCode must succeed on a live error', 'NULL', 'an error');
  const code = c.getI32('code');
  check.ok(code > 0 && code < ERROR_CODES.length, 'PJRT_Error_GetCode must return a PJRT_Error_Code other than OK', `1..${ERROR_CODES.length - 1}`, `${code}`);
  const m = raw.args('PJRT_Error_Message').ptr('error', err);
  raw.callRaw('PJRT_Error_Message', m);
  const msg = m.str('message');
  check.ok(msg.length > 0, 'PJRT_Error_Message must describe the error', 'a non-empty message', '""');
  check.equal(m.str('message'), msg, 'PJRT_Error_Message must return the same text while the error lives');
  raw.destroyError(err!);
});

t.case('message_names_value', { catches: ['empty_error_message'] }).run(async ({ client }) => {
  const e = await check.rejects(() => client.lookupDevice(-1), 'LookupDevice(-1) must fail');
  check.ok(/-1|device/i.test(e.message), 'an error message should say what was wrong', 'a message naming the device id', `"${e.message}"`);
});

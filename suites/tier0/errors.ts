// Tier 0 — PJRT_Error objects: provoked by bad calls (each after the same call succeeded on valid input), each must
// carry a code in range and a message, and PJRT_Error_Destroy must work on it.
import { area, programFor } from '../../src/harness/index.js';
import * as check from '../_lib/check.js';
import { ERROR_CODES } from '../_lib/errors.js';
import { onePlusOne } from '../_lib/programs.js';
import type { Client, Device } from '../../src/pjrt/index.js';

const t = area('tier0.errors', { tier: 0, requires: { slots: ['PJRT_Error_GetCode', 'PJRT_Error_Message', 'PJRT_Error_Destroy'] } });

const SHAPE_FAULTS = ['empty_error_message', 'error_code_out_of_range'];

const firstId = (c: Client): number => c.devices()[0]!.id;
/** What a call that should have failed returned, for the message. */
const asDevice = (d: Device): string => `device ${d.id} (${d.debugString})`;
const asExecutable = (): string => 'a loaded executable';

interface Provocation {
  id: string;
  /** The call that must fail. */
  call: (c: Client) => unknown;
  /** The same call on valid input, in the same state: it must succeed first. */
  control: (c: Client) => unknown;
  controlText: string;
  /** The header's words that make the call an error. */
  why: string;
  /** The codes XLA's plugins answer with (a `quality` preference: the header names none). */
  codes: string[];
  requires?: string[];
  extraCatches?: string[];
}

/** A local hardware id no device has, or undefined when the plugin defines none (-1: "undefined"). */
function hwControl(c: Client): unknown {
  const hw = c.addressableDevices().map((d) => d.localHardwareId()).find((x) => x >= 0);
  if (hw === undefined) throw Object.assign(new Error('no addressable device defines a local hardware id (all -1)'), { name: 'UnsupportedError' });
  return c.lookupAddressableDevice(hw);
}

const PROVOCATIONS: readonly Provocation[] = [
  {
    id: 'lookup_device_negative', call: (c) => asDevice(c.lookupDevice(-1)), control: (c) => c.lookupDevice(firstId(c)), controlText: 'PJRT_Client_LookupDevice of the first device\'s id',
    why: 'PJRT_Client_LookupDevice "Returns a PJRT_Device* with the specified ID as returned by PJRT_DeviceDescription_Id": no device has id -1',
    codes: ['INVALID_ARGUMENT', 'NOT_FOUND'], requires: ['PJRT_Client_LookupDevice'], extraCatches: ['lookup_device_missing_returns_first'],
  },
  {
    id: 'lookup_device_huge', call: (c) => asDevice(c.lookupDevice(1 << 30)), control: (c) => c.lookupDevice(firstId(c)), controlText: 'PJRT_Client_LookupDevice of the first device\'s id',
    why: 'PJRT_Client_LookupDevice "Returns a PJRT_Device* with the specified ID as returned by PJRT_DeviceDescription_Id": no device has id 2^30',
    codes: ['INVALID_ARGUMENT', 'NOT_FOUND'], requires: ['PJRT_Client_LookupDevice'], extraCatches: ['lookup_device_missing_returns_first'],
  },
  {
    id: 'lookup_addressable_negative', call: (c) => asDevice(c.lookupAddressableDevice(-1)), control: hwControl, controlText: 'PJRT_Client_LookupAddressableDevice of a defined local hardware id',
    why: 'PJRT_Client_LookupAddressableDevice "Returns an addressable PJRT_Device* with the specified ID as returned by PJRT_DeviceDescription_LocalHardwareId", which is "-1 if undefined": -1 names no device',
    codes: ['INVALID_ARGUMENT', 'NOT_FOUND'], requires: ['PJRT_Client_LookupAddressableDevice', 'PJRT_Device_LocalHardwareId'],
  },
  {
    id: 'compile_unknown_format', call: async (c) => c.compile({ ...(await programFor(c, onePlusOne())), format: 'no_such_format' }).then(asExecutable), control: async (c) => c.compile(await programFor(c, onePlusOne())), controlText: 'PJRT_Client_Compile of a valid "mlir" program',
    why: 'PJRT_Program.format: "Supported formats are: hlo, hlo_with_config, mlir"',
    codes: ['INVALID_ARGUMENT', 'UNIMPLEMENTED'], requires: ['PJRT_Client_Compile'],
  },
  {
    id: 'compile_garbage', call: (c) => c.compile({ code: 'not a program' }).then(asExecutable), control: async (c) => c.compile(await programFor(c, onePlusOne())), controlText: 'PJRT_Client_Compile of a valid "mlir" program',
    why: 'PJRT_Program.code: "Serialized code in the specified format": text that is no MLIR module cannot be compiled',
    // XLA's plugins answer a parse failure with UNKNOWN (reference/xla-behaviour.md).
    codes: ['INVALID_ARGUMENT', 'UNKNOWN'], requires: ['PJRT_Client_Compile'],
  },
];

for (const p of PROVOCATIONS) {
  t.case('provoked', {
    source: 'header',
    cite: `${p.why}; the error must be a PJRT_Error whose PJRT_Error_GetCode is a PJRT_Error_Code other than OK and whose PJRT_Error_Message gives "the human-readable reason" (the header names no code here)`,
    control: p.controlText,
    catches: [...SHAPE_FAULTS, ...(p.extraCatches ?? [])],
    ...(p.requires ? { requires: { slots: p.requires } } : {}),
  })
    .params([{ id: p.id }])
    .run(async ({ client }) => {
      await check.control(p.controlText, () => p.control(client));
      await check.rejects(() => p.call(client), `${p.id} must fail with a clean PJRT_Error (${p.why})`);
    });
}

// The code a plugin picks where the header names none: a preference only. INTERNAL (the fault) tells the user the
// plugin is broken rather than that the argument was wrong.
for (const p of PROVOCATIONS) {
  t.case('provoked_code', {
    source: 'quality',
    cite: `the header names no code for ${p.id}; ${p.codes.join(' or ')} (what XLA's plugins answer) tells the user the argument was wrong, where INTERNAL says the plugin is broken`,
    control: p.controlText,
    dependsOn: `tier0.errors.provoked.${p.id}`,
    catches: ['wrong_error_code'],
    ...(p.requires ? { requires: { slots: p.requires } } : {}),
  })
    .params([{ id: p.id }])
    .run(async ({ client }) => {
      await check.control(p.controlText, () => p.control(client));
      await check.rejects(() => p.call(client), `${p.id} should fail with ${p.codes.join(' or ')} (quality: what XLA's plugins answer)`, p.codes);
    });
}

t.case('raw_get_code_message_destroy', {
  source: 'header',
  cite: 'PJRT_Error_GetCode returns a PJRT_Error_Code; PJRT_Error_Message "Gets the human-readable reason for `error`. `message` has the lifetime of `error`"; PJRT_Error_Destroy "Frees `error`"',
  control: 'PJRT_Client_LookupDevice of the first device\'s id returns NULL (no error)',
  catches: SHAPE_FAULTS,
  requires: { slots: ['PJRT_Client_LookupDevice'] },
}).run(async ({ plugin, client }) => {
  const raw = plugin.raw;
  await check.control('PJRT_Client_LookupDevice of the first device\'s id', () => {
    const ok = raw.callRaw('PJRT_Client_LookupDevice', raw.args('PJRT_Client_LookupDevice').ptr('client', client.ptr).i32('id', firstId(client)));
    if (ok !== null) {
      raw.destroyError(ok);
      throw new Error('PJRT_Client_LookupDevice of an existing id returned an error');
    }
  });
  const a = raw.args('PJRT_Client_LookupDevice').ptr('client', client.ptr).i32('id', -1);
  const err = raw.callRaw('PJRT_Client_LookupDevice', a);
  check.ok(err !== null, 'PJRT_Client_LookupDevice(-1) must return a PJRT_Error: no device has id -1', 'an error', 'NULL (success)');
  const c = raw.args('PJRT_Error_GetCode').ptr('error', err);
  const e2 = raw.callRaw('PJRT_Error_GetCode', c);
  check.ok(e2 === null, 'PJRT_Error_GetCode must succeed on a live error', 'NULL', 'an error');
  const code = c.getI32('code');
  check.ok(code > 0 && code < ERROR_CODES.length, 'PJRT_Error_GetCode must return a PJRT_Error_Code other than OK for an error', `1..${ERROR_CODES.length - 1}`, `${code}`);
  const m = raw.args('PJRT_Error_Message').ptr('error', err);
  raw.callRaw('PJRT_Error_Message', m);
  const msg = m.str('message');
  check.ok(msg.length > 0, 'PJRT_Error_Message must give "the human-readable reason for `error`"', 'a non-empty message', '""');
  check.equal(m.str('message'), msg, 'PJRT_Error_Message: "`message` has the lifetime of `error`", so it must not change while the error lives');
  raw.destroyError(err!);
});

t.case('message_names_value', {
  source: 'quality',
  cite: 'a message that names the rejected value or what it was looked up as lets the user see what was wrong; the header asks only for "the human-readable reason"',
  control: 'PJRT_Client_LookupDevice of the first device\'s id',
  catches: ['empty_error_message'],
  requires: { slots: ['PJRT_Client_LookupDevice'] },
}).run(async ({ client }) => {
  await check.control('PJRT_Client_LookupDevice of the first device\'s id', () => client.lookupDevice(firstId(client)));
  const e = await check.rejects(() => asDevice(client.lookupDevice(-1)), 'LookupDevice(-1) must fail');
  check.ok(/-1|device/i.test(e.message), 'an error message should say what was wrong (quality)', 'a message naming the device id or the device', `"${e.message}"`);
});

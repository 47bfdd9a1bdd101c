// Client and device queries: platform name and version (and that they stay the same), the process index, a second
// client, create options a plugin should reject (the recorded options replayed exactly, with their PJRT_NamedValue
// types), the device lists, their ids and the lookups by id and by local hardware id.
import { cString, lastCall, namedValuesDecl, type CBody, type Family, type FamilyInput } from './recorded.js';

const body = (lines: string[], shows: string, declarations = ''): CBody => ({ declarations, body: lines.join('\n'), shows });

const nonEmpty = (expr: string, rule: string): string[] => [
  '  {',
  '    char s[1024];',
  `    ${expr};`,
  `    if (strcmp(s, "\\"\\"") == 0) fail(${cString(rule)}, "a non-empty string", s);`,
  '  }',
];

/** A control create with the run's options, then a create with the recorded options, which must be rejected. */
function rejectsOptions(input: FamilyInput, rule: string, code: boolean): CBody | string {
  const create = lastCall(input, 'PJRT_Client_Create');
  if (!create) return 'the recorded calls hold no PJRT_Client_Create';
  const bad = namedValuesDecl('bad_options', create.args['create_options']);
  if (!bad) return 'the recorded create options could not be read back with their types';
  return body([
    '  char why[4096];',
    '  ARGS(PJRT_Plugin_Initialize_Args, init);',
    '  MUST(PJRT_Plugin_Initialize, init);',
    '  const PJRT_NamedValue* options = NULL;',
    '  size_t n = case_options(&options);',
    '  PJRT_Client* control = create_client_with(options, n, why, sizeof why);',
    '  if (control == NULL) fail("positive control failed (PJRT_Client_Create with the configured options), so the negative check that follows cannot be judged", "success on valid input", error_as_cts_says(why, "PJRT_Client_Create"));',
    '  destroy_client(control);',
    `  PJRT_Client* c = create_client_with(bad_options, ${bad.count}, why, sizeof why);`,
    '  if (c != NULL) {',
    '    char name[512], got[1024];',
    '    size_t nd;',
    '    platform_string(c, 0, name, sizeof name);',
    '    devices_of(c, 0, &nd);',
    '    name[strlen(name) - 1] = 0;',
    '    snprintf(got, sizeof got, "success (\\"a client of platform %s with %zu devices\\")", name + 1, nd);',
    `    fail(${cString(rule)}, "${code ? 'an error (INVALID_ARGUMENT)' : 'an error'}", got);`,
    '  }',
    ...(code ? [`  if (strncmp(why, "INVALID_ARGUMENT:", 17) != 0) fail(${cString(rule)}, "error code INVALID_ARGUMENT", code_and_message(why));`] : []),
    '  printf("the plugin rejected it: %s\\n", why);',
  ], `PJRT_Client_Create with the run's create options (the positive control), then with the options the case sent (${create.args['create_options'] === null ? 'none' : JSON.stringify(create.args['create_options'])}), which ${code ? 'should be rejected with INVALID_ARGUMENT' : 'should be rejected'}`, bad.decl);
}

/** Every device's id by kind: an id twice among devices of one kind. */
const IDS_UNIQUE = [
  '  size_t n;',
  '  PJRT_Client* client = create_client();',
  '  PJRT_Device* const* ds = devices_of(client, 0, &n);',
  '  for (size_t i = 0; i < n; i++) {',
  '    char ki[256], kj[256];',
  '    device_kind(ds[i], ki, sizeof ki);',
  '    for (size_t j = 0; j < i; j++) {',
  '      device_kind(ds[j], kj, sizeof kj);',
  '      if (strcmp(ki, kj) != 0 || device_id(ds[i]) != device_id(ds[j])) continue;',
  '      char rule[512], got[2048], list[1800] = "";',
  '      for (size_t k = 0; k < n; k++) { device_kind(ds[k], kj, sizeof kj); if (strcmp(ki, kj) == 0) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", list[0] ? "," : "", device_id(ds[k])); }',
  '      snprintf(rule, sizeof rule, "PJRT_DeviceDescription_Id: \\"IDs are unique among devices of this type\\" (kind \'%s\')", ki);',
  '      snprintf(got, sizeof got, "%d twice in [%s]", device_id(ds[i]), list);',
  '      fail(rule, "unique device ids", got);',
  '    }',
  '  }',
];

const LOOKUP_BY_ID = [
  '  size_t n;',
  '  PJRT_Client* client = create_client();',
  '  PJRT_Device* const* ds = devices_of(client, 0, &n);',
  '  for (size_t i = 0; i < n; i++) {',
  '    ARGS(PJRT_Client_LookupDevice_Args, a);',
  '    a.client = client;',
  '    a.id = device_id(ds[i]);',
  '    MUST(PJRT_Client_LookupDevice, a);',
  '    if (a.device == ds[i]) continue;',
  '    char rule[256], want[64], got[64];',
  '    snprintf(rule, sizeof rule, "PJRT_Client_LookupDevice(%d) must return the device with that id", a.id);',
  '    snprintf(want, sizeof want, "device %d", a.id);',
  '    snprintf(got, sizeof got, "device %d", device_id(a.device));',
  '    fail(rule, want, got);',
  '  }',
];

const LOOKUP_UNKNOWN = [
  '  char why[4096];',
  '  size_t n;',
  '  PJRT_Client* client = create_client();',
  '  PJRT_Device* const* ds = devices_of(client, 0, &n);',
  '  int max = device_id(ds[0]);',
  '  for (size_t i = 0; i < n; i++) if (device_id(ds[i]) > max) max = device_id(ds[i]);',
  '  ARGS(PJRT_Client_LookupDevice_Args, c);',
  '  c.client = client;',
  '  c.id = device_id(ds[0]);',
  '  PJRT_Error* ce = CALL(PJRT_Client_LookupDevice, c);',
  '  if (ce != NULL) { error_text(ce, why, sizeof why); fail("positive control failed (PJRT_Client_LookupDevice of an existing id), so the negative check that follows cannot be judged", "success on valid input", error_as_cts_says(why, "PJRT_Client_LookupDevice")); }',
  '  ARGS(PJRT_Client_LookupDevice_Args, a);',
  '  a.client = client;',
  '  a.id = max + 1000;',
  '  PJRT_Error* e = CALL(PJRT_Client_LookupDevice, a);',
  '  if (e == NULL) {',
  '    char rule[256], got[128];',
  '    snprintf(rule, sizeof rule, "LookupDevice(%d) of an id no device has must fail (no device to return)", a.id);',
  '    snprintf(got, sizeof got, "success (\\"device %d\\")", device_id(a.device));',
  '    fail(rule, "an error", got);',
  '  }',
  '  error_text(e, why, sizeof why);',
  '  printf("the plugin rejected it: %s\\n", why);',
];

const LOOKUP_HARDWARE = [
  '  size_t n, defined = 0;',
  '  PJRT_Client* client = create_client();',
  '  PJRT_Device* const* ds = devices_of(client, 1, &n);',
  '  for (size_t i = 0; i < n; i++) {',
  '    ARGS(PJRT_Device_LocalHardwareId_Args, h);',
  '    h.device = ds[i];',
  '    MUST(PJRT_Device_LocalHardwareId, h);',
  '    if (h.local_hardware_id == -1) continue;',
  '    defined++;',
  '    ARGS(PJRT_Client_LookupAddressableDevice_Args, a);',
  '    a.client = client;',
  '    a.local_hardware_id = h.local_hardware_id;',
  '    MUST(PJRT_Client_LookupAddressableDevice, a);',
  '    if (a.addressable_device == ds[i]) continue;',
  '    char rule[256], want[64], got[64];',
  '    snprintf(rule, sizeof rule, "LookupAddressableDevice(%d) must return the device whose PJRT_Device_LocalHardwareId is %d", h.local_hardware_id, h.local_hardware_id);',
  '    snprintf(want, sizeof want, "device %d", device_id(ds[i]));',
  '    snprintf(got, sizeof got, "device %d", device_id(a.addressable_device));',
  '    fail(rule, want, got);',
  '  }',
  '  if (defined == 0) { printf("%s: unsupported: no addressable device defines a local hardware id (all -1, \\"undefined\\")\\n", case_id); fflush(stdout); _exit(4); }',
];

const ADDRESSABLE_SUBSET = [
  '  size_t n, na, flagged = 0;',
  '  PJRT_Client* client = create_client();',
  '  PJRT_Device* const* all = devices_of(client, 0, &n);',
  '  PJRT_Device* const* addr = devices_of(client, 1, &na);',
  '  for (size_t i = 0; i < na; i++) {',
  '    int listed = 0;',
  '    for (size_t j = 0; j < n; j++) listed |= all[j] == addr[i];',
  '    char want[64];',
  '    snprintf(want, sizeof want, "device %d listed", device_id(addr[i]));',
  '    if (!listed) fail("every addressable device must be among PJRT_Client_Devices (\\"all devices … including addressable\\")", want, "missing");',
  '    ARGS(PJRT_Device_IsAddressable_Args, a);',
  '    a.device = addr[i];',
  '    MUST(PJRT_Device_IsAddressable, a);',
  '    if (!a.is_addressable) fail("PJRT_Device_IsAddressable must be true for a device of PJRT_Client_AddressableDevices", "true", "false");',
  '  }',
  '  for (size_t j = 0; j < n; j++) {',
  '    ARGS(PJRT_Device_IsAddressable_Args, a);',
  '    a.device = all[j];',
  '    MUST(PJRT_Device_IsAddressable, a);',
  '    flagged += a.is_addressable;',
  '  }',
  '  if (flagged != na) {',
  '    char want[32], got[32];',
  '    snprintf(want, sizeof want, "%zu", na);',
  '    snprintf(got, sizeof got, "%zu", flagged);',
  '    fail("PJRT_Device_IsAddressable must agree with PJRT_Client_AddressableDevices", want, got);',
  '  }',
];

function build(input: FamilyInput): CBody | string {
  const created = ['  PJRT_Client* client = create_client();'];
  switch (input.id) {
    case 'tier1.client.platform_name':
      return body([...created, ...nonEmpty('platform_string(client, 0, s, sizeof s)', 'PJRT_Client_PlatformName must return a string that identifies the platform')], 'PJRT_Client_PlatformName of a client: a string that identifies the platform');
    case 'tier1.client.platform_version':
      return body([...created, ...nonEmpty('platform_string(client, 1, s, sizeof s)', 'PJRT_Client_PlatformVersion must return version info')], 'PJRT_Client_PlatformVersion of a client: version info');
    case 'tier1.client.platform_name_stable':
    case 'tier1.client.platform_version_stable': {
      const version = input.id.endsWith('version_stable') ? 1 : 0;
      const rule = version ? 'PJRT_Client_PlatformVersion must return the same version on every call (JAX keys its compilation cache on it)' : 'PJRT_Client_PlatformName must identify the same platform on every call';
      return body([
        ...created,
        '  char first[1024], again[1024];',
        `  platform_string(client, ${version}, first, sizeof first);`,
        `  for (int i = 0; i < ${version ? 1 : 3}; i++) {`,
        `    platform_string(client, ${version}, again, sizeof again);`,
        `    if (strcmp(first, again) != 0) fail(${cString(rule)}, first, again);`,
        '  }',
      ], `${version ? 'PJRT_Client_PlatformVersion' : 'PJRT_Client_PlatformName'} asked ${version ? 'twice' : 'four times'} of one client: the same string every time`);
    }
    case 'tier1.client.process_index_single':
      return body([
        ...created,
        '  ARGS(PJRT_Client_ProcessIndex_Args, a);',
        '  a.client = client;',
        '  MUST(PJRT_Client_ProcessIndex, a);',
        '  char got[32];',
        '  snprintf(got, sizeof got, "%d", a.process_index);',
        '  if (a.process_index != 0) fail("PJRT_Client_ProcessIndex: \\"Always 0 in single-process settings\\"", "0", got);',
      ], 'PJRT_Client_ProcessIndex of a single-process client: 0');
    case 'tier1.client.two_clients_at_once':
      return body([
        '  PJRT_Client* a = create_client();',
        '  PJRT_Client* b = create_client();',
        ...nonEmpty('platform_string(b, 0, s, sizeof s)', 'a second live client should be usable (quality)'),
        '  destroy_client(b);',
        ...nonEmpty('platform_string(a, 0, s, sizeof s)', 'destroying one client should leave the other usable (quality)'),
      ], 'two clients created with the run\'s options and alive at once: the second is used and destroyed, then the first is used');
    case 'tier1.client.unknown_option_rejected':
      return rejectsOptions(input, 'PJRT_Client_Create should reject an unknown option name (quality; XLA\'s plugins do)', false);
    case 'tier1.client.unknown_option_code':
      return rejectsOptions(input, 'an unknown create option should be rejected with INVALID_ARGUMENT (quality; what XLA answers)', true);
    case 'tier1.client.wrong_type_option_rejected':
    case 'tier1.client.wrong_type_option_code': {
      const create = lastCall(input, 'PJRT_Client_Create');
      const first = Array.isArray(create?.args['create_options']) ? Object.keys((create!.args['create_options'] as Record<string, unknown>[])[0] ?? {})[0] : undefined;
      if (!first) return 'the recorded calls hold no PJRT_Client_Create with an option';
      return input.id.endsWith('_code')
        ? rejectsOptions(input, `a mistyped create option ('${first}') should be rejected with INVALID_ARGUMENT (quality; what XLA answers)`, true)
        : rejectsOptions(input, `PJRT_Client_Create should reject option '${first}' given with another PJRT_NamedValue type (quality; XLA's plugins do)`, false);
    }
    case 'tier1.topology.devices_non_empty':
      return body([
        '  size_t n, na;',
        ...created,
        '  devices_of(client, 0, &n);',
        '  if (n == 0) fail("PJRT_Client_Devices must list at least one device", "≥ 1", "0");',
        '  devices_of(client, 1, &na);',
        '  if (na == 0) fail("PJRT_Client_AddressableDevices must list at least one device", "≥ 1", "0");',
      ], 'PJRT_Client_Devices and PJRT_Client_AddressableDevices: neither list is empty');
    case 'tier1.topology.addressable_subset':
      return body(ADDRESSABLE_SUBSET, 'PJRT_Client_Devices, PJRT_Client_AddressableDevices and PJRT_Device_IsAddressable describe one set of addressable devices');
    case 'tier1.topology.ids_unique':
      return body(IDS_UNIQUE, 'PJRT_Client_Devices, each device\'s kind and PJRT_DeviceDescription_Id: ids unique among devices of one kind');
    case 'tier1.topology.lookup_by_id':
      return body(LOOKUP_BY_ID, 'PJRT_Client_LookupDevice of each device\'s id returns that device');
    case 'tier1.topology.lookup_unknown_id':
      return body(LOOKUP_UNKNOWN, 'PJRT_Client_LookupDevice of an existing id (the positive control), then of an id no device has (the largest + 1000), which must fail');
    case 'tier1.topology.lookup_by_local_hardware_id':
      return body(LOOKUP_HARDWARE, 'PJRT_Client_LookupAddressableDevice of each addressable device\'s PJRT_Device_LocalHardwareId returns that device');
    default:
      return 'no body for this case';
  }
}

export const QUERIES: Family = {
  name: 'client and device queries',
  covers: [
    'tier1.client.platform_name', 'tier1.client.platform_name_stable', 'tier1.client.platform_version', 'tier1.client.platform_version_stable',
    'tier1.client.process_index_single', 'tier1.client.two_clients_at_once', 'tier1.client.unknown_option_*', 'tier1.client.wrong_type_option_*',
    'tier1.topology.devices_non_empty', 'tier1.topology.addressable_subset', 'tier1.topology.ids_unique', 'tier1.topology.lookup_by_id',
    'tier1.topology.lookup_unknown_id', 'tier1.topology.lookup_by_local_hardware_id',
  ],
  build,
};

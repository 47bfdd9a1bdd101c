// Event waits: a transfer's ready event awaited (then IsReady and Error), OnReady registered before or after the
// event is ready (the callback's error and how often it is called), and an event made by the caller and set.
import { dtype } from '../../abi/dtypes.js';
import { CALLBACK_WAIT } from '../../ffi/call-stats.js';
import { pattern } from '../../../suites/_lib/patterns.js';
import { dataArray, lastCall, namedValuesDecl, type CBody, type Family, type FamilyInput } from './recorded.js';

/** OnReady registrations: each callback counts its calls and keeps the error text of the first. */
const ON_READY = `#define MAX_WAITS 16
typedef struct { volatile int calls; volatile int failed; char why[512]; } Waiter;
static Waiter waiters[MAX_WAITS];
static int num_waiters;
static void on_ready(PJRT_Error* error, void* user_arg) {
  Waiter* w = (Waiter*)user_arg;
  if (error != NULL && w->calls == 0) { error_text(error, w->why, sizeof w->why); w->failed = 1; }
  __sync_fetch_and_add(&w->calls, 1);
}
/* PJRT_Event_OnReady with a fresh waiter (its calls and the first call's error). */
static Waiter* register_on_ready(PJRT_Event* ev) {
  Waiter* w = &waiters[num_waiters++];
  ARGS(PJRT_Event_OnReady_Args, a);
  a.event = ev;
  a.callback = on_ready;
  a.user_arg = w;
  MUST(PJRT_Event_OnReady, a);
  return w;
}
/* Waits for the callback as the CTS awaits it: without end, so a callback never called is the run's timeout, named
 * as the CTS names it (the wait is PJRT_Event_OnReady in flight). */
static void wait_called(Waiter* w) {
  if (w->calls) return;
  snprintf(in_flight, 256, "PJRT_Event_OnReady (${CALLBACK_WAIT})");
  while (w->calls == 0) usleep(2000);
  in_flight[0] = 0;
}
static int is_ready(PJRT_Event* ev) {
  ARGS(PJRT_Event_IsReady_Args, a);
  a.event = ev;
  MUST(PJRT_Event_IsReady, a);
  return a.is_ready;
}
static PJRT_Event* ready_event(PJRT_Buffer* b) {
  ARGS(PJRT_Buffer_ReadyEvent_Args, r);
  r.buffer = b;
  MUST(PJRT_Buffer_ReadyEvent, r);
  return r.event;
}`;

/** The client a case used: one it created itself with the recorded options (a slowed one), else the run's. */
function clientOf(input: FamilyInput): { decl: string; line: string; words: string } | string {
  const create = lastCall(input, 'PJRT_Client_Create');
  if (!create) return { decl: '', line: '  PJRT_Client* client = create_client();', words: 'a client with the run\'s options' };
  const o = namedValuesDecl('slow_options', create.args['create_options']);
  if (!o) return 'the recorded create options could not be read back with their types';
  return {
    decl: o.decl,
    line: `  char cwhy[2048];\n  ARGS(PJRT_Plugin_Initialize_Args, init);\n  MUST(PJRT_Plugin_Initialize, init);\n  PJRT_Client* client = num_cli_options ? create_client_with(cli_options, num_cli_options, cwhy, sizeof cwhy) : create_client_with(slow_options, ${o.count}, cwhy, sizeof cwhy);\n  if (client == NULL) { printf("%s: fail: PjrtError: PJRT_Client_Create: %s\\n", case_id, cwhy); fflush(stdout); _exit(3); }`,
    words: `a client created with the options the case recorded (${JSON.stringify(create.args['create_options'])}; the reference plugin's completion delay slows its transfers down so that an event is registered before it is ready)`,
  };
}

function build(input: FamilyInput): CBody | string {
  switch (input.id) {
    case 'tier2.events.await_then_ready': {
      const host = pattern(dtype('u8'), [100]);
      return {
        declarations: `${ON_READY}\n${dataArray('host', host)}`,
        body: [
          '  static const int64_t dims[] = { 100 };',
          '  PJRT_Client* client = create_client();',
          '  PJRT_Event* ev = ready_event(start_upload(client, device_at(client, 0), PJRT_Buffer_Type_U8, dims, 1, host, NULL));',
          '  ARGS(PJRT_Event_Await_Args, aw);',
          '  aw.event = ev;',
          '  must(CALL(PJRT_Event_Await, aw), "PJRT_Event_Await");',
          '  if (!is_ready(ev)) fail("after PJRT_Event_Await returns, IsReady must be true", "true", "false");',
          '  ARGS(PJRT_Event_Error_Args, er);',
          '  er.event = ev;',
          '  PJRT_Error* e = CALL(PJRT_Event_Error, er);',
          '  if (e != NULL) { char why[2048]; error_text(e, why, sizeof why); fail("PJRT_Event_Error of a successful transfer event must return no error", "null", why); }',
        ].join('\n'),
        shows: 'PJRT_Client_BufferFromHostBuffer of u8[100], its buffer\'s ready event awaited (PJRT_Event_Await), then PJRT_Event_IsReady and PJRT_Event_Error',
      };
    }
    case 'tier2.events.on_ready_before_completion':
    case 'tier2.events.on_ready_after_completion': {
      const before = input.id.endsWith('before_completion');
      const c = before ? clientOf(input) : { decl: '', line: '  PJRT_Client* client = create_client();', words: 'a client with the run\'s options' };
      if (typeof c === 'string') return c;
      const host = pattern(dtype('f32'), [16]);
      return {
        declarations: [ON_READY, c.decl, dataArray('host', host)].filter(Boolean).join('\n'),
        body: [
          '  static const int64_t dims[] = { 16 };',
          c.line,
          before
            ? '  PJRT_Event* ev = ready_event(start_upload(client, device_at(client, 0), PJRT_Buffer_Type_F32, dims, 1, host, NULL));'
            : '  PJRT_Event* ev = ready_event(upload(client, device_at(client, 0), PJRT_Buffer_Type_F32, dims, 1, host));',
          ...(before ? [] : ['  ARGS(PJRT_Event_Await_Args, aw);', '  aw.event = ev;', '  must(CALL(PJRT_Event_Await, aw), "PJRT_Event_Await");']),
          '  Waiter* w = register_on_ready(ev);',
          '  wait_called(w);',
          `  if (w->failed) fail(${before ? '"OnReady of a successful transfer must report no error"' : '"OnReady registered after readiness must still be called (with no error)"'}, "null", w->why);`,
          ...(before ? ['  if (!is_ready(ev)) fail("when OnReady fires, IsReady must be true", "true", "false");'] : []),
        ].join('\n'),
        shows: `${c.words}: PJRT_Client_BufferFromHostBuffer of f32[16], ${before ? 'PJRT_Event_OnReady registered on its ready event at once (before the transfer completes where the plugin can be slowed down)' : 'its ready event awaited, then PJRT_Event_OnReady registered on it'}; the callback must be called with no error`,
      };
    }
    case 'tier2.events.on_ready_called_once': {
      const c = clientOf(input);
      if (typeof c === 'string') return c;
      const hosts = [0, 1, 2, 3].map((i) => pattern(dtype('f32'), [8 + i]));
      return {
        declarations: [ON_READY, c.decl, ...hosts.map((h, i) => dataArray(`host${i}`, h))].filter(Boolean).join('\n'),
        body: [
          c.line,
          '  const unsigned char* hosts[] = { host0, host1, host2, host3 };',
          '  PJRT_Buffer* bufs[4];',
          '  for (int i = 0; i < 4; i++) { int64_t dims[] = { 8 + i }; bufs[i] = start_upload(client, device_at(client, 0), PJRT_Buffer_Type_F32, dims, 1, hosts[i], NULL); }',
          '  Waiter* ws[8];',
          '  for (int i = 0; i < 4; i++) ws[i] = register_on_ready(ready_event(bufs[i])); /* while the transfers may still run */',
          '  for (int i = 0; i < 4; i++) wait_called(ws[i]);',
          '  for (int i = 0; i < 4; i++) ws[4 + i] = register_on_ready(ready_event(bufs[i])); /* once they are complete */',
          '  for (int i = 4; i < 8; i++) wait_called(ws[i]);',
          '  usleep(100000); /* a repeated call from a plugin thread arrives after the first */',
          '  int errors = 0, stray = 0;',
          '  for (int i = 0; i < 8; i++) { errors += ws[i]->failed; if (ws[i]->calls > 1) stray += ws[i]->calls - 1; }',
          '  char got[32];',
          '  snprintf(got, sizeof got, "%d", errors);',
          '  if (errors) fail("OnReady of successful transfers must report no error", "0", got);',
          '  snprintf(got, sizeof got, "%d", stray);',
          '  if (stray) fail("PJRT_Event_OnReady must call each registered callback exactly once (calls with an already answered user_arg)", "0", got);',
        ].join('\n'),
        shows: `${c.words}: four transfers, PJRT_Event_OnReady registered on each ready event while they may still run and again once they are complete; each callback must be called exactly once, with no error`,
      };
    }
    case 'tier2.events.create_and_set':
      return {
        declarations: ON_READY,
        body: [
          '  ARGS(PJRT_Plugin_Initialize_Args, init);',
          '  MUST(PJRT_Plugin_Initialize, init);',
          '  ARGS(PJRT_Event_Create_Args, c);',
          '  PJRT_Error* e = CALL(PJRT_Event_Create, c);',
          '  if (e != NULL) {',
          '    char why[2048];',
          '    error_text(e, why, sizeof why);',
          '    if (strncmp(why, "UNIMPLEMENTED:", 14) == 0) { printf("%s: unsupported: PJRT_Event_Create returned UNIMPLEMENTED (\\"%s\\"): caller-made events are not offered by this plugin\\n", case_id, why + 15); fflush(stdout); _exit(4); }',
          '    printf("%s: fail: PjrtError: PJRT_Event_Create: %s\\n", case_id, why);',
          '    fflush(stdout);',
          '    _exit(3);',
          '  }',
          '  if (is_ready(c.event)) fail("a created event is not ready until set", "false", "true");',
          '  ARGS(PJRT_Event_Set_Args, s);',
          '  s.event = c.event;',
          '  MUST(PJRT_Event_Set, s);',
          '  ARGS(PJRT_Event_Await_Args, aw);',
          '  aw.event = c.event;',
          '  must(CALL(PJRT_Event_Await, aw), "PJRT_Event_Await");',
          '  if (!is_ready(c.event)) fail("PJRT_Event_Set must complete the event", "true", "false");',
          '  ARGS(PJRT_Event_Destroy_Args, d);',
          '  d.event = c.event;',
          '  MUST(PJRT_Event_Destroy, d);',
        ].join('\n'),
        shows: 'PJRT_Event_Create: not ready; PJRT_Event_Set with OK: awaited, then ready',
      };
    default:
      return 'no body for this case';
  }
}

export const EVENTS: Family = {
  name: 'event waits',
  covers: ['tier2.events.await_then_ready', 'tier2.events.on_ready_before_completion', 'tier2.events.on_ready_after_completion', 'tier2.events.on_ready_called_once', 'tier2.events.create_and_set'],
  build,
};

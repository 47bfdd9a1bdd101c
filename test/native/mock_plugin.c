/* A small PJRT-shaped plugin for binding tests: errors, attributes, client create with options and KV callbacks,
 * platform name/version, and events completed by a plugin thread (PJRT_Event_Create/Set, 0.89).
 * Offsets come from pjrt_offsets.h (generated from src/abi). PJRT_Api.struct_size ends after PJRT_Event_Set. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pjrt_offsets.h"

#define F(p, S, f, T) (*(T*)((char*)(p) + OFF_##S##__##f))
typedef void* (*ArgsFn)(void*);
typedef void (*Deleter)(char*);
typedef void (*OnReadyFn)(void*, void*);

typedef struct { int code; char* msg; size_t len; } MockError;
static atomic_int live_errors, live_events, live_clients;
int mock_live_errors(void) { return live_errors; }
int mock_live_events(void) { return live_events; }
int mock_live_clients(void) { return live_clients; }

static void* mk_error_n(int code, const char* msg, size_t len) {
  MockError* e = malloc(sizeof *e);
  e->code = code; e->msg = malloc(len + 1); memcpy(e->msg, msg, len); e->msg[len] = 0; e->len = len;
  live_errors++;
  return e;
}
static void* mk_error(int code, const char* msg) { return mk_error_n(code, msg, strlen(msg)); }

static void* Error_Destroy(void* a) {
  MockError* e = F(a, PJRT_Error_Destroy_Args, error, MockError*);
  if (e) { free(e->msg); free(e); live_errors--; }
  return NULL;
}
static void* Error_Message(void* a) {
  MockError* e = F(a, PJRT_Error_Message_Args, error, MockError*);
  F(a, PJRT_Error_Message_Args, message, const char*) = e->msg;
  F(a, PJRT_Error_Message_Args, message_size, size_t) = e->len;
  return NULL;
}
static void* Error_GetCode(void* a) {
  F(a, PJRT_Error_GetCode_Args, code, int) = F(a, PJRT_Error_GetCode_Args, error, MockError*)->code;
  return NULL;
}
static void* Plugin_Initialize(void* a) { (void)a; return NULL; }

/* ---- attributes: one of each NamedValue type */
static _Alignas(8) unsigned char attrs[5 * SZ_PJRT_NamedValue];
static const int64_t attr_list[3] = {1, -2, 9007199254740993LL};
static void set_nv(int i, const char* name, int type, uint64_t bits, size_t value_size) {
  unsigned char* p = attrs + i * SZ_PJRT_NamedValue;
  F(p, PJRT_NamedValue, struct_size, size_t) = SS_PJRT_NamedValue;
  F(p, PJRT_NamedValue, name, const char*) = name;
  F(p, PJRT_NamedValue, name_size, size_t) = strlen(name);
  F(p, PJRT_NamedValue, type, int) = type;
  memcpy(p + OFF_PJRT_NamedValue__value, &bits, 8);
  F(p, PJRT_NamedValue, value_size, size_t) = value_size;
}
static void* Plugin_Attributes(void* a) {
  static const char* s = "mock-plugin";
  float f = 1.5f; uint32_t fb; memcpy(&fb, &f, 4);
  set_nv(0, "name", E_PJRT_NamedValue_Type__kString, (uint64_t)(uintptr_t)s, strlen(s));
  set_nv(1, "big", E_PJRT_NamedValue_Type__kInt64, (uint64_t)-9007199254740993LL, 1);
  set_nv(2, "list", E_PJRT_NamedValue_Type__kInt64List, (uint64_t)(uintptr_t)attr_list, 3);
  set_nv(3, "ratio", E_PJRT_NamedValue_Type__kFloat, fb, 1);
  set_nv(4, "flag", E_PJRT_NamedValue_Type__kBool, 1, 1);
  F(a, PJRT_Plugin_Attributes_Args, attributes, void*) = attrs;
  F(a, PJRT_Plugin_Attributes_Args, num_attributes, size_t) = 5;
  return NULL;
}

/* ---- client */
typedef struct { char echo[1024]; } MockClient;

static void* callback_error(int code, const char* msg, size_t len) { return mk_error_n(code, msg, len); }
/* The args field is a PJRT_CallbackError*: a pointer to the function pointer. */
static void* (*const callback_error_fn)(int, const char*, size_t) = callback_error;

typedef struct {
  void* get; void* get_arg; void* put; void* put_arg; void* try_get; void* try_get_arg;
  char result[256];
} KvJob;

static void free_error(void* err) { MockError* e = err; free(e->msg); free(e); live_errors--; }

static void* kv_thread(void* p) {
  KvJob* j = p;
  _Alignas(8) unsigned char put[SZ_PJRT_KeyValuePutCallback_Args] = {0};
  F(put, PJRT_KeyValuePutCallback_Args, struct_size, size_t) = SS_PJRT_KeyValuePutCallback_Args;
  F(put, PJRT_KeyValuePutCallback_Args, key, const char*) = "k1";
  F(put, PJRT_KeyValuePutCallback_Args, key_size, size_t) = 2;
  F(put, PJRT_KeyValuePutCallback_Args, value, const char*) = "hello";
  F(put, PJRT_KeyValuePutCallback_Args, value_size, size_t) = 5;
  F(put, PJRT_KeyValuePutCallback_Args, callback_error, void*) = (void*)&callback_error_fn;
  F(put, PJRT_KeyValuePutCallback_Args, user_arg, void*) = j->put_arg;
  void* err = ((ArgsFn)j->put)(put);
  if (err) { snprintf(j->result, sizeof j->result, "put failed: %s", ((MockError*)err)->msg); free_error(err); return NULL; }

  _Alignas(8) unsigned char get[SZ_PJRT_KeyValueGetCallback_Args] = {0};
  F(get, PJRT_KeyValueGetCallback_Args, struct_size, size_t) = SS_PJRT_KeyValueGetCallback_Args;
  F(get, PJRT_KeyValueGetCallback_Args, key, const char*) = "k1";
  F(get, PJRT_KeyValueGetCallback_Args, key_size, size_t) = 2;
  F(get, PJRT_KeyValueGetCallback_Args, timeout_in_ms, int) = 1000;
  F(get, PJRT_KeyValueGetCallback_Args, callback_error, void*) = (void*)&callback_error_fn;
  F(get, PJRT_KeyValueGetCallback_Args, user_arg, void*) = j->get_arg;
  err = ((ArgsFn)j->get)(get);
  if (err) { snprintf(j->result, sizeof j->result, "get failed: %s", ((MockError*)err)->msg); free_error(err); return NULL; }
  char* v = F(get, PJRT_KeyValueGetCallback_Args, value, char*);
  size_t n = F(get, PJRT_KeyValueGetCallback_Args, value_size, size_t);
  if (n != 5 || memcmp(v, "hello", 5) != 0) { snprintf(j->result, sizeof j->result, "get returned wrong value"); return NULL; }
  F(get, PJRT_KeyValueGetCallback_Args, value_deleter_callback, Deleter)(v);

  _Alignas(8) unsigned char tg[SZ_PJRT_KeyValueTryGetCallback_Args] = {0};
  F(tg, PJRT_KeyValueTryGetCallback_Args, struct_size, size_t) = SS_PJRT_KeyValueTryGetCallback_Args;
  F(tg, PJRT_KeyValueTryGetCallback_Args, key, const char*) = "absent";
  F(tg, PJRT_KeyValueTryGetCallback_Args, key_size, size_t) = 6;
  F(tg, PJRT_KeyValueTryGetCallback_Args, callback_error, void*) = (void*)&callback_error_fn;
  F(tg, PJRT_KeyValueTryGetCallback_Args, user_arg, void*) = j->try_get_arg;
  err = ((ArgsFn)j->try_get)(tg);
  if (!err || ((MockError*)err)->code != E_PJRT_Error_Code__NOT_FOUND) {
    if (err) free_error(err);
    snprintf(j->result, sizeof j->result, "try_get of a missing key did not give NOT_FOUND");
    return NULL;
  }
  free_error(err);
  strcpy(j->result, "ok");
  return NULL;
}

static void* Client_Create(void* a) {
  const unsigned char* opts = F(a, PJRT_Client_Create_Args, create_options, const unsigned char*);
  size_t n = F(a, PJRT_Client_Create_Args, num_options, size_t);
  MockClient* c = calloc(1, sizeof *c);
  int kv = 0;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const unsigned char* o = opts + i * SZ_PJRT_NamedValue;
    const char* name = F(o, PJRT_NamedValue, name, const char*);
    int nlen = (int)F(o, PJRT_NamedValue, name_size, size_t);
    int type = F(o, PJRT_NamedValue, type, int);
    size_t vs = F(o, PJRT_NamedValue, value_size, size_t);
    char val[256] = "";
    if (type == E_PJRT_NamedValue_Type__kString) snprintf(val, sizeof val, "%.*s", (int)vs, F(o, PJRT_NamedValue, string_value, const char*));
    else if (type == E_PJRT_NamedValue_Type__kInt64) snprintf(val, sizeof val, "%lld", (long long)F(o, PJRT_NamedValue, int64_value, int64_t));
    else if (type == E_PJRT_NamedValue_Type__kFloat) snprintf(val, sizeof val, "%g", (double)F(o, PJRT_NamedValue, float_value, float));
    else if (type == E_PJRT_NamedValue_Type__kBool) snprintf(val, sizeof val, "%d", (int)F(o, PJRT_NamedValue, bool_value, _Bool));
    else if (type == E_PJRT_NamedValue_Type__kInt64List) {
      const int64_t* l = F(o, PJRT_NamedValue, int64_array_value, const int64_t*);
      for (size_t k = 0; k < vs; k++) snprintf(val + strlen(val), sizeof val - strlen(val), "%s%lld", k ? "," : "", (long long)l[k]);
    }
    if (nlen == 6 && memcmp(name, "reject", 6) == 0) {
      free(c);
      return mk_error(E_PJRT_Error_Code__INVALID_ARGUMENT, "create option 'reject' was given");
    }
    if (nlen == 12 && memcmp(name, "kv_roundtrip", 12) == 0) kv = 1;
    at += snprintf(c->echo + at, sizeof c->echo - at, "%s%.*s:%d=%s", i ? ";" : "", nlen, name, type, val);
  }
  if (kv) {
    KvJob j = {F(a, PJRT_Client_Create_Args, kv_get_callback, void*), F(a, PJRT_Client_Create_Args, kv_get_user_arg, void*),
               F(a, PJRT_Client_Create_Args, kv_put_callback, void*), F(a, PJRT_Client_Create_Args, kv_put_user_arg, void*),
               F(a, PJRT_Client_Create_Args, kv_try_get_callback, void*), F(a, PJRT_Client_Create_Args, kv_try_get_user_arg, void*), ""};
    if (!j.get || !j.put || !j.try_get) { free(c); return mk_error(E_PJRT_Error_Code__INVALID_ARGUMENT, "kv_roundtrip needs KV callbacks"); }
    pthread_t t;
    pthread_create(&t, NULL, kv_thread, &j);
    pthread_join(t, NULL);
    if (strcmp(j.result, "ok") != 0) { free(c); return mk_error(E_PJRT_Error_Code__INTERNAL, j.result); }
  }
  live_clients++;
  F(a, PJRT_Client_Create_Args, client, MockClient*) = c;
  return NULL;
}
static void* Client_Destroy(void* a) {
  free(F(a, PJRT_Client_Destroy_Args, client, MockClient*));
  live_clients--;
  return NULL;
}
static void* Client_PlatformName(void* a) {
  if (F(a, PJRT_Client_PlatformName_Args, struct_size, size_t) < SS_PJRT_Client_PlatformName_Args)
    return mk_error(E_PJRT_Error_Code__INVALID_ARGUMENT, "PJRT_Client_PlatformName_Args too small");
  F(a, PJRT_Client_PlatformName_Args, platform_name, const char*) = "mock";
  F(a, PJRT_Client_PlatformName_Args, platform_name_size, size_t) = 4;
  return NULL;
}
/* the version string echoes the create options received: name:type=value;… */
static void* Client_PlatformVersion(void* a) {
  MockClient* c = F(a, PJRT_Client_PlatformVersion_Args, client, MockClient*);
  F(a, PJRT_Client_PlatformVersion_Args, platform_version, const char*) = c->echo;
  F(a, PJRT_Client_PlatformVersion_Args, platform_version_size, size_t) = strlen(c->echo);
  return NULL;
}
static void* Client_ProcessIndex(void* a) { F(a, PJRT_Client_ProcessIndex_Args, process_index, int) = 0; return NULL; }

/* ---- events (mock_set_on_ready_times(2) makes every OnReady callback fire twice: a faulty plugin) */
static atomic_int on_ready_times = 1;
void mock_set_on_ready_times(int n) { on_ready_times = n; }
typedef struct Cb { void (*fn)(void*, void*); void* arg; struct Cb* next; } Cb;
typedef struct { pthread_mutex_t mu; pthread_cond_t cv; int ready; int code; char msg[128]; Cb* cbs; } MockEvent;

static void* Event_Create(void* a) {
  MockEvent* e = calloc(1, sizeof *e);
  pthread_mutex_init(&e->mu, NULL); pthread_cond_init(&e->cv, NULL);
  live_events++;
  F(a, PJRT_Event_Create_Args, event, MockEvent*) = e;
  return NULL;
}
static void* event_error(MockEvent* e) { return e->code ? mk_error(e->code, e->msg) : NULL; }
typedef struct { MockEvent* e; int code; char msg[128]; } SetJob;
static void* set_thread(void* p) {
  SetJob* j = p;
  usleep(20000);
  MockEvent* e = j->e;
  pthread_mutex_lock(&e->mu);
  e->ready = 1; e->code = j->code; memcpy(e->msg, j->msg, sizeof e->msg);
  Cb* cbs = e->cbs; e->cbs = NULL;
  int code = e->code; char msg[128]; memcpy(msg, e->msg, sizeof msg);
  pthread_cond_broadcast(&e->cv);
  pthread_mutex_unlock(&e->mu);
  while (cbs) {
    Cb* n = cbs->next;
    for (int i = 0; i < on_ready_times; i++) cbs->fn(code ? mk_error(code, msg) : NULL, cbs->arg);
    free(cbs); cbs = n;
  }
  free(j);
  return NULL;
}
/* completes the event 20 ms later on a new thread */
static void* Event_Set(void* a) {
  SetJob* j = calloc(1, sizeof *j);
  j->e = F(a, PJRT_Event_Set_Args, event, MockEvent*);
  j->code = F(a, PJRT_Event_Set_Args, error_code, int);
  snprintf(j->msg, sizeof j->msg, "%.*s", (int)F(a, PJRT_Event_Set_Args, error_message_size, size_t),
           F(a, PJRT_Event_Set_Args, error_message, const char*));
  pthread_t t;
  pthread_create(&t, NULL, set_thread, j);
  pthread_detach(t);
  return NULL;
}
static void* Event_IsReady(void* a) {
  MockEvent* e = F(a, PJRT_Event_IsReady_Args, event, MockEvent*);
  pthread_mutex_lock(&e->mu);
  F(a, PJRT_Event_IsReady_Args, is_ready, _Bool) = e->ready;
  pthread_mutex_unlock(&e->mu);
  return NULL;
}
static void* Event_Await(void* a) {
  MockEvent* e = F(a, PJRT_Event_Await_Args, event, MockEvent*);
  pthread_mutex_lock(&e->mu);
  while (!e->ready) pthread_cond_wait(&e->cv, &e->mu);
  pthread_mutex_unlock(&e->mu);
  return event_error(e);
}
static void* Event_Error(void* a) {
  MockEvent* e = F(a, PJRT_Event_Error_Args, event, MockEvent*);
  if (!e->ready) return mk_error(E_PJRT_Error_Code__FAILED_PRECONDITION, "event not ready");
  return event_error(e);
}
static void* Event_OnReady(void* a) {
  MockEvent* e = F(a, PJRT_Event_OnReady_Args, event, MockEvent*);
  void (*fn)(void*, void*) = F(a, PJRT_Event_OnReady_Args, callback, OnReadyFn);
  void* arg = F(a, PJRT_Event_OnReady_Args, user_arg, void*);
  pthread_mutex_lock(&e->mu);
  if (e->ready) {
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < on_ready_times; i++) fn(event_error(e), arg);
    return NULL;
  }
  Cb* cb = malloc(sizeof *cb); cb->fn = fn; cb->arg = arg; cb->next = e->cbs; e->cbs = cb;
  pthread_mutex_unlock(&e->mu);
  return NULL;
}
static void* Event_Destroy(void* a) {
  MockEvent* e = F(a, PJRT_Event_Destroy_Args, event, MockEvent*);
  pthread_mutex_destroy(&e->mu); pthread_cond_destroy(&e->cv); free(e);
  live_events--;
  return NULL;
}

/* ---- a plugin thread calling a view's on_delete_callback `times` times (for the binding's tracker) */
typedef struct { void (*fn)(void*, void*); void* ptr; void* arg; int times; } DeleteJob;
static void* delete_thread(void* p) {
  DeleteJob* j = p;
  for (int i = 0; i < j->times; i++) j->fn(j->ptr, j->arg);
  free(j);
  return NULL;
}
void mock_call_on_delete(void (*fn)(void*, void*), void* ptr, void* arg, int times) {
  DeleteJob* j = malloc(sizeof *j);
  j->fn = fn; j->ptr = ptr; j->arg = arg; j->times = times;
  pthread_t t;
  pthread_create(&t, NULL, delete_thread, j);
  pthread_detach(t);
}

static _Alignas(16) unsigned char api[API_STRUCT_SIZE];
#define SET(slot, fn) (*(void**)(api + SLOT_##slot) = (void*)(fn))

const void* GetPjrtApi(void) {
  *(size_t*)api = SLOT_PJRT_Event_Set + 8;
  F(api, PJRT_Api, pjrt_api_version, size_t) = SS_PJRT_Api_Version;
  *(int*)(api + OFF_PJRT_Api__pjrt_api_version + OFF_PJRT_Api_Version__major_version) = PJRT_MAJOR;
  *(int*)(api + OFF_PJRT_Api__pjrt_api_version + OFF_PJRT_Api_Version__minor_version) = 89;
  SET(PJRT_Error_Destroy, Error_Destroy); SET(PJRT_Error_Message, Error_Message); SET(PJRT_Error_GetCode, Error_GetCode);
  SET(PJRT_Plugin_Initialize, Plugin_Initialize); SET(PJRT_Plugin_Attributes, Plugin_Attributes);
  SET(PJRT_Client_Create, Client_Create); SET(PJRT_Client_Destroy, Client_Destroy);
  SET(PJRT_Client_PlatformName, Client_PlatformName); SET(PJRT_Client_PlatformVersion, Client_PlatformVersion);
  SET(PJRT_Client_ProcessIndex, Client_ProcessIndex);
  SET(PJRT_Event_Create, Event_Create); SET(PJRT_Event_Set, Event_Set); SET(PJRT_Event_IsReady, Event_IsReady);
  SET(PJRT_Event_Await, Event_Await); SET(PJRT_Event_Error, Event_Error); SET(PJRT_Event_OnReady, Event_OnReady);
  SET(PJRT_Event_Destroy, Event_Destroy);
  return api;
}

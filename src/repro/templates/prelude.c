/* ---- the reproducer's runtime (the same in every repro.c; the case's calls follow below) ------------------------
 * Loads the plugin given as argv[1], runs the case's calls in a child process (so a crash or a hang in the plugin is
 * reported, naming the call in flight, as the CTS reports it) and prints one verdict line:
 *   <case id>: pass | fail: <what> | error: <call>: <code>: <message> | crash: ... | timeout: ...
 * Byte strings (program code, compile options, names) are placed as the case placed them: a NUL after them or not, or
 * right before an unreadable page (after the code, or after its NUL), as recorded.
 * Options: --code-placement terminated|unterminated|guard_after_code|guard_after_nul (program code placed so instead
 * of as recorded), --timeout-ms N, -o name=value (create options instead of the run's, for a client and a topology: an
 * integer is int64, another number float, true/false bool, else a string; repeatable). Exit: 0 pass, 1 the case's failure (or another) showed, 2 bad usage or the
 * plugin could not be loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pjrt_c_api.h"

#pragma GCC diagnostic ignored "-Wunused-function"

static const PJRT_Api* api;
static size_t case_options(const PJRT_NamedValue** out); /* the run's create options, defined with the case */
static size_t case_topology_options(const PJRT_NamedValue** out); /* and what a topology was created with */
static char* in_flight; /* shared with the parent: the call being made */
/* Where a byte string's bytes end: a NUL after them (a std::string), 64 non-NUL bytes after them, or an unreadable
 * page right after them or after their NUL (src/pjrt/program-args.ts). */
enum Placement { TERMINATED, UNTERMINATED, GUARD_AFTER_CODE, GUARD_AFTER_NUL, AS_RECORDED };
static const char* const PLACEMENTS[] = { "terminated", "unterminated", "guard_after_code", "guard_after_nul" };
static enum Placement code_placement = AS_RECORDED; /* --code-placement */
static const char* case_id;

typedef PJRT_Error* (*ArgsFn)(void*);

static PJRT_Error* traced(const char* name, void* fn, void* args) {
  if (fn == NULL) {
    printf("%s: unsupported: %s is null in the plugin's PJRT_Api\n", case_id, name);
    fflush(stdout);
    _exit(4);
  }
  snprintf(in_flight, 256, "%s", name);
  PJRT_Error* e = ((ArgsFn)fn)(args);
  in_flight[0] = 0;
  return e;
}
/* Calls api->SLOT(&ARGS), its name marked as in flight. */
#define CALL(SLOT, ARGS) traced(#SLOT, (void*)api->SLOT, &(ARGS))
#define ARGS(T, NAME) T NAME; memset(&NAME, 0, sizeof NAME); NAME.struct_size = T##_STRUCT_SIZE

static void error_text(PJRT_Error* e, char* out, size_t n) {
  ARGS(PJRT_Error_Message_Args, m);
  m.error = e;
  api->PJRT_Error_Message(&m);
  ARGS(PJRT_Error_GetCode_Args, c);
  c.error = e;
  const char* code = "UNKNOWN_CODE";
  if (api->PJRT_Error_GetCode(&c) == NULL && c.code >= 0 && c.code < (int)(sizeof CODE_NAMES / sizeof *CODE_NAMES)) code = CODE_NAMES[c.code];
  snprintf(out, n, "%s: %.*s", code, (int)m.message_size, m.message);
  ARGS(PJRT_Error_Destroy_Args, d);
  d.error = e;
  api->PJRT_Error_Destroy(&d);
}

/* A call that must succeed: an error ends the case as the CTS ends it. */
static void must(PJRT_Error* e, const char* slot) {
  if (e == NULL) return;
  char text[2048];
  error_text(e, text, sizeof text);
  printf("%s: fail: PjrtError: %s: %s\n", case_id, slot, text);
  fflush(stdout);
  _exit(3);
}
#define MUST(SLOT, ARGS) must(CALL(SLOT, ARGS), #SLOT)

/* `why` ("CODE: message", error_text) as the CTS words an error a positive control got: CODE "message" from SLOT. */
static const char* error_as_cts_says(const char* why, const char* slot) {
  static char out[4400];
  const char* colon = strstr(why, ": ");
  if (colon == NULL) snprintf(out, sizeof out, "%s from %s", why, slot);
  else snprintf(out, sizeof out, "%.*s \"%s\" from %s", (int)(colon - why), why, colon + 2, slot);
  return out;
}

/* `why` as the CTS words a wrong error code: CODE ("message"). */
static const char* code_and_message(const char* why) {
  static char out[4400];
  const char* colon = strstr(why, ": ");
  if (colon == NULL) snprintf(out, sizeof out, "%s", why);
  else snprintf(out, sizeof out, "%.*s (\"%s\")", (int)(colon - why), why, colon + 2);
  return out;
}

static void fail(const char* rule, const char* expected, const char* got) {
  printf("%s: fail: %s: expected %s, got %s\n", case_id, rule, expected, got);
  fflush(stdout);
  _exit(1);
}

/* `n` bytes at a fresh address, placed as `where` says. */
static const char* byte_string(const void* data, size_t n, enum Placement where) {
  if (where == TERMINATED || where == UNTERMINATED) {
    char* p = malloc(n + 64);
    memcpy(p, data, n);
    memset(p + n, where == TERMINATED ? 0 : 0x5a, 64);
    return p;
  }
  size_t page = (size_t)sysconf(_SC_PAGESIZE), used = n + (where == GUARD_AFTER_NUL ? 1 : 0);
  size_t readable = (used + page - 1) / page * page;
  if (readable == 0) readable = page;
  char* base = mmap(NULL, readable + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED || mprotect(base + readable, page, PROT_NONE) != 0) { perror("repro: mmap/mprotect of the guard page"); _exit(2); }
  char* p = base + readable - used;
  memcpy(p, data, n);
  if (where == GUARD_AFTER_NUL) p[n] = 0;
  return p;
}

static void await_event(PJRT_Event* ev, const char* what) {
  if (ev == NULL) return;
  ARGS(PJRT_Event_Await_Args, a);
  a.event = ev;
  PJRT_Error* e = CALL(PJRT_Event_Await, a);
  ARGS(PJRT_Event_Destroy_Args, d);
  d.event = ev;
  MUST(PJRT_Event_Destroy, d);
  must(e, what);
}

/* -o name=value: create options given on the command line, which replace the run's. */
static PJRT_NamedValue cli_options[32];
static size_t num_cli_options;

static void add_cli_option(char* text) {
  char* eq = strchr(text, '=');
  if (eq == NULL || num_cli_options == 32) { fprintf(stderr, "repro: -o %s: expected name=value\n", text); exit(2); }
  *eq = 0;
  PJRT_NamedValue* v = &cli_options[num_cli_options++];
  v->struct_size = PJRT_NamedValue_STRUCT_SIZE;
  v->name = text;
  v->name_size = strlen(text);
  const char* value = eq + 1;
  char* end = NULL;
  long long n = strtoll(value, &end, 10);
  v->value_size = 1;
  char* fend = NULL;
  double f = strtod(value, &fend);
  if (*value && end && *end == 0) { v->type = PJRT_NamedValue_kInt64; v->int64_value = n; }
  else if (*value && fend && *fend == 0) { v->type = PJRT_NamedValue_kFloat; v->float_value = (float)f; }
  else if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0) { v->type = PJRT_NamedValue_kBool; v->bool_value = value[0] == 't'; }
  else { v->type = PJRT_NamedValue_kString; v->string_value = value; v->value_size = strlen(value); }
}

static PJRT_Client* create_client(void) {
  ARGS(PJRT_Plugin_Initialize_Args, init);
  MUST(PJRT_Plugin_Initialize, init);
  ARGS(PJRT_Client_Create_Args, a);
  if (num_cli_options) { a.create_options = cli_options; a.num_options = num_cli_options; }
  else a.num_options = case_options(&a.create_options);
  MUST(PJRT_Client_Create, a);
  return a.client;
}

/* PJRT_Client_Create with the given options (not the run's): the client, or NULL with the error's text in `why`. */
static PJRT_Client* create_client_with(const PJRT_NamedValue* options, size_t n, char* why, size_t why_size) {
  ARGS(PJRT_Client_Create_Args, a);
  a.create_options = options;
  a.num_options = n;
  PJRT_Error* e = CALL(PJRT_Client_Create, a);
  if (e == NULL) return a.client;
  error_text(e, why, why_size);
  return NULL;
}

static void destroy_client(PJRT_Client* c) {
  ARGS(PJRT_Client_Destroy_Args, a);
  a.client = c;
  MUST(PJRT_Client_Destroy, a);
}

/* PlatformName (`version` 0) or PlatformVersion (1) of a client, as a JSON string (how the CTS shows a string). */
static void platform_string(PJRT_Client* c, int version, char* out, size_t n) {
  const char* s;
  size_t size;
  if (version) {
    ARGS(PJRT_Client_PlatformVersion_Args, a);
    a.client = c;
    MUST(PJRT_Client_PlatformVersion, a);
    s = a.platform_version;
    size = a.platform_version_size;
  } else {
    ARGS(PJRT_Client_PlatformName_Args, a);
    a.client = c;
    MUST(PJRT_Client_PlatformName, a);
    s = a.platform_name;
    size = a.platform_name_size;
  }
  snprintf(out, n, "\"%.*s\"", (int)size, s);
}

/* PJRT_Client_Devices (`addressable` 0) or PJRT_Client_AddressableDevices (1). */
static PJRT_Device* const* devices_of(PJRT_Client* c, int addressable, size_t* n) {
  if (addressable) {
    ARGS(PJRT_Client_AddressableDevices_Args, a);
    a.client = c;
    MUST(PJRT_Client_AddressableDevices, a);
    *n = a.num_addressable_devices;
    return a.addressable_devices;
  }
  ARGS(PJRT_Client_Devices_Args, a);
  a.client = c;
  MUST(PJRT_Client_Devices, a);
  *n = a.num_devices;
  return a.devices;
}

static PJRT_DeviceDescription* description_of(PJRT_Device* d) {
  ARGS(PJRT_Device_GetDescription_Args, a);
  a.device = d;
  MUST(PJRT_Device_GetDescription, a);
  return a.device_description;
}

static int device_id(PJRT_Device* d) {
  ARGS(PJRT_DeviceDescription_Id_Args, a);
  a.device_description = description_of(d);
  MUST(PJRT_DeviceDescription_Id, a);
  return a.id;
}

static void device_kind(PJRT_Device* d, char* out, size_t n) {
  ARGS(PJRT_DeviceDescription_Kind_Args, a);
  a.device_description = description_of(d);
  MUST(PJRT_DeviceDescription_Kind, a);
  snprintf(out, n, "%.*s", (int)a.device_kind_size, a.device_kind);
}

static PJRT_Device* device_at(PJRT_Client* c, size_t i) {
  ARGS(PJRT_Client_AddressableDevices_Args, a);
  a.client = c;
  MUST(PJRT_Client_AddressableDevices, a);
  if (i >= a.num_addressable_devices) {
    printf("%s: skip: the case needs %zu addressable device(s); the client has %zu\n", case_id, i + 1, a.num_addressable_devices);
    fflush(stdout);
    _exit(4);
  }
  return a.addressable_devices[i];
}

/* BufferFromHostBuffer (kImmutableUntilTransferCompletes) without waiting: the buffer, and its done_with_host_buffer
 * event in `done` (NULL: left to the plugin). */
static PJRT_Buffer* start_upload(PJRT_Client* c, PJRT_Device* d, PJRT_Buffer_Type t, const int64_t* dims, size_t rank, const void* data, PJRT_Event** done) {
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = data;
  a.type = t;
  a.dims = dims;
  a.num_dims = rank;
  a.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  a.device = d;
  MUST(PJRT_Client_BufferFromHostBuffer, a);
  if (done != NULL) *done = a.done_with_host_buffer;
  return a.buffer;
}

/* start_upload, then its done_with_host_buffer and ready events awaited. */
static PJRT_Buffer* upload(PJRT_Client* c, PJRT_Device* d, PJRT_Buffer_Type t, const int64_t* dims, size_t rank, const void* data) {
  PJRT_Event* done;
  PJRT_Buffer* b = start_upload(c, d, t, dims, rank, data, &done);
  await_event(done, "PJRT_Event_Await");
  ARGS(PJRT_Buffer_ReadyEvent_Args, r);
  r.buffer = b;
  MUST(PJRT_Buffer_ReadyEvent, r);
  await_event(r.event, "PJRT_Event_Await");
  return b;
}

/* The dense major-to-minor layout of a rank (minor_to_major = rank-1 … 0), as a framework passes a shape's layout. */
static PJRT_Buffer_MemoryLayout dense_layout(size_t rank) {
  static int64_t m2m[64];
  for (size_t i = 0; i < rank && i < 64; i++) m2m[i] = (int64_t)(rank - 1 - i);
  ARGS(PJRT_Buffer_MemoryLayout, l);
  l.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  l.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  l.tiled.minor_to_major = m2m;
  l.tiled.minor_to_major_size = rank;
  return l;
}

/* ToHostBuffer into `dst` (`n` bytes) with the dense host layout of `rank`, as the CTS reads a buffer back. */
static void to_host(PJRT_Buffer* b, void* dst, size_t n, size_t rank) {
  PJRT_Buffer_MemoryLayout layout = dense_layout(rank);
  ARGS(PJRT_Buffer_ToHostBuffer_Args, a);
  a.src = b;
  a.host_layout = &layout;
  a.dst = dst;
  a.dst_size = n;
  MUST(PJRT_Buffer_ToHostBuffer, a);
  await_event(a.event, "PJRT_Event_Await");
}

/* upload, except that a type the plugin refuses (UNIMPLEMENTED, or INVALID_ARGUMENT for a type outside the core set)
 * ends the case unsupported, as the CTS ends it (suites/_lib/declined.ts typeRefused). */
static PJRT_Buffer* upload_or_unsupported(PJRT_Client* c, PJRT_Device* d, PJRT_Buffer_Type t, const int64_t* dims, size_t rank, const void* data, int core, const char* what) {
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = data;
  a.type = t;
  a.dims = dims;
  a.num_dims = rank;
  a.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  a.device = d;
  PJRT_Error* e = CALL(PJRT_Client_BufferFromHostBuffer, a);
  if (e != NULL) {
    char why[2048];
    error_text(e, why, sizeof why);
    if (strncmp(why, "UNIMPLEMENTED:", 14) == 0 || (!core && strncmp(why, "INVALID_ARGUMENT:", 17) == 0)) {
      const char* colon = strstr(why, ": ");
      printf("%s: unsupported: %s: PJRT_Client_BufferFromHostBuffer: %.*s \"%s\"\n", case_id, what, (int)(colon - why), why, colon + 2);
      fflush(stdout);
      _exit(4);
    }
    printf("%s: fail: PjrtError: PJRT_Client_BufferFromHostBuffer: %s\n", case_id, why);
    fflush(stdout);
    _exit(3);
  }
  await_event(a.done_with_host_buffer, "PJRT_Event_Await");
  ARGS(PJRT_Buffer_ReadyEvent_Args, r);
  r.buffer = a.buffer;
  MUST(PJRT_Buffer_ReadyEvent, r);
  await_event(r.event, "PJRT_Event_Await");
  return a.buffer;
}

static void destroy_buffer(PJRT_Buffer* b) {
  ARGS(PJRT_Buffer_Destroy_Args, a);
  a.buffer = b;
  MUST(PJRT_Buffer_Destroy, a);
}

static void hexdump(char* out, const unsigned char* b, size_t n, size_t at) {
  size_t from = at >= 4 ? at - 4 : 0, to = at + 8 < n ? at + 8 : n;
  out[0] = 0;
  for (size_t i = from; i < to; i++) sprintf(out + strlen(out), "%s%02x", i == from ? "" : " ", b[i]);
}

/* The CTS's bit-exact comparison (check.bytes): the first differing byte with its neighbourhood. */
static void check_bytes(const char* rule, const unsigned char* got, const unsigned char* want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (got[i] == want[i]) continue;
    char e[128], g[128], he[64], hg[64];
    hexdump(he, want, n, i);
    hexdump(hg, got, n, i);
    snprintf(e, sizeof e, "byte %zu = 0x%x (…%s…)", i, want[i], he);
    snprintf(g, sizeof g, "0x%x (…%s…)", got[i], hg);
    fail(rule, e, g);
  }
}

static void external_ref(PJRT_Buffer* b, int up) {
  if (up) {
    ARGS(PJRT_Buffer_IncreaseExternalReferenceCount_Args, a);
    a.buffer = b;
    MUST(PJRT_Buffer_IncreaseExternalReferenceCount, a);
  } else {
    ARGS(PJRT_Buffer_DecreaseExternalReferenceCount_Args, a);
    a.buffer = b;
    MUST(PJRT_Buffer_DecreaseExternalReferenceCount, a);
  }
}

static void* opaque_pointer(PJRT_Buffer* b) {
  ARGS(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, a);
  a.buffer = b;
  MUST(PJRT_Buffer_OpaqueDeviceMemoryDataPointer, a);
  return a.device_memory_ptr;
}

static void* unsafe_pointer(PJRT_Buffer* b) {
  ARGS(PJRT_Buffer_UnsafePointer_Args, a);
  a.buffer = b;
  MUST(PJRT_Buffer_UnsafePointer, a);
  return (void*)a.buffer_pointer;
}

static void delete_buffer(PJRT_Buffer* b) {
  ARGS(PJRT_Buffer_Delete_Args, a);
  a.buffer = b;
  MUST(PJRT_Buffer_Delete, a);
}

/* on_delete_callback: counts its calls and remembers the pointer it was given (it may run on a plugin thread). */
static volatile int view_deletes;
static void* volatile view_deleted_ptr;
static void count_view_delete(void* device_buffer_ptr, void* user_arg) {
  (void)user_arg;
  view_deleted_ptr = device_buffer_ptr;
  __sync_fetch_and_add(&view_deletes, 1);
}

/* CreateViewOfDeviceBuffer on `d`; `callback`: pass count_view_delete as on_delete_callback, else NULL (the header:
 * "optional and can be a nullptr"). */
static PJRT_Buffer* create_view(PJRT_Client* c, PJRT_Device* d, void* ptr, PJRT_Buffer_Type t, const int64_t* dims, size_t rank, int callback) {
  ARGS(PJRT_Client_CreateViewOfDeviceBuffer_Args, a);
  a.client = c;
  a.device_buffer_ptr = ptr;
  a.dims = dims;
  a.num_dims = rank;
  a.element_type = t;
  PJRT_Buffer_MemoryLayout layout = dense_layout(rank);
  a.layout = &layout;
  a.device = d;
  if (callback) a.on_delete_callback = count_view_delete;
  MUST(PJRT_Client_CreateViewOfDeviceBuffer, a);
  return a.buffer;
}

/* Waits up to `ms` for `n` on-delete calls, then a little longer for a late extra one. */
static int settled_view_deletes(int n, int ms) {
  for (int waited = 0; view_deletes < n && waited < ms; waited += 5) usleep(5000);
  usleep(50000);
  return view_deletes;
}

static void memory_label(PJRT_Memory* m, char* out, size_t n) {
  ARGS(PJRT_Memory_Id_Args, id);
  id.memory = m;
  MUST(PJRT_Memory_Id, id);
  ARGS(PJRT_Memory_Kind_Args, k);
  k.memory = m;
  MUST(PJRT_Memory_Kind, k);
  snprintf(out, n, "%d (%.*s)", id.id, (int)k.kind_size, k.kind);
}

/* A byte string of the case, as recorded: its bytes and how they were placed. */
typedef struct { const unsigned char* data; size_t size; enum Placement placed; } Bytes;

/* PJRT_Program of the recorded code and format; the code placed as recorded, or as --code-placement says. */
static PJRT_Program program_of(Bytes code, Bytes format) {
  ARGS(PJRT_Program, p);
  enum Placement where = code_placement == AS_RECORDED ? code.placed : code_placement;
  p.code = (char*)byte_string(code.data, code.size, where);
  p.code_size = code.size;
  p.format = byte_string(format.data, format.size, format.placed);
  p.format_size = format.size;
  printf("compiling %zu bytes of code, %s%s\n", code.size, PLACEMENTS[where], code_placement == AS_RECORDED ? " (as the case placed them)" : " (--code-placement)");
  fflush(stdout);
  return p;
}

/* PJRT_Client_Compile: the executable, or NULL with the error's text in `why`. */
static PJRT_LoadedExecutable* client_compile(PJRT_Client* c, PJRT_Program* p, Bytes options, char* why, size_t n) {
  ARGS(PJRT_Client_Compile_Args, a);
  a.client = c;
  a.program = p;
  a.compile_options = byte_string(options.data, options.size, options.placed);
  a.compile_options_size = options.size;
  PJRT_Error* e = CALL(PJRT_Client_Compile, a);
  if (e == NULL) return a.executable;
  error_text(e, why, n);
  return NULL;
}

/* `with_options`: pass the client's create options too, as the CTS does for a topology of a client's plugin. */
static PJRT_TopologyDescription* create_topology(Bytes name, int with_options) {
  ARGS(PJRT_TopologyDescription_Create_Args, a);
  a.topology_name = byte_string(name.data, name.size, name.placed);
  a.topology_name_size = name.size;
  if (num_cli_options) { a.create_options = cli_options; a.num_options = num_cli_options; } /* -o: also for the topology */
  else if (with_options) a.num_options = case_topology_options(&a.create_options);
  MUST(PJRT_TopologyDescription_Create, a);
  return a.topology;
}

/* PJRT_Compile (ahead of time, no client): the executable, or NULL with the error's text in `why`. */
static PJRT_Executable* aot_compile(PJRT_TopologyDescription* t, PJRT_Program* p, Bytes options, char* why, size_t n) {
  ARGS(PJRT_Compile_Args, a);
  a.topology = t;
  a.program = p;
  a.compile_options = byte_string(options.data, options.size, options.placed);
  a.compile_options_size = options.size;
  PJRT_Error* e = CALL(PJRT_Compile, a);
  if (e == NULL) return a.executable;
  error_text(e, why, n);
  return NULL;
}

static void body(void);

static const char* signal_name(int s) {
  switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGTRAP: return "SIGTRAP";
    default: return "a signal";
  }
}

int main(int argc, char** argv) {
  long timeout_ms = CASE_TIMEOUT_MS;
  const char* plugin = NULL;
  case_id = CASE_ID;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--code-placement") == 0 && i + 1 < argc) {
      const char* want = argv[++i];
      for (int k = 0; k < 4; k++) if (strcmp(want, PLACEMENTS[k]) == 0) code_placement = (enum Placement)k;
      if (code_placement == AS_RECORDED) { fprintf(stderr, "repro: --code-placement %s: expected terminated, unterminated, guard_after_code or guard_after_nul\n", want); return 2; }
    }
    else if (strcmp(argv[i], "--timeout-ms") == 0 && i + 1 < argc) timeout_ms = atol(argv[++i]);
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) add_cli_option(argv[++i]);
    else if (argv[i][0] != '-' && plugin == NULL) plugin = argv[i];
    else { fprintf(stderr, "usage: %s /path/to/plugin.so [--code-placement P] [--timeout-ms N] [-o name=value]...\n", argv[0]); return 2; }
  }
  if (plugin == NULL) { fprintf(stderr, "usage: %s /path/to/plugin.so [--code-placement P] [--timeout-ms N] [-o name=value]...\n", argv[0]); return 2; }
  void* lib = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) { fprintf(stderr, "repro: %s\n", dlerror()); return 2; }
  const PJRT_Api* (*get)(void) = (const PJRT_Api* (*)(void))dlsym(lib, "GetPjrtApi");
  if (get == NULL || (api = get()) == NULL) { fprintf(stderr, "repro: %s: no GetPjrtApi, or it returned NULL\n", plugin); return 2; }
  in_flight = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  in_flight[0] = 0;
  printf("plugin: %s (PJRT API %d.%d); header: pjrt_c_api.h %d.%d\n", plugin, api->pjrt_api_version.major_version,
         api->pjrt_api_version.minor_version, PJRT_API_MAJOR, PJRT_API_MINOR);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    body();
    printf("%s: pass\n", case_id);
    fflush(stdout);
    _exit(0);
  }
  int status = 0;
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    if (waitpid(child, &status, WNOHANG) == child) break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > timeout_ms) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      if (in_flight[0]) printf("%s: timeout: no result within %ld ms during %s; the worker was killed (SIGKILL)\n", case_id, timeout_ms, in_flight);
      else printf("%s: timeout: no result within %ld ms with no traced PJRT call in flight; the worker was killed (SIGKILL)\n", case_id, timeout_ms);
      return 1;
    }
    usleep(2000);
  }
  if (WIFSIGNALED(status)) {
    if (in_flight[0]) printf("%s: crash: the worker process died during %s: killed by %s\n", case_id, in_flight, signal_name(WTERMSIG(status)));
    else printf("%s: crash: the worker process died with no traced PJRT call in flight: killed by %s\n", case_id, signal_name(WTERMSIG(status)));
    return 1;
  }
  int code = WEXITSTATUS(status);
  return code == 0 || code == 4 ? 0 : 1;
}

/* ---- the case ------------------------------------------------------------------------------------------------- */

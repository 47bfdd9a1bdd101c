// Quick smoke test of the reference plugin: dlopen, client, devices, transfers, compile + execute.
// Build: cc -std=c11 -Ifixtures/reference-plugin/include test/native/plugin-smoke.c -ldl -o /tmp/plugin-smoke
// Run:   /tmp/plugin-smoke build/reference-plugin/libpjrt_reference.so
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt_c_api.h"

static const PJRT_Api* api;
static int failures;

#define INIT(T, v) T v; memset(&v, 0, sizeof v); v.struct_size = T##_STRUCT_SIZE
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static int code_of(PJRT_Error* e) {
  if (!e) return 0;
  INIT(PJRT_Error_GetCode_Args, g);
  g.error = e;
  api->PJRT_Error_GetCode(&g);
  INIT(PJRT_Error_Message_Args, m);
  m.error = e;
  api->PJRT_Error_Message(&m);
  printf("  (error %d: %.*s)\n", (int)g.code, (int)m.message_size, m.message);
  INIT(PJRT_Error_Destroy_Args, d);
  d.error = e;
  api->PJRT_Error_Destroy(&d);
  return (int)g.code;
}
#define OK(expr) do { int c_ = code_of(expr); CHECK(c_ == 0, "%s -> code %d", #expr, c_); } while (0)

static void await_event(PJRT_Event* ev) {
  INIT(PJRT_Event_Await_Args, a);
  a.event = ev;
  OK(api->PJRT_Event_Await(&a));
  INIT(PJRT_Event_Destroy_Args, d);
  d.event = ev;
  OK(api->PJRT_Event_Destroy(&d));
}

static PJRT_Buffer* upload(PJRT_Client* c, PJRT_Device* dev, const void* data, PJRT_Buffer_Type t,
                           const int64_t* dims, size_t nd, const int64_t* strides, PJRT_HostBufferSemantics sem) {
  INIT(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = data;
  a.type = t;
  a.dims = dims;
  a.num_dims = nd;
  a.byte_strides = strides;
  a.num_byte_strides = strides ? nd : 0;
  a.host_buffer_semantics = sem;
  a.device = dev;
  OK(api->PJRT_Client_BufferFromHostBuffer(&a));
  // Zero-copy: done_with_host_buffer completes only when the buffer releases the host memory.
  if (sem < PJRT_HostBufferSemantics_kImmutableZeroCopy) await_event(a.done_with_host_buffer);
  else { INIT(PJRT_Event_Destroy_Args, d); d.event = a.done_with_host_buffer; api->PJRT_Event_Destroy(&d); }
  return a.buffer;
}

static void download(PJRT_Buffer* b, void* dst, size_t n) {
  INIT(PJRT_Buffer_ToHostBuffer_Args, q);
  q.src = b;
  OK(api->PJRT_Buffer_ToHostBuffer(&q));
  CHECK(q.dst_size == n, "dst_size query %zu != %zu", q.dst_size, n);
  INIT(PJRT_Buffer_ToHostBuffer_Args, a);
  a.src = b;
  a.dst = dst;
  a.dst_size = n;
  OK(api->PJRT_Buffer_ToHostBuffer(&a));
  await_event(a.event);
}

static void destroy_buffer(PJRT_Buffer* b) {
  INIT(PJRT_Buffer_Destroy_Args, d);
  d.buffer = b;
  OK(api->PJRT_Buffer_Destroy(&d));
}

static atomic_int on_ready_calls;
static void on_ready(PJRT_Error* e, void* arg) {
  (void)arg;
  if (e) code_of(e);
  atomic_fetch_add(&on_ready_calls, 1);
}
static atomic_int view_deletes;
static void on_view_delete(void* p, void* arg) { (void)p; (void)arg; atomic_fetch_add(&view_deletes, 1); }

static const char kAdd[] =
    "module @add_module {\n"
    "  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>\n"
    "    return %0 : tensor<2x3xf32>\n"
    "  }\n"
    "}\n";

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s libpjrt_reference.so\n", argv[0]); return 2; }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 2; }
  const PJRT_Api* (*get)(void) = (const PJRT_Api* (*)(void))dlsym(lib, "GetPjrtApi");
  api = get ? get() : NULL;
  if (!api) { fprintf(stderr, "GetPjrtApi returned NULL\n"); return 2; }
  printf("api %d.%d struct_size %zu\n", api->pjrt_api_version.major_version, api->pjrt_api_version.minor_version,
         api->struct_size);

  INIT(PJRT_Plugin_Initialize_Args, init);
  OK(api->PJRT_Plugin_Initialize(&init));
  INIT(PJRT_Plugin_Attributes_Args, attrs);
  OK(api->PJRT_Plugin_Attributes(&attrs));
  CHECK(attrs.num_attributes >= 3, "attributes");

  // Bad create option is rejected.
  PJRT_NamedValue bad;
  memset(&bad, 0, sizeof bad);
  bad.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  bad.name = "no_such_option";
  bad.name_size = strlen(bad.name);
  bad.type = PJRT_NamedValue_kInt64;
  bad.value_size = 1;
  INIT(PJRT_Client_Create_Args, cbad);
  cbad.create_options = &bad;
  cbad.num_options = 1;
  CHECK(code_of(api->PJRT_Client_Create(&cbad)) == PJRT_Error_Code_INVALID_ARGUMENT, "unknown option");

  PJRT_NamedValue opt = bad;
  opt.name = "device_count";
  opt.name_size = strlen(opt.name);
  opt.int64_value = 3;
  INIT(PJRT_Client_Create_Args, cc);
  cc.create_options = &opt;
  cc.num_options = 1;
  OK(api->PJRT_Client_Create(&cc));
  PJRT_Client* client = cc.client;

  INIT(PJRT_Client_PlatformName_Args, pn);
  pn.client = client;
  OK(api->PJRT_Client_PlatformName(&pn));
  CHECK(pn.platform_name_size == 9 && !memcmp(pn.platform_name, "reference", 9), "platform name");

  INIT(PJRT_Client_Devices_Args, devs);
  devs.client = client;
  OK(api->PJRT_Client_Devices(&devs));
  CHECK(devs.num_devices == 3, "3 devices, got %zu", devs.num_devices);
  for (size_t i = 0; i < devs.num_devices; ++i) {
    INIT(PJRT_Device_GetDescription_Args, gd);
    gd.device = devs.devices[i];
    OK(api->PJRT_Device_GetDescription(&gd));
    INIT(PJRT_DeviceDescription_Id_Args, id);
    id.device_description = gd.device_description;
    OK(api->PJRT_DeviceDescription_Id(&id));
    CHECK(id.id == (int)i, "device id %d", id.id);
  }
  INIT(PJRT_Client_LookupDevice_Args, lk);
  lk.client = client;
  lk.id = -1;
  CHECK(code_of(api->PJRT_Client_LookupDevice(&lk)) == PJRT_Error_Code_INVALID_ARGUMENT, "lookup -1");
  PJRT_Device* dev0 = devs.devices[0];

  INIT(PJRT_Device_AddressableMemories_Args, dm);
  dm.device = dev0;
  OK(api->PJRT_Device_AddressableMemories(&dm));
  CHECK(dm.num_memories == 2, "2 memories");

  // Round trips with each host-buffer semantics.
  float host[6] = {1, 2, 3, 4, 5, 6}, back[6];
  int64_t dims[2] = {2, 3};
  for (int sem = 0; sem < 4; ++sem) {
    PJRT_Buffer* b = upload(client, dev0, host, PJRT_Buffer_Type_F32, dims, 2, NULL, (PJRT_HostBufferSemantics)sem);
    memset(back, 0, sizeof back);
    download(b, back, sizeof back);
    CHECK(!memcmp(back, host, sizeof host), "roundtrip semantics %d", sem);
    destroy_buffer(b);
  }
  // Column-major host data via byte_strides.
  float colmajor[6] = {1, 4, 2, 5, 3, 6};
  int64_t strides[2] = {4, 8};
  PJRT_Buffer* sb = upload(client, dev0, colmajor, PJRT_Buffer_Type_F32, dims, 2, strides,
                           PJRT_HostBufferSemantics_kImmutableOnlyDuringCall);
  download(sb, back, sizeof back);
  CHECK(!memcmp(back, host, sizeof host), "strided upload");

  // OnReady on a ready event runs inline, exactly once.
  INIT(PJRT_Buffer_ReadyEvent_Args, re);
  re.buffer = sb;
  OK(api->PJRT_Buffer_ReadyEvent(&re));
  INIT(PJRT_Event_OnReady_Args, orr);
  orr.event = re.event;
  orr.callback = on_ready;
  OK(api->PJRT_Event_OnReady(&orr));
  await_event(re.event);
  CHECK(atomic_load(&on_ready_calls) == 1, "on_ready once");

  // External references keep the storage; decrease below zero is an error.
  INIT(PJRT_Buffer_DecreaseExternalReferenceCount_Args, dec);
  dec.buffer = sb;
  CHECK(code_of(api->PJRT_Buffer_DecreaseExternalReferenceCount(&dec)) == PJRT_Error_Code_INVALID_ARGUMENT, "dec<0");

  // A view of the buffer's memory; on_delete fires once at destroy.
  INIT(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, op);
  op.buffer = sb;
  OK(api->PJRT_Buffer_OpaqueDeviceMemoryDataPointer(&op));
  INIT(PJRT_Client_CreateViewOfDeviceBuffer_Args, vw);
  vw.client = client;
  vw.device_buffer_ptr = op.device_memory_ptr;
  vw.dims = dims;
  vw.num_dims = 2;
  vw.element_type = PJRT_Buffer_Type_F32;
  vw.device = dev0;
  vw.on_delete_callback = on_view_delete;
  OK(api->PJRT_Client_CreateViewOfDeviceBuffer(&vw));
  download(vw.buffer, back, sizeof back);
  CHECK(!memcmp(back, host, sizeof host), "view contents");
  destroy_buffer(vw.buffer);
  CHECK(atomic_load(&view_deletes) == 1, "view on_delete once");

  // Deleted buffer: ToHostBuffer is an error, not a crash.
  PJRT_Buffer* db = upload(client, dev0, host, PJRT_Buffer_Type_F32, dims, 2, NULL, PJRT_HostBufferSemantics_kImmutableOnlyDuringCall);
  INIT(PJRT_Buffer_Delete_Args, del);
  del.buffer = db;
  OK(api->PJRT_Buffer_Delete(&del));
  INIT(PJRT_Buffer_ToHostBuffer_Args, th);
  th.src = db;
  th.dst = back;
  th.dst_size = sizeof back;
  CHECK(code_of(api->PJRT_Buffer_ToHostBuffer(&th)) == PJRT_Error_Code_INVALID_ARGUMENT, "use after delete");
  destroy_buffer(db);

  // Sub-byte types are UNIMPLEMENTED.
  INIT(PJRT_Client_BufferFromHostBuffer_Args, s4);
  s4.client = client;
  s4.data = host;
  s4.type = PJRT_Buffer_Type_S4;
  s4.dims = dims;
  s4.num_dims = 2;
  s4.device = dev0;
  CHECK(code_of(api->PJRT_Client_BufferFromHostBuffer(&s4)) == PJRT_Error_Code_UNIMPLEMENTED, "s4");

  // Compile + execute add.
  INIT(PJRT_Program, prog);
  prog.code = (char*)kAdd;
  prog.code_size = strlen(kAdd);
  prog.format = "mlir";
  prog.format_size = 4;
  static const char opts[] = {0x1a, 0x04, 0x20, 0x01, 0x28, 0x01};
  INIT(PJRT_Client_Compile_Args, comp);
  comp.client = client;
  comp.program = &prog;
  comp.compile_options = opts;
  comp.compile_options_size = sizeof opts;
  PJRT_Error* ce = api->PJRT_Client_Compile(&comp);
  if (ce) {
    printf("compile failed (interpreter not ready?)\n");
    code_of(ce);
    failures++;
  } else {
    PJRT_Buffer* a = upload(client, dev0, host, PJRT_Buffer_Type_F32, dims, 2, NULL, PJRT_HostBufferSemantics_kImmutableOnlyDuringCall);
    PJRT_Buffer* args1[2] = {a, sb};
    PJRT_Buffer* const* arglists[1] = {args1};
    PJRT_Buffer* outs[1] = {NULL};
    PJRT_Buffer** outlists[1] = {outs};
    PJRT_Event* done[1] = {NULL};
    INIT(PJRT_ExecuteOptions, eo);
    INIT(PJRT_LoadedExecutable_Execute_Args, ex);
    ex.executable = comp.executable;
    ex.options = &eo;
    ex.argument_lists = arglists;
    ex.num_devices = 1;
    ex.num_args = 2;
    ex.output_lists = outlists;
    ex.device_complete_events = done;
    OK(api->PJRT_LoadedExecutable_Execute(&ex));
    await_event(done[0]);
    download(outs[0], back, sizeof back);
    for (int i = 0; i < 6; ++i) CHECK(back[i] == 2 * host[i], "add[%d] = %g", i, back[i]);
    // Wrong argument count is INVALID_ARGUMENT.
    ex.num_args = 1;
    ex.device_complete_events = NULL;
    CHECK(code_of(api->PJRT_LoadedExecutable_Execute(&ex)) == PJRT_Error_Code_INVALID_ARGUMENT, "arg count");
    destroy_buffer(outs[0]);
    destroy_buffer(a);
    INIT(PJRT_LoadedExecutable_Destroy_Args, led);
    led.executable = comp.executable;
    OK(api->PJRT_LoadedExecutable_Destroy(&led));
  }
  destroy_buffer(sb);

  INIT(PJRT_Client_Destroy_Args, cd);
  cd.client = client;
  OK(api->PJRT_Client_Destroy(&cd));
  printf(failures ? "smoke: %d failure(s)\n" : "smoke: all passed\n", failures);
  return failures ? 1 : 0;
}

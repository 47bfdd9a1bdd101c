// Quick smoke test of the reference plugin: dlopen, client, devices, transfers, compile + execute.
// Build: cc -std=c11 -Ifixtures/reference-plugin/include test/native/plugin-smoke.c -ldl -o /tmp/plugin-smoke
// Run:   /tmp/plugin-smoke build/reference-plugin/libpjrt_reference.so
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
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

static const char kAdd[] =
    "module @add_module {\n"
    "  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>\n"
    "    return %0 : tensor<2x3xf32>\n"
    "  }\n"
    "}\n";

static PJRT_LoadedExecutable* compile(PJRT_Client* c, const char* text, int* code) {
  INIT(PJRT_Program, prog);
  prog.code = (char*)text;
  prog.code_size = strlen(text);
  prog.format = "mlir";
  prog.format_size = 4;
  INIT(PJRT_Client_Compile_Args, comp);
  comp.client = c;
  comp.program = &prog;
  int rc = code_of(api->PJRT_Client_Compile(&comp));
  if (code) *code = rc;
  else CHECK(rc == 0, "compile -> code %d", rc);
  return rc ? NULL : comp.executable;
}

// Runs a one-argument, one-result program on its single device.
static PJRT_Buffer* execute1(PJRT_LoadedExecutable* e, PJRT_Buffer* arg) {
  PJRT_Buffer* args1[1] = {arg};
  PJRT_Buffer* const* arglists[1] = {args1};
  PJRT_Buffer* outs[1] = {NULL};
  PJRT_Buffer** outlists[1] = {outs};
  PJRT_Event* done[1] = {NULL};
  INIT(PJRT_ExecuteOptions, eo);
  INIT(PJRT_LoadedExecutable_Execute_Args, ex);
  ex.executable = e;
  ex.options = &eo;
  ex.argument_lists = arglists;
  ex.num_devices = 1;
  ex.num_args = 1;
  ex.output_lists = outlists;
  ex.device_complete_events = done;
  int rc = code_of(api->PJRT_LoadedExecutable_Execute(&ex));
  CHECK(rc == 0, "execute -> code %d", rc);
  if (rc) return NULL;
  await_event(done[0]);
  return outs[0];
}

static void destroy_executable(PJRT_LoadedExecutable* e) {
  INIT(PJRT_LoadedExecutable_Destroy_Args, d);
  d.executable = e;
  OK(api->PJRT_LoadedExecutable_Destroy(&d));
}

static PJRT_NamedValue int_option(const char* name, int64_t v) {
  PJRT_NamedValue o;
  memset(&o, 0, sizeof o);
  o.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  o.name = name;
  o.name_size = strlen(name);
  o.type = PJRT_NamedValue_kInt64;
  o.int64_value = v;
  o.value_size = 1;
  return o;
}
static PJRT_NamedValue string_option(const char* name, const char* v) {
  PJRT_NamedValue o = int_option(name, 0);
  o.type = PJRT_NamedValue_kString;
  o.string_value = v;
  o.value_size = strlen(v);
  return o;
}

// The xla personality (create option personality=xla): XLA CPU plugin latitude.
static void xla_personality_checks(void) {
  PJRT_NamedValue opts[3] = {string_option("personality", "xla"), int_option("device_count", 2), int_option("node_id", 0)};
  INIT(PJRT_Client_Create_Args, bad);
  bad.create_options = opts;
  bad.num_options = 3;
  CHECK(code_of(api->PJRT_Client_Create(&bad)) == PJRT_Error_Code_INVALID_ARGUMENT, "xla: node_id is unknown");
  PJRT_NamedValue wrong = string_option("personality", "tpu");
  bad.create_options = &wrong;
  bad.num_options = 1;
  CHECK(code_of(api->PJRT_Client_Create(&bad)) == PJRT_Error_Code_INVALID_ARGUMENT, "unknown personality");

  INIT(PJRT_Client_Create_Args, cc);
  cc.create_options = opts;
  cc.num_options = 2;
  OK(api->PJRT_Client_Create(&cc));
  PJRT_Client* c = cc.client;
  if (!c) return;
  INIT(PJRT_Client_PlatformName_Args, pn);
  pn.client = c;
  OK(api->PJRT_Client_PlatformName(&pn));
  CHECK(pn.platform_name_size == 3 && !memcmp(pn.platform_name, "cpu", 3), "xla: platform name cpu");

  // 2 replicas x 2 partitions on 2 devices: the computation placer's order, no bound check.
  int assignment[4] = {-1, -1, -1, -1};
  INIT(PJRT_Client_DefaultDeviceAssignment_Args, da);
  da.client = c;
  da.num_replicas = 2;
  da.num_partitions = 2;
  da.default_assignment_size = 4;
  da.default_assignment = assignment;
  OK(api->PJRT_Client_DefaultDeviceAssignment(&da));
  CHECK(assignment[0] == 0 && assignment[1] == 2 && assignment[2] == 1 && assignment[3] == 3, "xla: assignment %d %d %d %d",
        assignment[0], assignment[1], assignment[2], assignment[3]);

  int code = 0;
  compile(c, "module { func.func public @main( }", &code);
  CHECK(code == PJRT_Error_Code_UNKNOWN, "xla: parse error -> UNKNOWN, got %d", code);
  PJRT_LoadedExecutable* e = compile(c, kAdd, NULL);
  if (e) {
    INIT(PJRT_LoadedExecutable_GetExecutable_Args, ge);
    ge.loaded_executable = e;
    OK(api->PJRT_LoadedExecutable_GetExecutable(&ge));
    INIT(PJRT_Executable_Fingerprint_Args, fp);
    fp.executable = ge.executable;
    CHECK(code_of(api->PJRT_Executable_Fingerprint(&fp)) == PJRT_Error_Code_UNIMPLEMENTED, "xla: fingerprint");
    INIT(PJRT_Executable_Destroy_Args, ed);
    ed.executable = ge.executable;
    OK(api->PJRT_Executable_Destroy(&ed));
    destroy_executable(e);
  }

  INIT(PJRT_Client_AddressableDevices_Args, ad);
  ad.client = c;
  OK(api->PJRT_Client_AddressableDevices(&ad));
  PJRT_Device* dev = ad.addressable_devices[0];
  // 64-byte aligned host data is aliased by zero-copy; unaligned data is copied.
  static _Alignas(64) float aligned[16 + 1];
  float* unaligned = aligned + 1;
  int64_t d4[1] = {4};
  for (int i = 0; i < 5; ++i) aligned[i] = (float)i;
  PJRT_Buffer* za = upload(c, dev, aligned, PJRT_Buffer_Type_F32, d4, 1, NULL, PJRT_HostBufferSemantics_kImmutableZeroCopy);
  PJRT_Buffer* zu = upload(c, dev, unaligned, PJRT_Buffer_Type_F32, d4, 1, NULL, PJRT_HostBufferSemantics_kImmutableZeroCopy);
  INIT(PJRT_Buffer_UnsafePointer_Args, pa);
  pa.buffer = za;
  OK(api->PJRT_Buffer_UnsafePointer(&pa));
  CHECK(pa.buffer_pointer == (uintptr_t)aligned, "xla: aligned zero-copy aliases");
  INIT(PJRT_Buffer_UnsafePointer_Args, pu);
  pu.buffer = zu;
  OK(api->PJRT_Buffer_UnsafePointer(&pu));
  CHECK(pu.buffer_pointer != (uintptr_t)unaligned, "xla: unaligned zero-copy copies");
  // Views need aligned memory.
  INIT(PJRT_Client_CreateViewOfDeviceBuffer_Args, vw);
  vw.client = c;
  vw.device_buffer_ptr = unaligned;
  vw.dims = d4;
  vw.num_dims = 1;
  vw.element_type = PJRT_Buffer_Type_F32;
  vw.device = dev;
  CHECK(code_of(api->PJRT_Client_CreateViewOfDeviceBuffer(&vw)) == PJRT_Error_Code_INVALID_ARGUMENT, "xla: unaligned view");
  vw.device_buffer_ptr = aligned;
  OK(api->PJRT_Client_CreateViewOfDeviceBuffer(&vw));
  if (vw.buffer) destroy_buffer(vw.buffer);
  destroy_buffer(za);
  destroy_buffer(zu);

  INIT(PJRT_Client_Destroy_Args, cd);
  cd.client = c;
  OK(api->PJRT_Client_Destroy(&cd));
}

static atomic_int on_ready_calls;
static void on_ready(PJRT_Error* e, void* arg) {
  (void)arg;
  if (e) code_of(e);
  atomic_fetch_add(&on_ready_calls, 1);
}
static atomic_int view_deletes;
static void on_view_delete(void* p, void* arg) { (void)p; (void)arg; atomic_fetch_add(&view_deletes, 1); }

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

  // The reference personality explicitly, so the checks below hold whatever PJRT_REFERENCE_PERSONALITY says.
  PJRT_NamedValue opt[2] = {int_option("device_count", 3), string_option("personality", "reference")};
  INIT(PJRT_Client_Create_Args, cc);
  cc.create_options = opt;
  cc.num_options = 2;
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

  // Sub-byte types: one element per host byte (high bits ignored on the way in, zero on the way out),
  // packed on the device.
  {
    const uint8_t s4_in[4] = {0x01, 0xfe, 0x07, 0xf8};  // [1, -2, 7, -8]
    const uint8_t s4_want[4] = {0x01, 0x0e, 0x07, 0x08};
    uint8_t s4_back[4] = {0};
    int64_t d4[1] = {4};
    PJRT_Buffer* b4 = upload(client, dev0, s4_in, PJRT_Buffer_Type_S4, d4, 1, NULL, PJRT_HostBufferSemantics_kImmutableZeroCopy);
    INIT(PJRT_Buffer_OnDeviceSizeInBytes_Args, os);
    os.buffer = b4;
    OK(api->PJRT_Buffer_OnDeviceSizeInBytes(&os));
    CHECK(os.on_device_size_in_bytes == 2, "s4 on-device size %zu", os.on_device_size_in_bytes);
    download(b4, s4_back, sizeof s4_back);
    CHECK(!memcmp(s4_back, s4_want, 4), "s4 roundtrip %02x %02x %02x %02x", s4_back[0], s4_back[1], s4_back[2], s4_back[3]);
    static const char kConvert[] =
        "module @cvt {\n"
        "  func.func public @main(%a: tensor<4xi4>) -> tensor<4xi32> {\n"
        "    %0 = stablehlo.convert %a : (tensor<4xi4>) -> tensor<4xi32>\n"
        "    return %0 : tensor<4xi32>\n"
        "  }\n"
        "}\n";
    PJRT_LoadedExecutable* cvt = compile(client, kConvert, NULL);
    if (cvt) {
      PJRT_Buffer* out = execute1(cvt, b4);
      int32_t ints[4] = {0};
      if (out) download(out, ints, sizeof ints);
      CHECK(ints[0] == 1 && ints[1] == -2 && ints[2] == 7 && ints[3] == -8, "s4 convert %d %d %d %d", ints[0], ints[1], ints[2], ints[3]);
      if (out) destroy_buffer(out);
      destroy_executable(cvt);
    }
    destroy_buffer(b4);
  }

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

  xla_personality_checks();
  printf(failures ? "smoke: %d failure(s)\n" : "smoke: all passed\n", failures);
  return failures ? 1 : 0;
}

// Compile-only check (used by test/abi-layout.test.ts): code written the way plugins are written against the
// official pjrt_c_api.h must compile against the generated header.
#include "pjrt_c_api.h"

#include <cstring>

// Our header leaves the handle types opaque, so a plugin defines them itself.
struct PJRT_Error {
  PJRT_Error_Code code;
};

namespace {

PJRT_Error* ClientCreate(PJRT_Client_Create_Args* args) {
  if (args->struct_size < PJRT_Client_Create_Args_STRUCT_SIZE) return nullptr;
  for (size_t i = 0; i < args->num_options; ++i) {
    const PJRT_NamedValue& nv = args->create_options[i];
    if (nv.type == PJRT_NamedValue_kInt64 && nv.int64_value < 0) return nullptr;
    if (nv.type == PJRT_NamedValue_kString && nv.value_size > 0 && nv.string_value[0] == '\0') return nullptr;
  }
  args->client = nullptr;
  return nullptr;
}

void ErrorDestroy(PJRT_Error_Destroy_Args* args) { delete args->error; }

PJRT_Error* ToHost(PJRT_Buffer_ToHostBuffer_Args* args) {
  if (args->host_layout != nullptr && args->host_layout->type == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    return args->host_layout->tiled.num_tiles > 0 ? new PJRT_Error{PJRT_Error_Code_UNIMPLEMENTED} : nullptr;
  }
  return nullptr;
}

PJRT_Api MakeApi() {
  PJRT_Api api;
  std::memset(&api, 0, sizeof(api));
  api.struct_size = PJRT_Api_STRUCT_SIZE;
  api.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
  api.pjrt_api_version.major_version = PJRT_API_MAJOR;
  api.pjrt_api_version.minor_version = PJRT_API_MINOR;
  api.PJRT_Client_Create = ClientCreate;
  api.PJRT_Error_Destroy = ErrorDestroy;
  api.PJRT_Buffer_ToHostBuffer = ToHost;
  return api;
}

const PJRT_Api kApi = MakeApi();

static_assert(PJRT_Buffer_Type_F32 == 11, "F32");
static_assert(sizeof(PJRT_Buffer_Type) == 4, "enum size");

}  // namespace

extern "C" const PJRT_Api* GetPjrtApi() { return &kApi; }

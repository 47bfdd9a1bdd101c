/* A minimal GetPjrtApi for loader tests: only the PJRT_Api header is meaningful, every slot is NULL.
 * Macros: FAKE_MODE (0 = normal, 1 = GetPjrtApi returns NULL, 2 = no GetPjrtApi symbol),
 *         FAKE_STRUCT_SIZE, FAKE_MAJOR, FAKE_MINOR,
 *         FAKE_EXT (0 = no extensions, 1 = a chain of two, 2 = a chain of two whose second points back to the first). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pjrt_offsets.h"

#ifndef FAKE_MODE
#define FAKE_MODE 0
#endif
#ifndef FAKE_STRUCT_SIZE
#define FAKE_STRUCT_SIZE API_STRUCT_SIZE
#endif
#ifndef FAKE_MAJOR
#define FAKE_MAJOR PJRT_MAJOR
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR PJRT_MINOR
#endif
#ifndef FAKE_EXT
#define FAKE_EXT 0
#endif
#define FAKE_ALLOC (API_STRUCT_SIZE + 64)

static _Alignas(16) unsigned char ext[2][SZ_PJRT_Extension_Base];
static void make_ext(int i, int type, void* next) {
  *(size_t*)(ext[i] + OFF_PJRT_Extension_Base__struct_size) = SS_PJRT_Extension_Base;
  *(int*)(ext[i] + OFF_PJRT_Extension_Base__type) = type;
  *(void**)(ext[i] + OFF_PJRT_Extension_Base__next) = next;
}

static _Alignas(16) unsigned char api[FAKE_ALLOC];

static void put_size(size_t off, uint64_t v) { memcpy(api + off, &v, sizeof v); }
static void put_int(size_t off, int v) { memcpy(api + off, &v, sizeof v); }

#if FAKE_MODE == 2
const void* NotGetPjrtApi(void) { return api; }
#else
const void* GetPjrtApi(void) {
  if (FAKE_MODE == 1) return NULL;
  put_size(0, (uint64_t)(FAKE_STRUCT_SIZE));
  put_size(OFF_PJRT_Api__pjrt_api_version + OFF_PJRT_Api_Version__struct_size, SS_PJRT_Api_Version);
  put_int(OFF_PJRT_Api__pjrt_api_version + OFF_PJRT_Api_Version__major_version, FAKE_MAJOR);
  put_int(OFF_PJRT_Api__pjrt_api_version + OFF_PJRT_Api_Version__minor_version, FAKE_MINOR);
  if (FAKE_EXT) {
    make_ext(0, E_PJRT_Extension_Type__Layouts, ext[1]);
    make_ext(1, E_PJRT_Extension_Type__MemoryDescriptions, FAKE_EXT == 2 ? (void*)ext[0] : NULL);
    void* head = ext[0];
    memcpy(api + OFF_PJRT_Api__extension_start, &head, sizeof head);
  }
  return api;
}
#endif

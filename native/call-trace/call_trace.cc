// pjrt-cts call trace: a PJRT plugin that forwards every PJRT_Api slot to a real plugin and records each call, so
// that a failure under a framework (JAX loading this library as its plugin) names the call behind it.
//
// Environment, read by GetPjrtApi (a missing variable or a load failure: one line on stderr, NULL returned):
//   PJRT_CTS_TRACE_PLUGIN    the real plugin (dlopen RTLD_NOW|RTLD_LOCAL; its GetPjrtApi is called)
//   PJRT_CTS_TRACE_LOG       the log file, appended to (created when missing)
//   PJRT_CTS_TRACE_PROGRAMS  optional: an existing directory that receives every program compiled, with its compile
//                            options
//
// The log: UTF-8 text, one record per line, each line written by one write(2) (lines of concurrent threads and
// processes never interleave), fields separated by tabs. Text fields escape \ tab newline as \\ \t \n.
//   #  pjrt-cts-call-trace  1  <real plugin path>  <pid>     once per process, when GetPjrtApi first runs
//   B  <seq>  <tid>  <slot>                                  before a call is forwarded
//   E  <seq>  <tid>  <slot>  <code>  <message>               after it returned: code 0 and an empty message for no
//                                                            error, else the error's PJRT_Error_Code and message
//                                                            (the first 2000 bytes), as the real plugin gives them
//   P  <seq>  <slot>  <format>  <program file>  <options file>
//                                                            PJRT_Client_Compile and PJRT_Compile with
//                                                            PJRT_CTS_TRACE_PROGRAMS set, after B: the program's
//                                                            bytes in <dir>/<pid>-<seq>.<ext> (ext mlirbc for MLIR
//                                                            bytecode, mlir for other "mlir" programs, else bin) and
//                                                            the compile options in <dir>/<pid>-<seq>.options.pb
// seq counts the process's calls from 1; tid is the calling thread's kernel id. A B without its E is a call that
// never returned (the process crashed or hung in it). The reader is src/framework/call-log.ts.
//
// The PJRT_Api handed out is a copy of the real one (its struct_size bytes: version, struct_size and the extension
// chain unchanged) whose non-null slots are replaced by wrappers; slots beyond this header's PJRT_Api are copied
// unwrapped. Errors go back to the caller unchanged. A wrapper costs an atomic increment and two write(2) calls of a
// line built on the stack: no lock, no allocation.

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "pjrt_api_slots.h"
#include "pjrt_c_api.h"

namespace {

constexpr const char* kPluginEnv = "PJRT_CTS_TRACE_PLUGIN";
constexpr const char* kLogEnv = "PJRT_CTS_TRACE_LOG";
constexpr const char* kProgramsEnv = "PJRT_CTS_TRACE_PROGRAMS";
constexpr std::string_view kLogMagic = "pjrt-cts-call-trace";
constexpr unsigned kLogVersion = 1;
constexpr std::size_t kMaxMessage = 2000;
constexpr std::string_view kMlirBytecodeMagic = "ML\xef" "R";
// A real PJRT_Api larger than this is not one (a PJRT_Api is about a kilobyte).
constexpr std::size_t kMaxApiSize = 64 * 1024;

constexpr std::string_view kSlotNames[] = {
#define PJRT_CTS_SLOT_NAME(index, name) #name,
    PJRT_CTS_API_SLOTS(PJRT_CTS_SLOT_NAME)
#undef PJRT_CTS_SLOT_NAME
};

int g_log = -1;
const char* g_programs = nullptr;  // PJRT_CTS_TRACE_PROGRAMS, or null
std::atomic<std::uint64_t> g_seq{0};
// The real plugin's error functions: the log reads errors through them, never through the wrappers.
PJRT_Error_Destroy* g_error_destroy = nullptr;
PJRT_Error_Message* g_error_message = nullptr;
PJRT_Error_GetCode* g_error_get_code = nullptr;

long thread_id() {
  thread_local long tid = syscall(SYS_gettid);
  return tid;
}

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // nowhere to say it: the traced program goes on
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// One log line (or path) built in a fixed buffer on the stack; what does not fit is dropped.
template <std::size_t kCapacity>
class Line {
 public:
  Line& text(std::string_view s) {
    const std::size_t n = s.size() < room() ? s.size() : room();
    std::memcpy(buf_ + size_, s.data(), n);
    size_ += n;
    return *this;
  }
  Line& tab() { return text("\t"); }
  Line& number(long long v) {
    char digits[24];
    const int n = std::snprintf(digits, sizeof digits, "%lld", v);
    return text(std::string_view(digits, n > 0 ? static_cast<std::size_t>(n) : 0));
  }
  // Text with \ tab newline escaped, so a field never splits a record.
  Line& escaped(std::string_view s) {
    for (const char c : s) {
      if (c == '\\') text("\\\\");
      else if (c == '\t') text("\\t");
      else if (c == '\n') text("\\n");
      else text(std::string_view(&c, 1));
    }
    return *this;
  }
  // The buffer as a NUL-terminated string (for a path).
  const char* c_str() {
    buf_[size_] = '\0';
    return buf_;
  }
  // The record, newline-terminated, in one write(2).
  void write_to(int fd) {
    buf_[size_] = '\n';
    write_all(fd, buf_, size_ + 1);
  }

 private:
  std::size_t room() const { return kCapacity - 1 - size_; }  // one byte kept for the newline or NUL
  char buf_[kCapacity];
  std::size_t size_ = 0;
};

// B and E lines: an escaped message may double in size.
using CallLine = Line<2 * kMaxMessage + 256>;
using PathLine = Line<4096>;

// At most `max` bytes of `s`, cut before a UTF-8 continuation byte so the text stays UTF-8.
std::string_view utf8_prefix(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

std::string_view bytes_of(const char* p, std::size_t n) { return p ? std::string_view(p, n) : std::string_view(); }

std::uint64_t log_begin(std::size_t slot) {
  const std::uint64_t seq = g_seq.fetch_add(1, std::memory_order_relaxed) + 1;
  CallLine line;
  line.text("B").tab().number(static_cast<long long>(seq)).tab().number(thread_id()).tab().text(kSlotNames[slot]);
  line.write_to(g_log);
  return seq;
}

// The error's code through the real PJRT_Error_GetCode; -1 when it cannot say.
long long error_code(PJRT_Error* error) {
  if (!g_error_get_code) return -1;
  PJRT_Error_GetCode_Args args{};
  args.struct_size = PJRT_Error_GetCode_Args_STRUCT_SIZE;
  args.error = error;
  if (PJRT_Error* failed = g_error_get_code(&args)) {
    if (g_error_destroy) {
      PJRT_Error_Destroy_Args destroy{};
      destroy.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
      destroy.error = failed;
      g_error_destroy(&destroy);
    }
    return -1;
  }
  return args.code;
}

std::string_view error_message(PJRT_Error* error) {
  if (!g_error_message) return {};
  PJRT_Error_Message_Args args{};
  args.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE;
  args.error = error;
  g_error_message(&args);
  return bytes_of(args.message, args.message_size);
}

void log_end(std::uint64_t seq, std::size_t slot, PJRT_Error* error) {
  CallLine line;
  line.text("E").tab().number(static_cast<long long>(seq)).tab().number(thread_id()).tab().text(kSlotNames[slot]).tab();
  if (!error) {
    line.text("0").tab();
  } else {
    line.number(error_code(error)).tab().escaped(utf8_prefix(error_message(error), kMaxMessage));
  }
  line.write_to(g_log);
}

bool write_file(const char* path, std::string_view bytes) {
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  write_all(fd, bytes.data(), bytes.size());
  close(fd);
  return true;
}

std::string_view program_extension(std::string_view code, std::string_view format) {
  if (code.substr(0, kMlirBytecodeMagic.size()) == kMlirBytecodeMagic) return "mlirbc";
  return format == "mlir" ? "mlir" : "bin";
}

// PJRT_Client_Compile and PJRT_Compile: the program and its compile options into PJRT_CTS_TRACE_PROGRAMS, named
// in a P line. Fields the caller's struct_size does not cover are not read.
template <typename Args>
void record_program(std::uint64_t seq, std::size_t slot, const Args* args) {
  if (!g_programs || !args || args->struct_size < PJRT_STRUCT_SIZE(Args, compile_options_size)) return;
  const PJRT_Program* program = args->program;
  if (!program || program->struct_size < PJRT_STRUCT_SIZE(PJRT_Program, format_size)) return;
  const std::string_view code = bytes_of(program->code, program->code_size);
  const std::string_view format = bytes_of(program->format, program->format_size);
  const auto stem = [&](PathLine& path) -> PathLine& {
    return path.text(g_programs).text("/").number(getpid()).text("-").number(static_cast<long long>(seq));
  };
  PathLine program_path;
  stem(program_path).text(".").text(program_extension(code, format));
  PathLine options_path;
  stem(options_path).text(".options.pb");
  if (!write_file(program_path.c_str(), code)) return;
  write_file(options_path.c_str(), bytes_of(args->compile_options, args->compile_options_size));
  CallLine line;
  line.text("P").tab().number(static_cast<long long>(seq)).tab().text(kSlotNames[slot]).tab().escaped(format).tab();
  line.escaped(program_path.c_str()).tab().escaped(options_path.c_str());
  line.write_to(g_log);
}

template <typename Args>
constexpr bool kCompiles = std::is_same_v<Args, PJRT_Client_Compile_Args> || std::is_same_v<Args, PJRT_Compile_Args>;

// The wrapper of slot `kIndex`, whose function type is `Fn`.
template <std::size_t kIndex, typename Fn>
struct Traced;

template <std::size_t kIndex, typename Args>
struct Traced<kIndex, PJRT_Error* (*)(Args*)> {
  static inline PJRT_Error* (*real)(Args*) = nullptr;
  static PJRT_Error* call(Args* args) {
    const std::uint64_t seq = log_begin(kIndex);
    if constexpr (kCompiles<Args>) record_program(seq, kIndex, args);
    PJRT_Error* error = real(args);
    log_end(seq, kIndex, error);
    return error;
  }
};

template <std::size_t kIndex, typename Args>
struct Traced<kIndex, void (*)(Args*)> {
  static inline void (*real)(Args*) = nullptr;
  static void call(Args* args) {
    const std::uint64_t seq = log_begin(kIndex);
    real(args);
    log_end(seq, kIndex, nullptr);
  }
};

// Replaces `slot` (of the copy) by its wrapper when the real PJRT_Api has it: within its struct_size, non-null.
template <std::size_t kIndex, typename Fn>
void wrap(Fn& slot, std::size_t offset, std::size_t real_size) {
  if (offset + sizeof(Fn) > real_size || slot == nullptr) return;
  Traced<kIndex, Fn>::real = slot;
  slot = &Traced<kIndex, Fn>::call;
}

const PJRT_Api* fail(const char* what, const char* detail) {
  std::fprintf(stderr, "pjrt-cts call trace: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  return nullptr;
}

void log_header(const char* plugin) {
  PathLine line;  // a path may be long
  line.text("#").tab().text(kLogMagic).tab().number(kLogVersion).tab().escaped(plugin).tab().number(getpid());
  line.write_to(g_log);
}

const PJRT_Api* load() {
  const char* plugin = std::getenv(kPluginEnv);
  if (!plugin || !*plugin) return fail("PJRT_CTS_TRACE_PLUGIN is not set (the path of the plugin to trace)", nullptr);
  const char* log = std::getenv(kLogEnv);
  if (!log || !*log) return fail("PJRT_CTS_TRACE_LOG is not set (the file to record the calls in)", nullptr);
  const char* programs = std::getenv(kProgramsEnv);
  g_programs = programs && *programs ? programs : nullptr;
  if (g_programs && access(g_programs, W_OK | X_OK) != 0) return fail("cannot write into PJRT_CTS_TRACE_PROGRAMS", std::strerror(errno));

  void* library = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
  if (!library) return fail("cannot load PJRT_CTS_TRACE_PLUGIN", dlerror());
  using GetApi = const PJRT_Api* (*)();
  const auto get_api = reinterpret_cast<GetApi>(dlsym(library, "GetPjrtApi"));
  if (!get_api) return fail("PJRT_CTS_TRACE_PLUGIN has no GetPjrtApi", dlerror());

  g_log = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (g_log < 0) return fail("cannot open PJRT_CTS_TRACE_LOG", std::strerror(errno));
  log_header(plugin);

  const PJRT_Api* real = get_api();
  if (!real) return fail("the GetPjrtApi of PJRT_CTS_TRACE_PLUGIN returned NULL", plugin);
  const std::size_t size = real->struct_size;
  if (size < PJRT_STRUCT_SIZE(PJRT_Api, pjrt_api_version) || size > kMaxApiSize) {
    return fail("the PJRT_Api of PJRT_CTS_TRACE_PLUGIN has an implausible struct_size", plugin);
  }
  // Zeroed beyond the real struct_size: slots the real plugin lacks stay null (and are never read past its size).
  const std::size_t capacity = size > sizeof(PJRT_Api) ? size : sizeof(PJRT_Api);
  auto* api = static_cast<PJRT_Api*>(std::calloc(1, capacity));
  if (!api) return fail("out of memory", nullptr);
  std::memcpy(api, real, size);

  const auto real_slot = [&](auto member, std::size_t offset) { return offset + sizeof(void*) <= size ? member : nullptr; };
  g_error_destroy = real_slot(api->PJRT_Error_Destroy, offsetof(PJRT_Api, PJRT_Error_Destroy));
  g_error_message = real_slot(api->PJRT_Error_Message, offsetof(PJRT_Api, PJRT_Error_Message));
  g_error_get_code = real_slot(api->PJRT_Error_GetCode, offsetof(PJRT_Api, PJRT_Error_GetCode));

#define PJRT_CTS_WRAP(index, name) wrap<index>(api->name, offsetof(PJRT_Api, name), size);
  PJRT_CTS_API_SLOTS(PJRT_CTS_WRAP)
#undef PJRT_CTS_WRAP
  return api;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi(void) {
  static const PJRT_Api* const api = load();
  return api;
}

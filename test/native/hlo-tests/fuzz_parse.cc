// libFuzzer target: Parse must never crash, whatever the text. A module that parses must print
// a canonical text that parses again.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "hlo.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::shared_ptr<const refhlo::Module> m;
  refhlo::Status s = refhlo::Parse(std::string_view(reinterpret_cast<const char*>(data), size), &m);
  if (s.ok()) {
    std::shared_ptr<const refhlo::Module> again;
    refhlo::Status s2 = refhlo::Parse(m->text(), &again);
    if (!s2.ok() || again->op_names() != m->op_names()) std::abort();
  } else if (s.code != refhlo::kInvalidArgument && s.code != refhlo::kUnimplemented) {
    std::abort();
  }
  return 0;
}

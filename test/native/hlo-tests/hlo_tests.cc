// Unit tests of the StableHLO interpreter (fixtures/reference-plugin/src/hlo). Exit code 0 = all pass.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "float16.h"
#include "hlo.h"
#include "literal.h"
#include "small_float.h"
#include "ops.h"

using namespace refhlo;

static int g_failed = 0, g_passed = 0;
static std::string g_case;

#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    if (cond) { ++g_passed; } else {                                             \
      ++g_failed;                                                                \
      std::fprintf(stderr, "FAIL [%s] %s:%d: %s ", g_case.c_str(), __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                         \
      std::fprintf(stderr, "\n");                                                \
    }                                                                            \
  } while (0)

// ---------------------------------------------------------------- helpers
static Tensor Make(ElementType t, std::vector<int64_t> dims, const std::vector<double>& v) {
  Tensor r;
  r.type = TensorType{t, std::move(dims)};
  r.bytes.assign(r.type.byte_size(), 0);
  for (size_t i = 0; i < v.size() && static_cast<int64_t>(i) < r.type.num_elements(); ++i) StoreDouble(&r, static_cast<int64_t>(i), v[i]);
  return r;
}
template <class I>
static Tensor MakeInt(ElementType t, std::vector<int64_t> dims, const std::vector<I>& v) {
  Tensor r;
  r.type = TensorType{t, std::move(dims)};
  r.bytes.assign(r.type.byte_size(), 0);
  size_t w = ElementSize(t);
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(r.bytes.data() + i * w, &v[i], w);
  return r;
}
// Raw bit patterns (low bytes of each value, little-endian).
static Tensor Bits(ElementType t, std::vector<int64_t> dims, const std::vector<uint64_t>& v) {
  return MakeInt<uint64_t>(t, std::move(dims), v);
}
static double Elem(const Tensor& t, int64_t i) {
  const uint8_t* p = t.bytes.data() + i * static_cast<int64_t>(ElementSize(t.type.type));
  switch (t.type.type) {
    case ElementType::PRED: return *p;
    case ElementType::S8: return *reinterpret_cast<const int8_t*>(p);
    case ElementType::U8: return *p;
    case ElementType::S16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case ElementType::U16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case ElementType::S32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ElementType::U32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case ElementType::S64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ElementType::U64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ElementType::F16: { uint16_t v; std::memcpy(&v, p, 2); return F16ToFloat(v); }
    case ElementType::BF16: { uint16_t v; std::memcpy(&v, p, 2); return Bf16ToFloat(v); }
    case ElementType::F32: { float v; std::memcpy(&v, p, 4); return v; }
    case ElementType::F64: { double v; std::memcpy(&v, p, 8); return v; }
    case ElementType::S4: return (*p & 8) ? int(*p & 15) - 16 : (*p & 15);
    case ElementType::U4: return *p & 15;
    case ElementType::S2: return (*p & 2) ? int(*p & 3) - 4 : (*p & 3);
    case ElementType::U2: return *p & 3;
    case ElementType::C64: { float v; std::memcpy(&v, p, 4); return v; }  // the real part
    case ElementType::C128: { double v; std::memcpy(&v, p, 8); return v; }
    case ElementType::TOKEN: return 0;
    case ElementType::F8E5M2: case ElementType::F8E4M3FN: case ElementType::F8E4M3B11FNUZ: case ElementType::F8E5M2FNUZ:
    case ElementType::F8E4M3FNUZ: case ElementType::F8E4M3: case ElementType::F8E3M4: case ElementType::F8E8M0FNU:
    case ElementType::F4E2M1FN: case ElementType::F6E2M3FN: case ElementType::F6E3M2FN:
      return DecodeSmallFloat(*SmallFormatOf(t.type.type), *p);
  }
  return 0;
}
static bool IsFloatType(ElementType t) {
  return t == ElementType::F16 || t == ElementType::BF16 || t == ElementType::F32 || t == ElementType::F64 ||
         IsSmallFloat(t);
}
// Exact comparison: NaN matches any NaN; otherwise bit identity (so -0 != +0).
static bool Same(const Tensor& a, const Tensor& b, std::string* why) {
  if (a.type != b.type) { *why = "type " + a.type.ToString() + " vs " + b.type.ToString(); return false; }
  size_t w = ElementSize(a.type.type);
  for (int64_t i = 0; i < a.type.num_elements(); ++i) {
    if (IsFloatType(a.type.type) && std::isnan(Elem(a, i)) && std::isnan(Elem(b, i))) continue;
    if (std::memcmp(a.bytes.data() + i * static_cast<int64_t>(w), b.bytes.data() + i * static_cast<int64_t>(w), w) != 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %lld: got %.17g want %.17g", static_cast<long long>(i), Elem(a, i), Elem(b, i));
      *why = buf;
      return false;
    }
  }
  return true;
}

static Status RunProgram(const std::string& text, const std::vector<std::vector<Tensor>>& args, std::vector<std::vector<Tensor>>* out,
                         const FaultHooks& hooks = FaultHooks{}) {
  std::shared_ptr<const Module> m;
  Status s = Parse(text, hooks, &m);
  if (!s.ok()) return s;
  return Execute(*m, args, hooks, out);
}

// Runs a single-instance program and checks its results.
static void Expect(const std::string& name, const std::string& text, const std::vector<Tensor>& args, const std::vector<Tensor>& want,
                   const FaultHooks& hooks = FaultHooks{}) {
  g_case = name;
  std::vector<std::vector<Tensor>> out;
  Status s = RunProgram(text, {args}, &out, hooks);
  CHECK(s.ok(), "status %d %s", s.code, s.message.c_str());
  if (!s.ok()) return;
  CHECK(out[0].size() == want.size(), "result count %zu", out[0].size());
  for (size_t i = 0; i < want.size() && i < out[0].size(); ++i) {
    std::string why;
    CHECK(Same(out[0][i], want[i], &why), "result %zu: %s", i, why.c_str());
  }
}

static void ExpectError(const std::string& name, const std::string& text, int code, const std::string& needle) {
  g_case = name;
  std::shared_ptr<const Module> m;
  Status s = Parse(text, &m);
  CHECK(s.code == code, "code %d (want %d): %s", s.code, code, s.message.c_str());
  CHECK(s.message.find(needle) != std::string::npos, "message '%s' lacks '%s'", s.message.c_str(), needle.c_str());
}

static std::string Main(const std::string& args, const std::string& results, const std::string& body, int replicas = 1) {
  return "module @t attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = " + std::to_string(replicas) +
         " : i32} {\n  func.func public @main(" + args + ") -> (" + results + ") {\n" + body + "\n  }\n}\n";
}

static const ElementType kAllTypes[] = {ElementType::PRED, ElementType::S8, ElementType::S16, ElementType::S32, ElementType::S64,
                                        ElementType::U8, ElementType::U16, ElementType::U32, ElementType::U64, ElementType::F16,
                                        ElementType::BF16, ElementType::F32, ElementType::F64};
static const ElementType F32 = ElementType::F32, F64 = ElementType::F64, S32 = ElementType::S32, S8 = ElementType::S8,
                         S64 = ElementType::S64, U8 = ElementType::U8, U32 = ElementType::U32, PRED = ElementType::PRED,
                         BF16 = ElementType::BF16, F16 = ElementType::F16, U64 = ElementType::U64;
static const double kNaN = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------- every elementwise op x every supported type
// mask bits: 1 pred, 2 signed, 4 unsigned, 8 float (as in op_decls.h)
struct EwOp { const char* name; int arity; int mask; bool pred_result; };
static const EwOp kEwOps[] = {
    {"negate", 1, 14, false}, {"abs", 1, 14, false}, {"sign", 1, 14, false}, {"exponential", 1, 8, false},
    {"exponential_minus_one", 1, 8, false}, {"log", 1, 8, false}, {"log_plus_one", 1, 8, false}, {"sqrt", 1, 8, false},
    {"rsqrt", 1, 8, false}, {"cbrt", 1, 8, false}, {"tanh", 1, 8, false}, {"logistic", 1, 8, false}, {"sine", 1, 8, false},
    {"cosine", 1, 8, false}, {"tan", 1, 8, false}, {"floor", 1, 8, false}, {"ceil", 1, 8, false},
    {"round_nearest_even", 1, 8, false}, {"round_nearest_afz", 1, 8, false}, {"is_finite", 1, 8, true},
    {"not", 1, 7, false}, {"popcnt", 1, 6, false}, {"add", 2, 15, false}, {"subtract", 2, 14, false},
    {"multiply", 2, 15, false}, {"divide", 2, 14, false}, {"remainder", 2, 14, false}, {"maximum", 2, 15, false},
    {"minimum", 2, 15, false}, {"power", 2, 14, false}, {"and", 2, 7, false}, {"or", 2, 7, false}, {"xor", 2, 7, false},
    {"shift_left", 2, 6, false}, {"shift_right_logical", 2, 6, false}, {"shift_right_arithmetic", 2, 6, false},
    {"atan2", 2, 8, false}, {"count_leading_zeros", 1, 6, false},
};
static int MaskOf(ElementType t) {
  if (t == PRED) return 1;
  if (IsFloatType(t)) return 8;
  return (t == S8 || t == ElementType::S16 || t == S32 || t == S64) ? 2 : 4;
}

static void TestEveryElementwiseOpAndType() {
  int combos = 0;
  for (const EwOp& op : kEwOps) {
    for (ElementType t : kAllTypes) {
      std::string ty = TensorType{t, {4}}.ToString();
      std::string rty = TensorType{op.pred_result ? PRED : t, {4}}.ToString();
      std::string args = "%a: " + ty + (op.arity == 2 ? ", %b: " + ty : "");
      std::string use = op.arity == 2 ? "%a, %b" : "%a";
      std::string sig = op.pred_result ? " : (" + ty + ") -> " + rty : " : " + ty;
      std::string text = Main(args, rty, "    %0 = stablehlo." + std::string(op.name) + " " + use + sig + "\n    return %0 : " + rty);
      g_case = std::string(op.name) + "." + ElementTypeName(t);
      std::shared_ptr<const Module> m;
      Status s = Parse(text, &m);
      bool supported = (MaskOf(t) & op.mask) != 0;
      if (!supported) {
        CHECK(s.code == kInvalidArgument && s.message.find(op.name) != std::string::npos, "unsupported type accepted: %d %s", s.code, s.message.c_str());
        continue;
      }
      CHECK(s.ok(), "%s", s.message.c_str());
      if (!s.ok()) continue;
      std::vector<Tensor> in = {Make(t, {4}, {1, 2, 0, 3})};
      if (op.arity == 2) in.push_back(Make(t, {4}, {1, 1, 1, 2}));
      std::vector<std::vector<Tensor>> out;
      s = Execute(*m, {in}, FaultHooks{}, &out);
      CHECK(s.ok() && out[0][0].type.ToString() == rty, "%s", s.message.c_str());
      ++combos;
    }
  }
  CHECK(combos > 250, "only %d op x type combinations ran", combos);
  std::printf("elementwise op x type combinations executed: %d\n", combos);
}

// ---------------------------------------------------------------- numerics
static std::string Bin(const char* op, const char* ty) {
  std::string t = ty;
  return Main("%a: " + t + ", %b: " + t, t, std::string("    %0 = stablehlo.") + op + " %a, %b : " + t + "\n    return %0 : " + t);
}
static std::string Un(const char* op, const char* ty, const char* rty = nullptr) {
  std::string t = ty, r = rty ? rty : ty;
  std::string sig = rty ? " : (" + t + ") -> " + r : " : " + t;
  return Main("%a: " + t, r, std::string("    %0 = stablehlo.") + op + " %a" + sig + "\n    return %0 : " + r);
}

static void TestNumerics() {
  const int32_t kMin32 = std::numeric_limits<int32_t>::min(), kMax32 = std::numeric_limits<int32_t>::max();
  Expect("div.int", Bin("divide", "tensor<5xi32>"), {MakeInt<int32_t>(S32, {5}, {7, -7, 5, kMin32, 0}), MakeInt<int32_t>(S32, {5}, {2, 2, 0, -1, 0})},
         {MakeInt<int32_t>(S32, {5}, {3, -3, -1, kMin32, -1})});
  Expect("rem.int", Bin("remainder", "tensor<5xi32>"), {MakeInt<int32_t>(S32, {5}, {7, -7, 5, kMin32, 7}), MakeInt<int32_t>(S32, {5}, {2, 2, 0, -1, -2})},
         {MakeInt<int32_t>(S32, {5}, {1, -1, 5, 0, 1})});
  Expect("div.uint0", Bin("divide", "tensor<2xui32>"), {MakeInt<uint32_t>(U32, {2}, {7, 9}), MakeInt<uint32_t>(U32, {2}, {0, 2})},
         {MakeInt<uint32_t>(U32, {2}, {0xFFFFFFFFu, 4})});
  Expect("add.wrap", Bin("add", "tensor<2xi32>"), {MakeInt<int32_t>(S32, {2}, {kMax32, kMin32}), MakeInt<int32_t>(S32, {2}, {1, -1})},
         {MakeInt<int32_t>(S32, {2}, {kMin32, kMax32})});
  FaultHooks sat; sat.int_overflow_saturates = true;
  Expect("fault.int_overflow_saturates", Bin("add", "tensor<2xi32>"), {MakeInt<int32_t>(S32, {2}, {kMax32, kMin32}), MakeInt<int32_t>(S32, {2}, {1, -1})},
         {MakeInt<int32_t>(S32, {2}, {kMax32, kMin32})}, sat);
  Expect("mul.wrap.ui16", Bin("multiply", "tensor<1xui16>"), {MakeInt<uint16_t>(ElementType::U16, {1}, {65535}), MakeInt<uint16_t>(ElementType::U16, {1}, {65535})},
         {MakeInt<uint16_t>(ElementType::U16, {1}, {1})});
  Expect("mul.wrap.i64", Bin("multiply", "tensor<1xi64>"), {MakeInt<int64_t>(S64, {1}, {INT64_MIN}), MakeInt<int64_t>(S64, {1}, {-1})},
         {MakeInt<int64_t>(S64, {1}, {INT64_MIN})});
  Expect("neg.intmin", Un("negate", "tensor<2xi8>"), {MakeInt<int8_t>(S8, {2}, {-128, 5})}, {MakeInt<int8_t>(S8, {2}, {-128, -5})});
  Expect("abs.intmin", Un("abs", "tensor<2xi8>"), {MakeInt<int8_t>(S8, {2}, {-128, -5})}, {MakeInt<int8_t>(S8, {2}, {-128, 5})});
  Expect("shl.range", Bin("shift_left", "tensor<4xi8>"), {MakeInt<int8_t>(S8, {4}, {1, 1, 1, 1}), MakeInt<int8_t>(S8, {4}, {7, 8, -1, 3})},
         {MakeInt<int8_t>(S8, {4}, {-128, 0, 0, 8})});
  Expect("shra.range", Bin("shift_right_arithmetic", "tensor<3xi8>"), {MakeInt<int8_t>(S8, {3}, {-128, 64, -4}), MakeInt<int8_t>(S8, {3}, {9, 9, 1})},
         {MakeInt<int8_t>(S8, {3}, {-1, 0, -2})});
  Expect("shrl.i64", Bin("shift_right_logical", "tensor<2xi64>"), {MakeInt<int64_t>(S64, {2}, {-1, -1}), MakeInt<int64_t>(S64, {2}, {1, 64})},
         {MakeInt<int64_t>(S64, {2}, {INT64_MAX, 0})});
  FaultHooks sh; sh.shift_out_of_range_wrong = true;
  Expect("fault.shift_out_of_range_wrong", Bin("shift_left", "tensor<1xi32>"), {MakeInt<int32_t>(S32, {1}, {1}), MakeInt<int32_t>(S32, {1}, {33})},
         {MakeInt<int32_t>(S32, {1}, {2})}, sh);
  Expect("popcnt", Un("popcnt", "tensor<2xi8>"), {MakeInt<int8_t>(S8, {2}, {-1, 5})}, {MakeInt<int8_t>(S8, {2}, {8, 2})});
  Expect("not", Un("not", "tensor<2xi32>"), {MakeInt<int32_t>(S32, {2}, {1, 0})}, {MakeInt<int32_t>(S32, {2}, {-2, -1})});
  Expect("not.pred", Un("not", "tensor<2xi1>"), {Make(PRED, {2}, {1, 0})}, {Make(PRED, {2}, {0, 1})});
  Expect("pow.int", Bin("power", "tensor<5xi32>"), {MakeInt<int32_t>(S32, {5}, {2, 0, -1, 2, 1}), MakeInt<int32_t>(S32, {5}, {10, 0, 3, -1, -5})},
         {MakeInt<int32_t>(S32, {5}, {1024, 1, -1, 0, 1})});
  Expect("max.nan", Bin("maximum", "tensor<4xf32>"), {Make(F32, {4}, {kNaN, 1, -0.0, 0.0}), Make(F32, {4}, {1, kNaN, 0.0, -0.0})},
         {Make(F32, {4}, {kNaN, kNaN, 0.0, 0.0})});
  Expect("min.nan", Bin("minimum", "tensor<4xf32>"), {Make(F32, {4}, {kNaN, 1, -0.0, 0.0}), Make(F32, {4}, {1, kNaN, 0.0, -0.0})},
         {Make(F32, {4}, {kNaN, kNaN, -0.0, -0.0})});
  FaultHooks nanf; nanf.nan_propagation_wrong = true;
  Expect("fault.nan_propagation_wrong", Bin("maximum", "tensor<1xf32>"), {Make(F32, {1}, {kNaN}), Make(F32, {1}, {1})}, {Make(F32, {1}, {1})}, nanf);
  Expect("div.float", Bin("divide", "tensor<3xf64>"), {Make(F64, {3}, {1, 0, 1}), Make(F64, {3}, {0, 0, -0.0})}, {Make(F64, {3}, {kInf, kNaN, -kInf})});
  Expect("rem.float", Bin("remainder", "tensor<3xf32>"), {Make(F32, {3}, {-4, 5, kInf}), Make(F32, {3}, {2, kInf, 1})}, {Make(F32, {3}, {-0.0, 5, kNaN})});
  Expect("round.even", Un("round_nearest_even", "tensor<5xf32>"), {Make(F32, {5}, {0.5, 1.5, 2.5, -2.5, -0.5})}, {Make(F32, {5}, {0, 2, 2, -2, -0.0})});
  Expect("round.afz", Un("round_nearest_afz", "tensor<4xf32>"), {Make(F32, {4}, {0.5, 2.5, -2.5, -0.4})}, {Make(F32, {4}, {1, 3, -3, -0.0})});
  Expect("sign.float", Un("sign", "tensor<5xf32>"), {Make(F32, {5}, {-3, -0.0, 0, kNaN, 7})}, {Make(F32, {5}, {-1, -0.0, 0, kNaN, 1})});
  Expect("sqrt.special", Un("sqrt", "tensor<3xf32>"), {Make(F32, {3}, {-0.0, -1, 4})}, {Make(F32, {3}, {-0.0, kNaN, 2})});
  Expect("rsqrt.zero", Un("rsqrt", "tensor<2xf32>"), {Make(F32, {2}, {0.0, -0.0})}, {Make(F32, {2}, {kInf, -kInf})});
  Expect("cbrt.neg", Un("cbrt", "tensor<1xf64>"), {Make(F64, {1}, {-8})}, {Make(F64, {1}, {-2})});
  Expect("log.special", Un("log", "tensor<2xf32>"), {Make(F32, {2}, {0, -1})}, {Make(F32, {2}, {-kInf, kNaN})});
  Expect("is_finite", Un("is_finite", "tensor<4xf32>", "tensor<4xi1>"), {Make(F32, {4}, {1, kInf, -kInf, kNaN})}, {Make(PRED, {4}, {1, 0, 0, 0})});
  Expect("floor.negzero", Un("ceil", "tensor<2xf32>"), {Make(F32, {2}, {-0.5, 1.2})}, {Make(F32, {2}, {-0.0, 2})});
  // bf16 / f16 rounding and subnormals
  std::string cvt_bf = Un("convert", "tensor<3xf32>", "tensor<3xbf16>");
  Expect("bf16.rne", cvt_bf, {Make(F32, {3}, {1.00390625, 1.01171875, 3.4e38})},
         {Bits(BF16, {3}, {0x3F80, 0x3F82, 0x7F80})});
  FaultHooks bft; bft.bf16_truncates = true;
  Expect("fault.bf16_truncates", cvt_bf, {Make(F32, {3}, {1.01171875, 1.01171875, 1.01171875})}, {Bits(BF16, {3}, {0x3F81, 0x3F81, 0x3F81})}, bft);
  std::string cvt_h = Un("convert", "tensor<3xf32>", "tensor<3xf16>");
  Expect("f16.subnormal", cvt_h, {Make(F32, {3}, {5.9604644775390625e-08, -1.0e-8, 70000})}, {Bits(F16, {3}, {0x0001, 0x8000, 0x7C00})});
  FaultHooks fl; fl.f16_flush_subnormals = true;
  Expect("fault.f16_flush_subnormals", cvt_h, {Make(F32, {3}, {5.9604644775390625e-08, 6.0e-5, 1})}, {Bits(F16, {3}, {0, 0, 0x3C00})}, fl);
  Expect("f16.add.subnormal", Bin("add", "tensor<1xf16>"), {Bits(F16, {1}, {0x0001}), Bits(F16, {1}, {0x0001})}, {Bits(F16, {1}, {0x0002})});
  Expect("bf16.add", Bin("add", "tensor<1xbf16>"), {Bits(BF16, {1}, {0x3F80}), Bits(BF16, {1}, {0x3B80})}, {Bits(BF16, {1}, {0x3F80})});
  // convert float -> int saturation, NaN -> 0
  Expect("convert.f2i", Un("convert", "tensor<5xf32>", "tensor<5xi32>"), {Make(F32, {5}, {kNaN, 1e10, -1e10, -1.9, kInf})},
         {MakeInt<int32_t>(S32, {5}, {0, kMax32, kMin32, -1, kMax32})});
  Expect("convert.f2u", Un("convert", "tensor<3xf32>", "tensor<3xui8>"), {Make(F32, {3}, {-3, 300, 7.9})}, {MakeInt<uint8_t>(U8, {3}, {0, 255, 7})});
  Expect("convert.f2u64", Un("convert", "tensor<2xf64>", "tensor<2xui64>"), {Make(F64, {2}, {1e30, 5})}, {MakeInt<uint64_t>(U64, {2}, {UINT64_MAX, 5})});
  Expect("convert.i2i", Un("convert", "tensor<2xi8>", "tensor<2xui32>"), {MakeInt<int8_t>(S8, {2}, {-1, 3})}, {MakeInt<uint32_t>(U32, {2}, {0xFFFFFFFFu, 3})});
  Expect("convert.i2f", Un("convert", "tensor<1xi32>", "tensor<1xf32>"), {MakeInt<int32_t>(S32, {1}, {16777217})}, {Make(F32, {1}, {16777216})});
  Expect("convert.pred", Un("convert", "tensor<3xf32>", "tensor<3xi1>"), {Make(F32, {3}, {kNaN, -0.0, 2})}, {Make(PRED, {3}, {1, 0, 1})});
  Expect("bitcast.same", Un("bitcast_convert", "tensor<1xf32>", "tensor<1xi32>"), {Make(F32, {1}, {1})}, {MakeInt<int32_t>(S32, {1}, {0x3F800000})});
  Expect("bitcast.narrow", Un("bitcast_convert", "tensor<1xf32>", "tensor<1x2xi16>"), {Make(F32, {1}, {1})}, {MakeInt<int16_t>(ElementType::S16, {1, 2}, {0, 0x3F80})});
  // compare
  auto cmp = [](const char* dir, const char* ty, const char* ct) {
    std::string t = ty, r = "tensor<" + t.substr(7, t.find('x') - 7) + "xi1>";
    return Main("%a: " + t + ", %b: " + t, r, std::string("    %0 = stablehlo.compare  ") + dir + ", %a, %b,  " + ct + " : (" + t + ", " + t + ") -> " + r + "\n    return %0 : " + r);
  };
  Expect("cmp.float.nan", cmp("NE", "tensor<3xf32>", "FLOAT"), {Make(F32, {3}, {kNaN, -0.0, 1}), Make(F32, {3}, {kNaN, 0.0, 1})}, {Make(PRED, {3}, {1, 0, 0})});
  Expect("cmp.totalorder", cmp("LT", "tensor<3xf32>", "TOTALORDER"), {Make(F32, {3}, {-0.0, -kInf, 1}), Make(F32, {3}, {0.0, kNaN, kNaN})}, {Make(PRED, {3}, {1, 1, 1})});
  Expect("cmp.totalorder.eq", cmp("EQ", "tensor<1xf32>", "TOTALORDER"), {Make(F32, {1}, {-0.0}), Make(F32, {1}, {0.0})}, {Make(PRED, {1}, {0})});
  Expect("cmp.unsigned", cmp("GT", "tensor<1xui32>", "UNSIGNED"), {MakeInt<uint32_t>(U32, {1}, {0xFFFFFFFFu}), MakeInt<uint32_t>(U32, {1}, {1})}, {Make(PRED, {1}, {1})});
  FaultHooks cu; cu.compare_unsigned_as_signed = true;
  Expect("fault.compare_unsigned_as_signed", cmp("GT", "tensor<1xui32>", "UNSIGNED"), {MakeInt<uint32_t>(U32, {1}, {0xFFFFFFFFu}), MakeInt<uint32_t>(U32, {1}, {1})}, {Make(PRED, {1}, {0})}, cu);
  for (const char* d : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    bool want[6][3] = {{0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 0}, {0, 0, 1}, {0, 1, 1}};
    int k = 0;
    for (const char* e : {"EQ", "NE", "LT", "LE", "GT", "GE"}) { if (!std::strcmp(d, e)) break; ++k; }
    Expect(std::string("cmp.dir.") + d, cmp(d, "tensor<3xi32>", "SIGNED"), {MakeInt<int32_t>(S32, {3}, {1, 2, 3}), MakeInt<int32_t>(S32, {3}, {2, 2, 2})},
           {Make(PRED, {3}, {double(want[k][0]), double(want[k][1]), double(want[k][2])})});
  }
}

// ---------------------------------------------------------------- structure, shape ops and control flow
// ---------------------------------------------------------------- atan2, count_leading_zeros, reduce_precision
static std::string ReducePrecision(const char* ty, const char* format) {
  std::string t = ty;
  return Main("%a: " + t, t, std::string("    %0 = stablehlo.reduce_precision %a, format = ") + format + " : " + t + "\n    return %0 : " + t);
}

static void TestNewKernels() {
  Expect("atan2.quadrants", Bin("atan2", "tensor<4xf64>"), {Make(F64, {4}, {1, 1, -1, 0}), Make(F64, {4}, {1, -1, 0, -1})},
         {Make(F64, {4}, {std::atan2(1.0, 1.0), std::atan2(1.0, -1.0), std::atan2(-1.0, 0.0), std::atan2(0.0, -1.0)})});
  FaultHooks swapped; swapped.atan2_operands_swapped = true;
  Expect("atan2.fault", Bin("atan2", "tensor<1xf64>"), {Make(F64, {1}, {1}), Make(F64, {1}, {0})}, {Make(F64, {1}, {0})}, swapped);
  Expect("clz.s8", Un("count_leading_zeros", "tensor<4xi8>"), {MakeInt<int8_t>(S8, {4}, {0, 1, -1, 0x10})}, {MakeInt<int8_t>(S8, {4}, {8, 7, 0, 3})});
  Expect("clz.s64", Un("count_leading_zeros", "tensor<3xi64>"), {MakeInt<int64_t>(S64, {3}, {0, 1, 128})}, {MakeInt<int64_t>(S64, {3}, {64, 63, 56})});
  FaultHooks clz; clz.clz_of_zero_wrong = true;
  Expect("clz.fault", Un("count_leading_zeros", "tensor<1xi32>"), {MakeInt<int32_t>(S32, {1}, {0})}, {MakeInt<int32_t>(S32, {1}, {0})}, clz);
  // the spec's example: +inf, NaN, f64 subnormal, 0, 65519 (rounds to 65504), 65520 (rounds up and overflows)
  Expect("reduce_precision.spec", ReducePrecision("tensor<6xf64>", "e5m10"), {Bits(F64, {6}, {0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 1, 0, 0x40EFFDE000000000, 0x40EFFF0000000000})},
         {Bits(F64, {6}, {0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 0, 0, 0x40EFFC0000000000, 0x7FF0000000000000})});
  // ties to even: 1 + 2^-8 + 2^-9 rounds up (odd kept mantissa), 1 + 2^-8 stays (tie to even), to e8m7
  Expect("reduce_precision.rne", ReducePrecision("tensor<2xf32>", "e8m7"), {Make(F32, {2}, {1 + 0x1p-8 + 0x1p-9, 1 + 0x1p-8})}, {Make(F32, {2}, {1 + 0x1p-7, 1})});
  FaultHooks trunc; trunc.reduce_precision_truncates = true;
  Expect("reduce_precision.fault", ReducePrecision("tensor<1xf32>", "e8m7"), {Make(F32, {1}, {1 + 0x1p-8 + 0x1p-9})}, {Make(F32, {1}, {1})}, trunc);
}

static Tensor C64(std::vector<int64_t> dims, const std::vector<float>& parts) {
  Tensor t{TensorType{ElementType::C64, std::move(dims)}, {}, {}};
  t.bytes.resize(parts.size() * sizeof(float));
  std::memcpy(t.bytes.data(), parts.data(), t.bytes.size());
  return t;
}

static void TestComplex() {
  const char* ct = "tensor<2xcomplex<f32>>";
  Expect("complex.mul", Bin("multiply", ct), {C64({2}, {1, 2, 0, 1}), C64({2}, {3, -4, 0, 1})}, {C64({2}, {11, 2, -1, 0})});
  Expect("complex.div", Bin("divide", ct), {C64({2}, {10, 5, 5, 0}), C64({2}, {1, 2, 2, 1})}, {C64({2}, {4, -3, 2, -1})});
  Expect("complex.add", Bin("add", ct), {C64({2}, {1, 2, 0, 1}), C64({2}, {3, -4, 0, 1})}, {C64({2}, {4, -2, 0, 2})});
  Expect("complex.abs", Un("abs", ct, "tensor<2xf32>"), {C64({2}, {3, 4, 0, -2})}, {Make(F32, {2}, {5, 2})});
  Expect("complex.parts", Main("%a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xf32>, tensor<2xcomplex<f32>>",
                               "    %0 = stablehlo.complex %a, %b : tensor<2xcomplex<f32>>\n"
                               "    %1 = stablehlo.imag %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>\n"
                               "    return %1, %0 : tensor<2xf32>, tensor<2xcomplex<f32>>"),
         {Make(F32, {2}, {1, 2}), Make(F32, {2}, {3, 4})}, {Make(F32, {2}, {3, 4}), C64({2}, {1, 3, 2, 4})});
  Expect("complex.convert", Un("convert", "tensor<2xf64>", ct), {Make(F64, {2}, {0.5, -1})}, {C64({2}, {0.5, 0, -1, 0})});
  Expect("complex.eq", Main("%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>", "tensor<2xi1>",
                            "    %0 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>\n    return %0 : tensor<2xi1>"),
         {C64({2}, {1, 2, 1, 2}), C64({2}, {1, 2, 1, -2})}, {MakeInt<uint8_t>(PRED, {2}, {1, 0})});
  auto cst = [&](const std::string& lit) {
    return Main("", ct, "    %0 = stablehlo.constant " + lit + " : " + ct + "\n    return %0 : " + ct);
  };
  Expect("complex.literal", cst("dense<[(1.5, -2.0), (0x7F800000, 0.25)]>"), {}, {C64({2}, {1.5, -2, INFINITY, 0.25})});
  Expect("complex.literal_splat", cst("dense<(3.0, -0.5)>"), {}, {C64({2}, {3, -0.5, 3, -0.5})});
  FaultHooks swap; swap.complex_literal_parts_swapped = true;
  Expect("complex.literal_fault", cst("dense<(3.0, -0.5)>"), {}, {C64({2}, {-0.5, 3, -0.5, 3})}, swap);
  Expect("complex.exp", Un("exponential", ct), {C64({2}, {0, 0, 0, 0})}, {C64({2}, {1, 0, 1, 0})});
  Expect("complex.sign", Un("sign", ct), {C64({2}, {3, 4, 0, 0})}, {C64({2}, {0.6f, 0.8f, 0, 0})});
  Expect("complex.max_lexicographic", Bin("maximum", ct), {C64({2}, {1, 5, 2, -1}), C64({2}, {1, 6, 2, -2})}, {C64({2}, {1, 6, 2, -1})});
  FaultHooks sign; sign.complex_multiply_sign_wrong = true;
  Expect("complex.mul_fault", Bin("multiply", ct), {C64({2}, {1, 2, 0, 1}), C64({2}, {3, -4, 0, 1})}, {C64({2}, {-5, 2, 1, 0})}, sign);
}

static void TestSort() {
  const std::string text = Main("%k: tensor<5xf32>, %p: tensor<5xi32>", "tensor<5xf32>, tensor<5xi32>",
      "    %0:2 = \"stablehlo.sort\"(%k, %p) <{dimension = 0 : i64, is_stable = true}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
      "      %1 = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    }) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)\n"
      "    return %0#0, %0#1 : tensor<5xf32>, tensor<5xi32>");
  std::vector<Tensor> args = {Make(F32, {5}, {2, 1, 2, -1, 1}), MakeInt<int32_t>(S32, {5}, {0, 1, 2, 3, 4})};
  Expect("sort.stable", text, args, {Make(F32, {5}, {-1, 1, 1, 2, 2}), MakeInt<int32_t>(S32, {5}, {3, 1, 4, 0, 2})});
  FaultHooks rev; rev.sort_ties_reversed = true;
  Expect("sort.fault", text, args, {Make(F32, {5}, {-1, 1, 1, 2, 2}), MakeInt<int32_t>(S32, {5}, {3, 4, 1, 2, 0})}, rev);
}

// ---------------------------------------------------------------- cholesky, triangular_solve, fft, rng_bit_generator
static std::string OneOp(const std::string& args, const std::string& results, const std::string& op, const std::string& ret) {
  return Main(args, results, "    " + op + "\n    return " + ret);
}

static void TestLinalgFftRng() {
  const std::string chol = OneOp("%a: tensor<2x2xf32>", "tensor<2x2xf32>",
      "%0 = \"stablehlo.cholesky\"(%a) <{lower = false}> : (tensor<2x2xf32>) -> tensor<2x2xf32>", "%0 : tensor<2x2xf32>");
  Expect("cholesky.upper", chol, {Make(F32, {2, 2}, {4, -2, -2, 10})}, {Make(F32, {2, 2}, {2, -1, 0, 3})});
  FaultHooks lower; lower.cholesky_ignores_lower = true;
  Expect("cholesky.fault", chol, {Make(F32, {2, 2}, {4, -2, -2, 10})}, {Make(F32, {2, 2}, {2, 0, -1, 3})}, lower);
  const std::string solve = OneOp("%a: tensor<2x2xf64>, %b: tensor<2x1xf64>", "tensor<2x1xf64>",
      "%0 = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>",
      "%0 : tensor<2x1xf64>");
  // Lᵀ·x = b with L = [[2, 0], [1, 4]] (the 99 above the diagonal is never read): x = [(6 − 2)/2, 8/4]
  std::vector<Tensor> sargs = {Make(F64, {2, 2}, {2, 99, 1, 4}), Make(F64, {2, 1}, {6, 8})};
  Expect("triangular_solve.transpose", solve, sargs, {Make(F64, {2, 1}, {2, 2})});
  FaultHooks plain; plain.triangular_solve_ignores_transpose = true;
  Expect("triangular_solve.fault", solve, sargs, {Make(F64, {2, 1}, {3, 1.25})}, plain);
  const std::string adjoint = OneOp("%a: tensor<2x2xcomplex<f32>>, %b: tensor<2x1xcomplex<f32>>", "tensor<2x1xcomplex<f32>>",
      "%0 = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>",
      "%0 : tensor<2x1xcomplex<f32>>");
  // Lᴴ·x = b with L = [[2, 0], [i, 4]], b = [6, 8i]: x = [2, 2i] (Lᵀ instead of Lᴴ gives [4, 2i])
  std::vector<Tensor> cargs = {C64({2, 2}, {2, 0, 7, 7, 0, 1, 4, 0}), C64({2, 1}, {6, 0, 0, 8})};
  Expect("triangular_solve.adjoint", adjoint, cargs, {C64({2, 1}, {2, 0, 0, 2})});
  FaultHooks noconj; noconj.triangular_solve_adjoint_not_conjugated = true;
  Expect("triangular_solve.adjoint_fault", adjoint, cargs, {C64({2, 1}, {4, 0, 0, 2})}, noconj);
  const std::string ifft = OneOp("%a: tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>",
      "%0 = stablehlo.fft %a, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>", "%0 : tensor<4xcomplex<f32>>");
  Expect("fft.ifft", ifft, {C64({4}, {4, 0, 4, 0, 4, 0, 4, 0})}, {C64({4}, {4, 0, 0, 0, 0, 0, 0, 0})});
  FaultHooks unscaled; unscaled.fft_inverse_unscaled = true;
  Expect("fft.fault", ifft, {C64({4}, {4, 0, 4, 0, 4, 0, 4, 0})}, {C64({4}, {16, 0, 0, 0, 0, 0, 0, 0})}, unscaled);
  const std::string rfft = OneOp("%a: tensor<4xf32>", "tensor<3xcomplex<f32>>",
      "%0 = \"stablehlo.fft\"(%a) <{fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<4xf32>) -> tensor<3xcomplex<f32>>", "%0 : tensor<3xcomplex<f32>>");
  Expect("fft.rfft", rfft, {Make(F32, {4}, {1, 0, 0, 0})}, {C64({3}, {1, 0, 1, 0, 1, 0})});
  const std::string rng = OneOp("%s: tensor<2xui64>", "tensor<2xui64>, tensor<ui32>",
      "%0, %1 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)", "%0, %1 : tensor<2xui64>, tensor<ui32>");
  // XLA's bits for this state (jaxlib 0.10.2)
  Expect("rng.three_fry", rng, {Bits(ElementType::U64, {2}, {3, 4})}, {Bits(ElementType::U64, {2}, {3, 5}), Bits(ElementType::U32, {}, {555017538})});
  FaultHooks stuck; stuck.rng_state_not_advanced = true;
  Expect("rng.fault", rng, {Bits(ElementType::U64, {2}, {3, 4})}, {Bits(ElementType::U64, {2}, {3, 4}), Bits(ElementType::U32, {}, {555017538})}, stuck);
  // invalid programs: INVALID_ARGUMENT; valid ones this interpreter cannot run: UNIMPLEMENTED
  ExpectError("invalid.cholesky_not_square", OneOp("%a: tensor<2x3xf32>", "tensor<2x3xf32>",
      "%0 = \"stablehlo.cholesky\"(%a) <{lower = true}> : (tensor<2x3xf32>) -> tensor<2x3xf32>", "%0 : tensor<2x3xf32>"), kInvalidArgument, "square");
  ExpectError("invalid.cholesky_int", OneOp("%a: tensor<2x2xi32>", "tensor<2x2xi32>",
      "%0 = \"stablehlo.cholesky\"(%a) <{lower = true}> : (tensor<2x2xi32>) -> tensor<2x2xi32>", "%0 : tensor<2x2xi32>"), kInvalidArgument, "floating-point or complex");
  ExpectError("invalid.triangular_solve_shape", OneOp("%a: tensor<2x2xf32>, %b: tensor<3x1xf32>", "tensor<3x1xf32>",
      "%0 = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x2xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>",
      "%0 : tensor<3x1xf32>"), kInvalidArgument, "facing");
  ExpectError("invalid.fft_no_type", OneOp("%a: tensor<2xcomplex<f32>>", "tensor<2xcomplex<f32>>",
      "%0 = \"stablehlo.fft\"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>", "%0 : tensor<2xcomplex<f32>>"), kInvalidArgument, "fft_type");
  ExpectError("invalid.rfft_length", OneOp("%a: tensor<4xf32>", "tensor<2xcomplex<f32>>",
      "%0 = stablehlo.fft %a, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<2xcomplex<f32>>", "%0 : tensor<2xcomplex<f32>>"), kInvalidArgument, "fft_length");
  ExpectError("invalid.three_fry_state", OneOp("%s: tensor<3xui64>", "tensor<3xui64>, tensor<2xui32>",
      "%0, %1 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xui32>)", "%0, %1 : tensor<3xui64>, tensor<2xui32>"), kInvalidArgument, "THREE_FRY");
  ExpectError("unsupported.default_state", OneOp("%s: tensor<4xui64>", "tensor<4xui64>, tensor<2xui32>",
      "%0, %1 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<4xui64>) -> (tensor<4xui64>, tensor<2xui32>)", "%0, %1 : tensor<4xui64>, tensor<2xui32>"), kUnimplemented, "DEFAULT");
}

static void TestTuples() {
  const std::string tt = "tuple<tensor<2xf32>, tuple<tensor<i32>>>";
  const std::string body =
      "    %0 = stablehlo.tuple %b : tuple<tensor<i32>>\n"
      "    %1 = stablehlo.tuple %a, %0 : " + tt + "\n"
      "    %2 = stablehlo.get_tuple_element %1[1] : (" + tt + ") -> tuple<tensor<i32>>\n"
      "    %3 = \"stablehlo.get_tuple_element\"(%2) <{index = 0 : i32}> : (tuple<tensor<i32>>) -> tensor<i32>\n"
      "    %4 = stablehlo.get_tuple_element %1[0] : (" + tt + ") -> tensor<2xf32>\n"
      "    return %3, %4 : tensor<i32>, tensor<2xf32>";
  const std::string nested = Main("%a: tensor<2xf32>, %b: tensor<i32>", "tensor<i32>, tensor<2xf32>", body);
  std::vector<Tensor> args = {Make(F32, {2}, {1.5, -2}), MakeInt<int32_t>(S32, {}, {7})};
  Expect("tuple.nested", nested, args, {args[1], args[0]});
  FaultHooks ignored; ignored.tuple_index_ignored = true;
  g_case = "tuple.fault";
  std::vector<std::vector<Tensor>> out;
  Status s = RunProgram(nested, {args}, &out, ignored);
  CHECK(!s.ok() || out[0][1].bytes != args[0].bytes || out[0][0].bytes != args[1].bytes, "fault did not show");
  ExpectError("tuple.main_arg", Main("%a: tuple<tensor<f32>>", "tuple<tensor<f32>>", "    return %a : tuple<tensor<f32>>"), kUnimplemented, "tuple");
  ExpectError("tuple.add", Main("%a: tensor<f32>", "tensor<f32>",
                                "    %0 = stablehlo.tuple %a : tuple<tensor<f32>>\n    %1 = stablehlo.add %0, %0 : tuple<tensor<f32>>\n    return %a : tensor<f32>"),
              kInvalidArgument, "takes tensors");
  ExpectError("tuple.index", Main("%a: tensor<f32>", "tensor<f32>",
                                  "    %0 = stablehlo.tuple %a : tuple<tensor<f32>>\n    %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<f32>>) -> tensor<f32>\n    return %1 : tensor<f32>"),
              kInvalidArgument, "out of range");
  ExpectError("tuple.barrier", Main("%a: tensor<f32>", "tensor<f32>",
                                    "    %0 = stablehlo.tuple %a : tuple<tensor<f32>>\n    %1 = stablehlo.optimization_barrier %0 : tuple<tensor<f32>>\n    return %a : tensor<f32>"),
              kUnimplemented, "tuple");
}

static void TestPrograms() {
  Expect("jax.module", R"(#loc1 = loc("x.py":1:2)
module @jit_scale attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {jax.buffer_donor = true} loc("x"), %arg1: tensor<f32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = call @helper(%arg1) : (tensor<f32>) -> tensor<f32>  // a comment
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x3xf32> loc(#loc1)
    %2 = stablehlo.multiply %arg0, %1 : tensor<2x3xf32>
    return %2 : tensor<2x3xf32>
  } loc(#loc)
  func.func private @helper(%arg0: tensor<f32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = "stablehlo.add"(%arg0, %cst) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
} loc(#loc)
#loc = loc(unknown)
{-#
  dialect_resources: { builtin: { x: "0x04000000" } }
#-}
)",
         {Make(F32, {2, 3}, {1, 2, 3, 4, 5, 6}), Make(F32, {}, {1})}, {Make(F32, {2, 3}, {3, 6, 9, 12, 15, 18})});
  Expect("constants", Main("", "tensor<2x2xi32>, tensor<3xf32>, tensor<2xi1>, tensor<2xf32>, tensor<0xf32>",
                           "    %c = stablehlo.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>\n"
                           "    %cst = stablehlo.constant dense<[0x7FC00000, 0xFF800000, 1.000000e+00]> : tensor<3xf32>\n"
                           "    %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>\n"
                           "    %h = stablehlo.constant dense<\"0x0000803F00000040\"> : tensor<2xf32>\n"
                           "    %e = stablehlo.constant dense<> : tensor<0xf32>\n"
                           "    return %c, %cst, %b, %h, %e : tensor<2x2xi32>, tensor<3xf32>, tensor<2xi1>, tensor<2xf32>, tensor<0xf32>"),
         {}, {MakeInt<int32_t>(S32, {2, 2}, {1, -2, 3, 4}), Make(F32, {3}, {kNaN, -kInf, 1}), Make(PRED, {2}, {1, 0}), Make(F32, {2}, {1, 2}), Make(F32, {0}, {})});
  Expect("iota", Main("", "tensor<3x2xf32>", "    %0 = stablehlo.iota dim = 0 : tensor<3x2xf32>\n    return %0 : tensor<3x2xf32>"), {},
         {Make(F32, {3, 2}, {0, 0, 1, 1, 2, 2})});
  Expect("iota.generic", Main("", "tensor<4xi32>", "    %0 = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>\n    return %0 : tensor<4xi32>"), {},
         {MakeInt<int32_t>(S32, {4}, {0, 1, 2, 3})});
  Expect("broadcast.transposing", Main("%a: tensor<2x3xi32>", "tensor<3x2xi32>", "    %0 = stablehlo.broadcast_in_dim %a, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>\n    return %0 : tensor<3x2xi32>"),
         {MakeInt<int32_t>(S32, {2, 3}, {1, 2, 3, 4, 5, 6})}, {MakeInt<int32_t>(S32, {3, 2}, {1, 4, 2, 5, 3, 6})});
  Expect("broadcast.stretch", Main("%a: tensor<1x2xi32>", "tensor<2x2xi32>", "    %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x2xi32>) -> tensor<2x2xi32>\n    return %0 : tensor<2x2xi32>"),
         {MakeInt<int32_t>(S32, {1, 2}, {7, 8})}, {MakeInt<int32_t>(S32, {2, 2}, {7, 8, 7, 8})});
  std::string tr = Main("%a: tensor<2x3xf32>", "tensor<3x2xf32>", "    %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n    return %0 : tensor<3x2xf32>");
  Expect("transpose", tr, {Make(F32, {2, 3}, {1, 2, 3, 4, 5, 6})}, {Make(F32, {3, 2}, {1, 4, 2, 5, 3, 6})});
  FaultHooks tf; tf.transpose_ignores_permutation = true;
  Expect("fault.transpose_ignores_permutation", tr, {Make(F32, {2, 3}, {1, 2, 3, 4, 5, 6})}, {Make(F32, {3, 2}, {1, 2, 3, 4, 5, 6})}, tf);
  Expect("reshape", Main("%a: tensor<2x3xf32>", "tensor<6xf32>", "    %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>\n    return %0 : tensor<6xf32>"),
         {Make(F32, {2, 3}, {1, 2, 3, 4, 5, 6})}, {Make(F32, {6}, {1, 2, 3, 4, 5, 6})});
  Expect("slice", Main("%a: tensor<4x4xi32>", "tensor<2x2xi32>", "    %0 = stablehlo.slice %a [1:3, 0:4:2] : (tensor<4x4xi32>) -> tensor<2x2xi32>\n    return %0 : tensor<2x2xi32>"),
         {MakeInt<int32_t>(S32, {4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})}, {MakeInt<int32_t>(S32, {2, 2}, {4, 6, 8, 10})});
  Expect("slice.generic.old", Main("%a: tensor<4xi32>", "tensor<1xi32>",
                                   "    %0 = \"stablehlo.slice\"(%a) {limit_indices = dense<2> : tensor<1xi64>, start_indices = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} : (tensor<4xi32>) -> tensor<1xi32>\n    return %0 : tensor<1xi32>"),
         {MakeInt<int32_t>(S32, {4}, {5, 6, 7, 8})}, {MakeInt<int32_t>(S32, {1}, {6})});
  Expect("dynamic_slice.clamp", Main("%a: tensor<4xi32>, %i: tensor<i32>", "tensor<2xi32>", "    %0 = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xi32>, tensor<i32>) -> tensor<2xi32>\n    return %0 : tensor<2xi32>"),
         {MakeInt<int32_t>(S32, {4}, {5, 6, 7, 8}), MakeInt<int32_t>(S32, {}, {9})}, {MakeInt<int32_t>(S32, {2}, {7, 8})});
  Expect("dynamic_update_slice", Main("%a: tensor<4xi32>, %u: tensor<2xi32>, %i: tensor<i32>", "tensor<4xi32>", "    %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>\n    return %0 : tensor<4xi32>"),
         {MakeInt<int32_t>(S32, {4}, {5, 6, 7, 8}), MakeInt<int32_t>(S32, {2}, {1, 2}), MakeInt<int32_t>(S32, {}, {-3})}, {MakeInt<int32_t>(S32, {4}, {1, 2, 7, 8})});
  Expect("concatenate", Main("%a: tensor<1x2xf32>, %b: tensor<2x2xf32>", "tensor<3x2xf32>", "    %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>\n    return %0 : tensor<3x2xf32>"),
         {Make(F32, {1, 2}, {1, 2}), Make(F32, {2, 2}, {3, 4, 5, 6})}, {Make(F32, {3, 2}, {1, 2, 3, 4, 5, 6})});
  Expect("pad", Main("%a: tensor<3xf32>, %v: tensor<f32>", "tensor<5xf32>", "    %0 = stablehlo.pad %a, %v, low = [1], high = [-1], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>\n    return %0 : tensor<5xf32>"),
         {Make(F32, {3}, {1, 2, 3}), Make(F32, {}, {9})}, {Make(F32, {5}, {9, 1, 9, 2, 9})});
  Expect("reverse", Main("%a: tensor<3x2xf32>", "tensor<3x2xf32>", "    %0 = stablehlo.reverse %a, dims = [0] : tensor<3x2xf32>\n    return %0 : tensor<3x2xf32>"),
         {Make(F32, {3, 2}, {1, 2, 3, 4, 5, 6})}, {Make(F32, {3, 2}, {5, 6, 3, 4, 1, 2})});
  Expect("select.scalar", Main("%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xf32>", "    %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>"),
         {Make(PRED, {}, {0}), Make(F32, {2}, {1, 2}), Make(F32, {2}, {3, 4})}, {Make(F32, {2}, {3, 4})});
  Expect("select", Main("%p: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xf32>", "    %0 = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xf32>\n    return %0 : tensor<2xf32>"),
         {Make(PRED, {2}, {1, 0}), Make(F32, {2}, {1, 2}), Make(F32, {2}, {3, 4})}, {Make(F32, {2}, {1, 4})});
  Expect("clamp", Main("%l: tensor<f32>, %x: tensor<3xf32>, %h: tensor<f32>", "tensor<3xf32>", "    %0 = stablehlo.clamp %l, %x, %h : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>\n    return %0 : tensor<3xf32>"),
         {Make(F32, {}, {0}), Make(F32, {3}, {-1, 0.5, 2}), Make(F32, {}, {1})}, {Make(F32, {3}, {0, 0.5, 1})});
  std::string dot = Main("%a: tensor<2x1x2xf32>, %b: tensor<2x2x1xf32>", "tensor<2x1x1xf32>",
                         "    %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x1x2xf32>, tensor<2x2x1xf32>) -> tensor<2x1x1xf32>\n    return %0 : tensor<2x1x1xf32>");
  Expect("dot_general.batch", dot, {Make(F32, {2, 1, 2}, {1, 2, 3, 4}), Make(F32, {2, 2, 1}, {5, 6, 7, 8})}, {Make(F32, {2, 1, 1}, {17, 53})});
  FaultHooks db; db.dot_general_ignores_batch = true;
  Expect("fault.dot_general_ignores_batch", dot, {Make(F32, {2, 1, 2}, {1, 2, 3, 4}), Make(F32, {2, 2, 1}, {5, 6, 7, 8})}, {Make(F32, {2, 1, 1}, {17, 17})}, db);
  Expect("dot_general.generic.mixed", Main("%a: tensor<2x3xi8>, %b: tensor<3xi8>", "tensor<2xi32>",
                                           "    %0 = \"stablehlo.dot_general\"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x3xi8>, tensor<3xi8>) -> tensor<2xi32>\n    return %0 : tensor<2xi32>"),
         {MakeInt<int8_t>(S8, {2, 3}, {100, 100, 100, 1, 2, 3}), MakeInt<int8_t>(S8, {3}, {100, 100, 100})}, {MakeInt<int32_t>(S32, {2}, {30000, 600})});
  std::string red = Main("%a: tensor<2x3xf32>", "tensor<2xf32>", "    %cst = stablehlo.constant dense<1.000000e+01> : tensor<f32>\n    %0 = stablehlo.reduce(%a init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>");
  Expect("reduce.compact", red, {Make(F32, {2, 3}, {1, 2, 3, 4, 5, 6})}, {Make(F32, {2}, {16, 25})});
  FaultHooks rd; rd.reduce_drops_init = true;
  Expect("fault.reduce_drops_init", red, {Make(F32, {2, 3}, {1, 2, 3, 4, 5, 6})}, {Make(F32, {2}, {6, 15})}, rd);
  Expect("reduce.argmax", Main("%v: tensor<4xf32>, %i: tensor<4xi32>", "tensor<f32>, tensor<i32>", R"(    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.reduce(%v init: %ninf), (%i init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
     reducer(%l0: tensor<f32>, %r0: tensor<f32>) (%l1: tensor<i32>, %r1: tensor<i32>)  {
      %gt = stablehlo.compare  GT, %r0, %l0,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %gt, %r0, %l0 : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %r1, %l1 : tensor<i1>, tensor<i32>
      stablehlo.return %m, %k : tensor<f32>, tensor<i32>
    }
    return %r#0, %r#1 : tensor<f32>, tensor<i32>)"),
         {Make(F32, {4}, {3, 9, 2, 9}), MakeInt<int32_t>(S32, {4}, {0, 1, 2, 3})}, {Make(F32, {}, {9}), MakeInt<int32_t>(S32, {}, {1})});
  Expect("reduce.generic", Main("%a: tensor<3xi32>", "tensor<i32>", R"(    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = "stablehlo.reduce"(%a, %c) ({
    ^bb0(%x: tensor<i32> loc("a"), %y: tensor<i32>):
      %s = "stablehlo.maximum"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
    return %0 : tensor<i32>)"),
         {MakeInt<int32_t>(S32, {3}, {4, -1, 7})}, {MakeInt<int32_t>(S32, {}, {7})});
  std::string wh = Main("%x: tensor<f32>", "tensor<i32>, tensor<f32>", R"(    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %x) : tensor<i32>, tensor<f32>
     cond {
      %c = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %c = stablehlo.constant dense<1> : tensor<i32>
      %i = stablehlo.add %iterArg, %c : tensor<i32>
      %y = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<f32>
      stablehlo.return %i, %y : tensor<i32>, tensor<f32>
    }
    return %r#0, %r#1 : tensor<i32>, tensor<f32>)");
  Expect("while", wh, {Make(F32, {}, {2})}, {MakeInt<int32_t>(S32, {}, {3}), Make(F32, {}, {256})});
  FaultHooks we; we.while_one_extra_iteration = true;
  Expect("fault.while_one_extra_iteration", wh, {Make(F32, {}, {2})}, {MakeInt<int32_t>(S32, {}, {4}), Make(F32, {}, {65536})}, we);
  std::string cs = Main("%i: tensor<i32>, %x: tensor<3xf32>", "tensor<3xf32>", R"(    %r = "stablehlo.case"(%i) ({
      %n = stablehlo.negate %x : tensor<3xf32>
      stablehlo.return %n : tensor<3xf32>
    }, {
      stablehlo.return %x : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    return %r : tensor<3xf32>)");
  Expect("case.0", cs, {MakeInt<int32_t>(S32, {}, {0}), Make(F32, {3}, {1, 2, 3})}, {Make(F32, {3}, {-1, -2, -3})});
  Expect("case.out_of_range", cs, {MakeInt<int32_t>(S32, {}, {-5}), Make(F32, {3}, {1, 2, 3})}, {Make(F32, {3}, {1, 2, 3})});
  Expect("if", Main("%p: tensor<i1>, %x: tensor<f32>", "tensor<f32>", R"(    %r = "stablehlo.if"(%p) ({
      stablehlo.return %x : tensor<f32>
    }, {
      %n = stablehlo.negate %x : tensor<f32>
      stablehlo.return %n : tensor<f32>
    }) : (tensor<i1>) -> tensor<f32>
    return %r : tensor<f32>)"),
         {Make(PRED, {}, {0}), Make(F32, {}, {4})}, {Make(F32, {}, {-4})});
  Expect("call.multi", R"(module {
  func.func public @main(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %0:2 = func.call @two(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %1, %2 = stablehlo.optimization_barrier %0#0, %0#1 : tensor<f32>, tensor<f32>
    return %1, %2 : tensor<f32>, tensor<f32>
  }
  func.func private @two(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %n = stablehlo.negate %a : tensor<f32>
    "func.return"(%a, %n) : (tensor<f32>, tensor<f32>) -> ()
  }
})",
         {Make(F32, {}, {5})}, {Make(F32, {}, {5}), Make(F32, {}, {-5})});
  FaultHooks ob; ob.op_off_by_one = "add";
  Expect("fault.op_off_by_one", Bin("add", "tensor<2xi32>"), {MakeInt<int32_t>(S32, {2}, {1, 2}), MakeInt<int32_t>(S32, {2}, {3, 4})}, {MakeInt<int32_t>(S32, {2}, {5, 7})}, ob);

  // module info
  g_case = "module.info";
  std::shared_ptr<const Module> m;
  Status s = Parse(R"(module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 3 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {jax.buffer_donor = true}, %arg1: tensor<3x4xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<2x4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
})", &m);
  CHECK(s.ok(), "%s", s.message.c_str());
  if (s.ok()) {
    CHECK(m->name() == "jit_f" && m->num_replicas() == 3 && m->num_partitions() == 2, "name/replicas");
    CHECK(m->param_attrs()[0].donor && !m->param_attrs()[1].donor && m->param_attrs()[1].aliased_output == 0 && m->param_attrs()[0].aliased_output == -1, "attrs");
    CHECK(m->result_types().size() == 1 && m->result_types()[0].ToString() == "tensor<2x4xf32>", "result types");
    CHECK(m->flops() == 2 * 3 * 8, "flops %g", m->flops());
    CHECK(m->bytes_accessed() > 0, "bytes");
    std::shared_ptr<const Module> again;
    Status s2 = Parse(m->text(), &again);
    CHECK(s2.ok(), "canonical text does not re-parse: %s\n%s", s2.message.c_str(), m->text().c_str());
  }
  g_case = "supported_ops";
  auto ops = SupportedOps();
  CHECK(ops.size() == OpTable().size() && ops.size() >= 68, "%zu ops", ops.size());
}

// The other CHLO ops XLA legalises: scan (and its composite form from XLA's serializer), top_k, the broadcasting ops,
// the special functions, is_inf, next_after; and the real_dynamic_slice and broadcast its decompositions use.
static void TestChlo() {
  const std::string scan_body =
      "^bb0(%e: tensor<f32>, %c: tensor<f32>):\n      %s = stablehlo.add %c, %e : tensor<f32>\n      stablehlo.return %s, %s : tensor<f32>, tensor<f32>\n    }";
  Expect("chlo.scan", Main("%a: tensor<3xf32>, %i: tensor<f32>", "tensor<3xf32>, tensor<f32>",
                           "    %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n    " + scan_body + " : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<f32>)\n    return %0#0, %0#1 : tensor<3xf32>, tensor<f32>"),
         {Make(F32, {3}, {1, 2, 4}), Make(F32, {}, {10})}, {Make(F32, {3}, {11, 13, 17}), Make(F32, {}, {17})});
  Expect("chlo.scan_reverse", Main("%a: tensor<3xf32>, %i: tensor<f32>", "tensor<3xf32>, tensor<f32>",
                                   "    %0:2 = chlo.scan(%a) inits(%i) dimension=0 attributes {is_reverse = true} {\n    " + scan_body + " : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<f32>)\n    return %0#0, %0#1 : tensor<3xf32>, tensor<f32>"),
         {Make(F32, {3}, {1, 2, 4}), Make(F32, {}, {10})}, {Make(F32, {3}, {17, 16, 14}), Make(F32, {}, {17})});
  // XLA's serializer: a composite named chlo.scan whose region is the body; its decomposition (here a stand-in that
  // negates) is not what runs: the composite is recomposed into the op, as XLA's compiler does
  Expect("chlo.scan_composite",
         "module {\n  func.func public @main(%a: tensor<3xf32>, %i: tensor<f32>) -> (tensor<3xf32>, tensor<f32>) {\n"
         "    %0:2 = stablehlo.composite \"chlo.scan\" %a, %i ({\n    " + scan_body + ") {composite_attributes = {dimension = 0 : i64, is_reverse = true, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}, decomposition = @chlo.scan.impl, version = 1 : i32} : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<f32>)\n"
         "    return %0#0, %0#1 : tensor<3xf32>, tensor<f32>\n  }\n"
         "  func.func private @chlo.scan.impl(%a: tensor<3xf32>, %i: tensor<f32>) -> (tensor<3xf32>, tensor<f32>) {\n"
         "    %n = stablehlo.negate %a : tensor<3xf32>\n    return %n, %i : tensor<3xf32>, tensor<f32>\n  }\n}",
         {Make(F32, {3}, {1, 2, 4}), Make(F32, {}, {10})}, {Make(F32, {3}, {17, 16, 14}), Make(F32, {}, {17})});
  Expect("chlo.top_k", Main("%a: tensor<5xf32>", "tensor<2xf32>, tensor<2xi32>", "    %0:2 = chlo.top_k(%a, k = 2) : tensor<5xf32> -> (tensor<2xf32>, tensor<2xi32>)\n    return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>"),
         {Make(F32, {5}, {1, 7, -3, 7, 2})}, {Make(F32, {2}, {7, 7}), MakeInt<int32_t>(S32, {2}, {1, 3})});
  Expect("chlo.broadcast_add", Main("%a: tensor<2x1xf32>, %b: tensor<3xf32>", "tensor<2x3xf32>", "    %0 = chlo.broadcast_add %a, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n    return %0 : tensor<2x3xf32>"),
         {Make(F32, {2, 1}, {1, 2}), Make(F32, {3}, {10, 20, 30})}, {Make(F32, {2, 3}, {11, 21, 31, 12, 22, 32})});
  Expect("chlo.broadcast_compare", Main("%a: tensor<f32>, %b: tensor<3xf32>", "tensor<3xi1>", "    %0 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<f32>, tensor<3xf32>) -> tensor<3xi1>\n    return %0 : tensor<3xi1>"),
         {Make(F32, {}, {2}), Make(F32, {3}, {1, 2, 3})}, {Bits(ElementType::PRED, {3}, {0, 0, 1})});
  ExpectError("invalid.chlo_broadcast_shapes", Main("%a: tensor<2xf32>, %b: tensor<3xf32>", "tensor<3xf32>", "    %0 = chlo.broadcast_add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<3xf32>\n    return %0 : tensor<3xf32>"),
              kInvalidArgument, "incompatible shapes");
  Expect("chlo.erf_inv", Main("%a: tensor<2xf64>", "tensor<2xf64>", "    %0 = chlo.erf_inv %a : tensor<2xf64> -> tensor<2xf64>\n    return %0 : tensor<2xf64>"), {Make(F64, {2}, {0.5204998778130465, 0})}, {Make(F64, {2}, {0.5, 0})});
  Expect("chlo.lgamma", Main("%a: tensor<2xf64>", "tensor<2xf64>", "    %0 = chlo.lgamma %a : tensor<2xf64> -> tensor<2xf64>\n    return %0 : tensor<2xf64>"), {Make(F64, {2}, {1, 3})}, {Make(F64, {2}, {0, std::log(2.0)})});
  Expect("chlo.is_pos_inf", Main("%a: tensor<3xf32>", "tensor<3xi1>", "    %0 = chlo.is_pos_inf %a : tensor<3xf32> -> tensor<3xi1>\n    return %0 : tensor<3xi1>"),
         {Bits(F32, {3}, {0x7F800000, 0xFF800000, 0x7FC00000})}, {Bits(ElementType::PRED, {3}, {1, 0, 0})});
  Expect("chlo.next_after", Main("%a: tensor<3xf32>, %b: tensor<3xf32>", "tensor<3xf32>", "    %0 = chlo.next_after %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>\n    return %0 : tensor<3xf32>"),
         {Bits(F32, {3}, {0x00000000, 0x3F800000, 0x3F800000}), Bits(F32, {3}, {0xBF800000, 0x40000000, 0x00000000})}, {Bits(F32, {3}, {0x80000001, 0x3F800001, 0x3F7FFFFF})});
  Expect("real_dynamic_slice", Main("%a: tensor<5xf32>, %s: tensor<1xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>", "tensor<2xf32>",
                                    "    %0 = stablehlo.real_dynamic_slice %a, %s, %l, %t : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>"),
         {Make(F32, {5}, {0, 1, 2, 3, 4}), MakeInt<int64_t>(ElementType::S64, {1}, {1}), MakeInt<int64_t>(ElementType::S64, {1}, {5}), MakeInt<int64_t>(ElementType::S64, {1}, {2})},
         {Make(F32, {2}, {1, 3})});
  Expect("broadcast", Main("%a: tensor<2xf32>", "tensor<3x2xf32>", "    %0 = stablehlo.broadcast %a, sizes = [3] : (tensor<2xf32>) -> tensor<3x2xf32>\n    return %0 : tensor<3x2xf32>"),
         {Make(F32, {2}, {1, 2})}, {Make(F32, {3, 2}, {1, 2, 1, 2, 1, 2})});
}

// ---------------------------------------------------------------- errors
// Literals of the sub-byte and small float types, reduce_precision to no mantissa bits, and the ops added for the
// StableHLO interpreter tests (chlo.mulhi, the dynamic-shape ops with static operands, map, composite).
static void TestLiteralsAndAddedOps() {
  Expect("literal.i4", Main("", "tensor<3xi4>", "    %0 = stablehlo.constant dense<[-8, 7, -1]> : tensor<3xi4>\n    return %0 : tensor<3xi4>"), {},
         {Bits(ElementType::S4, {3}, {0x8, 0x7, 0xF})});
  const std::string e8m0 = Main("", "tensor<2xf8E8M0FNU>", "    %0 = stablehlo.constant dense<[0.0, 2.0]> : tensor<2xf8E8M0FNU>\n    return %0 : tensor<2xf8E8M0FNU>");
  Expect("literal.e8m0_zero", e8m0, {}, {Bits(ElementType::F8E8M0FNU, {2}, {0x00, 0x80})});
  FaultHooks nan; nan.e8m0_zero_literal_is_nan = true;
  Expect("literal.e8m0_zero_fault", e8m0, {}, {Bits(ElementType::F8E8M0FNU, {2}, {0xFF, 0x80})}, nan);
  Expect("reduce_precision.no_mantissa_nan", Main("%a: tensor<3xf32>", "tensor<3xf32>", "    %0 = stablehlo.reduce_precision %a, format = e5m0 : tensor<3xf32>\n    return %0 : tensor<3xf32>"),
         {Bits(F32, {3}, {0x7FC00000, 0xFFC00000, 0x3FC00000})}, {Bits(F32, {3}, {0x7F800000, 0x7F800000, 0x40000000})});
  Expect("chlo.mulhi", Main("%a: tensor<2xi8>, %b: tensor<2xi8>", "tensor<2xi8>", "    %0 = \"chlo.mulhi\"(%a, %b) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>\n    return %0 : tensor<2xi8>"),
         {MakeInt<int8_t>(S8, {2}, {127, -128}), MakeInt<int8_t>(S8, {2}, {127, 127})}, {MakeInt<int8_t>(S8, {2}, {63, -64})});
  Expect("dynamic_iota", Main("", "tensor<2x2xi32>", "    %s = stablehlo.constant dense<[2, 2]> : tensor<2xi64>\n    %0 = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<2x2xi32>\n    return %0 : tensor<2x2xi32>"),
         {}, {MakeInt<int32_t>(S32, {2, 2}, {0, 1, 0, 1})});
  Expect("get_dimension_size", Main("%a: tensor<2x5xf32>", "tensor<i32>", "    %0 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x5xf32>) -> tensor<i32>\n    return %0 : tensor<i32>"),
         {Make(F32, {2, 5}, std::vector<double>(10, 1))}, {MakeInt<int32_t>(S32, {}, {5})});
  Expect("map", Main("%a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xf32>",
                     "    %0 = \"stablehlo.map\"(%a, %b) <{dimensions = array<i64: 0>}> ({\n    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n      %m = stablehlo.multiply %x, %y : tensor<f32>\n      stablehlo.return %m : tensor<f32>\n    }) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>"),
         {Make(F32, {2}, {2, 3}), Make(F32, {2}, {4, -1})}, {Make(F32, {2}, {8, -3})});
  // bitcast_convert with i1 counts it as one bit, least significant first (the spec's interpreter tests)
  Expect("bitcast.to_i1", Un("bitcast_convert", "tensor<i16>", "tensor<16xi1>"), {MakeInt<int16_t>(ElementType::S16, {}, {0x0103})},
         {Bits(ElementType::PRED, {16}, {1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})});
  Expect("bitcast.from_i1", Un("bitcast_convert", "tensor<2x8xi1>", "tensor<2xui8>"), {Bits(ElementType::PRED, {2, 8}, {0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1})},
         {MakeInt<uint8_t>(ElementType::U8, {2}, {0x82, 0xFF})});
  ExpectError("invalid.dynamic_pad_rank", Main("%a: tensor<2xf32>, %p: tensor<f32>, %l: tensor<3xi64>", "tensor<4xf32>",
              "    %0 = stablehlo.dynamic_pad %a, %p, %l, %l, %l : (tensor<2xf32>, tensor<f32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<4xf32>\n    return %0 : tensor<4xf32>"),
              kInvalidArgument, "one entry per operand dimension");
}

static void TestErrors() {
  ExpectError("parse.linecol", "module {\n  func.func public @main() -> () {\n    %0 = = \n  }\n}", kInvalidArgument, "line 3 column");
  ExpectError("parse.garbage", "\x01\x02garbage", kInvalidArgument, "line 1 column 1");
  ExpectError("parse.undefined", Main("", "tensor<f32>", "    return %nope : tensor<f32>"), kInvalidArgument, "undefined value");
  ExpectError("type.add", Main("%a: tensor<3xf32>, %b: tensor<4xf32>", "tensor<4xf32>", "    %0 = stablehlo.add %a, %b : tensor<4xf32>\n    return %0 : tensor<4xf32>"),
              kInvalidArgument, "stablehlo.add");
  ExpectError("type.generic", Main("%a: tensor<3xf32>, %b: tensor<3xi32>", "tensor<3xf32>", "    %0 = \"stablehlo.multiply\"(%a, %b) : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>\n    return %0 : tensor<3xf32>"),
              kInvalidArgument, "stablehlo.multiply");
  ExpectError("type.return", Main("%a: tensor<3xf32>", "tensor<4xf32>", "    return %a : tensor<3xf32>"), kInvalidArgument, "func.return");
  ExpectError("type.float_only", Main("%a: tensor<3xi32>", "tensor<3xi32>", "    %0 = stablehlo.exponential %a : tensor<3xi32>\n    return %0 : tensor<3xi32>"),
              kInvalidArgument, "stablehlo.exponential");
  ExpectError("unsupported.chlo", Main("%a: tensor<2x2xf32>", "tensor<2x2xf32>", "    %0 = \"chlo.ragged_dot\"(%a, %a, %a) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n    return %0 : tensor<2x2xf32>"), kUnimplemented, "chlo.ragged_dot");
  ExpectError("unsupported.custom_call", Main("%a: tensor<f32>", "tensor<f32>", "    %0 = stablehlo.custom_call @lapack_foo(%a) : (tensor<f32>) -> tensor<f32>\n    return %0 : tensor<f32>"),
              kUnimplemented, "custom_call @lapack_foo");
  ExpectError("invalid.sort_no_comparator", Main("%a: tensor<2xf32>", "tensor<2xf32>", "    %0 = \"stablehlo.sort\"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>"), kInvalidArgument, "comparator");
  ExpectError("unsupported.complex_cbrt", Un("cbrt", "tensor<2xcomplex<f32>>"), kUnimplemented, "complex<f32>");
  ExpectError("unsupported.complex_lt", Main("%a: tensor<2xcomplex<f32>>", "tensor<2xi1>", "    %0 = stablehlo.compare LT, %a, %a : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>\n    return %0 : tensor<2xi1>"),
              kUnimplemented, "ordering comparison of complex");
  ExpectError("invalid.complex_literal_one_part", Main("", "tensor<complex<f32>>", "    %0 = stablehlo.constant dense<1.0> : tensor<complex<f32>>\n    return %0 : tensor<complex<f32>>"), kInvalidArgument, "(re, im)");
  ExpectError("invalid.i4_literal_out_of_range", Main("", "tensor<i4>", "    %0 = stablehlo.constant dense<8> : tensor<i4>\n    return %0 : tensor<i4>"), kInvalidArgument, "out of range");
  ExpectError("unsupported.complex_f16", Main("%a: tensor<2xf16>", "tensor<2xcomplex<f16>>", "    return %a : tensor<2xcomplex<f16>>"), kUnimplemented, "complex<f16>");
  // The error rule: a valid program this interpreter cannot run is UNIMPLEMENTED (a verifier's Unsupported answer),
  // only an invalid one INVALID_ARGUMENT.
  ExpectError("invalid.bitcast_i1_width", Un("bitcast_convert", "tensor<4xi1>", "tensor<i8>"), kInvalidArgument, "last dimension must be 8");
  ExpectError("invalid.reduce_precision", Main("%a: tensor<2xf32>", "tensor<2xf32>", "    %0 = stablehlo.reduce_precision %a, format = e0m3 : tensor<2xf32>\n    return %0 : tensor<2xf32>"),
              kInvalidArgument, "exponent_bits");
  ExpectError("too.large", Main("%a: tensor<65536x65536xf32>", "tensor<65536x65536xf32>", "    return %a : tensor<65536x65536xf32>"), kInvalidArgument, "too many elements");
  ExpectError("recursion", "module {\n func.func public @main(%a: tensor<f32>) -> tensor<f32> {\n  %0 = call @main(%a) : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n }\n}", kInvalidArgument, "recursive");
  ExpectError("literal.range", Main("", "tensor<i8>", "    %c = stablehlo.constant dense<300> : tensor<i8>\n    return %c : tensor<i8>"), kInvalidArgument, "out of range");
  ExpectError("deep.nesting", std::string(5000, '[') , kInvalidArgument, "line 1");
  {
    g_case = "fault.compile_accepts_garbage";
    FaultHooks h; h.compile_accepts_garbage = true;
    std::shared_ptr<const Module> m;
    Status s = Parse("this is not a program", h, &m);
    CHECK(s.ok() && m && m->param_types().empty() && m->result_types().empty(), "%s", s.message.c_str());
  }
  {
    g_case = "execute.bad_args";
    std::vector<std::vector<Tensor>> out;
    Status s = RunProgram(Bin("add", "tensor<2xf32>"), {{Make(F32, {3}, {1, 2, 3}), Make(F32, {2}, {1, 2})}}, &out);
    CHECK(s.code == kInvalidArgument, "%d %s", s.code, s.message.c_str());
  }
  // Nested parentheses/brackets/regions must not blow the stack.
  std::string deep = Main("%a: tensor<f32>", "tensor<f32>", "    %0 = \"stablehlo.case\"(%a) (" + std::string(20000, '{') + ") : ()");
  ExpectError("deep.regions", deep, kInvalidArgument, "line");
  std::string deep_attr = Main("", "tensor<f32>", "    %0 = stablehlo.constant {a = " + std::string(20000, '[') + "} dense<1.0> : tensor<f32>\n    return %0 : tensor<f32>");
  ExpectError("deep.attrs", deep_attr, kInvalidArgument, "nesting too deep");
}

// ---------------------------------------------------------------- sub-byte integers (one element per byte)
static void TestSubByte() {
  const ElementType S4 = ElementType::S4, U4 = ElementType::U4, S2 = ElementType::S2, U2 = ElementType::U2;
  // f32 -> i4 truncates toward zero and saturates to [-8, 7]; NaN -> 0. Stored values keep the high bits zero.
  Expect("s4.from_f32", Un("convert", "tensor<8xf32>", "tensor<8xi4>"), {Make(F32, {8}, {1, -2, 7.9, -8.5, 100, -100, kNaN, -0.5})},
         {Bits(ElementType::S4, {8}, {1, 0xe, 7, 8, 7, 8, 0, 0})});
  Expect("s4.to_s32", Un("convert", "tensor<4xi4>", "tensor<4xi32>"), {Bits(ElementType::S4, {4}, {1, 0xe, 7, 8})},
         {MakeInt<int32_t>(S32, {4}, {1, -2, 7, -8})});
  Expect("u4.from_s32", Un("convert", "tensor<4xi32>", "tensor<4xui4>"), {MakeInt<int32_t>(S32, {4}, {1, 15, 16, -1})},
         {Bits(U4, {4}, {1, 15, 0, 15})});  // int -> int keeps the low bits
  Expect("u4.to_f32", Un("convert", "tensor<3xui4>", "tensor<3xf32>"), {Bits(U4, {3}, {0, 9, 15})}, {Make(F32, {3}, {0, 9, 15})});
  Expect("s2.roundtrip", Un("convert", "tensor<4xi2>", "tensor<4xi8>"), {Bits(S2, {4}, {0, 1, 2, 3})},
         {MakeInt<int8_t>(S8, {4}, {0, 1, -2, -1})});
  Expect("u2.from_f32", Un("convert", "tensor<3xf32>", "tensor<3xui2>"), {Make(F32, {3}, {-1, 2.5, 9})}, {Bits(U2, {3}, {0, 2, 3})});
  Expect("s4.reshape", Main("%a: tensor<2x2xi4>", "tensor<4xi4>", "    %0 = stablehlo.reshape %a : (tensor<2x2xi4>) -> tensor<4xi4>\n    return %0 : tensor<4xi4>"),
         {Bits(ElementType::S4, {2, 2}, {1, 2, 3, 4})}, {Bits(S4, {4}, {1, 2, 3, 4})});
  // arithmetic wraps in the type's own width: 7 + 1 = -8, -8 + -1 = 7
  Expect("s4.add_wraps", Bin("add", "tensor<4xi4>"), {Bits(ElementType::S4, {4}, {7, 8, 1, 0xe}), Bits(S4, {4}, {1, 0xf, 2, 0xe})},
         {Bits(ElementType::S4, {4}, {8, 7, 3, 0xc})});
}

// The small floats: every pattern decodes and re-encodes to itself (NaNs to the format's NaN), and the f6 types,
// which no XLA program can check (XLA's CPU compiler rejects them), round and compute as ml_dtypes 0.6 says.
static void TestSmallFloats() {
  const ElementType kAll[] = {ElementType::F8E5M2, ElementType::F8E4M3FN, ElementType::F8E4M3B11FNUZ, ElementType::F8E5M2FNUZ,
                              ElementType::F8E4M3FNUZ, ElementType::F8E4M3, ElementType::F8E3M4, ElementType::F8E8M0FNU,
                              ElementType::F4E2M1FN, ElementType::F6E2M3FN, ElementType::F6E3M2FN};
  for (ElementType t : kAll) {
    g_case = std::string("small_float.roundtrip.") + ElementTypeName(t);
    const SmallFloatFormat& f = *SmallFormatOf(t);
    for (int b = 0; b < (1 << f.bits()); ++b) {
      double v = DecodeSmallFloat(f, static_cast<uint8_t>(b));
      int want = std::isnan(v) ? f.nan_bits : b;
      if (f.nan == SmallNan::kNegZero && v == 0) want = 0;  // no -0: the zero is unsigned
      CHECK(EncodeSmallFloat(f, v) == want, "pattern 0x%02x (%g) encodes to 0x%02x", b, v, EncodeSmallFloat(f, v));
    }
  }
  const ElementType F6A = ElementType::F6E2M3FN, F6B = ElementType::F6E3M2FN, F4 = ElementType::F4E2M1FN;
  // f6E2M3FN: max 7.5, no inf/NaN (saturates), 0.0625 is the tie below its smallest subnormal 0.125
  Expect("f6e2m3fn.from_f32", Un("convert", "tensor<8xf32>", "tensor<8xf6E2M3FN>"),
         {Make(F32, {8}, {1, 7.5, 7.75, 100, -kInf, 0.0625, 0.1875, 1.0625})}, {Bits(F6A, {8}, {0x08, 0x1f, 0x1f, 0x1f, 0x3f, 0x00, 0x02, 0x08})});
  // f6E3M2FN: bias 3, max 28; 30 is the tie above 28 (odd mantissa): rounds up, saturates
  Expect("f6e3m2fn.from_f32", Un("convert", "tensor<6xf32>", "tensor<6xf6E3M2FN>"),
         {Make(F32, {6}, {1, 28, 30, 0.0625, 0.09375, -1.125})}, {Bits(F6B, {6}, {0x0c, 0x1f, 0x1f, 0x01, 0x02, 0x2c})});
  Expect("f6e2m3fn.add", Bin("add", "tensor<3xf6E2M3FN>"), {Bits(F6A, {3}, {0x0c, 0x1f, 0x01}), Bits(F6A, {3}, {0x0c, 0x1f, 0x01})},
         {Bits(F6A, {3}, {0x14, 0x1f, 0x02})});  // 1.5+1.5 = 3; 7.5+7.5 saturates; 0.125+0.125
  Expect("f4.multiply", Bin("multiply", "tensor<3xf4E2M1FN>"), {Bits(F4, {3}, {0x1, 0x3, 0x5}), Bits(F4, {3}, {0x1, 0x1, 0x3})},
         {Bits(F4, {3}, {0x0, 0x2, 0x6})});  // 0.5·0.5 = 0.25 ties to 0; 1.5·0.5 = 0.75 ties to 1; 3·1.5 = 4.5 → 4
}

// ---------------------------------------------------------------- collectives
static std::vector<std::vector<Tensor>> PerReplica(int n, std::function<Tensor(int)> f) {
  std::vector<std::vector<Tensor>> a;
  for (int i = 0; i < n; ++i) a.push_back({f(i)});
  return a;
}

static void ExpectMulti(const std::string& name, const std::string& text, const std::vector<std::vector<Tensor>>& args,
                        const std::vector<Tensor>& want, const FaultHooks& hooks = FaultHooks{}) {
  g_case = name;
  std::vector<std::vector<Tensor>> out;
  Status s = RunProgram(text, args, &out, hooks);
  CHECK(s.ok(), "%s", s.message.c_str());
  if (!s.ok()) return;
  for (size_t i = 0; i < want.size(); ++i) {
    std::string why;
    CHECK(Same(out[i][0], want[i], &why), "instance %zu: %s", i, why.c_str());
  }
}

// ExpectMulti for programs with several results: want[i] are instance i's results (g_case named by the caller).
static void ExpectMultiResults(const std::string& text, const std::vector<std::vector<Tensor>>& args,
                               const std::vector<std::vector<Tensor>>& want) {
  std::vector<std::vector<Tensor>> out;
  Status s = RunProgram(text, args, &out, FaultHooks{});
  CHECK(s.ok(), "%s", s.message.c_str());
  for (size_t i = 0; s.ok() && i < want.size(); ++i)
    for (size_t k = 0; k < want[i].size(); ++k) {
      std::string why;
      CHECK(k < out[i].size() && Same(out[i][k], want[i][k], &why), "instance %zu result %zu: %s", i, k, why.c_str());
    }
}

static const char* kSumRegion = R"(({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }))";

static void TestCollectives() {
  // jax.pmap(lambda x: x + jax.lax.psum(x, 'i')) on 4 replicas with arange(4) -> [6 7 8 9]
  std::string psum = Main("%x: tensor<f32>", "tensor<f32>",
                          std::string("    %0 = \"stablehlo.all_reduce\"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> ") +
                              kSumRegion + " : (tensor<f32>) -> tensor<f32>\n    %1 = stablehlo.add %x, %0 : tensor<f32>\n    return %1 : tensor<f32>",
                          4);
  ExpectMulti("psum.pmap", psum, PerReplica(4, [](int i) { return Make(F32, {}, {double(i)}); }),
              {Make(F32, {}, {6}), Make(F32, {}, {7}), Make(F32, {}, {8}), Make(F32, {}, {9})});
  std::string grouped = Main("%x: tensor<2xf32>", "tensor<2xf32>",
                             std::string("    %0 = \"stablehlo.all_reduce\"(%x) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> ") +
                                 R"(({
    ^bb0(%x0: tensor<f32>, %y0: tensor<f32>):
      %s = stablehlo.add %x0, %y0 : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>)",
                             4);
  auto four = [](int i) { return Make(F32, {2}, {double(i), 10.0 * i}); };
  ExpectMulti("all_reduce.groups", grouped, PerReplica(4, four),
              {Make(F32, {2}, {1, 10}), Make(F32, {2}, {1, 10}), Make(F32, {2}, {5, 50}), Make(F32, {2}, {5, 50})});
  FaultHooks wg; wg.all_reduce_wrong_groups = true;
  ExpectMulti("fault.all_reduce_wrong_groups", grouped, PerReplica(4, four), {Make(F32, {2}, {6, 60})}, wg);
  std::string rid = Main("", "tensor<ui32>", "    %0 = stablehlo.replica_id : tensor<ui32>\n    return %0 : tensor<ui32>", 2);
  ExpectMulti("replica_id", rid, {{}, {}}, {MakeInt<uint32_t>(U32, {}, {0}), MakeInt<uint32_t>(U32, {}, {1})});
  FaultHooks rz; rz.replica_id_zero = true;
  ExpectMulti("fault.replica_id_zero", rid, {{}, {}}, {MakeInt<uint32_t>(U32, {}, {0}), MakeInt<uint32_t>(U32, {}, {0})}, rz);
  ExpectMulti("all_gather", Main("%x: tensor<2xf32>", "tensor<4xf32>", "    %0 = \"stablehlo.all_gather\"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>\n    return %0 : tensor<4xf32>", 2),
              PerReplica(2, [](int i) { return Make(F32, {2}, {double(i), double(i) + 0.5}); }), {Make(F32, {4}, {1, 1.5, 0, 0.5}), Make(F32, {4}, {1, 1.5, 0, 0.5})});
  ExpectMulti("reduce_scatter", Main("%x: tensor<4xf32>", "tensor<2xf32>", std::string("    %0 = \"stablehlo.reduce_scatter\"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ") + kSumRegion + " : (tensor<4xf32>) -> tensor<2xf32>\n    return %0 : tensor<2xf32>", 2),
              PerReplica(2, [](int i) { return Make(F32, {4}, {1.0 + i, 2, 3, 4.0 * i}); }), {Make(F32, {2}, {3, 4}), Make(F32, {2}, {6, 4})});
  ExpectMulti("all_to_all", Main("%x: tensor<2x4xf32>", "tensor<4x2xf32>", "    %0 = \"stablehlo.all_to_all\"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>\n    return %0 : tensor<4x2xf32>", 2),
              PerReplica(2, [](int i) { double b = 10.0 * i; return Make(F32, {2, 4}, {b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7}); }),
              {Make(F32, {4, 2}, {0, 1, 4, 5, 10, 11, 14, 15}), Make(F32, {4, 2}, {2, 3, 6, 7, 12, 13, 16, 17})});
  {
    // variadic all_to_all (the spec splits every operand; XLA lowers it to HLO's tuple all-to-all, so no corpus program)
    g_case = "all_to_all.variadic";
    std::string text = Main("%x: tensor<4xf32>, %y: tensor<2xf32>", "tensor<4xf32>, tensor<2xf32>",
                            "    %0:2 = \"stablehlo.all_to_all\"(%x, %y) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>)\n    return %0#0, %0#1 : tensor<4xf32>, tensor<2xf32>", 2);
    std::vector<std::vector<Tensor>> args;
    for (int r = 0; r < 2; ++r) args.push_back({Make(F32, {4}, {10.0 * r, 10.0 * r + 1, 10.0 * r + 2, 10.0 * r + 3}), Make(F32, {2}, {100.0 * r, 100.0 * r + 1})});
    std::vector<std::vector<Tensor>> want = {{Make(F32, {4}, {0, 1, 10, 11}), Make(F32, {2}, {0, 100})}, {Make(F32, {4}, {2, 3, 12, 13}), Make(F32, {2}, {1, 101})}};
    ExpectMultiResults(text, args, want);
  }
  std::string perm = Main("%x: tensor<f32>", "tensor<f32>", "    %0 = \"stablehlo.collective_permute\"(%x) <{source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : (tensor<f32>) -> tensor<f32>\n    return %0 : tensor<f32>", 3);
  auto three = [](int i) { return Make(F32, {}, {i + 1.0}); };
  ExpectMulti("collective_permute", perm, PerReplica(3, three), {Make(F32, {}, {0}), Make(F32, {}, {1}), Make(F32, {}, {2})});
  // collective_broadcast: the group's first process to the whole group (2 -> 1), replica 0 in no group gets zeros
  std::string bcast = Main("%x: tensor<f32>", "tensor<f32>", "    %0 = \"stablehlo.collective_broadcast\"(%x) <{replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>}> : (tensor<f32>) -> tensor<f32>\n    return %0 : tensor<f32>", 3);
  ExpectMulti("collective_broadcast", bcast, PerReplica(3, three), {Make(F32, {}, {0}), Make(F32, {}, {3}), Make(F32, {}, {3})});
  // collective_reduce (StableHLO's interpreter test): the group's reduction lands on its root (the first process), zeros elsewhere
  std::string creduce = Main("%x: tensor<4xi64>", "tensor<4xi64>", R"(    %0 = "stablehlo.collective_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<4xi64>) -> tensor<4xi64>
    return %0 : tensor<4xi64>)", 2);
  ExpectMulti("collective_reduce", creduce, {{MakeInt<int64_t>(S64, {4}, {1, 2, 3, 4})}, {MakeInt<int64_t>(S64, {4}, {5, 6, 7, 8})}},
              {MakeInt<int64_t>(S64, {4}, {6, 8, 10, 12}), MakeInt<int64_t>(S64, {4}, {0, 0, 0, 0})});
  {
    // has_dynamic_root: the last operand names each data operand's root by its index in the group ([2, 0]: 1 -> replica 0,
    // 0 -> replica 2); replica 1 is in no group and gets zeros
    g_case = "collective_reduce.dynamic_root";
    std::string text = Main("%x: tensor<f32>, %y: tensor<2xf32>, %roots: tensor<2xi32>", "tensor<f32>, tensor<2xf32>", std::string(
        "    %0:2 = \"stablehlo.collective_reduce\"(%x, %y, %roots) ") + kSumRegion +
        " {replica_groups = dense<[[2, 0]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<f32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<f32>, tensor<2xf32>)\n"
        "    return %0#0, %0#1 : tensor<f32>, tensor<2xf32>", 3);
    std::vector<std::vector<Tensor>> args;
    for (int r = 0; r < 3; ++r) args.push_back({Make(F32, {}, {r + 1.0}), Make(F32, {2}, {10.0 * r, 1}), MakeInt<int32_t>(S32, {2}, {1, 0})});
    std::vector<std::vector<Tensor>> want = {{Make(F32, {}, {4}), Make(F32, {2}, {0, 0})},
                                             {Make(F32, {}, {0}), Make(F32, {2}, {0, 0})},
                                             {Make(F32, {}, {0}), Make(F32, {2}, {20, 2})}};
    ExpectMultiResults(text, args, want);
  }
  {
    // has_dynamic_root (StableHLO's interpreter test has_dynamic_root): the roots operand [1] makes process 1 the source
    g_case = "collective_broadcast.dynamic_root";
    std::string text = Main("%x: tensor<1x2xi64>, %root: tensor<1xi32>", "tensor<1x2xi64>",
                            "    %0 = \"stablehlo.collective_broadcast\"(%x, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root}"
                            " : (tensor<1x2xi64>, tensor<1xi32>) -> tensor<1x2xi64>\n    return %0 : tensor<1x2xi64>", 2);
    auto root = MakeInt<int32_t>(S32, {1}, {1});
    ExpectMultiResults(text, {{MakeInt<int64_t>(S64, {1, 2}, {1, 2}), root}, {MakeInt<int64_t>(S64, {1, 2}, {3, 4}), root}},
                       {{MakeInt<int64_t>(S64, {1, 2}, {3, 4})}, {MakeInt<int64_t>(S64, {1, 2}, {3, 4})}});
    // a root that is no index into the group (the spec's (C6)) is an error, not a read past the group
    g_case = "collective_broadcast.dynamic_root_out_of_group";
    std::vector<std::vector<Tensor>> out;
    auto bad = MakeInt<int32_t>(S32, {1}, {2});
    Status s = RunProgram(text, {{MakeInt<int64_t>(S64, {1, 2}, {1, 2}), bad}, {MakeInt<int64_t>(S64, {1, 2}, {3, 4}), bad}}, &out);
    CHECK(!s.ok() && s.code == kInvalidArgument && s.message.find("not an index into its group") != std::string::npos, "%s", s.message.c_str());
  }
  {
    // has_dynamic_root, variadic (StableHLO's interpreter test has_dynamic_root_variadic): roots [0, 1] send data0 from
    // process 0 and data1 from process 1
    g_case = "collective_broadcast.dynamic_root_variadic";
    std::string text = Main("%d0: tensor<1x2xi64>, %d1: tensor<1x2xi64>, %root: tensor<2xi32>", "tensor<1x2xi64>, tensor<1x2xi64>",
                            "    %0:2 = \"stablehlo.collective_broadcast\"(%d0, %d1, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root}"
                            " : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<2xi32>) -> (tensor<1x2xi64>, tensor<1x2xi64>)\n"
                            "    return %0#0, %0#1 : tensor<1x2xi64>, tensor<1x2xi64>", 2);
    auto roots = MakeInt<int32_t>(S32, {2}, {0, 1});
    std::vector<Tensor> want = {MakeInt<int64_t>(S64, {1, 2}, {1, 2}), MakeInt<int64_t>(S64, {1, 2}, {7, 8})};
    ExpectMultiResults(text, {{MakeInt<int64_t>(S64, {1, 2}, {1, 2}), MakeInt<int64_t>(S64, {1, 2}, {5, 6}), roots},
                              {MakeInt<int64_t>(S64, {1, 2}, {3, 4}), MakeInt<int64_t>(S64, {1, 2}, {7, 8}), roots}},
                       {want, want});
  }
  {
    // variadic without a dynamic root: every operand from the group's first process (2); replica 0 is in no group
    g_case = "collective_broadcast.variadic";
    std::string text = Main("%x: tensor<f32>, %y: tensor<2xi32>", "tensor<f32>, tensor<2xi32>",
                            "    %0:2 = \"stablehlo.collective_broadcast\"(%x, %y) <{replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>}>"
                            " : (tensor<f32>, tensor<2xi32>) -> (tensor<f32>, tensor<2xi32>)\n    return %0#0, %0#1 : tensor<f32>, tensor<2xi32>", 3);
    std::vector<std::vector<Tensor>> args;
    for (int r = 0; r < 3; ++r) args.push_back({Make(F32, {}, {r + 1.0}), MakeInt<int32_t>(S32, {2}, {10 * r, 10 * r + 1})});
    std::vector<Tensor> from2 = {Make(F32, {}, {3}), MakeInt<int32_t>(S32, {2}, {20, 21})};
    ExpectMultiResults(text, args, {{Make(F32, {}, {0}), MakeInt<int32_t>(S32, {2}, {0, 0})}, from2, from2});
  }
  ExpectError("invalid.collective_broadcast_roots_type",
              Main("%x: tensor<f32>, %r: tensor<2xi32>", "tensor<f32>",
                   "    %0 = \"stablehlo.collective_broadcast\"(%x, %r) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root}"
                   " : (tensor<f32>, tensor<2xi32>) -> tensor<f32>\n    return %0 : tensor<f32>", 2),
              kInvalidArgument, "the roots operand must be tensor<1xi32>");
  FaultHooks cr; cr.collective_permute_reversed = true;
  ExpectMulti("fault.collective_permute_reversed", perm, PerReplica(3, three), {Make(F32, {}, {2}), Make(F32, {}, {3}), Make(F32, {}, {0})}, cr);
  // Only replica 0 reaches the all_reduce: must fail, not hang.
  g_case = "collective.mismatch_no_deadlock";
  std::string mismatch = Main("%x: tensor<f32>", "tensor<f32>", std::string(R"(    %id = stablehlo.replica_id : tensor<ui32>
    %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
    %r = "stablehlo.case"(%i) ({
      %s = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> )") + kSumRegion + R"( : (tensor<f32>) -> tensor<f32>
      stablehlo.return %s : tensor<f32>
    }, {
      stablehlo.return %x : tensor<f32>
    }) : (tensor<i32>) -> tensor<f32>
    return %r : tensor<f32>)", 2);
  std::vector<std::vector<Tensor>> out;
  Status s = RunProgram(mismatch, PerReplica(2, three), &out);
  CHECK(!s.ok(), "mismatched collectives succeeded");
  // One instance divides by zero under the trap fault? No: a failing instance = bad arg count is checked up front;
  // use a while loop in one instance that waits forever on the others -> aborted when the peer fails.
}

// Host transfers: send hands the value to the instance's HostTransfers, recv takes its tensor from it; tokens only
// order them. Without a HostTransfers, send/recv fail; tokens in other ops and device channels are unimplemented.
struct FakeHost : HostTransfers {
  std::vector<std::pair<int64_t, Tensor>> sent;
  Tensor to_receive;
  Status Send(int64_t channel, const Tensor& value) override {
    sent.emplace_back(channel, value);
    return Status{};
  }
  Status Recv(int64_t channel, Tensor* out) override {
    if (channel != 2) return Status{kNotFound, "no channel " + std::to_string(channel)};
    out->bytes = to_receive.bytes;
    return Status{};
  }
};

static void TestHostTransfers() {
  const std::string ty = "tensor<3xf32>", tok = "!stablehlo.token";
  auto ch = [](int h, int t) { return "{channel_handle = #stablehlo.channel_handle<handle = " + std::to_string(h) + ", type = " + std::to_string(t) + ">, is_host_transfer = true}"; };
  std::string body = "    %t0 = \"stablehlo.after_all\"() : () -> " + tok + "\n" +
                     "    %t1 = \"stablehlo.send\"(%a, %t0) " + ch(1, 2) + " : (" + ty + ", " + tok + ") -> " + tok + "\n" +
                     "    %r:2 = \"stablehlo.recv\"(%t1) " + ch(2, 3) + " : (" + tok + ") -> (" + ty + ", " + tok + ")\n" +
                     "    %0 = stablehlo.add %a, %r#0 : " + ty + "\n    return %0 : " + ty;
  std::string text = Main("%a: " + ty, ty, body);
  g_case = "host.roundtrip";
  std::shared_ptr<const Module> m;
  Status s = Parse(text, &m);
  CHECK(s.ok(), "parse: %s", s.message.c_str());
  if (!s.ok()) return;
  FakeHost host;
  host.to_receive = Make(F32, {3}, {10, 20, 30});
  std::vector<std::vector<Tensor>> out;
  s = Execute(*m, {{Make(F32, {3}, {1, 2, 3})}}, FaultHooks{}, &out, {&host});
  CHECK(s.ok(), "execute: %s", s.message.c_str());
  if (s.ok()) {
    std::string why;
    CHECK(Same(out[0][0], Make(F32, {3}, {11, 22, 33}), &why), "result: %s", why.c_str());
    CHECK(host.sent.size() == 1 && host.sent[0].first == 1, "one send on channel 1, got %zu", host.sent.size());
    CHECK(host.sent.size() == 1 && Same(host.sent[0].second, Make(F32, {3}, {1, 2, 3}), &why), "sent value: %s", why.c_str());
  }
  g_case = "host.missing";
  s = Execute(*m, {{Make(F32, {3}, {1, 2, 3})}}, FaultHooks{}, &out);
  CHECK(s.code == kFailedPrecondition, "without host transfers: code %d (%s)", s.code, s.message.c_str());
  ExpectError("host.token_in_add", Main("", tok, "    %t0 = \"stablehlo.after_all\"() : () -> " + tok + "\n    %0 = \"stablehlo.add\"(%t0, %t0) : (" + tok + ", " + tok + ") -> " + tok + "\n    return %0 : " + tok),
              kUnimplemented, "token");
  ExpectError("host.device_channel", Main("%a: " + ty, tok, "    %t0 = \"stablehlo.after_all\"() : () -> " + tok + "\n    %t1 = \"stablehlo.send\"(%a, %t0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (" + ty + ", " + tok + ") -> " + tok + "\n    return %t1 : " + tok),
              kUnimplemented, "host transfers");
}

// ---------------------------------------------------------------- convolution, select_and_scatter
static void TestWindows() {
  const std::string lt = "tensor<1x4x4x1xi64>", kt = "tensor<3x3x1x1xi64>", rt = "tensor<1x2x2x1xi64>";
  const Tensor lhs = MakeInt<int64_t>(S64, {1, 4, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17});
  const Tensor ones = MakeInt<int64_t>(S64, {3, 3, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1});
  const Tensor want = MakeInt<int64_t>(S64, {1, 2, 2, 1}, {10, 26, 46, 62});
  auto conv = [&](const std::string& op, const std::string& l = "", const std::string& r = "") {
    const std::string a = l.empty() ? lt : l, b = r.empty() ? rt : r;
    return Main("%a: " + a + ", %b: " + kt, b, "    %0 = " + op + " : (" + a + ", " + kt + ") -> " + b + "\n    return %0 : " + b);
  };
  const std::string groups = "batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]";
  // the spec's example, in the pretty form JAX prints, the generic form and the keyword ("raw") form
  Expect("conv.pretty", conv("stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {" + groups + "}"),
         {lhs, ones}, {want});
  const std::string window = "window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>";
  Expect("conv.generic", conv("\"stablehlo.convolution\"(%a, %b) {" + window + ", dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, " + groups + "}"), {lhs, ones}, {want});
  const std::string raw = "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, "
                          "kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>";
  Expect("conv.raw", conv("\"stablehlo.convolution\"(%a, %b) {" + window + ", dimension_numbers = " + raw + ", " + groups + "}"), {lhs, ones}, {want});
  FaultHooks swapped;
  swapped.conv_padding_low_high_swapped = true;
  // padding 1 below, 0 above: the fault moves every window down by one row and column
  Expect("conv.fault.padding", conv("stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 0], [1, 0]]} {" + groups + "}"),
         {lhs, ones}, {MakeInt<int64_t>(S64, {1, 2, 2, 1}, {57, 55, 76, 62})}, swapped);
  const std::string dn = "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]}";
  ExpectError("conv.invalid.result", conv("stablehlo.convolution(%a, %b) " + dn + " {" + groups + "}", "", "tensor<1x3x2x1xi64>"), kInvalidArgument, "result shape");
  ExpectError("conv.invalid.groups", conv("stablehlo.convolution(%a, %b) " + dn + " {batch_group_count = 1 : i64, feature_group_count = 2 : i64}"), kInvalidArgument, "feature_group_count");
  ExpectError("conv.invalid.both_groups", conv("stablehlo.convolution(%a, %b) " + dn + " {batch_group_count = 2 : i64, feature_group_count = 2 : i64}"), kInvalidArgument, "group");
  ExpectError("conv.invalid.dims", conv("stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4]} {" + groups + "}"), kInvalidArgument, "dim_numbers");
  ExpectError("conv.invalid.stride", conv("stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [0, 4]} {" + groups + "}"), kInvalidArgument, "positive");
  ExpectError("conv.unsupported.mixed_types", conv("stablehlo.convolution(%a, %b) " + dn + " {" + groups + "}", "", "tensor<1x2x2x1xi32>"), kUnimplemented, "element types");

  // select_and_scatter: the spec's example, the ties fault, an overwrite fault, a wrong source shape
  const std::string xt = "tensor<4x2xi64>", st = "tensor<2x2xi64>", sc = "tensor<i64>";
  auto sas = [&](const std::string& src_type, const std::string& scatter) {
    return Main("%a: " + xt + ", %s: " + src_type + ", %i: " + sc, xt,
                "    %0 = \"stablehlo.select_and_scatter\"(%a, %s, %i) ({\n  ^bb0(%p: " + sc + ", %q: " + sc + "):\n"
                "    %c = stablehlo.compare GE, %p, %q : (" + sc + ", " + sc + ") -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  }, {\n"
                "  ^bb0(%u: " + sc + ", %v: " + sc + "):\n    %w = stablehlo." + scatter + " %u, %v : " + sc + "\n    stablehlo.return %w : " + sc + "\n  }) "
                "{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (" + xt + ", " + src_type + ", " + sc + ") -> " + xt +
                "\n    return %0 : " + xt);
  };
  const Tensor x = MakeInt<int64_t>(S64, {4, 2}, {1, 5, 2, 5, 3, 6, 4, 4}), src = MakeInt<int64_t>(S64, {2, 2}, {5, 6, 7, 8});
  const Tensor zero = MakeInt<int64_t>(S64, {}, {0});
  Expect("sas.spec", sas(st, "add"), {x, src, zero}, {MakeInt<int64_t>(S64, {4, 2}, {0, 0, 0, 0, 5, 14, 7, 0})});
  FaultHooks last, over;
  last.select_and_scatter_last_tie_wins = true;
  over.select_and_scatter_overwrites = true;
  const Tensor ties = MakeInt<int64_t>(S64, {4, 2}, {1, 5, 3, 5, 3, 5, 4, 4});
  Expect("sas.first_tie", sas(st, "add"), {ties, src, zero}, {MakeInt<int64_t>(S64, {4, 2}, {0, 6, 5, 0, 0, 8, 7, 0})});
  Expect("sas.fault.last_tie", sas(st, "add"), {ties, src, zero}, {MakeInt<int64_t>(S64, {4, 2}, {0, 0, 0, 0, 5, 14, 7, 0})}, last);
  Expect("sas.fault.overwrites", sas(st, "add"), {x, src, zero}, {MakeInt<int64_t>(S64, {4, 2}, {0, 0, 0, 0, 5, 8, 7, 0})}, over);
  ExpectError("sas.invalid.source", sas("tensor<3x2xi64>", "add"), kInvalidArgument, "number of windows");
}

int main() {
  TestEveryElementwiseOpAndType();
  TestNumerics();
  TestNewKernels();
  TestTuples();
  TestComplex();
  TestSort();
  TestLinalgFftRng();
  TestPrograms();
  TestErrors();
  TestLiteralsAndAddedOps();
  TestChlo();
  TestSubByte();
  TestSmallFloats();
  TestCollectives();
  TestHostTransfers();
  TestWindows();
  std::printf("supported ops: %zu\n", SupportedOps().size());
  std::printf("%d checks passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}

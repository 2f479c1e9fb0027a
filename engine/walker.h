// What both interpreters (binary, JSON) share: the failure gathered while unwinding, walking
// routines with the depth limit, and reading the user's integers and enums.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "formats/plan.h"
#include "typeinfo/status.h"

namespace jitser::interp {

// Failures unwind through the interpreter's recursion; each level adds its piece of the field
// path on the way out, so the hot path never builds a path.
struct Failure {
  Errc code = Errc::ok;
  std::string message;
  std::size_t offset = Status::kNoOffset;
  std::vector<std::string> path;  // innermost first

  Status status(const Plan& plan) const {
    std::string joined = display_name(*plan.root_type);
    for (auto it = path.rbegin(); it != path.rend(); ++it) joined += *it;
    return Status(code, message, offset, std::move(joined));
  }
};

inline const TypeDesc& element_of(const Instr& in) { return in.type->element->resolved(); }

inline std::int64_t load_signed(const std::uint8_t* p, unsigned width) {
  switch (width) {
    case 1: {
      std::int8_t v;
      std::memcpy(&v, p, 1);
      return v;
    }
    case 2: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      std::int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

inline bool enum_declared(const TypeDesc& e, std::int64_t v) {
  return std::any_of(e.values.begin(), e.values.end(),
                     [v](const EnumValue& d) { return d.value == v; });
}

inline bool enum_unsigned(const TypeDesc& e) {
  return e.underlying == Kind::UInt8 || e.underlying == Kind::UInt16 ||
         e.underlying == Kind::UInt32 || e.underlying == Kind::UInt64;
}

inline std::int64_t load_enum(const TypeDesc& e, const std::uint8_t* p) {
  if (!enum_unsigned(e)) return load_signed(p, static_cast<unsigned>(e.size));
  std::uint64_t v = 0;
  std::memcpy(&v, p, e.size);
  return static_cast<std::int64_t>(v);
}

inline std::string key_text(const TypeDesc& key, const void* p) {
  switch (key.kind) {
    case Kind::String: return "[\"" + *static_cast<const std::string*>(p) + "\"]";
    case Kind::Enum:
      return "[" + std::to_string(load_enum(key, static_cast<const std::uint8_t*>(p))) + "]";
    case Kind::UInt8:
    case Kind::UInt16:
    case Kind::UInt32:
    case Kind::UInt64: {
      std::uint64_t v = 0;
      std::memcpy(&v, p, key.size);
      return "[" + std::to_string(v) + "]";
    }
    default:
      return "[" +
             std::to_string(load_signed(static_cast<const std::uint8_t*>(p),
                                        static_cast<unsigned>(key.size))) +
             "]";
  }
}

// What the Writer and the Reader share: walking routines, the depth limit, and the failure path
// gathered while unwinding. Self supplies op() and fail(code, message); Base is the pointer type
// of the object walked (const when writing).
template <class Self, class Base>
class Walker {
 public:
  Walker(const Plan& plan, const RunOptions& options) : plan_(plan), options_(options) {}

 protected:
  Self& self() { return static_cast<Self&>(*this); }

  bool run(std::uint32_t routine, Base base) {
    const Routine& r = plan_.routines[routine];
    for (std::uint32_t i = r.begin; i < r.end; ++i) {
      const Instr& in = plan_.code[i];
      if (!self().op(in, base + in.offset)) {
        if (in.field != kNoField) failure_.path.push_back("." + plan_.fields[in.field].name);
        return false;
      }
    }
    return true;
  }

  bool enter() {
    if (++depth_ > options_.max_depth) {
      return self().fail(Errc::depth_exceeded,
                         "nesting deeper than " + std::to_string(options_.max_depth) + " levels");
    }
    return true;
  }

  // Runs `routine` at `base`, one level deeper.
  bool nested(std::uint32_t routine, Base base) {
    if (!enter()) return false;
    const bool ok = run(routine, base);
    --depth_;
    return ok;
  }

  // Runs `routine` on n elements `stride` bytes apart, as one level of nesting.
  bool elements(std::uint32_t routine, Base data, std::size_t stride, std::size_t n) {
    if (!enter()) return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!run(routine, data + i * stride)) {
        failure_.path.push_back("[" + std::to_string(i) + "]");
        return false;
      }
    }
    --depth_;
    return true;
  }

  const Plan& plan_;
  const RunOptions& options_;
  std::uint32_t depth_ = 0;
  Failure failure_;
};

}  // namespace jitser::interp

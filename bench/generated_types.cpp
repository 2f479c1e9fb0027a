#include "bench/generated_types.h"

#include <array>
#include <string_view>

namespace jitser::bench {
namespace {

constexpr int kGroup = 4;

// Field types that refer to no other declaration.
constexpr std::array<std::string_view, 26> kPlain = {
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "string",
    "bytes",
    "decimal",
    "value",
    "timestamp(ms)",
    "duration(us)",
    "list<int32>",
    "list<string>",
    "list<bool>",
    "array<int16, 3>",
    "optional<string>",
    "optional<float64>",
    "map<string, int64>",
    "map<int32, string>",
    "unique_ptr<string>",
};

// Field types that refer to the group's enum (%E) or to a later struct of the group (%S).
constexpr std::array<std::string_view, 8> kNested = {
    "%E",
    "%S",
    "list<%S>",
    "optional<%S>",
    "unique_ptr<%S>",
    "shared_ptr<%S>",
    "map<string, %S>",
    "map<%E, list<%E>>",
};

std::string substitute(std::string_view pattern, const std::string& enum_name,
                       const std::string& struct_name) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size()) {
      out += pattern[i + 1] == 'E' ? enum_name : struct_name;
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace

std::string generated_schema(int count, int fields) {
  std::string text;
  for (int group = 0; group * kGroup < count; ++group) {
    text += "E" + std::to_string(group) +
            " = enum(int32) { A = 0, B = 1, C = " + std::to_string(group + 2) + " }\n";
  }
  for (int i = 0; i < count; ++i) {
    const int group = i / kGroup;
    const std::string enum_name = "E" + std::to_string(group);
    // The last struct of a group, or of the set, refers to none: the group nests as a chain.
    const bool leaf = i % kGroup == kGroup - 1 || i + 1 == count;
    const std::string next = "G" + std::to_string(i + 1);
    text += "G" + std::to_string(i) + " {\n";
    for (int f = 0; f < fields; ++f) {
      // Every third field of a struct that has a successor refers to it or to the enum; the
      // kinds rotate with the struct's index so that the set covers every pair of field and kind.
      std::string type;
      if (!leaf && f % 3 == 2) {
        type = substitute(kNested[(i + f / 3) % kNested.size()], enum_name, next);
      } else if (f % 7 == 6) {
        type = enum_name;
      } else {
        type = std::string(kPlain[(i * 5 + f) % kPlain.size()]);
      }
      text += "  f" + std::to_string(f) + ": " + type + "\n";
    }
    text += "}\n";
  }
  return text;
}

std::vector<std::string> generated_struct_names(int count) {
  std::vector<std::string> names;
  names.reserve(count);
  for (int i = 0; i < count; ++i) names.push_back("G" + std::to_string(i));
  return names;
}

}  // namespace jitser::bench

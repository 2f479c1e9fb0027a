// Helpers shared by the test suites.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <jitser/jitser.h>

namespace jitser::test {

/// The codec for T, failing the test (with the reason) when there is none. When the suite runs
/// with JITSER_JIT=sync, a codec that did not compile fails the test too: otherwise a JIT that
/// falls back to the interpreter would pass every test while testing nothing.
template <class T>
Codec<T> codec_of(Engine& engine, Format format = Format::Binary) {
  auto codec = engine.codec<T>(format);
  if (!codec) {
    ADD_FAILURE() << "no codec: " << codec.status().to_string();
    std::abort();
  }
  const CodecStats stats = codec->dyn().stats();
  if (engine.jit_policy() == JitPolicy::Sync && format_compiles(format)) {
    EXPECT_EQ(stats.tier, Tier::Compiled) << stats.type << " did not compile: " << stats.failure;
  }
  return *codec;
}

/// The codec of a type registered by name (one loaded from a schema has no C++ type), checked
/// as codec_of checks.
inline DynCodec dyn_codec_of(Engine& engine, const std::string& type, Format format) {
  Result<DynCodec> codec = engine.codec(type, format);
  if (!codec) {
    ADD_FAILURE() << "no codec: " << codec.status().to_string();
    std::abort();
  }
  if (engine.jit_policy() == JitPolicy::Sync && format_compiles(format)) {
    EXPECT_EQ(codec->stats().tier, Tier::Compiled)
        << type << " did not compile: " << codec->stats().failure;
  }
  return *codec;
}

inline std::vector<std::uint8_t> from_hex(const std::string& text) {
  std::vector<std::uint8_t> out;
  std::istringstream in(text);
  std::string byte;
  while (in >> byte) out.push_back(static_cast<std::uint8_t>(std::stoul(byte, nullptr, 16)));
  // Exactly as large as the bytes, so that AddressSanitizer finds a read past their end.
  out.shrink_to_fit();
  return out;
}

inline std::string to_hex(std::span<const std::uint8_t> bytes) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (std::uint8_t b : bytes) {
    if (!out.empty()) out += ' ';
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

/// The whole of a file, or "" when it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Compares `actual` with tests/golden/<name>. With JITSER_UPDATE_GOLDEN=1 in the environment
/// it rewrites the file instead, for a change that is meant; review the diff before committing.
inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(JITSER_SOURCE_DIR "/tests/golden/") + name;
  if (const char* update = std::getenv("JITSER_UPDATE_GOLDEN");
      update && std::string(update) == "1") {
    std::ofstream(path) << actual;
    return;
  }
  EXPECT_EQ(actual, read_file(path))
      << "differs from " << path << " (JITSER_UPDATE_GOLDEN=1 rewrites it if the change is meant)";
}

/// The enum of the kind, golden and bad-input tests: negative, zero and positive values.
enum class Color : std::int16_t { Red = -1, Green = 0, Blue = 7 };

inline Status add_color(Engine& engine) {
  return engine.add(Enum<Color>("Color")
                        .value("Red", Color::Red)
                        .value("Green", Color::Green)
                        .value("Blue", Color::Blue));
}

/// A one-field struct, the unit of the per-kind tests and golden examples.
template <class T>
struct One {
  T v{};
};

/// Registers One<T> under `name` (and nothing else) in the engine.
template <class T>
Status add_one(Engine& engine, const std::string& name = "One") {
  return engine.add(Struct<One<T>>(name).field("v", &One<T>::v));
}

}  // namespace jitser::test

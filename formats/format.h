// The formats jitser reads and writes, and the two directions of a codec.
#pragma once

#include <cstdint>

namespace jitser {

enum class Format : std::uint8_t {
  Binary,  // jitser's compact binary format, docs/formats/binary.md
};

enum class Direction : std::uint8_t { Serialize, Deserialize };

/// "binary", ...: the name used by the tool and the benchmark.
const char* format_name(Format format);

}  // namespace jitser

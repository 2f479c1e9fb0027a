// The formats jitser reads and writes, and the two directions of a codec.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <jitser/export.h>

namespace jitser {

enum class Format : std::uint8_t {
  Binary,    // jitser's compact binary format, docs/formats/binary.md
  Json,      // RFC 8259 JSON, docs/formats/json.md
  Protobuf,  // the Protobuf wire format, docs/formats/protobuf.md
  Msgpack,   // MessagePack, docs/formats/msgpack.md
  Cbor,      // RFC 8949 CBOR, docs/formats/cbor.md
};

enum class Direction : std::uint8_t { Serialize, Deserialize };

/// Every format this build of jitser has, in the order of the enum.
JITSER_API std::span<const Format> all_formats();
/// "binary", ...: the name used by the tool and the benchmark.
JITSER_API const char* format_name(Format format);
/// Whether the JIT compiles codecs of the format; those of a format it does not compile yet run
/// on the interpreter under every JitPolicy.
JITSER_API bool format_compiles(Format format);
/// The format of that name, or none.
JITSER_API std::optional<Format> parse_format(std::string_view name);

}  // namespace jitser

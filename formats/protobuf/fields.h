// Reading a message's fields: each tag and the value after it, framed by its wire type, with
// groups skipped whole. The reader of every Protobuf value (protobuf_ops.cpp, value_protobuf.cpp)
// reads through this, so the wire's framing rules are written once.
#pragma once

#include <cstdint>
#include <string>

#include <jitser/status.h>

#include "formats/protobuf/wire.h"

namespace jitser::protobuf {

/// One field as read: its number and wire type; a varint's or fixed word's bits, or where a
/// length-delimited value's (or a group's) bytes are.
struct FieldValue {
  // First, as a reader's cursors have it too: where a Slot's value is (FormatReader::offset).
  const std::uint8_t* p = nullptr;    // where the value starts; LEN and groups: their bytes
  const std::uint8_t* end = nullptr;  // LEN and groups: the end of their bytes
  std::uint64_t bits = 0;             // varint, I32, I64
  std::uint32_t number = 0;
  wire::WireType type = wire::kAbsent;
};

/// Why reading failed, and where.
struct ReadFailure {
  Errc code = Errc::ok;
  std::string message;
  const std::uint8_t* at = nullptr;

  bool set(Errc c, std::string m, const std::uint8_t* where) {
    code = c;
    message = std::move(m);
    at = where;
    return false;
  }
};

/// Reads the field at p, of the message that ends at `end`, and advances p past it. Groups
/// nest at most `depth_left` deep.
bool next_field(const std::uint8_t*& p, const std::uint8_t* end, FieldValue& out,
                std::uint32_t depth_left, ReadFailure& fail);

/// Reads the value of wire type `type` at p, as next_field does after a tag.
bool read_field_value(const std::uint8_t*& p, const std::uint8_t* end, wire::WireType type,
                      std::uint32_t number, FieldValue& out, std::uint32_t depth_left,
                      ReadFailure& fail);

/// "varint", "len", ...: a wire type as error messages name it.
const char* wire_type_name(wire::WireType type);

}  // namespace jitser::protobuf

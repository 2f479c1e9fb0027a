// Reading a message's fields: each tag and the value after it, framed by its wire type, with
// groups skipped whole. The reader of every Protobuf value (protobuf_ops.cpp, value_protobuf.cpp)
// reads through this, so the wire's framing rules are written once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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

/// What reading a tag found.
enum class TagStatus : std::uint8_t {
  ok,
  truncated,
  overlong,
  past_32_bits,
  number_zero,
  no_such_type
};

/// Reads a tag at p, advancing p: the field's number and wire type (which may be a group's end).
/// `slack` bytes past `end` may be read (wire::get_varint).
[[gnu::always_inline]] inline TagStatus read_tag(const std::uint8_t*& p, const std::uint8_t* end,
                                                 std::uint32_t& number, wire::WireType& type,
                                                 std::size_t slack = 0) {
  std::uint64_t t = 0;
  if (p != end && *p < 0x80) {  // one byte: fields 1 to 15
    t = *p++;
  } else {
    switch (wire::get_varint(p, end, t, slack)) {
      case wire::VarintStatus::ok: break;
      case wire::VarintStatus::truncated: return TagStatus::truncated;
      case wire::VarintStatus::overlong: return TagStatus::overlong;
    }
    if (t > UINT32_MAX) return TagStatus::past_32_bits;
  }
  number = static_cast<std::uint32_t>(t >> 3);
  const unsigned w = t & 7;
  if (number == 0) return TagStatus::number_zero;
  if (w == 6 || w == 7) return TagStatus::no_such_type;
  type = static_cast<wire::WireType>(w);
  return TagStatus::ok;
}

/// What framing a value after its tag found.
enum class FrameStatus : std::uint8_t {
  ok,
  truncated_varint,
  overlong_varint,
  truncated_fixed,
  truncated_length,
  overlong_length,
  length_past_end,
  group,  // a group starts or ends: framed by skipping its fields, out of line
};

/// Frames the value of wire type `type` at p (varint, I64, LEN or I32) into `out`, advancing p
/// past it: a varint's or a fixed word's bits, or where a LEN value's bytes are. `slack` bytes
/// past `end` may be read.
[[gnu::always_inline]] inline FrameStatus frame_value(const std::uint8_t*& p,
                                                      const std::uint8_t* end, wire::WireType type,
                                                      FieldValue& out, std::size_t slack = 0) {
  out.type = type;
  out.p = p;
  switch (type) {
    case wire::kVarint:
      if (p != end && *p < 0x80) {
        out.bits = *p++;
      } else {
        switch (wire::get_varint(p, end, out.bits, slack)) {
          case wire::VarintStatus::ok: break;
          case wire::VarintStatus::truncated: return FrameStatus::truncated_varint;
          case wire::VarintStatus::overlong: return FrameStatus::overlong_varint;
        }
      }
      out.end = p;
      return FrameStatus::ok;
    // Each width a constant, so that the copy is one load.
    case wire::kI64:
      if (end - p < 8) return FrameStatus::truncated_fixed;
      std::memcpy(&out.bits, p, 8);
      p += 8;
      out.end = p;
      return FrameStatus::ok;
    case wire::kI32: {
      if (end - p < 4) return FrameStatus::truncated_fixed;
      std::uint32_t word;
      std::memcpy(&word, p, 4);
      out.bits = word;
      p += 4;
      out.end = p;
      return FrameStatus::ok;
    }
    case wire::kLen: {
      std::uint64_t n = 0;
      if (p != end && *p < 0x80) {
        n = *p++;
      } else {
        switch (wire::get_varint(p, end, n, slack)) {
          case wire::VarintStatus::ok: break;
          case wire::VarintStatus::truncated: return FrameStatus::truncated_length;
          case wire::VarintStatus::overlong: return FrameStatus::overlong_length;
        }
      }
      if (n > static_cast<std::uint64_t>(end - p)) return FrameStatus::length_past_end;
      out.bits = 0;
      out.p = p;
      out.end = p + n;
      p = out.end;
      return FrameStatus::ok;
    }
    default: return FrameStatus::group;
  }
}

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

/// Skips the fields of group `number` at p up to its end-group tag, advancing p past it; groups
/// nest at most `depth_left` deep.
bool skip_group(const std::uint8_t*& p, const std::uint8_t* end, std::uint32_t number,
                std::uint32_t depth_left, ReadFailure& fail);

/// Reads the value of wire type `type` at p, as next_field does after a tag.
bool read_field_value(const std::uint8_t*& p, const std::uint8_t* end, wire::WireType type,
                      std::uint32_t number, FieldValue& out, std::uint32_t depth_left,
                      ReadFailure& fail);

/// A map entry's key, field 1, and value, field 2, from the entry message in `entry`: either
/// may be left out (then absent) or come twice (then the last counts).
bool read_entry(const FieldValue& entry, FieldValue& key, FieldValue& value,
                std::uint32_t depth_left, ReadFailure& fail);

/// "varint", "len", ...: a wire type as error messages name it.
const char* wire_type_name(wire::WireType type);

}  // namespace jitser::protobuf

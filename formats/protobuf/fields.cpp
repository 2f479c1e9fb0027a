#include "formats/protobuf/fields.h"

namespace jitser::protobuf {
namespace {

bool tag(const std::uint8_t*& p, const std::uint8_t* end, std::uint32_t& number,
         wire::WireType& type, ReadFailure& fail) {
  const std::uint8_t* start = p;
  switch (read_tag(p, end, number, type)) {
    case TagStatus::ok: return true;
    case TagStatus::truncated: return fail.set(Errc::truncated, "input ends inside a tag", start);
    case TagStatus::overlong:
      return fail.set(Errc::varint_overlong, "a tag is longer than ten bytes", start);
    case TagStatus::past_32_bits:
      return fail.set(Errc::varint_overflow, "a tag past 32 bits", start);
    case TagStatus::number_zero:
      return fail.set(Errc::syntax_error, "a tag of field number 0", start);
    case TagStatus::no_such_type:
      return fail.set(Errc::syntax_error,
                      "wire type " + std::to_string(start[0] & 7) + " does not exist", start);
  }
  return false;
}

}  // namespace

bool skip_group(const std::uint8_t*& p, const std::uint8_t* end, std::uint32_t number,
                std::uint32_t depth_left, ReadFailure& fail) {
  const std::uint8_t* start = p;
  if (depth_left == 0) return fail.set(Errc::depth_exceeded, "groups nest too deep", start);
  for (;;) {
    if (p == end) {
      return fail.set(Errc::truncated, "group " + std::to_string(number) + " never ends", start);
    }
    const std::uint8_t* at = p;
    std::uint32_t n = 0;
    wire::WireType type{};
    if (!tag(p, end, n, type, fail)) return false;
    if (type == wire::kEndGroup) {
      if (n == number) return true;
      return fail.set(
          Errc::syntax_error,
          "group " + std::to_string(number) + " ended by the end of group " + std::to_string(n),
          at);
    }
    FieldValue skipped;
    if (!read_field_value(p, end, type, n, skipped, depth_left - 1, fail)) return false;
  }
}

bool read_field_value(const std::uint8_t*& p, const std::uint8_t* end, wire::WireType type,
                      std::uint32_t number, FieldValue& out, std::uint32_t depth_left,
                      ReadFailure& fail) {
  out.number = number;
  const std::uint8_t* start = p;
  switch (frame_value(p, end, type, out)) {
    case FrameStatus::ok: return true;
    case FrameStatus::truncated_varint:
      return fail.set(Errc::truncated, "input ends inside a varint", start);
    case FrameStatus::overlong_varint:
      return fail.set(Errc::varint_overlong, "a varint is longer than ten bytes", start);
    case FrameStatus::truncated_fixed:
      return fail.set(Errc::truncated, "input ends inside a fixed-width value", start);
    case FrameStatus::truncated_length:
      return fail.set(Errc::truncated, "input ends inside a length", start);
    case FrameStatus::overlong_length:
      return fail.set(Errc::varint_overlong, "a length is longer than ten bytes", start);
    case FrameStatus::length_past_end: {
      const std::uint8_t* q = start;
      std::uint64_t n = 0;
      wire::get_varint(q, end, n);
      return fail.set(
          Errc::length_too_large,
          "length " + std::to_string(n) + " but " + std::to_string(end - q) + " bytes left", start);
    }
    case FrameStatus::group: break;
  }
  switch (type) {
    case wire::kStartGroup: {
      const std::uint8_t* content = p;
      if (!skip_group(p, end, number, depth_left, fail)) return false;
      out.p = content;
      out.end = p;
      return true;
    }
    case wire::kEndGroup:
      return fail.set(Errc::syntax_error,
                      "the end of group " + std::to_string(number) + ", which never started", p);
    default: return fail.set(Errc::syntax_error, "a wire type that does not exist", p);
  }
}

bool next_field(const std::uint8_t*& p, const std::uint8_t* end, FieldValue& out,
                std::uint32_t depth_left, ReadFailure& fail) {
  const std::uint8_t* start = p;
  std::uint32_t number = 0;
  wire::WireType type{};
  if (!tag(p, end, number, type, fail)) return false;
  if (type == wire::kEndGroup) {
    return fail.set(Errc::syntax_error,
                    "the end of group " + std::to_string(number) + ", which never started", start);
  }
  return read_field_value(p, end, type, number, out, depth_left, fail);
}

bool read_entry(const FieldValue& entry, FieldValue& key, FieldValue& value,
                std::uint32_t depth_left, ReadFailure& fail) {
  key = FieldValue{.p = entry.p};
  value = FieldValue{.p = entry.p};
  for (const std::uint8_t* p = entry.p; p != entry.end;) {
    FieldValue field;
    if (!next_field(p, entry.end, field, depth_left, fail)) return false;
    if (field.number == 1) key = field;
    if (field.number == 2) value = field;
  }
  return true;
}

const char* wire_type_name(wire::WireType type) {
  switch (type) {
    case wire::kVarint: return "varint";
    case wire::kI64: return "i64";
    case wire::kLen: return "len";
    case wire::kStartGroup: return "start group";
    case wire::kEndGroup: return "end group";
    case wire::kI32: return "i32";
    case wire::kAbsent: return "absent";
  }
  return "?";
}

}  // namespace jitser::protobuf

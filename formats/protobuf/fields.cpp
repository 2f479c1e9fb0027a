#include "formats/protobuf/fields.h"

#include <cstring>

namespace jitser::protobuf {
namespace {

bool varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v, const char* what,
            ReadFailure& fail) {
  const std::uint8_t* start = p;
  switch (wire::get_varint(p, end, v)) {
    case wire::VarintStatus::ok: return true;
    case wire::VarintStatus::truncated:
      return fail.set(Errc::truncated, std::string("input ends inside ") + what, start);
    case wire::VarintStatus::overlong:
      return fail.set(Errc::varint_overlong, std::string(what) + " is longer than ten bytes",
                      start);
  }
  return false;
}

bool tag(const std::uint8_t*& p, const std::uint8_t* end, std::uint32_t& number,
         wire::WireType& type, ReadFailure& fail) {
  const std::uint8_t* start = p;
  std::uint64_t t = 0;
  if (!varint(p, end, t, "a tag", fail)) return false;
  if (t > UINT32_MAX) return fail.set(Errc::varint_overflow, "a tag past 32 bits", start);
  number = static_cast<std::uint32_t>(t >> 3);
  const unsigned w = t & 7;
  if (number == 0) return fail.set(Errc::syntax_error, "a tag of field number 0", start);
  if (w == 6 || w == 7) {
    return fail.set(Errc::syntax_error, "wire type " + std::to_string(w) + " does not exist",
                    start);
  }
  type = static_cast<wire::WireType>(w);
  return true;
}

// Skips the fields of a group up to its end-group tag, which must carry the group's number.
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

}  // namespace

bool read_field_value(const std::uint8_t*& p, const std::uint8_t* end, wire::WireType type,
                      std::uint32_t number, FieldValue& out, std::uint32_t depth_left,
                      ReadFailure& fail) {
  out.number = number;
  out.type = type;
  out.p = p;
  switch (type) {
    case wire::kVarint: {
      if (!varint(p, end, out.bits, "a varint", fail)) return false;
      out.end = p;
      return true;
    }
    case wire::kI64:
    case wire::kI32: {
      const std::size_t n = type == wire::kI64 ? 8 : 4;
      if (static_cast<std::size_t>(end - p) < n) {
        return fail.set(Errc::truncated, "input ends inside a fixed-width value", p);
      }
      out.bits = 0;
      std::memcpy(&out.bits, p, n);
      p += n;
      out.end = p;
      return true;
    }
    case wire::kLen: {
      const std::uint8_t* start = p;
      std::uint64_t n = 0;
      if (!varint(p, end, n, "a length", fail)) return false;
      const auto left = static_cast<std::uint64_t>(end - p);
      if (n > left) {
        return fail.set(
            Errc::length_too_large,
            "length " + std::to_string(n) + " but " + std::to_string(left) + " bytes left", start);
      }
      out.p = p;
      out.end = p + n;
      p = out.end;
      return true;
    }
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
    case wire::kAbsent: break;
  }
  return fail.set(Errc::syntax_error, "a wire type that does not exist", p);
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

#include "formats/protobuf/value_protobuf.h"

#include <cstring>
#include <string>

#include "formats/protobuf/protobuf_slot.h"
#include "formats/protobuf/sized.h"
#include "typeinfo/utf8.h"

namespace jitser::protobuf {
namespace {

// The Value message's fields, by number.
enum : std::uint32_t {
  kNull = 1,
  kBool = 2,
  kInt = 3,
  kUInt = 4,
  kDouble = 5,
  kString = 6,
  kBytes = 7,
  kArray = 8,  // message { repeated Value values = 1; }
  kMap =
      9,  // message { repeated Member members = 1; }, Member { string key = 1; Value value = 2; }
  kDecimal = 10  // message { sint64 unscaled = 1; sint32 scale = 2; }
};

void put_tag(Buffer& out, std::uint32_t number, wire::WireType type) {
  out.commit_to(wire::put_varint(out.ensure(wire::kMaxVarintBytes), wire::tag(number, type)));
}
void put_varint(Buffer& out, std::uint32_t number, std::uint64_t v) {
  put_tag(out, number, wire::kVarint);
  out.commit_to(wire::put_varint(out.ensure(wire::kMaxVarintBytes), v));
}
void put_text(Buffer& out, std::uint32_t number, const void* data, std::size_t n) {
  put_tag(out, number, wire::kLen);
  out.commit_to(wire::put_varint(out.ensure(wire::kMaxVarintBytes), n));
  out.append(data, n);
}

// How deep groups may nest in the unknown fields of a Decimal, Timestamp or Duration message.
constexpr std::uint32_t kSmallMessageGroups = 1;

bool utf8(const FieldValue& f, ReadFailure& fail) {
  std::size_t bad = 0;
  if (valid_utf8(f.p, static_cast<std::size_t>(f.end - f.p), &bad)) return true;
  return fail.set(Errc::invalid_utf8, "string is not UTF-8", f.p + bad);
}

bool expect(const FieldValue& f, wire::WireType type, ReadFailure& fail) {
  if (f.type == type) return true;
  return fail.set(Errc::type_mismatch,
                  std::string("wire type ") + wire_type_name(f.type) + " for a Value field of " +
                      wire_type_name(type),
                  f.p);
}

}  // namespace

bool read_decimal(const std::uint8_t* p, const std::uint8_t* end, Decimal& d, ReadFailure& fail) {
  d = Decimal{};
  while (p != end) {
    FieldValue g;
    if (!next_field(p, end, g, kSmallMessageGroups, fail)) return false;
    if (g.number != 1 && g.number != 2) continue;
    if (!expect(g, wire::kVarint, fail)) return false;
    const std::int64_t x = wire::unzigzag(g.bits);
    if (g.number == 1) {
      d.unscaled = x;
    } else if (x < INT32_MIN || x > INT32_MAX) {
      return fail.set(Errc::out_of_range, "a decimal's scale past 32 bits", g.p);
    } else {
      d.scale = static_cast<std::int32_t>(x);
    }
  }
  return true;
}

bool read_time(const FieldValue& v, TimeUnit unit, bool duration, std::int64_t& ticks,
               ReadFailure& fail) {
  std::int64_t seconds = 0, nanos = 0;
  const std::uint8_t* nanos_at = v.p;
  for (const std::uint8_t* p = v.p; p != v.end;) {
    FieldValue field;
    if (!next_field(p, v.end, field, kSmallMessageGroups, fail)) return false;
    if (field.number != 1 && field.number != 2) continue;
    if (field.type != wire::kVarint) {
      return fail.set(Errc::type_mismatch,
                      std::string("wire type ") + wire_type_name(field.type) + " for a varint",
                      field.p);
    }
    if (field.number == 1) {
      seconds = static_cast<std::int64_t>(field.bits);
    } else {
      nanos = static_cast<std::int64_t>(field.bits);
      nanos_at = field.p;
    }
  }
  if (!time_valid(seconds, nanos, duration)) {
    return fail.set(
        Errc::out_of_range,
        "nanoseconds " + std::to_string(nanos) + " with seconds " + std::to_string(seconds),
        nanos_at);
  }
  if (nanos < 0) {
    seconds -= 1;
    nanos += kNanosPerSecond;
  }
  if (!join_ticks(seconds, static_cast<std::uint64_t>(nanos), unit, ticks)) {
    return fail.set(Errc::out_of_range, "time does not fit a 64-bit count of its unit", v.p);
  }
  return true;
}

Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left) {
  switch (v.type()) {
    case Value::Type::Null: put_varint(out, kNull, 0); return Errc::ok;
    case Value::Type::Bool: put_varint(out, kBool, v.as_bool() ? 1 : 0); return Errc::ok;
    case Value::Type::Int: put_varint(out, kInt, wire::zigzag(v.as_int())); return Errc::ok;
    case Value::Type::UInt: put_varint(out, kUInt, v.as_uint()); return Errc::ok;
    case Value::Type::Double:
    case Value::Type::Float: {
      // A float32 goes as the double that holds it exactly, and reads back equal.
      put_tag(out, kDouble, wire::kI64);
      const double d =
          v.type() == Value::Type::Float ? static_cast<double>(v.as_float()) : v.as_double();
      out.append(&d, 8);
      return Errc::ok;
    }
    case Value::Type::String:
      put_text(out, kString, v.as_string().data(), v.as_string().size());
      return Errc::ok;
    case Value::Type::Bytes:
      put_text(out, kBytes, v.as_bytes().data(), v.as_bytes().size());
      return Errc::ok;
    case Value::Type::Decimal: {
      put_tag(out, kDecimal, wire::kLen);
      out.commit_to(put_decimal_message(out.ensure(kMaxSmallMessage), v.as_decimal()));
      return Errc::ok;
    }
    case Value::Type::Array:
    case Value::Type::Map: break;
    case Value::Type::Entries:
    case Value::Type::Tagged:
    case Value::Type::Extension:
    case Value::Type::Simple: return Errc::unsupported;
  }
  if (depth_left == 0) return Errc::depth_exceeded;
  const bool array = v.type() == Value::Type::Array;
  put_tag(out, array ? kArray : kMap, wire::kLen);
  const std::size_t outer = open_sized(out);
  auto item = [&](const Value& value, const std::string* key) {
    put_tag(out, 1, wire::kLen);
    const std::size_t mark = open_sized(out);
    if (key) {
      put_text(out, 1, key->data(), key->size());
      put_tag(out, 2, wire::kLen);
      const std::size_t inner = open_sized(out);
      const Errc e = write_value(out, value, depth_left - 1);
      close_sized(out, inner);
      if (e != Errc::ok) return e;
    } else if (const Errc e = write_value(out, value, depth_left - 1); e != Errc::ok) {
      return e;
    }
    close_sized(out, mark);
    return Errc::ok;
  };
  if (array) {
    for (const Value& e : v.as_array()) {
      if (const Errc r = item(e, nullptr); r != Errc::ok) return r;
    }
  } else {
    for (const auto& [key, value] : v.as_map()) {
      if (const Errc r = item(value, &key); r != Errc::ok) return r;
    }
  }
  close_sized(out, outer);
  return Errc::ok;
}

bool read_value(const std::uint8_t* p, const std::uint8_t* end, Value& v, std::uint32_t depth_left,
                ReadFailure& fail) {
  v = Value();
  while (p != end) {
    FieldValue f;
    if (!next_field(p, end, f, depth_left, fail)) return false;
    switch (f.number) {
      case kNull:
        if (!expect(f, wire::kVarint, fail)) return false;
        v = Value();
        break;
      case kBool:
        if (!expect(f, wire::kVarint, fail)) return false;
        v = Value(f.bits != 0);
        break;
      case kInt:
        if (!expect(f, wire::kVarint, fail)) return false;
        v = Value(wire::unzigzag(f.bits));
        break;
      case kUInt:
        if (!expect(f, wire::kVarint, fail)) return false;
        v = Value(f.bits);
        break;
      case kDouble: {
        if (!expect(f, wire::kI64, fail)) return false;
        double d;
        std::memcpy(&d, &f.bits, 8);
        v = Value(d);
        break;
      }
      case kString:
        if (!expect(f, wire::kLen, fail) || !utf8(f, fail)) return false;
        v = Value(std::string(reinterpret_cast<const char*>(f.p), f.end - f.p));
        break;
      case kBytes:
        if (!expect(f, wire::kLen, fail)) return false;
        v = Value(Value::Bytes(f.p, f.end));
        break;
      case kDecimal: {
        Decimal d;
        if (!expect(f, wire::kLen, fail) || !read_decimal(f.p, f.end, d, fail)) return false;
        v = Value(d);
        break;
      }
      case kArray:
      case kMap: {
        if (!expect(f, wire::kLen, fail)) return false;
        if (depth_left == 0) return fail.set(Errc::depth_exceeded, "value nests too deep", f.p);
        const bool array = f.number == kArray;
        Value::Array items;
        Value::Map members;
        for (const std::uint8_t* q = f.p; q != f.end;) {
          FieldValue g;
          if (!next_field(q, f.end, g, depth_left, fail)) return false;
          if (g.number != 1) continue;
          if (!expect(g, wire::kLen, fail)) return false;
          if (array) {
            items.emplace_back();
            if (!read_value(g.p, g.end, items.back(), depth_left - 1, fail)) return false;
            continue;
          }
          std::string key;
          Value value;
          for (const std::uint8_t* r = g.p; r != g.end;) {
            FieldValue h;
            if (!next_field(r, g.end, h, depth_left, fail)) return false;
            if (h.number == 1) {
              if (!expect(h, wire::kLen, fail) || !utf8(h, fail)) return false;
              key.assign(reinterpret_cast<const char*>(h.p), h.end - h.p);
            } else if (h.number == 2) {
              if (!expect(h, wire::kLen, fail) ||
                  !read_value(h.p, h.end, value, depth_left - 1, fail)) {
                return false;
              }
            }
          }
          members.emplace_back(std::move(key), std::move(value));
        }
        v = array ? Value(std::move(items)) : Value(std::move(members));
        break;
      }
      default: break;  // a field of a later version: skipped
    }
  }
  return true;
}

}  // namespace jitser::protobuf

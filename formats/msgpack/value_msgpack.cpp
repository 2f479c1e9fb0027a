#include "formats/msgpack/value_msgpack.h"

#include <cstring>

#include "formats/msgpack/wire.h"
#include "formats/value_map_builder.h"
#include "typeinfo/utf8.h"

namespace jitser::msgpack {
namespace {

void put(Buffer& out, std::size_t bound, std::uint8_t* (*f)(std::uint8_t*, std::uint64_t),
         std::uint64_t n) {
  out.commit_to(f(out.ensure(bound), n));
}

void byte(Buffer& out, std::uint8_t b) { out.append(&b, 1); }

void put_bytes(Buffer& out, const void* data, std::size_t n) {
  if (n) out.append(data, n);
}

// A decimal as a decimal field writes it: [unscaled, scale].
void put_decimal(Buffer& out, const Decimal& d) {
  std::uint8_t* o = out.ensure(1 + 2 * kMaxNumber);
  *o++ = 0x92;
  o = put_int(o, d.unscaled);
  out.commit_to(put_int(o, d.scale));
}

}  // namespace

Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left) {
  switch (v.type()) {
    case Value::Type::Null: byte(out, kNil); return Errc::ok;
    case Value::Type::Bool: byte(out, v.as_bool() ? kTrue : kFalse); return Errc::ok;
    case Value::Type::Int:
      out.commit_to(put_int(out.ensure(kMaxNumber), v.as_int()));
      return Errc::ok;
    case Value::Type::UInt:
      out.commit_to(put_uint(out.ensure(kMaxNumber), v.as_uint()));
      return Errc::ok;
    case Value::Type::Double:
      out.commit_to(put_double(out.ensure(kMaxNumber), v.as_double()));
      return Errc::ok;
    case Value::Type::String: {
      const std::string& s = v.as_string();
      if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())) {
        return Errc::invalid_utf8;
      }
      put(out, kMaxHead, put_str_head, s.size());
      put_bytes(out, s.data(), s.size());
      return Errc::ok;
    }
    case Value::Type::Bytes: {
      const Value::Bytes& b = v.as_bytes();
      put(out, kMaxHead, put_bin_head, b.size());
      put_bytes(out, b.data(), b.size());
      return Errc::ok;
    }
    case Value::Type::Array: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const Value::Array& a = v.as_array();
      put(out, kMaxHead, put_array_head, a.size());
      for (const Value& e : a) {
        if (Errc e2 = write_value(out, e, depth_left - 1); e2 != Errc::ok) return e2;
      }
      return Errc::ok;
    }
    case Value::Type::Map: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const Value::Map& m = v.as_map();
      put(out, kMaxHead, put_map_head, m.size());
      for (const auto& [key, value] : m) {
        if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(key.data()), key.size())) {
          return Errc::invalid_utf8;
        }
        put(out, kMaxHead, put_str_head, key.size());
        put_bytes(out, key.data(), key.size());
        if (Errc e = write_value(out, value, depth_left - 1); e != Errc::ok) return e;
      }
      return Errc::ok;
    }
    case Value::Type::Decimal: put_decimal(out, v.as_decimal()); return Errc::ok;
    case Value::Type::Float:
      out.commit_to(put_float(out.ensure(kMaxNumber), v.as_float()));
      return Errc::ok;
    case Value::Type::Entries: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const Value::Entries& m = v.as_entries();
      put(out, kMaxHead, put_map_head, m.size());
      for (const auto& [key, value] : m) {
        if (Errc e = write_value(out, key, depth_left - 1); e != Errc::ok) return e;
        if (Errc e = write_value(out, value, depth_left - 1); e != Errc::ok) return e;
      }
      return Errc::ok;
    }
    case Value::Type::Extension: {
      const Extension& x = v.as_extension();
      out.commit_to(put_ext_head(out.ensure(kMaxExtHead), x.type, x.data.size()));
      put_bytes(out, x.data.data(), x.data.size());
      return Errc::ok;
    }
    case Value::Type::Tagged:
    case Value::Type::Simple: return Errc::unsupported;
  }
  return Errc::invalid_descriptor;
}

namespace {

bool fail(ValueFault& f, Errc code, std::string message, const std::uint8_t* at) {
  f = {code, std::move(message), at};
  return false;
}

bool text(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t n, std::string& out,
          const std::uint8_t* at, ValueFault& f) {
  if (n > static_cast<std::uint64_t>(end - p)) {
    return fail(f, Errc::length_too_large, "a str of " + std::to_string(n) + " bytes", at);
  }
  if (!valid_utf8(p, n)) return fail(f, Errc::invalid_utf8, "str is not UTF-8", at);
  out.assign(reinterpret_cast<const char*>(p), n);
  p += n;
  return true;
}

}  // namespace

bool read_value(const std::uint8_t*& p, const std::uint8_t* end, Value& out,
                std::uint32_t depth_left, ValueFault& f) {
  const std::uint8_t* at = p;
  Head h;
  switch (get_head(p, end, h)) {
    case HeadStatus::ok: break;
    case HeadStatus::truncated: return fail(f, Errc::truncated, "input ends inside an item", at);
    case HeadStatus::never_used:
      return fail(f, Errc::syntax_error, "0xc1 is not a MessagePack format byte", at);
  }
  const auto left = static_cast<std::uint64_t>(end - p);
  switch (h.type) {
    case Type::Nil: out = Value(); return true;
    case Type::Bool: out = Value(h.boolean); return true;
    case Type::Int: out = Value(static_cast<std::int64_t>(h.bits)); return true;
    case Type::UInt:
      out = h.bits <= INT64_MAX ? Value(static_cast<std::int64_t>(h.bits)) : Value(h.bits);
      return true;
    case Type::Float32: {
      float x;
      const auto bits = static_cast<std::uint32_t>(h.bits);
      std::memcpy(&x, &bits, 4);
      out = Value(x);
      return true;
    }
    case Type::Float64: {
      double x;
      std::memcpy(&x, &h.bits, 8);
      out = Value(x);
      return true;
    }
    case Type::Str: {
      std::string s;
      if (!text(p, end, h.bits, s, at, f)) return false;
      out = Value(std::move(s));
      return true;
    }
    case Type::Bin: {
      if (h.bits > left) {
        return fail(f, Errc::length_too_large, "a bin of " + std::to_string(h.bits) + " bytes", at);
      }
      out = Value(Value::Bytes(p, p + h.bits));
      p += h.bits;
      return true;
    }
    case Type::Array: {
      if (depth_left == 0) return fail(f, Errc::depth_exceeded, "value nests too deep", at);
      if (h.bits > left) {
        return fail(f, Errc::length_too_large,
                    "an array of " + std::to_string(h.bits) + " items in " + std::to_string(left) +
                        " bytes",
                    at);
      }
      Value::Array a(static_cast<std::size_t>(h.bits));
      for (Value& e : a) {
        if (!read_value(p, end, e, depth_left - 1, f)) return false;
      }
      out = Value(std::move(a));
      return true;
    }
    case Type::Map: {
      if (depth_left == 0) return fail(f, Errc::depth_exceeded, "value nests too deep", at);
      if (h.bits > left / 2) {
        return fail(
            f, Errc::length_too_large,
            "a map of " + std::to_string(h.bits) + " entries in " + std::to_string(left) + " bytes",
            at);
      }
      ValueMapBuilder m;
      for (std::uint64_t i = 0; i < h.bits; ++i) {
        Value key, value;
        if (!read_value(p, end, key, depth_left - 1, f) ||
            !read_value(p, end, value, depth_left - 1, f)) {
          return false;
        }
        m.add(std::move(key), std::move(value));
      }
      out = std::move(m).finish();
      return true;
    }
    case Type::Ext:
      if (h.bits > left) {
        return fail(f, Errc::length_too_large, "an ext of " + std::to_string(h.bits) + " bytes",
                    at);
      }
      out = Value(Extension{h.ext, Value::Bytes(p, p + h.bits)});
      p += h.bits;
      return true;
  }
  return false;
}

}  // namespace jitser::msgpack

#include "formats/cbor/value_cbor.h"

#include <optional>

#include "formats/cbor/items.h"
#include "formats/cbor/wire.h"
#include "formats/value_map_builder.h"
#include "typeinfo/utf8.h"

namespace jitser::cbor {
namespace {

void head(Buffer& out, Major major, std::uint64_t n) {
  out.commit_to(put_head(out.ensure(kMaxHead), major, n));
}

void byte(Buffer& out, std::uint8_t b) { out.append(&b, 1); }

bool text(Buffer& out, const std::string& s) {
  if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())) return false;
  head(out, Major::Text, s.size());
  if (!s.empty()) out.append(s.data(), s.size());
  return true;
}

// The content c of tag `number` (2, 3 or 4), its head read, as the Value's own integer or
// decimal; false, with p anywhere, when it is not one that fits.
bool fits_own_type(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t number,
                   const Head& c, Value& out, const std::uint8_t* at) {
  Failure f;
  if (number == kTagDecimal) {
    Decimal d;
    if (!read_decimal(p, end, c, d, at, f)) return false;
    out = Value(d);
    return true;
  }
  Integer v;
  if (!read_integer(p, end, c, Tag{true, number}, v, at, f)) return false;
  if (!v.negative) {
    out = v.n <= INT64_MAX ? Value(static_cast<std::int64_t>(v.n)) : Value(v.n);
    return true;
  }
  if (!int_fits(v, true, 8)) return false;
  out = Value(static_cast<std::int64_t>(int_bits(v)));
  return true;
}

// A bignum (tag 2 or 3 around a byte string) whose magnitude fits 64 bits, as that magnitude:
// preferred serialization writes such a number as a plain integer head of the same major type
// (RFC 8949, section 3.4.3), which is how a Value holds a negative integer below int64.
std::optional<std::uint64_t> plain_bignum(const Tagged& t) {
  if ((t.number() != kTagPositiveBignum && t.number() != kTagNegativeBignum) ||
      t.content().type() != Value::Type::Bytes) {
    return std::nullopt;
  }
  std::uint64_t n = 0;
  for (const std::uint8_t b : t.content().as_bytes()) {
    if (n >> 56) return std::nullopt;
    n = n << 8 | b;
  }
  return n;
}

// A negative integer -1 - n below int64 (n past INT64_MAX) as the bignum a Value holds it as.
Value negative_bignum(std::uint64_t n) {
  Value::Bytes magnitude(8);
  for (int i = 7; i >= 0; --i, n >>= 8) magnitude[static_cast<std::size_t>(i)] = n & 0xff;
  return Value(Tagged(kTagNegativeBignum, Value(std::move(magnitude))));
}

}  // namespace

Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left) {
  switch (v.type()) {
    case Value::Type::Null: byte(out, kNull); return Errc::ok;
    case Value::Type::Bool: byte(out, v.as_bool() ? kTrue : kFalse); return Errc::ok;
    case Value::Type::Int:
      out.commit_to(put_int(out.ensure(kMaxHead), v.as_int()));
      return Errc::ok;
    case Value::Type::UInt:
      out.commit_to(put_uint(out.ensure(kMaxHead), v.as_uint()));
      return Errc::ok;
    case Value::Type::Double:
      out.commit_to(put_double(out.ensure(kMaxHead), v.as_double()));
      return Errc::ok;
    case Value::Type::String: return text(out, v.as_string()) ? Errc::ok : Errc::invalid_utf8;
    case Value::Type::Bytes: {
      const Value::Bytes& b = v.as_bytes();
      head(out, Major::Bytes, b.size());
      if (!b.empty()) out.append(b.data(), b.size());
      return Errc::ok;
    }
    case Value::Type::Array: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const Value::Array& a = v.as_array();
      head(out, Major::Array, a.size());
      for (const Value& e : a) {
        if (Errc e2 = write_value(out, e, depth_left - 1); e2 != Errc::ok) return e2;
      }
      return Errc::ok;
    }
    case Value::Type::Map: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const Value::Map& m = v.as_map();
      head(out, Major::Map, m.size());
      for (const auto& [key, value] : m) {
        if (!text(out, key)) return Errc::invalid_utf8;
        if (Errc e = write_value(out, value, depth_left - 1); e != Errc::ok) return e;
      }
      return Errc::ok;
    }
    case Value::Type::Decimal: {
      const Decimal d = v.as_decimal();
      out.commit_to(put_decimal(out.ensure(kMaxDecimal), d.unscaled, d.scale));
      return Errc::ok;
    }
    case Value::Type::Float:
      out.commit_to(put_double(out.ensure(kMaxHead), static_cast<double>(v.as_float())));
      return Errc::ok;
    case Value::Type::Entries: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const Value::Entries& m = v.as_entries();
      head(out, Major::Map, m.size());
      for (const auto& [key, value] : m) {
        if (Errc e = write_value(out, key, depth_left - 1); e != Errc::ok) return e;
        if (Errc e = write_value(out, value, depth_left - 1); e != Errc::ok) return e;
      }
      return Errc::ok;
    }
    case Value::Type::Tagged:
      if (const auto n = plain_bignum(v.as_tagged())) {
        const bool negative = v.as_tagged().number() == kTagNegativeBignum;
        head(out, negative ? Major::Negative : Major::Unsigned, *n);
        return Errc::ok;
      }
      if (depth_left == 0) return Errc::depth_exceeded;
      head(out, Major::Tag, v.as_tagged().number());
      return write_value(out, v.as_tagged().content(), depth_left - 1);
    case Value::Type::Simple: {
      // False, true and null are a Value's own types; 24 to 31 have no one-byte encoding, and
      // a two-byte one below 32 is not well-formed.
      const std::uint8_t n = v.as_simple().value;
      if ((n >= 20 && n <= 22) || (n >= 24 && n < 32)) return Errc::unsupported;
      head(out, Major::Simple, n);
      return Errc::ok;
    }
    case Value::Type::Extension: return Errc::unsupported;
  }
  return Errc::invalid_descriptor;
}

bool read_value(const std::uint8_t*& p, const std::uint8_t* end, Value& out,
                std::uint32_t depth_left, ValueFault& fault) {
  Failure f;
  auto failed = [&] {
    fault = {f.code, std::move(f.message), f.at};
    return false;
  };
  const std::uint8_t* at = p;
  Head h;
  if (!read_head(p, end, h, f)) return failed();
  if (h.major == Major::Tag) {
    // Bignums and decimal fractions that a Value's integers and decimals hold become those;
    // every other tag, and those that do not fit, stay tagged.
    const std::uint8_t* content = p;
    if (h.n == kTagPositiveBignum || h.n == kTagNegativeBignum || h.n == kTagDecimal) {
      Head c;
      Failure ignored;
      if (read_head(p, end, c, ignored) && fits_own_type(p, end, h.n, c, out, at)) return true;
      p = content;
    }
    if (depth_left == 0) {
      f.set(Errc::depth_exceeded, "value nests too deep", at);
      return failed();
    }
    Value tagged;
    if (!read_value(p, end, tagged, depth_left - 1, fault)) return false;
    out = Value(Tagged(h.n, std::move(tagged)));
    return true;
  }
  switch (h.major) {
    case Major::Unsigned:
      out = h.n <= INT64_MAX ? Value(static_cast<std::int64_t>(h.n)) : Value(h.n);
      return true;
    case Major::Negative:
      out = h.n > INT64_MAX ? negative_bignum(h.n) : Value(static_cast<std::int64_t>(~h.n));
      return true;
    case Major::Bytes:
    case Major::Text: {
      std::string scratch;
      std::string_view s;
      if (!read_string(p, end, h, scratch, s, at, f)) return failed();
      if (h.major == Major::Text) {
        out = Value(std::string(s));
      } else {
        const auto* b = reinterpret_cast<const std::uint8_t*>(s.data());
        out = Value(Value::Bytes(b, b + s.size()));
      }
      return true;
    }
    case Major::Array: {
      if (depth_left == 0) {
        f.set(Errc::depth_exceeded, "value nests too deep", at);
        return failed();
      }
      Value::Array a;
      if (!h.indefinite && h.n <= static_cast<std::uint64_t>(end - p)) a.reserve(h.n);
      const bool ok = read_items(p, end, h, 1, at, f, [&] {
        Value e;
        if (!read_value(p, end, e, depth_left - 1, fault)) return false;
        a.push_back(std::move(e));
        return true;
      });
      if (!ok) return f.code == Errc::ok ? false : failed();
      out = Value(std::move(a));
      return true;
    }
    case Major::Map: {
      if (depth_left == 0) {
        f.set(Errc::depth_exceeded, "value nests too deep", at);
        return failed();
      }
      ValueMapBuilder m;
      const bool ok = read_items(p, end, h, 2, at, f, [&] {
        Value key, value;
        if (!read_value(p, end, key, depth_left - 1, fault) ||
            !read_value(p, end, value, depth_left - 1, fault)) {
          return false;
        }
        m.add(std::move(key), std::move(value));
        return true;
      });
      if (!ok) return f.code == Errc::ok ? false : failed();
      out = std::move(m).finish();
      return true;
    }
    case Major::Tag: break;  // read above
    case Major::Simple:
      if (h.float_bytes) {
        out = Value(float_value(h));
        return true;
      }
      switch (h.n) {
        case 20: out = Value(false); return true;
        case 21: out = Value(true); return true;
        case 22: out = Value(); return true;
        default: out = Value(Simple{static_cast<std::uint8_t>(h.n)}); return true;
      }
  }
  return false;
}

}  // namespace jitser::cbor

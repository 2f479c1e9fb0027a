#include "formats/cbor/value_cbor.h"

#include "formats/cbor/items.h"
#include "formats/cbor/wire.h"
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
  Tag tag;
  if (!read_untagged(p, end, h, tag, f)) return failed();
  if (tag.is(kTagPositiveBignum) || tag.is(kTagNegativeBignum)) {
    Integer v;
    if (!read_integer(p, end, h, tag, v, at, f)) return failed();
    if (!v.negative) {
      out = v.n <= INT64_MAX ? Value(static_cast<std::int64_t>(v.n)) : Value(v.n);
      return true;
    }
    if (!int_fits(v, true, 8)) {
      f.set(Errc::out_of_range, "an integer below int64", at);
      return failed();
    }
    out = Value(static_cast<std::int64_t>(int_bits(v)));
    return true;
  }
  if (tag.is(kTagDecimal)) {
    Decimal d;
    if (!read_decimal(p, end, h, d, at, f)) return failed();
    out = Value(d);
    return true;
  }
  if (tag.present) {
    f.set(Errc::unsupported, "tag " + std::to_string(tag.number) + " in a jitser::Value", at);
    return failed();
  }
  switch (h.major) {
    case Major::Unsigned:
      out = h.n <= INT64_MAX ? Value(static_cast<std::int64_t>(h.n)) : Value(h.n);
      return true;
    case Major::Negative:
      if (h.n > INT64_MAX) {
        f.set(Errc::out_of_range, "an integer below int64", at);
        return failed();
      }
      out = Value(static_cast<std::int64_t>(~h.n));
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
      Value::Map m;
      const bool ok = read_items(p, end, h, 2, at, f, [&] {
        const std::uint8_t* key_at = p;
        Head k;
        Tag key_tag;
        if (!read_untagged(p, end, k, key_tag, f)) return false;
        if (k.major != Major::Text || key_tag.present) {
          return f.set(Errc::unsupported,
                       std::string("a jitser::Value's map keys are text, not ") + item_name(k),
                       key_at);
        }
        std::string scratch;
        std::string_view key;
        if (!read_string(p, end, k, scratch, key, key_at, f)) return false;
        Value value;
        if (!read_value(p, end, value, depth_left - 1, fault)) return false;
        m.emplace_back(std::string(key), std::move(value));
        return true;
      });
      if (!ok) return f.code == Errc::ok ? false : failed();
      out = Value(std::move(m));
      return true;
    }
    case Major::Tag: break;  // read_untagged stepped over every tag
    case Major::Simple:
      if (h.float_bytes) {
        out = Value(float_value(h));
        return true;
      }
      switch (h.n) {
        case 20: out = Value(false); return true;
        case 21: out = Value(true); return true;
        case 22: out = Value(); return true;
        default:
          f.set(Errc::unsupported, "simple value " + std::to_string(h.n) + " in a jitser::Value",
                at);
          return failed();
      }
  }
  return false;
}

}  // namespace jitser::cbor

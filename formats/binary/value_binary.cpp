#include "formats/binary/value_binary.h"

#include <cstring>

#include "formats/binary/wire.h"
#include "typeinfo/utf8.h"

namespace jitser::wire {
namespace {

// The tag byte that starts each dynamic value: its Value::Type.
using T = Value::Type;

void varuint(Buffer& out, std::uint64_t v) {
  out.commit_to(put_varuint(out.ensure(kMaxVarintBytes), v));
}

Errc to_errc(VarintStatus s) {
  switch (s) {
    case VarintStatus::ok: return Errc::ok;
    case VarintStatus::truncated: return Errc::truncated;
    case VarintStatus::overlong: return Errc::varint_overlong;
    case VarintStatus::overflow: return Errc::varint_overflow;
  }
  return Errc::truncated;
}

// A count of items of at least one byte each can be no larger than the bytes left.
Errc count(const std::uint8_t** p, const std::uint8_t* end, std::uint64_t& n) {
  const std::uint8_t* at = *p;
  if (Errc e = to_errc(get_varuint(*p, end, 64, n)); e != Errc::ok) {
    *p = at;
    return e;
  }
  if (n > static_cast<std::uint64_t>(end - *p)) {
    *p = at;
    return Errc::length_too_large;
  }
  return Errc::ok;
}

Errc text(const std::uint8_t** p, const std::uint8_t* end, std::string& s) {
  std::uint64_t n;
  if (Errc e = count(p, end, n); e != Errc::ok) return e;
  std::size_t bad = 0;
  if (!valid_utf8(*p, n, &bad)) {
    *p += bad;
    return Errc::invalid_utf8;
  }
  s.assign(reinterpret_cast<const char*>(*p), n);
  *p += n;
  return Errc::ok;
}

}  // namespace

Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left) {
  const std::uint8_t tag = static_cast<std::uint8_t>(v.type());
  out.append(&tag, 1);
  switch (v.type()) {
    case T::Null: return Errc::ok;
    case T::Bool: {
      const std::uint8_t b = v.as_bool();
      out.append(&b, 1);
      return Errc::ok;
    }
    case T::Int: varuint(out, zigzag(v.as_int())); return Errc::ok;
    case T::UInt: varuint(out, v.as_uint()); return Errc::ok;
    case T::Double: {
      const double d = v.as_double();
      out.append(&d, 8);
      return Errc::ok;
    }
    case T::String:
      varuint(out, v.as_string().size());
      out.append(v.as_string().data(), v.as_string().size());
      return Errc::ok;
    case T::Bytes:
      varuint(out, v.as_bytes().size());
      out.append(v.as_bytes().data(), v.as_bytes().size());
      return Errc::ok;
    case T::Decimal:
      varuint(out, zigzag(v.as_decimal().unscaled));
      varuint(out, zigzag(v.as_decimal().scale));
      return Errc::ok;
    case T::Array:
      if (depth_left == 0) return Errc::depth_exceeded;
      varuint(out, v.as_array().size());
      for (const Value& e : v.as_array()) {
        if (Errc err = write_value(out, e, depth_left - 1); err != Errc::ok) return err;
      }
      return Errc::ok;
    case T::Map:
      if (depth_left == 0) return Errc::depth_exceeded;
      varuint(out, v.as_map().size());
      for (const Value::Member& m : v.as_map()) {
        varuint(out, m.first.size());
        out.append(m.first.data(), m.first.size());
        if (Errc err = write_value(out, m.second, depth_left - 1); err != Errc::ok) return err;
      }
      return Errc::ok;
    case T::Float: {
      const float f = v.as_float();
      out.append(&f, 4);
      return Errc::ok;
    }
    case T::Entries:
      if (depth_left == 0) return Errc::depth_exceeded;
      varuint(out, v.as_entries().size());
      for (const Value::Entry& e : v.as_entries()) {
        if (Errc err = write_value(out, e.first, depth_left - 1); err != Errc::ok) return err;
        if (Errc err = write_value(out, e.second, depth_left - 1); err != Errc::ok) return err;
      }
      return Errc::ok;
    case T::Tagged:
      if (depth_left == 0) return Errc::depth_exceeded;
      varuint(out, v.as_tagged().number());
      return write_value(out, v.as_tagged().content(), depth_left - 1);
    case T::Extension: {
      const Extension& x = v.as_extension();
      const auto type = static_cast<std::uint8_t>(x.type);
      out.append(&type, 1);
      varuint(out, x.data.size());
      out.append(x.data.data(), x.data.size());
      return Errc::ok;
    }
    case T::Simple: {
      const std::uint8_t n = v.as_simple().value;
      out.append(&n, 1);
      return Errc::ok;
    }
  }
  return Errc::ok;
}

Errc read_value(const std::uint8_t** p, const std::uint8_t* end, Value& v,
                std::uint32_t depth_left) {
  if (*p == end) return Errc::truncated;
  const std::uint8_t tag = **p;
  if (tag > static_cast<std::uint8_t>(T::Simple)) return Errc::bad_flag;
  ++*p;
  switch (static_cast<T>(tag)) {
    case T::Null: v = Value(); return Errc::ok;
    case T::Bool:
      if (*p == end) return Errc::truncated;
      if (**p > 1) return Errc::invalid_bool;
      v = Value(**p == 1);
      ++*p;
      return Errc::ok;
    case T::Int:
    case T::UInt: {
      const std::uint8_t* at = *p;
      std::uint64_t raw = 0;
      if (Errc e = to_errc(get_varuint(*p, end, 64, raw)); e != Errc::ok) {
        *p = at;
        return e;
      }
      v = tag == static_cast<std::uint8_t>(T::Int) ? Value(unzigzag(raw)) : Value(raw);
      return Errc::ok;
    }
    case T::Double: {
      if (end - *p < 8) return Errc::truncated;
      double d;
      std::memcpy(&d, *p, 8);
      *p += 8;
      v = Value(d);
      return Errc::ok;
    }
    case T::String: {
      std::string s;
      if (Errc e = text(p, end, s); e != Errc::ok) return e;
      v = Value(std::move(s));
      return Errc::ok;
    }
    case T::Bytes: {
      std::uint64_t n;
      if (Errc e = count(p, end, n); e != Errc::ok) return e;
      v = Value(Value::Bytes(*p, *p + n));
      *p += n;
      return Errc::ok;
    }
    case T::Decimal: {
      const std::uint8_t* at = *p;
      std::uint64_t unscaled = 0, scale = 0;
      if (Errc e = to_errc(get_varuint(*p, end, 64, unscaled)); e != Errc::ok) {
        *p = at;
        return e;
      }
      at = *p;
      if (Errc e = to_errc(get_varuint(*p, end, 64, scale)); e != Errc::ok) {
        *p = at;
        return e;
      }
      const std::int64_t s = unzigzag(scale);
      if (!scale_fits(s)) {
        *p = at;
        return Errc::out_of_range;
      }
      v = Value(Decimal{unzigzag(unscaled), static_cast<std::int32_t>(s)});
      return Errc::ok;
    }
    case T::Array: {
      if (depth_left == 0) return Errc::depth_exceeded;
      std::uint64_t n;
      if (Errc e = count(p, end, n); e != Errc::ok) return e;
      Value::Array items(n);
      for (Value& item : items) {
        if (Errc e = read_value(p, end, item, depth_left - 1); e != Errc::ok) return e;
      }
      v = Value(std::move(items));
      return Errc::ok;
    }
    case T::Map: {
      if (depth_left == 0) return Errc::depth_exceeded;
      std::uint64_t n;
      if (Errc e = count(p, end, n); e != Errc::ok) return e;
      Value::Map members(n);
      for (Value::Member& m : members) {
        if (Errc e = text(p, end, m.first); e != Errc::ok) return e;
        if (Errc e = read_value(p, end, m.second, depth_left - 1); e != Errc::ok) return e;
      }
      v = Value(std::move(members));
      return Errc::ok;
    }
    case T::Float: {
      if (end - *p < 4) return Errc::truncated;
      float f;
      std::memcpy(&f, *p, 4);
      *p += 4;
      v = Value(f);
      return Errc::ok;
    }
    case T::Entries: {
      if (depth_left == 0) return Errc::depth_exceeded;
      std::uint64_t n;
      if (Errc e = count(p, end, n); e != Errc::ok) return e;
      Value::Entries entries(n);
      for (Value::Entry& entry : entries) {
        if (Errc e = read_value(p, end, entry.first, depth_left - 1); e != Errc::ok) return e;
        if (Errc e = read_value(p, end, entry.second, depth_left - 1); e != Errc::ok) return e;
      }
      v = Value(std::move(entries));
      return Errc::ok;
    }
    case T::Tagged: {
      if (depth_left == 0) return Errc::depth_exceeded;
      const std::uint8_t* at = *p;
      std::uint64_t number = 0;
      if (Errc e = to_errc(get_varuint(*p, end, 64, number)); e != Errc::ok) {
        *p = at;
        return e;
      }
      Value content;
      if (Errc e = read_value(p, end, content, depth_left - 1); e != Errc::ok) return e;
      v = Value(Tagged(number, std::move(content)));
      return Errc::ok;
    }
    case T::Extension: {
      if (*p == end) return Errc::truncated;
      const auto type = static_cast<std::int8_t>(**p);
      ++*p;
      std::uint64_t n;
      if (Errc e = count(p, end, n); e != Errc::ok) return e;
      v = Value(Extension{type, Value::Bytes(*p, *p + n)});
      *p += n;
      return Errc::ok;
    }
    case T::Simple:
      if (*p == end) return Errc::truncated;
      v = Value(Simple{**p});
      ++*p;
      return Errc::ok;
  }
  return Errc::ok;
}

}  // namespace jitser::wire

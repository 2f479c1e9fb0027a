#include "formats/json/json_value.h"

#include "formats/json/json_write.h"

namespace jitser::json {
namespace {

template <class Put>
Errc put(Buffer& out, std::size_t bound, Put&& f, Errc failure) {
  char* start = reinterpret_cast<char*>(out.ensure(bound));
  char* end = f(start);
  if (!end) return failure;
  out.commit(static_cast<std::size_t>(end - start));
  return Errc::ok;
}

void literal(Buffer& out, std::string_view text) { out.append(text.data(), text.size()); }

}  // namespace

Errc write_value(Buffer& out, const Value& v, std::uint32_t depth_left) {
  using T = Value::Type;
  switch (v.type()) {
    case T::Null: literal(out, "null"); return Errc::ok;
    case T::Bool: literal(out, v.as_bool() ? "true" : "false"); return Errc::ok;
    case T::Int:
      return put(
          out, kMaxIntChars, [&](char* o) { return put_int(o, v.as_int()); }, Errc::ok);
    case T::UInt:
      return put(
          out, kMaxIntChars, [&](char* o) { return put_uint(o, v.as_uint()); }, Errc::ok);
    case T::Double:
      return put(
          out, kMaxFloatChars, [&](char* o) { return put_double(o, v.as_double()); },
          Errc::not_finite);
    case T::String: {
      const std::string& s = v.as_string();
      return put(
          out, string_bound(s.size()), [&](char* o) { return put_string(o, s.data(), s.size()); },
          Errc::invalid_utf8);
    }
    case T::Bytes: {
      const Value::Bytes& b = v.as_bytes();
      return put(
          out, base64_bound(b.size()), [&](char* o) { return put_base64(o, b.data(), b.size()); },
          Errc::ok);
    }
    case T::Decimal:
      return put(
          out, kMaxDecimalChars, [&](char* o) { return put_decimal(o, v.as_decimal()); }, Errc::ok);
    case T::Array: {
      if (depth_left == 0) return Errc::depth_exceeded;
      literal(out, "[");
      bool first = true;
      for (const Value& e : v.as_array()) {
        if (!first) literal(out, ",");
        first = false;
        if (Errc e2 = write_value(out, e, depth_left - 1); e2 != Errc::ok) return e2;
      }
      literal(out, "]");
      return Errc::ok;
    }
    case T::Map: {
      if (depth_left == 0) return Errc::depth_exceeded;
      literal(out, "{");
      bool first = true;
      for (const Value::Member& m : v.as_map()) {
        if (!first) literal(out, ",");
        first = false;
        const std::string& k = m.first;
        if (Errc e = put(
                out, string_bound(k.size()),
                [&](char* o) { return put_string(o, k.data(), k.size()); }, Errc::invalid_utf8);
            e != Errc::ok)
          return e;
        literal(out, ":");
        if (Errc e = write_value(out, m.second, depth_left - 1); e != Errc::ok) return e;
      }
      literal(out, "}");
      return Errc::ok;
    }
    case T::Float:
      return put(
          out, kMaxFloatChars, [&](char* o) { return put_float(o, v.as_float()); },
          Errc::not_finite);
    case T::Entries:
    case T::Tagged:
    case T::Extension:
    case T::Simple: return Errc::unsupported;
  }
  return Errc::ok;
}

Errc read_value(const Document& doc, Slot* slot, Value& v, std::uint32_t depth_left,
                std::size_t* offset) {
  *offset = doc.offset(slot);
  Type type;
  if (Errc e = type_of(slot, &type); e != Errc::ok) return e;
  switch (type) {
    case Type::Null: {
      bool was_null = false;
      if (Errc e = take_null(slot, &was_null); e != Errc::ok) return e;
      if (!was_null) return Errc::syntax_error;
      v = Value();
      return Errc::ok;
    }
    case Type::Bool: {
      bool b = false;
      if (Errc e = get_bool(slot, &b); e != Errc::ok) return e;
      v = Value(b);
      return Errc::ok;
    }
    case Type::Number: {
      NumberKind kind;
      std::int64_t i = 0;
      std::uint64_t u = 0;
      double d = 0;
      if (Errc e = get_number(slot, &kind, &i, &u, &d); e != Errc::ok) return e;
      v = kind == NumberKind::Int ? Value(i) : kind == NumberKind::UInt ? Value(u) : Value(d);
      return Errc::ok;
    }
    case Type::String: {
      std::string_view s;
      if (Errc e = get_string(slot, &s); e != Errc::ok) return e;
      v = Value(std::string(s));
      return Errc::ok;
    }
    case Type::Array: {
      if (depth_left == 0) return Errc::depth_exceeded;
      Slot it, element;
      if (Errc e = begin_array(slot, &it); e != Errc::ok) return e;
      Value::Array items;
      for (;;) {
        bool more = false;
        *offset = doc.current_offset();
        if (Errc e = next_element(&it, &more, &element); e != Errc::ok) return e;
        if (!more) break;
        if (Errc e = read_value(doc, &element, items.emplace_back(), depth_left - 1, offset);
            e != Errc::ok)
          return e;
      }
      v = Value(std::move(items));
      return Errc::ok;
    }
    case Type::Object: {
      if (depth_left == 0) return Errc::depth_exceeded;
      Slot it, field;
      if (Errc e = begin_object(slot, &it); e != Errc::ok) return e;
      Value::Map members;
      for (;;) {
        bool more = false;
        const char* raw = nullptr;
        *offset = doc.current_offset();
        if (Errc e = next_field(&it, &more, &raw, &field); e != Errc::ok) return e;
        if (!more) break;
        std::string_view key;
        *offset = doc.offset(raw - 1);
        if (Errc e = unescaped_key(raw, &key); e != Errc::ok) return e;
        Value::Member& m = members.emplace_back(std::string(key), Value());
        if (Errc e = read_value(doc, &field, m.second, depth_left - 1, offset); e != Errc::ok)
          return e;
      }
      v = Value(std::move(members));
      return Errc::ok;
    }
  }
  return Errc::ok;
}

}  // namespace jitser::json

// JSON's operations for the interpreter (docs/formats/json.md): writing with the primitives of
// json_write.h, reading with the On-Demand calls of json_read.h, the ones compiled code makes.
#include "formats/json/json_ops.h"

#include <cmath>
#include <cstring>
#include <string>

#include "formats/json/json_key.h"
#include "formats/json/json_read.h"
#include "formats/json/json_text.h"
#include "formats/json/json_value.h"
#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"
#include "typeinfo/integers.h"
#include "typeinfo/strings.h"

namespace jitser {
namespace {

const char* int_expected(const Instr& in) {
  static const char* s[] = {
      "", "an integer (int8)", "an integer (int16)", "", "an integer (int32)", "", "",
      "", "an integer (int64)"};
  static const char* u[] = {
      "", "an integer (uint8)", "an integer (uint16)", "", "an integer (uint32)", "", "",
      "", "an integer (uint64)"};
  return (in.op == Op::Int ? s : u)[in.width];
}

class JsonWriter final : public FormatWriter {
 public:
  bool frame(Buffer&, const Plan&, const RunOptions&, Fault&) const override { return true; }

  bool put(Buffer& out, const Instr& in, const void* p, std::uint32_t depth_left,
           Fault& f) const override {
    switch (in.op) {
      case Op::Bool:
        literal(out, *static_cast<const std::uint8_t*>(p) ? "true" : "false");
        return true;
      case Op::Int:
      case Op::UInt: {
        const bool quoted = json::quoted_integer(in.enc, in.width);
        return put(out, json::kMaxIntChars + 2, [&](char* o) {
          if (quoted) *o++ = '"';
          if (in.op == Op::Int) {
            o = json::put_int(o, load_signed(p, in.width));
          } else {
            std::uint64_t v = 0;
            std::memcpy(&v, p, in.width);
            o = json::put_uint(o, v);
          }
          if (quoted) *o++ = '"';
          return o;
        });
      }
      case Op::Float:
        return put(out, json::kMaxFloatChars,
                   [&](char* o) {
                     const bool protobuf = in.enc == json::kProto;
                     if (in.width == 4) {
                       float v;
                       std::memcpy(&v, p, 4);
                       return protobuf ? json::put_proto_float(o, v) : json::put_float(o, v);
                     }
                     double d;
                     std::memcpy(&d, p, 8);
                     return protobuf ? json::put_proto_double(o, d) : json::put_double(o, d);
                   }) ||
               f.set(Errc::not_finite, "NaN and infinities have no JSON form");
      case Op::String: {
        const std::string_view s = string_at(*in.type, p);
        return put(out, json::string_bound(s.size()),
                   [&](char* o) { return json::put_string(o, s.data(), s.size()); }) ||
               f.set(Errc::invalid_utf8, "string is not UTF-8");
      }
      case Op::Bytes: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(in.type, p);
        const auto* data =
            static_cast<const std::uint8_t*>(ops.data(in.type, const_cast<void*>(p)));
        return put(out, json::base64_bound(n),
                   [&](char* o) { return json::put_base64(o, data, n); });
      }
      case Op::Enum: {
        const std::int64_t v = load_integer(*in.type, p);
        for (const EnumValue& d : in.type->values) {
          if (d.value == v) {
            return put(out, json::string_bound(d.name.size()),
                       [&](char* o) { return json::put_string(o, d.name.data(), d.name.size()); });
          }
        }
        return f.set(Errc::unknown_enum, std::to_string(v) + " is not a value of " + in.type->name);
      }
      case Op::Decimal:
        return put(out, json::kMaxDecimalChars,
                   [&](char* o) { return json::put_decimal(o, *static_cast<const Decimal*>(p)); });
      case Op::Time: {
        std::int64_t ticks;
        std::memcpy(&ticks, p, 8);
        const TimeUnit unit = in.type->unit;
        const bool protobuf = in.enc == json::kProto;
        if (in.type->kind == Kind::Duration) {
          return put(out, json::kMaxTimeChars,
                     [&](char* o) { return json::put_duration(o, ticks, unit, protobuf); });
        }
        return put(out, json::kMaxTimeChars,
                   [&](char* o) { return json::put_timestamp(o, ticks, unit, protobuf); }) ||
               f.set(Errc::out_of_range, "timestamp outside the years 0001 to 9999 of RFC 3339");
      }
      case Op::Dynamic: {
        const Errc e = json::write_value(out, *static_cast<const Value*>(p), depth_left);
        switch (e) {
          case Errc::ok: return true;
          case Errc::not_finite: return f.set(e, "NaN and infinities have no JSON form");
          case Errc::invalid_utf8: return f.set(e, "string is not UTF-8");
          case Errc::unsupported:
            return f.set(e, "the jitser::Value holds an item JSON has no form for");
          default: return f.set(Errc::depth_exceeded, "value nests too deep");
        }
      }
      default: return f.set(Errc::invalid_descriptor, "not a JSON value");
    }
  }

  void null(Buffer& out) const override { literal(out, "null"); }
  void present(Buffer&) const override {}
  void shared_new(Buffer&) const override {}
  void shared_ref(Buffer&, std::uint32_t) const override {}

  std::size_t begin_object(Buffer& out, const FormatTraits&, bool, std::size_t) const override {
    literal(out, "{");
    return 0;
  }
  void field(Buffer& out, const PlanField& field, bool first) const override {
    if (!first) literal(out, ",");
    literal(out, field.key);
  }
  void end_object(Buffer& out, std::size_t) const override { literal(out, "}"); }
  std::size_t begin_list(Buffer& out, const Instr&, std::size_t) const override {
    literal(out, "[");
    return 0;
  }
  void element(Buffer& out, std::size_t i) const override {
    if (i) literal(out, ",");
  }
  void end_list(Buffer& out, std::size_t, std::size_t) const override { literal(out, "]"); }
  void begin_map(Buffer& out, const Instr&, std::size_t) const override { literal(out, "{"); }
  std::size_t begin_entry(Buffer& out, const Instr&, std::size_t i) const override {
    if (i) literal(out, ",");
    return 0;
  }
  void entry_value(Buffer& out, const Instr&) const override { literal(out, ":"); }
  void end_entry(Buffer&, std::size_t) const override {}
  void end_map(Buffer& out, std::size_t) const override { literal(out, "}"); }

 private:
  static void literal(Buffer& out, std::string_view text) { out.append(text.data(), text.size()); }

  // Runs a primitive that writes at most `bound` bytes; false when it says the value has no
  // JSON form (a null end).
  template <class Put>
  static bool put(Buffer& out, std::size_t bound, Put&& f) {
    char* start = reinterpret_cast<char*>(out.ensure(bound));
    char* end = f(start);
    if (!end) return false;
    out.commit(static_cast<std::size_t>(end - start));
    return true;
  }
};

class JsonReader final : public FormatReader {
 public:
  bool open(std::span<const std::uint8_t> input, std::size_t padding, Slot* root,
            Fault& f) override {
    const Errc e = doc_.open(input, padding, root);
    switch (e) {
      case Errc::ok: return true;
      case Errc::truncated:
        return f.set(e,
                     doc_.end_of_text() == 0 ? "input ends before a JSON value"
                                             : "input ends inside a string or value",
                     doc_.size());
      case Errc::invalid_utf8: return f.set(e, "text is not UTF-8", doc_.first_bad_utf8());
      default: return f.set(e, "not JSON", doc_.current_offset());
    }
  }

  bool frame(const Plan&, const RunOptions& options, Fault&) override {
    max_depth_ = options.max_depth;
    return true;
  }

  bool finish(Fault& f) override {
    if (doc_.finish() == Errc::ok) return true;
    return f.set(Errc::trailing_bytes, "more after the end of the JSON value",
                 doc_.current_offset());
  }

  std::size_t offset(const Slot* value) const override { return doc_.offset(value); }

  bool get(const Instr& in, Slot* v, void* p, std::uint32_t depth_left, Fault& f) override {
    switch (in.op) {
      case Op::Bool: {
        bool b;
        if (Errc e = json::get_bool(v, &b); e != Errc::ok) return failed(f, e, v, "true or false");
        *static_cast<std::uint8_t*>(p) = b;
        return true;
      }
      case Op::Int:
      case Op::UInt: return integer(in, p, v, f);
      case Op::Float: {
        double d;
        const bool protobuf = in.enc == json::kProto;
        if (Errc e = protobuf ? json::get_proto_double(v, &d) : json::get_double(v, &d);
            e != Errc::ok) {
          return failed(f, e, v, protobuf ? "a number, \"NaN\" or \"Infinity\"" : "a number");
        }
        if (in.width == 4) {
          float x;
          if (!(protobuf ? json::to_proto_float(d, &x) : json::to_float(d, &x))) {
            return failed(f, Errc::out_of_range, v, "float32");
          }
          std::memcpy(p, &x, 4);
        } else {
          std::memcpy(p, &d, 8);
        }
        return true;
      }
      case Op::String: {
        std::string_view s;
        if (Errc e = json::get_string(v, &s); e != Errc::ok) return failed(f, e, v, "a string");
        assign_string(*in.type, p, s);
        return true;
      }
      case Op::Bytes: {
        const Errc e = json::read_base64(v, p, in.type);
        if (e == Errc::invalid_base64) {
          return fail(f, e, "not base64 (RFC 4648, with padding)", doc_.offset(v));
        }
        return e == Errc::ok || failed(f, e, v, "a base64 string");
      }
      case Op::Enum: {
        std::string_view s;
        const std::size_t at = doc_.offset(v);
        if (Errc e = json::get_string(v, &s); e != Errc::ok) return failed(f, e, v, "an enum name");
        for (const EnumValue& d : in.type->values) {
          if (d.name == s) {
            std::memcpy(p, &d.value, in.type->size);
            return true;
          }
        }
        return fail(f, Errc::unknown_enum,
                    "\"" + std::string(s) + "\" is not a value of " + in.type->name, at);
      }
      case Op::Decimal: {
        const Errc e = json::read_decimal(v, static_cast<Decimal*>(p));
        if (e == Errc::out_of_range) {
          return fail(f, e, "decimal does not fit 64-bit unscaled digits", doc_.offset(v));
        }
        return e == Errc::ok || failed(f, e, v, "a number");
      }
      case Op::Time: {
        const bool duration = in.type->kind == Kind::Duration;
        std::string_view s;
        std::int64_t ticks;
        const Errc e = json::read_time(v, in.type->unit, duration, &ticks, &s);
        if (e == Errc::out_of_range) {
          return fail(f, e,
                      "\"" + std::string(s) + "\" is not " +
                          (duration ? "a duration (\"1.5s\")" : "an RFC 3339 timestamp") +
                          " this field's unit can hold",
                      doc_.offset(v));
        }
        if (e != Errc::ok) {
          return failed(f, e, v, duration ? "a duration string" : "an RFC 3339 timestamp");
        }
        std::memcpy(p, &ticks, 8);
        return true;
      }
      case Op::Dynamic: {
        std::size_t at = 0;
        const Errc e = json::read_value(doc_, v, *static_cast<Value*>(p), depth_left, &at);
        switch (e) {
          case Errc::ok: return true;
          case Errc::depth_exceeded: return fail(f, e, "value nests too deep", at);
          case Errc::out_of_range:
            return fail(f, e, "number beyond the 64-bit integers and finite doubles a Value holds",
                        at);
          case Errc::invalid_utf8:
          case Errc::truncated: return fail(f, e, "malformed JSON", at);
          default: return fail(f, Errc::syntax_error, "malformed JSON", at);
        }
      }
      default: return fail(f, Errc::invalid_descriptor, "not a JSON value", doc_.offset(v));
    }
  }

  bool null(const Instr&, Slot* v, bool* is_null, Fault& f) override {
    if (Errc e = json::take_null(v, is_null); e != Errc::ok) return failed(f, e, v, "a value");
    return true;
  }

  // JSON has no references: a shared object is read as a copy wherever it appears.
  bool shared(const Instr& in, Slot* v, SharedRef* ref, std::uint32_t*, Fault& f) override {
    bool is_null = false;
    if (!null(in, v, &is_null, f)) return false;
    *ref = is_null ? SharedRef::Null : SharedRef::New;
    return true;
  }

  bool begin_object(Slot* v, Slot* it, Fault& f) override {
    if (Errc e = json::begin_object(v, it); e != Errc::ok) return failed(f, e, v, "an object");
    return true;
  }

  bool next_field(Slot* it, bool* more, const char** key, std::size_t* key_at, Slot* value,
                  Fault& f) override {
    if (Errc e = json::next_field(it, more, key, value); e != Errc::ok) {
      return failed(f, e, value, "a field");
    }
    if (*more) *key_at = doc_.offset(*key - 1);
    return true;
  }

  bool key_text(const char* key, std::string_view* text) override {
    return json::unescaped_key(key, text) == Errc::ok;
  }

  bool skip(Slot*, Fault&) override { return true; }  // the iterator steps over what is left

  bool begin_list(const Instr& in, Slot* v, std::uint32_t, Slot* it, std::uint64_t* count,
                  Fault& f) override {
    *count = kUnknownCount;
    if (in.op == Op::Map) return begin_object(v, it, f);
    if (Errc e = json::begin_array(v, it); e != Errc::ok) return failed(f, e, v, "an array");
    return true;
  }

  bool next_element(Slot* it, bool* more, Slot* element, Fault& f) override {
    if (Errc e = json::next_element(it, more, element); e != Errc::ok) {
      return failed(f, e, element, "an element");
    }
    return true;
  }

  // A map's entry is a field: its key is held as the raw key and where it starts.
  bool next_entry(Slot* it, bool* more, Slot* key, Slot* value, Fault& f) override {
    const char* raw = nullptr;
    std::size_t at = 0;
    if (!next_field(it, more, &raw, &at, value, f)) return false;
    if (*more) json::hold_key(key, raw, at);
    return true;
  }

  bool get_key(const Instr& in, Slot* key, void* p, Fault& f) override {
    const char* raw = json::held_key(key);
    const std::size_t at = doc_.offset(key);
    std::string_view text;
    if (json::unescaped_key(raw, &text) != Errc::ok) {
      return fail(f, Errc::syntax_error, "malformed key", at);
    }
    switch (json::read_key(in, text, p)) {
      case Errc::ok: return true;
      case Errc::unknown_enum: {
        // Appended, not "\"" + ...: GCC 12 at -O3 warns falsely (-Wrestrict) of that.
        std::string message(1, '"');
        message += text;
        message += "\" is not a value of ";
        message += in.type->name;
        return fail(f, Errc::unknown_enum, std::move(message), at);
      }
      default:
        return fail(f, Errc::type_mismatch,
                    "map key \"" + std::string(text) + "\" is not an " + int_name(in), at);
    }
  }

 private:
  bool fail(Fault& f, Errc code, std::string message, std::size_t offset) {
    if (code == Errc::syntax_error && offset >= doc_.end_of_text()) {
      // Nothing but whitespace after where reading stopped: the input ends early.
      return f.set(Errc::truncated, "input ends inside a value", doc_.size());
    }
    return f.set(code, std::move(message), offset);
  }

  // A failed read call: what the value was, where it starts.
  bool failed(Fault& f, Errc e, Slot* v, const char* expected) {
    const std::size_t at = doc_.offset(v);
    if (e != Errc::ok && doc_.cut_off_number(v)) e = Errc::truncated;
    switch (e) {
      case Errc::type_mismatch: {
        json::Type t;
        std::string found = "something else";
        if (json::type_of(v, &t) == Errc::ok) {
          static const char* names[] = {"an array", "an object", "a number",
                                        "a string", "a bool",    "null"};
          found = names[static_cast<int>(t)];
          // simdjson types a value by its first letter: "tru" is no bool, but malformed.
          Slot copy = *v;
          bool literal = false;
          if ((t == json::Type::Bool && json::get_bool(&copy, &literal) != Errc::ok) ||
              (t == json::Type::Null &&
               (json::take_null(&copy, &literal) != Errc::ok || !literal))) {
            return fail(f, Errc::syntax_error, "malformed JSON", at);
          }
          if (t == json::Type::Number) {
            std::string_view text;
            if (json::get_number_text(v, &text) == Errc::ok) {
              found = "the number " + std::string(text);
            }
          }
        }
        return fail(f, e, std::string("expected ") + expected + ", found " + found, at);
      }
      case Errc::out_of_range:
        return fail(f, e, std::string("number does not fit ") + expected, at);
      case Errc::invalid_utf8: return fail(f, e, "string is not UTF-8", at);
      case Errc::depth_exceeded:
        return fail(f, e, "nesting deeper than " + std::to_string(max_depth_) + " levels", at);
      case Errc::truncated: return fail(f, e, "input ends inside a value", doc_.size());
      default: return fail(f, Errc::syntax_error, "malformed JSON", doc_.current_offset());
    }
  }

  bool integer(const Instr& in, void* p, Slot* v, Fault& f) {
    const bool protobuf = in.enc == json::kProto;
    if (in.op == Op::Int) {
      std::int64_t x;
      if (Errc e = protobuf ? json::get_proto_int(v, &x) : json::get_int(v, &x); e != Errc::ok) {
        return failed(f, e, v, int_expected(in));
      }
      if (!json::fits_int(x, in.width)) return failed(f, Errc::out_of_range, v, int_name(in));
      std::memcpy(p, &x, in.width);
      return true;
    }
    std::uint64_t x;
    if (Errc e = protobuf ? json::get_proto_uint(v, &x) : json::get_uint(v, &x); e != Errc::ok) {
      // A negative integer is in JSON's range but not the field's.
      return failed(f, e, v, e == Errc::out_of_range ? int_name(in) : int_expected(in));
    }
    if (!json::fits_uint(x, in.width)) return failed(f, Errc::out_of_range, v, int_name(in));
    std::memcpy(p, &x, in.width);
    return true;
  }

  json::Document doc_;
  std::uint32_t max_depth_ = 0;
};

}  // namespace

const FormatWriter& json_writer() {
  static const JsonWriter writer;
  return writer;
}

FormatReader* json_reader(void* storage) { return make_reader<JsonReader>(storage); }

WriteBound json_write_bound(const Instr& in) {
  switch (in.op) {
    case Op::Bool: return {.fixed = 8};  // stored as one word: "true" or "false" and padding
    case Op::Int:
    case Op::UInt: return {.fixed = json::kMaxIntChars + 2};  // quotes, as a map key
    case Op::Float: return {.fixed = json::kMaxFloatChars, .fallible = true};
    // json::string_bound, and the word jitser_json_put_string may store past the end.
    case Op::String: return {.fixed = 2 + 16, .per_byte = 6, .fallible = true};
    // json::base64_bound(n) <= 2 + 3 + 4n/3.
    case Op::Bytes: return {.fixed = 5, .per_byte = 4, .per_byte_div = 3};
    case Op::Decimal: return {.fixed = json::kMaxDecimalChars};
    case Op::Time: return {.fixed = json::kMaxTimeChars, .fallible = true};
    case Op::List:
    case Op::Array: return {.fixed = 1, .close = 1};
    default: return {};
  }
}

std::string json_enum_text(std::string_view name) {
  std::string out(json::string_bound(name.size()), '\0');
  char* end = json::put_string(out.data(), name.data(), name.size());
  out.resize(end ? static_cast<std::size_t>(end - out.data()) : 0);
  return out;
}

}  // namespace jitser

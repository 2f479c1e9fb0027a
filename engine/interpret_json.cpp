// The interpreter for JSON Plans (formats/json/lower_json.h): writes with the primitives of
// formats/json/json_write.h and reads with the On-Demand calls of formats/json/json_read.h, the
// same ones compiled code makes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "engine/interpreter.h"
#include "engine/walker.h"
#include "formats/field_default.h"
#include "formats/json/json_key.h"
#include "formats/json/json_read.h"
#include "formats/json/json_text.h"
#include "formats/json/json_value.h"
#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"
#include "typeinfo/value.h"
#include "typeinfo/value_slot.h"

namespace jitser {
namespace {

using namespace interp;

bool is_struct_routine(const Routine& r) {
  return r.type->kind == Kind::Struct && !r.type->wrapper;
}

class JsonWriter : public Walker<JsonWriter, const std::uint8_t*> {
  friend Walker;

 public:
  JsonWriter(const Plan& plan, const RunOptions& options, Buffer& out)
      : Walker(plan, options), out_(out) {}

  Status run_root(const void* object) {
    if (!nested_value(plan_.root, static_cast<const std::uint8_t*>(object))) {
      return failure_.status(plan_);
    }
    return Status();
  }

 private:
  bool fail(Errc code, std::string message) {
    failure_.code = code;
    failure_.message = std::move(message);
    return false;
  }

  void literal(std::string_view text) { out_.append(text.data(), text.size()); }

  // Runs a primitive that writes at most `bound` bytes; a null end is a failure with `code`.
  template <class Put>
  bool put(std::size_t bound, Put&& f, Errc code = Errc::ok, const char* message = "") {
    char* start = reinterpret_cast<char*>(out_.ensure(bound));
    char* end = f(start);
    if (!end) return fail(code, message);
    out_.commit(static_cast<std::size_t>(end - start));
    return true;
  }

  // One value through routine r: a struct routine is an object, any other holds one slot.
  bool value(std::uint32_t r, const std::uint8_t* base) {
    if (is_struct_routine(plan_.routines[r])) return object(r, base);
    return run(r, base);
  }

  bool nested_value(std::uint32_t r, const std::uint8_t* base) {
    if (!enter()) return false;
    const bool ok = value(r, base);
    --depth_;
    return ok;
  }

  bool object(std::uint32_t r, const std::uint8_t* base) {
    const Routine& routine = plan_.routines[r];
    literal("{");
    bool first = true;
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      const PlanField& field = plan_.fields[in.field];
      const std::uint8_t* slot = base + in.offset;
      if (options_.json.omit_null && holds_nothing(*field.desc, slot)) continue;
      if (options_.json.omit_default && equals_default(*field.desc, slot)) continue;
      if (!first) literal(",");
      first = false;
      literal(field.key);
      if (!op(in, slot)) {
        failure_.path.push_back("." + field.name);
        return false;
      }
    }
    literal("}");
    return true;
  }

  template <class Each>
  bool array(std::size_t n, Each&& each) {
    if (!enter()) return false;
    literal("[");
    for (std::size_t i = 0; i < n; ++i) {
      if (i) literal(",");
      if (!each(i)) {
        failure_.path.push_back("[" + std::to_string(i) + "]");
        return false;
      }
    }
    literal("]");
    --depth_;
    return true;
  }

  bool integer(const Instr& in, const std::uint8_t* p) {
    const bool quoted = in.enc == json::kQuoted;
    return put(json::kMaxIntChars + 2, [&](char* o) {
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

  bool op(const Instr& in, const std::uint8_t* p) {
    switch (in.op) {
      case Op::Bool: {
        std::uint8_t b;
        std::memcpy(&b, p, 1);
        literal(b ? "true" : "false");
        return true;
      }
      case Op::Int:
      case Op::UInt: return integer(in, p);
      case Op::Float:
        return put(
            json::kMaxFloatChars,
            [&](char* o) {
              if (in.width == 4) {
                float f;
                std::memcpy(&f, p, 4);
                return json::put_float(o, f);
              }
              double d;
              std::memcpy(&d, p, 8);
              return json::put_double(o, d);
            },
            Errc::not_finite, "NaN and infinities have no JSON form");
      case Op::String: {
        const auto& s = *reinterpret_cast<const std::string*>(p);
        return put(
            json::string_bound(s.size()),
            [&](char* o) { return json::put_string(o, s.data(), s.size()); }, Errc::invalid_utf8,
            "string is not UTF-8");
      }
      case Op::Bytes: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(p);
        const auto* data = static_cast<const std::uint8_t*>(ops.data(const_cast<std::uint8_t*>(p)));
        return put(json::base64_bound(n), [&](char* o) { return json::put_base64(o, data, n); });
      }
      case Op::Enum: {
        const std::int64_t v = load_enum(*in.type, p);
        for (const EnumValue& d : in.type->values) {
          if (d.value == v) {
            return put(json::string_bound(d.name.size()),
                       [&](char* o) { return json::put_string(o, d.name.data(), d.name.size()); });
          }
        }
        return fail(Errc::unknown_enum, std::to_string(v) + " is not a value of " + in.type->name);
      }
      case Op::Decimal:
        return put(json::kMaxDecimalChars, [&](char* o) {
          return json::put_decimal(o, *reinterpret_cast<const Decimal*>(p));
        });
      case Op::Time: {
        std::int64_t ticks;
        std::memcpy(&ticks, p, 8);
        const TimeUnit unit = in.type->unit;
        if (in.type->kind == Kind::Duration) {
          return put(json::kMaxTimeChars,
                     [&](char* o) { return json::put_duration(o, ticks, unit); });
        }
        return put(
            json::kMaxTimeChars, [&](char* o) { return json::put_timestamp(o, ticks, unit); },
            Errc::out_of_range, "timestamp outside the years 0001 to 9999 of RFC 3339");
      }
      case Op::Dynamic: {
        const Errc e = json::write_value(out_, *reinterpret_cast<const Value*>(p),
                                         options_.max_depth - depth_);
        switch (e) {
          case Errc::ok: return true;
          case Errc::not_finite: return fail(e, "NaN and infinities have no JSON form");
          case Errc::invalid_utf8: return fail(e, "string is not UTF-8");
          default:
            return fail(Errc::depth_exceeded,
                        "nesting deeper than " + std::to_string(options_.max_depth) + " levels");
        }
      }
      case Op::Struct: return nested_value(in.a, p);
      case Op::Nullable: {
        const void* held = in.type->nullable_ops->get(p);
        if (!held) {
          literal("null");
          return true;
        }
        return nested_value(in.a, static_cast<const std::uint8_t*>(held));
      }
      case Op::Shared: {
        const void* object = in.type->shared_ops->get(p);
        if (!object) {
          literal("null");
          return true;
        }
        // JSON has no references: a shared object is written as a copy wherever it appears,
        // and one that contains itself would never end.
        if (std::find(open_.begin(), open_.end(), object) != open_.end()) {
          return fail(Errc::cycle, "a shared " + display_name(*in.type->element) +
                                       " contains itself; JSON cannot write a cycle");
        }
        open_.push_back(object);
        const bool ok = nested_value(in.a, static_cast<const std::uint8_t*>(object));
        open_.pop_back();
        return ok;
      }
      case Op::List: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(p);
        if (!ops.data) {
          return array(n, [&](std::size_t i) {
            literal(ops.get_bool(p, i) ? "true" : "false");
            return true;
          });
        }
        const auto* data = static_cast<const std::uint8_t*>(ops.data(const_cast<std::uint8_t*>(p)));
        const std::size_t stride = element_of(in).size;
        return array(n, [&](std::size_t i) { return value(in.a, data + i * stride); });
      }
      case Op::Array: {
        const std::size_t stride = element_of(in).size;
        return array(in.count, [&](std::size_t i) { return value(in.a, p + i * stride); });
      }
      case Op::Map: {
        const MapOps& ops = *in.type->map_ops;
        if (!enter()) return false;
        literal("{");
        alignas(std::max_align_t) unsigned char cursor[kMapIteratorSize];
        ops.begin(p, cursor);
        const void* key;
        const void* val;
        bool first = true;
        while (ops.next(cursor, &key, &val)) {
          if (!first) literal(",");
          first = false;
          if (!run(in.a, static_cast<const std::uint8_t*>(key))) return false;
          literal(":");
          if (!value(in.b, static_cast<const std::uint8_t*>(val))) {
            failure_.path.push_back(key_text(in.type->key->resolved(), key));
            return false;
          }
        }
        literal("}");
        --depth_;
        return true;
      }
      default: break;
    }
    return fail(Errc::invalid_descriptor, "not a JSON instruction");
  }

  Buffer& out_;
  std::vector<const void*> open_;  // shared objects being written, outermost first
};

// ---------------------------------------------------------------------------------------------

class JsonReader : public Walker<JsonReader, std::uint8_t*> {
  friend Walker;

 public:
  JsonReader(const Plan& plan, const RunOptions& options) : Walker(plan, options) {}

  Status run_root(std::span<const std::uint8_t> input, std::size_t padding, void* object) {
    json::Slot root;
    if (Errc e = doc_.open(input, padding, &root); e != Errc::ok) {
      const std::string root_name = display_name(*plan_.root_type);
      switch (e) {
        case Errc::truncated:
          return Status(e,
                        doc_.end_of_text() == 0 ? "input ends before a JSON value"
                                                : "input ends inside a string or value",
                        doc_.size(), root_name);
        case Errc::invalid_utf8:
          return Status(e, "text is not UTF-8", doc_.first_bad_utf8(), root_name);
        default: return Status(e, "not JSON", doc_.current_offset(), root_name);
      }
    }
    if (!nested_value(plan_.root, static_cast<std::uint8_t*>(object), &root)) {
      return failure_.status(plan_);
    }
    if (doc_.finish() != Errc::ok) {
      return Status(Errc::trailing_bytes, "more after the end of the JSON value",
                    doc_.current_offset(), display_name(*plan_.root_type));
    }
    return Status();
  }

 private:
  bool fail(Errc code, std::string message) {
    return fail(code, std::move(message), doc_.current_offset());
  }
  bool fail(Errc code, std::string message, std::size_t offset) {
    if (code == Errc::syntax_error && offset >= doc_.end_of_text()) {
      // Nothing but whitespace after where reading stopped: the input ends early.
      code = Errc::truncated;
      message = "input ends inside a value";
      offset = doc_.size();
    }
    failure_.code = code;
    failure_.message = std::move(message);
    failure_.offset = offset;
    return false;
  }

  // A failed read call: what the value was, where it starts.
  bool failed(Errc e, json::Slot* v, const char* expected) {
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
          json::Slot copy = *v;
          bool literal = false;
          if ((t == json::Type::Bool && json::get_bool(&copy, &literal) != Errc::ok) ||
              (t == json::Type::Null &&
               (json::take_null(&copy, &literal) != Errc::ok || !literal))) {
            return fail(Errc::syntax_error, "malformed JSON", at);
          }
          if (t == json::Type::Number) {
            std::string_view text;
            if (json::get_number_text(v, &text) == Errc::ok)
              found = "the number " + std::string(text);
          }
        }
        return fail(e, std::string("expected ") + expected + ", found " + found, at);
      }
      case Errc::out_of_range: return fail(e, std::string("number does not fit ") + expected, at);
      case Errc::invalid_utf8: return fail(e, "string is not UTF-8", at);
      case Errc::depth_exceeded:
        return fail(e, "nesting deeper than " + std::to_string(options_.max_depth) + " levels", at);
      case Errc::truncated: return fail(e, "input ends inside a value", doc_.size());
      default: return fail(Errc::syntax_error, "malformed JSON", doc_.current_offset());
    }
  }

  bool value(std::uint32_t r, std::uint8_t* base, json::Slot* v) {
    const Routine& routine = plan_.routines[r];
    if (is_struct_routine(routine)) return object(r, base, v);
    const Instr& in = plan_.code[routine.begin];
    return op(in, base + in.offset, v);
  }

  bool nested_value(std::uint32_t r, std::uint8_t* base, json::Slot* v) {
    if (!enter()) return false;
    const bool ok = value(r, base, v);
    --depth_;
    return ok;
  }

  // Which field of the routine a key names: the expected one (fields in declaration order
  // match on the first compare), then the others, then, for a key written with escapes, by its
  // unescaped text. -1: none.
  int field_index(const Routine& routine, std::uint32_t expected, const char* raw) {
    const std::uint32_t n = routine.end - routine.begin;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t i = (expected + k) % n;
      const std::string& key = plan_.fields[plan_.code[routine.begin + i].field].key;
      // The key is `"name":`; the raw key is compared from after its opening quote.
      if (json::raw_key_is(raw, std::string_view(key).substr(1, key.size() - 2))) {
        return static_cast<int>(i);
      }
    }
    std::string_view unescaped;
    if (json::unescaped_key(raw, &unescaped) != Errc::ok) return -2;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (plan_.fields[plan_.code[routine.begin + i].field].desc->name == unescaped) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  bool object(std::uint32_t r, std::uint8_t* base, json::Slot* v) {
    const Routine& routine = plan_.routines[r];
    const std::uint32_t n = routine.end - routine.begin;
    // Which fields were read: a bitset on the stack for all but the widest structs.
    std::uint64_t inline_words[2] = {};
    std::vector<std::uint64_t> heap_words;
    std::uint64_t* seen = inline_words;
    if (n > 128) {
      heap_words.assign((n + 63) / 64, 0);
      seen = heap_words.data();
    }
    auto was_seen = [&](std::uint32_t i) { return (seen[i / 64] >> (i % 64) & 1) != 0; };
    std::uint32_t expected = 0;
    const bool read = object_fields(v, [&](const char* raw, std::size_t key_at, json::Slot* field) {
      const int i = field_index(routine, expected, raw);
      if (i == -2) return fail(Errc::syntax_error, "malformed key", key_at);
      if (i < 0) {
        if (!options_.json.strict) return true;  // the iterator skips the value
        std::string_view name;
        (void)json::unescaped_key(raw, &name);
        return fail(Errc::unknown_field,
                    "\"" + std::string(name) + "\" is not a field of " + routine.type->name,
                    key_at);
      }
      const Instr& in = plan_.code[routine.begin + i];
      if (was_seen(static_cast<std::uint32_t>(i))) {
        failure_.path.push_back("." + plan_.fields[in.field].name);
        return fail(Errc::duplicate_key, "the field appears twice", key_at);
      }
      seen[i / 64] |= std::uint64_t{1} << (i % 64);
      expected = static_cast<std::uint32_t>(i) + 1;
      if (!op(in, base + in.offset, field)) {
        failure_.path.push_back("." + plan_.fields[in.field].name);
        return false;
      }
      return true;
    });
    if (!read) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (was_seen(i)) continue;
      const Instr& in = plan_.code[routine.begin + i];
      const PlanField& field = plan_.fields[in.field];
      if (!apply_missing(*field.desc, base + in.offset)) {
        failure_.path.push_back("." + field.name);
        return fail(Errc::missing_field, "required field \"" + field.desc->name + "\" is missing",
                    doc_.offset(v));
      }
    }
    return true;
  }

  static const char* int_name(const Instr& in) {
    static const char* s[] = {"", "int8", "int16", "", "int32", "", "", "", "int64"};
    static const char* u[] = {"", "uint8", "uint16", "", "uint32", "", "", "", "uint64"};
    return (in.op == Op::Int ? s : u)[in.width];
  }

  bool integer(const Instr& in, std::uint8_t* p, json::Slot* v) {
    if (in.op == Op::Int) {
      std::int64_t x;
      if (Errc e = json::get_int(v, &x); e != Errc::ok) return failed(e, v, int_expected(in));
      if (!json::fits_int(x, in.width)) return failed(Errc::out_of_range, v, int_name(in));
      std::memcpy(p, &x, in.width);
      return true;
    }
    std::uint64_t x;
    if (Errc e = json::get_uint(v, &x); e != Errc::ok) {
      // A negative integer is in JSON's range but not the field's.
      return failed(e, v, e == Errc::out_of_range ? int_name(in) : int_expected(in));
    }
    if (!json::fits_uint(x, in.width)) return failed(Errc::out_of_range, v, int_name(in));
    std::memcpy(p, &x, in.width);
    return true;
  }
  static const char* int_expected(const Instr& in) {
    static const char* s[] = {
        "", "an integer (int8)", "an integer (int16)", "", "an integer (int32)", "", "",
        "", "an integer (int64)"};
    static const char* u[] = {
        "", "an integer (uint8)", "an integer (uint16)", "", "an integer (uint32)", "", "",
        "", "an integer (uint64)"};
    return (in.op == Op::Int ? s : u)[in.width];
  }

  // A map key, from its unescaped text (json_key.h).
  bool key(const Instr& in, std::uint8_t* p, std::string_view text, std::size_t at) {
    switch (json::read_key(in, text, p)) {
      case Errc::ok: return true;
      case Errc::unknown_enum:
        return fail(Errc::unknown_enum,
                    "\"" + std::string(text) + "\" is not a value of " + in.type->name, at);
      default:
        return fail(Errc::type_mismatch,
                    "map key \"" + std::string(text) + "\" is not an " + int_name(in), at);
    }
  }

  bool string_of(json::Slot* v, std::string_view* s, const char* expected) {
    if (Errc e = json::get_string(v, s); e != Errc::ok) return failed(e, v, expected);
    return true;
  }

  // Runs each(raw key, its offset, the field's value) on every field of the object in `v`,
  // until one fails.
  template <class Each>
  bool object_fields(json::Slot* v, Each&& each) {
    json::Slot it, field;
    if (Errc e = json::begin_object(v, &it); e != Errc::ok) return failed(e, v, "an object");
    for (;;) {
      bool more = false;
      const char* raw = nullptr;
      if (Errc e = json::next_field(&it, &more, &raw, &field); e != Errc::ok) {
        return failed(e, &field, "a field");
      }
      if (!more) return true;
      if (!each(raw, doc_.offset(raw - 1), &field)) return false;
    }
  }

  template <class Each>
  bool elements(json::Slot* v, Each&& each) {
    if (!enter()) return false;
    json::Slot it, element;
    if (Errc e = json::begin_array(v, &it); e != Errc::ok) return failed(e, v, "an array");
    for (std::size_t i = 0;; ++i) {
      bool more = false;
      if (Errc e = json::next_element(&it, &more, &element); e != Errc::ok) {
        return failed(e, &element, "an element");
      }
      if (!more) break;
      if (!each(i, &element)) {
        failure_.path.push_back("[" + std::to_string(i) + "]");
        return false;
      }
    }
    --depth_;
    return true;
  }

  // null empties an optional or pointer; anything else is its new value, read into what
  // `fill` gives.
  bool null_or_value(const Instr& in, void* (*fill)(void*), void (*reset)(void*), std::uint8_t* p,
                     json::Slot* v) {
    bool was_null = false;
    if (Errc e = json::take_null(v, &was_null); e != Errc::ok) return failed(e, v, "a value");
    if (was_null) {
      reset(p);
      return true;
    }
    return nested_value(in.a, static_cast<std::uint8_t*>(fill(p)), v);
  }

  bool op(const Instr& in, std::uint8_t* p, json::Slot* v) {
    switch (in.op) {
      case Op::Bool: {
        bool b;
        if (Errc e = json::get_bool(v, &b); e != Errc::ok) return failed(e, v, "true or false");
        *p = b;
        return true;
      }
      case Op::Int:
      case Op::UInt: return integer(in, p, v);
      case Op::Float: {
        double d;
        if (Errc e = json::get_double(v, &d); e != Errc::ok) return failed(e, v, "a number");
        if (in.width == 4) {
          // Out of range only when it rounds past the largest float: the shortest text of
          // FLT_MAX reads as a double a little above it.
          const float f = static_cast<float>(d);
          if (std::isinf(f)) return failed(Errc::out_of_range, v, "float32");
          std::memcpy(p, &f, 4);
        } else {
          std::memcpy(p, &d, 8);
        }
        return true;
      }
      case Op::String: {
        std::string_view s;
        if (!string_of(v, &s, "a string")) return false;
        reinterpret_cast<std::string*>(p)->assign(s);
        return true;
      }
      case Op::Bytes: {
        const Errc e = json::read_base64(v, p, *in.type->list_ops);
        if (e == Errc::invalid_base64) {
          return fail(e, "not base64 (RFC 4648, with padding)", doc_.offset(v));
        }
        return e == Errc::ok || failed(e, v, "a base64 string");
      }
      case Op::Enum: {
        std::string_view s;
        const std::size_t at = doc_.offset(v);
        if (!string_of(v, &s, "an enum name")) return false;
        for (const EnumValue& d : in.type->values) {
          if (d.name == s) {
            std::memcpy(p, &d.value, in.type->size);
            return true;
          }
        }
        return fail(Errc::unknown_enum,
                    "\"" + std::string(s) + "\" is not a value of " + in.type->name, at);
      }
      case Op::Decimal: {
        const Errc e = json::read_decimal(v, reinterpret_cast<Decimal*>(p));
        if (e == Errc::out_of_range) {
          return fail(e, "decimal does not fit 64-bit unscaled digits", doc_.offset(v));
        }
        return e == Errc::ok || failed(e, v, "a number");
      }
      case Op::Time: {
        const bool duration = in.type->kind == Kind::Duration;
        std::string_view s;
        std::int64_t ticks;
        const Errc e = json::read_time(v, in.type->unit, duration, &ticks, &s);
        if (e == Errc::out_of_range) {
          return fail(e,
                      "\"" + std::string(s) + "\" is not " +
                          (duration ? "a duration (\"1.5s\")" : "an RFC 3339 timestamp") +
                          " this field's unit can hold",
                      doc_.offset(v));
        }
        if (e != Errc::ok) {
          return failed(e, v, duration ? "a duration string" : "an RFC 3339 timestamp");
        }
        std::memcpy(p, &ticks, 8);
        return true;
      }
      case Op::Dynamic: {
        std::size_t at = 0;
        const Errc e = json::read_value(doc_, v, *reinterpret_cast<Value*>(p),
                                        options_.max_depth - depth_, &at);
        if (e == Errc::ok) return true;
        if (e == Errc::depth_exceeded) {
          return fail(e, "nesting deeper than " + std::to_string(options_.max_depth) + " levels",
                      at);
        }
        if (e == Errc::out_of_range) {
          return fail(e, "number beyond the 64-bit integers and finite doubles a Value holds", at);
        }
        return fail(e == Errc::invalid_utf8 || e == Errc::truncated ? e : Errc::syntax_error,
                    "malformed JSON", at);
      }
      case Op::Struct: return nested_value(in.a, p, v);
      // A shared object is read as a copy: JSON has no references.
      case Op::Nullable:
        return null_or_value(in, in.type->nullable_ops->fill, in.type->nullable_ops->reset, p, v);
      case Op::Shared:  // a copy each time: the object there may be shared with others
        return null_or_value(in, in.type->shared_ops->emplace, in.type->shared_ops->reset, p, v);
      case Op::List: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t stride = element_of(in).size;
        // Elements already there are read into in place (their buffers reused); the list is cut
        // to the elements read at the end.
        std::size_t have = ops.size(p);
        std::size_t count = 0;
        const bool ok = elements(v, [&](std::size_t i, json::Slot* e) {
          count = i + 1;
          if (i >= have) {
            ops.resize(p, std::max<std::size_t>(i + 1, have * 2));
            have = ops.size(p);
          }
          if (!ops.data) {
            bool b;
            if (Errc err = json::get_bool(e, &b); err != Errc::ok)
              return failed(err, e, "true or false");
            ops.set_bool(p, i, b);
            return true;
          }
          return value(in.a, static_cast<std::uint8_t*>(ops.data(p)) + i * stride, e);
        });
        if (ok) ops.resize(p, count);
        return ok;
      }
      case Op::Array: {
        const std::size_t stride = element_of(in).size;
        std::size_t count = 0;
        const bool ok = elements(v, [&](std::size_t i, json::Slot* e) {
          count = i + 1;
          if (i >= in.count) {
            return fail(Errc::out_of_range,
                        "more than the " + std::to_string(in.count) + " elements of " +
                            display_name(*in.type),
                        doc_.offset(e));
          }
          return value(in.a, p + i * stride, e);
        });
        if (ok && count != in.count) {
          return fail(Errc::out_of_range,
                      std::to_string(count) + " elements for the " + std::to_string(in.count) +
                          " of " + display_name(*in.type),
                      doc_.offset(v));
        }
        return ok;
      }
      case Op::Map: {
        const MapOps& ops = *in.type->map_ops;
        if (!enter()) return false;
        ops.clear(p);
        const TypeDesc& key_type = in.type->key->resolved();
        const bool read = object_fields(v, [&](const char* raw, std::size_t at, json::Slot* field) {
          std::string_view text;
          if (json::unescaped_key(raw, &text) != Errc::ok) {
            return fail(Errc::syntax_error, "malformed key", at);
          }
          ValueSlot slot(key_type);
          auto* key_at = static_cast<std::uint8_t*>(slot.get());
          if (!key(plan_.code[plan_.routines[in.a].begin], key_at, text, at)) return false;
          const void* stored_key = nullptr;
          void* value_at = ops.insert(p, key_at, &stored_key);
          if (!value_at) {
            failure_.path.push_back(key_text(key_type, key_at));
            return fail(Errc::duplicate_key, "the key appears twice", at);
          }
          if (!value(in.b, static_cast<std::uint8_t*>(value_at), field)) {
            failure_.path.push_back(key_text(key_type, stored_key));
            return false;
          }
          return true;
        });
        if (!read) return false;
        --depth_;
        return true;
      }
      default: break;
    }
    return fail(Errc::invalid_descriptor, "not a JSON instruction");
  }

  json::Document doc_;
};

}  // namespace

Status interpret_json_serialize(const Plan& plan, const RunOptions& options, const void* object,
                                Buffer& out) {
  return JsonWriter(plan, options, out).run_root(object);
}

Status interpret_json_deserialize(const Plan& plan, const RunOptions& options,
                                  std::span<const std::uint8_t> input, std::size_t padding,
                                  void* object) {
  return JsonReader(plan, options).run_root(input, padding, object);
}

}  // namespace jitser

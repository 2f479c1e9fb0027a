// MessagePack's operations for the interpreter (docs/formats/msgpack.md), on the encodings of
// wire.h. Objects are maps keyed by field name, and every container states its count first,
// so the reader keeps one position in the input and its Slots hold only what an iterator has
// left to read.
#include "formats/msgpack/msgpack_ops.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "formats/counted_writer.h"
#include "formats/cursor_reader.h"
#include "formats/lowering.h"
#include "formats/msgpack/read_rules.h"
#include "formats/msgpack/value_msgpack.h"
#include "formats/msgpack/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/integers.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

using msgpack::Head;
using msgpack::HeadStatus;
using msgpack::Type;

class MsgpackWriter final : public CountedWriter {
 public:
  bool frame(Buffer&, const Plan&, const RunOptions&, Fault&) const override { return true; }

  bool put(Buffer& out, const Instr& in, const void* p, std::uint32_t depth_left,
           Fault& f) const override {
    switch (in.op) {
      case Op::Bool:
        byte(out, *static_cast<const std::uint8_t*>(p) ? msgpack::kTrue : msgpack::kFalse);
        return true;
      case Op::Int: number(out, msgpack::put_int, load_signed(p, in.width)); return true;
      case Op::UInt: {
        std::uint64_t v = 0;
        std::memcpy(&v, p, in.width);
        number(out, msgpack::put_uint, v);
        return true;
      }
      case Op::Float:
        if (in.width == 4) {
          float v;
          std::memcpy(&v, p, 4);
          number(out, msgpack::put_float, v);
        } else {
          double v;
          std::memcpy(&v, p, 8);
          number(out, msgpack::put_double, v);
        }
        return true;
      case Op::String: {
        const std::string_view s = string_at(*in.type, p);
        if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())) {
          return f.set(Errc::invalid_utf8, "string is not UTF-8");
        }
        text(out, s);
        return true;
      }
      case Op::Bytes: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(in.type, p);
        number(out, msgpack::put_bin_head, n);
        if (n) out.append(ops.data(in.type, const_cast<void*>(p)), n);
        return true;
      }
      case Op::Enum: {
        const std::int64_t v = load_integer(*in.type, p);
        for (const EnumValue& d : in.type->values) {
          if (d.value != v) continue;
          if (in.enc == kEnumInteger) {
            number(out, msgpack::put_int, v);
          } else {
            text(out, d.name);
          }
          return true;
        }
        return f.set(Errc::unknown_enum, std::to_string(v) + " is not a value of " + in.type->name);
      }
      case Op::Decimal: {
        const auto& d = *static_cast<const Decimal*>(p);
        byte(out, 0x92);
        number(out, msgpack::put_int, d.unscaled);
        number(out, msgpack::put_int, std::int64_t{d.scale});
        return true;
      }
      case Op::Time: {
        std::int64_t ticks;
        std::memcpy(&ticks, p, 8);
        if (in.type->kind == Kind::Duration) {
          number(out, msgpack::put_int, ticks);
          return true;
        }
        std::int64_t seconds;
        std::uint64_t nanos;
        split_ticks(ticks, in.type->unit, seconds, nanos);
        out.commit_to(msgpack::put_timestamp(out.ensure(msgpack::kMaxTimestamp), seconds,
                                             static_cast<std::uint32_t>(nanos)));
        return true;
      }
      case Op::Dynamic: {
        const Errc e = msgpack::write_value(out, *static_cast<const Value*>(p), depth_left);
        switch (e) {
          case Errc::ok: return true;
          case Errc::invalid_utf8: return f.set(e, "string is not UTF-8");
          case Errc::unsupported:
            return f.set(e, "the jitser::Value holds an item MessagePack has no form for");
          default: return f.set(Errc::depth_exceeded, "value nests too deep");
        }
      }
      default: return f.set(Errc::invalid_descriptor, "not a MessagePack value");
    }
  }

  void null(Buffer& out) const override { byte(out, msgpack::kNil); }

 private:
  void map_head(Buffer& out, std::size_t n) const override {
    number(out, msgpack::put_map_head, std::uint64_t{n});
  }
  void array_head(Buffer& out, std::size_t n) const override {
    number(out, msgpack::put_array_head, std::uint64_t{n});
  }
  static void byte(Buffer& out, std::uint8_t b) { out.append(&b, 1); }
  template <class T>
  static void number(Buffer& out, std::uint8_t* (*put)(std::uint8_t*, T), T v) {
    out.commit_to(put(out.ensure(msgpack::kMaxNumber), v));
  }
  static void text(Buffer& out, std::string_view s) {
    number(out, msgpack::put_str_head, std::uint64_t{s.size()});
    out.append(s.data(), s.size());
  }
};

// What a head's item is, for messages.
const char* item_name(const Head& h) {
  switch (h.type) {
    case Type::Nil: return "nil";
    case Type::Bool: return "a bool";
    case Type::Int:
    case Type::UInt: return "an integer";
    case Type::Float32: return "a float 32";
    case Type::Float64: return "a float 64";
    case Type::Str: return "a str";
    case Type::Bin: return "a bin";
    case Type::Array: return "an array";
    case Type::Map: return "a map";
    case Type::Ext: return "an ext";
  }
  return "?";
}

// The reader keeps the input's position (CursorReader). An iterator's Slot holds the items it
// has left.
class MsgpackReader final : public CursorReader {
 public:
  bool get(const Instr& in, Slot*, void* p, std::uint32_t depth_left, Fault& f) override {
    const std::uint8_t* start = p_;
    if (in.op == Op::Dynamic) {
      msgpack::ValueFault vf;
      if (msgpack::read_value(p_, end_, *static_cast<Value*>(p), depth_left, vf)) return true;
      return f.set(vf.code, std::move(vf.message), at(vf.at));
    }
    Head h;
    if (!head(h, f)) return false;
    switch (in.op) {
      case Op::Bool:
        if (h.type != Type::Bool) return mismatch(f, h, "a bool", start);
        *static_cast<std::uint8_t*>(p) = h.boolean;
        return true;
      case Op::Int:
      case Op::UInt: return integer(in, h, p, f, start);
      case Op::Float: return floating(in, h, p, f, start);
      case Op::String: {
        std::string_view s;
        if (!str(h, s, f, start)) return false;
        assign_string(*in.type, p, s);
        return true;
      }
      case Op::Bytes: {
        if (h.type != Type::Bin) return mismatch(f, h, "a bin", start);
        if (!payload(h, f, start)) return false;
        const ListOps& ops = *in.type->list_ops;
        ops.resize(in.type, p, h.bits);
        if (h.bits) std::memcpy(ops.data(in.type, p), p_, h.bits);
        p_ += h.bits;
        return true;
      }
      case Op::Enum: return enumerator(in, h, p, f, start);
      case Op::Decimal: {
        if (h.type != Type::Array || h.bits != 2) {
          return mismatch(f, h, "a decimal ([unscaled, scale])", start);
        }
        Head unscaled, scale;
        std::int64_t u = 0;
        std::int32_t s = 0;
        if (!head(unscaled, f)) return false;
        if (!msgpack::as_signed(unscaled, u)) {
          return f.set(Errc::out_of_range, "a decimal's unscaled value is not an int64", at(start));
        }
        if (!head(scale, f)) return false;
        if (!msgpack::scale_of(scale, s)) {
          return f.set(Errc::out_of_range, "a decimal's scale is not an int32", at(start));
        }
        *static_cast<Decimal*>(p) = Decimal{u, s};
        return true;
      }
      case Op::Time: return time(in, h, p, f, start);
      default: return f.set(Errc::invalid_descriptor, "not a MessagePack value", at(start));
    }
  }

  bool null(const Instr&, Slot*, bool* is_null, Fault& f) override {
    if (p_ == end_) return truncated(f);
    *is_null = *p_ == msgpack::kNil;
    if (*is_null) ++p_;
    return true;
  }

  // MessagePack has no references: a shared object is read as a copy wherever it appears.
  bool shared(const Instr& in, Slot* v, SharedRef* ref, std::uint32_t*, Fault& f) override {
    bool is_null = false;
    if (!null(in, v, &is_null, f)) return false;
    *ref = is_null ? SharedRef::Null : SharedRef::New;
    return true;
  }

  bool begin_fields(Slot* v, Slot*, std::uint32_t fields, Fault& f) override {
    const std::uint8_t* start = p_;
    mark(v);
    Head h;
    if (!head(h, f)) return false;
    if (h.type != Type::Array) return mismatch(f, h, "an array of fields", start);
    return all_fields(h.bits, fields, f, start);
  }
  bool end_fields(Slot*, Fault&) override { return true; }

  bool begin_object(Slot* v, Slot* it, Fault& f) override {
    const std::uint8_t* start = p_;
    mark(v);
    Head h;
    if (!head(h, f)) return false;
    if (h.type != Type::Map) return mismatch(f, h, "a map", start);
    if (!counted(h.bits, 2, f, start)) return false;
    left(it) = h.bits;
    return true;
  }

  // A key must be a str. The raw key is its bytes, head included.
  bool next_field(Slot* it, bool* more, const char** key, std::size_t* key_at, Slot* value,
                  Fault& f) override {
    *more = left(it) != 0;
    if (!*more) return true;
    --left(it);
    const std::uint8_t* start = p_;
    *key_at = at(start);
    Head h;
    if (!head(h, f)) return false;
    if (h.type != Type::Str) return mismatch(f, h, "a str key", start);
    if (!payload(h, f, start)) return false;
    p_ += h.bits;
    *key = raw_key(start, static_cast<std::size_t>(p_ - start));
    mark(value);
    return true;
  }

  bool key_text(const char* key, std::string_view* text) override {
    const auto* p = reinterpret_cast<const std::uint8_t*>(key);
    Head h;
    // The key was read whole by next_field, so its head and bytes are there.
    if (msgpack::get_head(p, p + msgpack::kMaxHead, h) != HeadStatus::ok) return false;
    *text = {reinterpret_cast<const char*>(p), static_cast<std::size_t>(h.bits)};
    return valid_utf8(p, h.bits);
  }

  bool skip(Slot*, Fault& f) override {
    const std::uint8_t* start = p_;
    switch (msgpack::skip(p_, end_)) {
      case msgpack::SkipStatus::ok: return true;
      case msgpack::SkipStatus::truncated: return truncated(f);
      case msgpack::SkipStatus::never_used: return never_used(f);
      case msgpack::SkipStatus::too_long:
        return f.set(Errc::length_too_large, "an item longer than the input left", at(start));
    }
    return false;
  }

  bool begin_list(const Instr& in, Slot* v, std::uint32_t min_item_bytes, Slot*,
                  std::uint64_t* count, Fault& f) override {
    const std::uint8_t* start = p_;
    mark(v);
    Head h;
    if (!head(h, f)) return false;
    if (in.op == Op::Map) {
      if (h.type != Type::Map) return mismatch(f, h, "a map", start);
      if (!counted(h.bits, std::max<std::uint32_t>(min_item_bytes, 2), f, start)) return false;
    } else {
      if (h.type != Type::Array) return mismatch(f, h, "an array", start);
      if (!counted(h.bits, std::max<std::uint32_t>(min_item_bytes, 1), f, start)) return false;
    }
    *count = h.bits;
    return true;
  }

  // Every container is counted: the interpreter reads its items in turn.
  bool next_element(Slot*, bool* more, Slot*, Fault&) override {
    *more = false;
    return true;
  }
  bool next_entry(Slot*, bool* more, Slot*, Slot*, Fault&) override {
    *more = false;
    return true;
  }

  bool get_key(const Instr& in, Slot* key, void* p, Fault& f) override {
    return get(in, key, p, 0, f);
  }

 private:
  bool truncated(Fault& f) { return f.set(Errc::truncated, "input ends inside an item", at(end_)); }
  bool never_used(Fault& f) {
    return f.set(Errc::syntax_error, "0xc1 is not a MessagePack format byte", at(p_));
  }

  bool head(Head& h, Fault& f) {
    switch (msgpack::get_head(p_, end_, h)) {
      case HeadStatus::ok: return true;
      case HeadStatus::truncated: return truncated(f);
      case HeadStatus::never_used: return never_used(f);
    }
    return false;
  }

  // A str's, bin's or ext's bytes must be in the input.
  bool payload(const Head& h, Fault& f, const std::uint8_t* start) {
    if (h.bits <= static_cast<std::uint64_t>(end_ - p_)) return true;
    return f.set(Errc::length_too_large,
                 std::string(item_name(h)) + " of " + std::to_string(h.bits) + " bytes, " +
                     std::to_string(end_ - p_) + " left",
                 at(start));
  }

  // A count of items of at least `min_bytes` each, bounded by the input left.
  bool counted(std::uint64_t n, std::uint32_t min_bytes, Fault& f, const std::uint8_t* start) {
    if (n <= static_cast<std::uint64_t>(end_ - p_) / min_bytes) return true;
    return f.set(Errc::length_too_large,
                 std::to_string(n) + " items in " + std::to_string(end_ - p_) + " bytes",
                 at(start));
  }

  bool mismatch(Fault& f, const Head& h, const char* expected, const std::uint8_t* start) {
    return f.set(Errc::type_mismatch,
                 std::string("expected ") + expected + ", found " + item_name(h), at(start));
  }

  bool str(const Head& h, std::string_view& s, Fault& f, const std::uint8_t* start) {
    if (h.type != Type::Str) return mismatch(f, h, "a str", start);
    if (!payload(h, f, start)) return false;
    if (!valid_utf8(p_, h.bits)) return f.set(Errc::invalid_utf8, "str is not UTF-8", at(start));
    s = {reinterpret_cast<const char*>(p_), static_cast<std::size_t>(h.bits)};
    p_ += h.bits;
    return true;
  }

  // Any integer encoding whose value the field's width holds.
  bool integer(const Instr& in, const Head& h, void* p, Fault& f, const std::uint8_t* start) {
    if (h.type != Type::Int && h.type != Type::UInt) {
      return mismatch(f, h, (std::string("an integer (") + int_name(in) + ")").c_str(), start);
    }
    if (!msgpack::int_fits(h, in.op == Op::Int, in.width)) {
      const std::string value = h.type == Type::Int
                                    ? std::to_string(static_cast<std::int64_t>(h.bits))
                                    : std::to_string(h.bits);
      return f.set(Errc::out_of_range, value + " does not fit " + int_name(in), at(start));
    }
    std::memcpy(p, &h.bits, in.width);  // little-endian: the low bytes
    return true;
  }

  bool floating(const Instr& in, const Head& h, void* p, Fault& f, const std::uint8_t* start) {
    switch (msgpack::to_floating(h, in.width, p)) {
      case Errc::ok: return true;
      case Errc::type_mismatch: return mismatch(f, h, "a number", start);
      default:
        return f.set(Errc::out_of_range,
                     std::string("a number a ") + (in.width == 4 ? "float" : "double") +
                         " cannot hold exactly",
                     at(start));
    }
  }

  // An enum by its name, or by its integer where the Plan says so.
  bool enumerator(const Instr& in, const Head& h, void* p, Fault& f, const std::uint8_t* start) {
    const TypeDesc& e = *in.type;
    if (in.enc == kEnumInteger) {
      if (h.type != Type::Int && h.type != Type::UInt) {
        return mismatch(f, h, "an enum value (an integer)", start);
      }
      return declared_value(e, static_cast<std::int64_t>(h.bits), p, f, start);
    }
    std::string_view s;
    if (h.type != Type::Str) return mismatch(f, h, "an enum name", start);
    if (!str(h, s, f, start)) return false;
    for (const EnumValue& d : e.values) {
      if (d.name == s) {
        std::memcpy(p, &d.value, e.size);
        return true;
      }
    }
    return f.set(Errc::unknown_enum, "\"" + std::string(s) + "\" is not a value of " + e.name,
                 at(start));
  }

  // A timestamp from any of the extension's three forms; a duration from an integer.
  bool time(const Instr& in, const Head& h, void* p, Fault& f, const std::uint8_t* start) {
    std::int64_t ticks = 0;
    if (in.type->kind == Kind::Duration) {
      if (!msgpack::as_signed(h, ticks)) {
        if (h.type == Type::UInt) {
          return f.set(Errc::out_of_range, "a duration beyond int64", at(start));
        }
        return mismatch(f, h, "an integer (a duration)", start);
      }
      std::memcpy(p, &ticks, 8);
      return true;
    }
    if (!msgpack::is_timestamp(h)) return mismatch(f, h, "a timestamp (extension type -1)", start);
    if (!payload(h, f, start)) return false;
    switch (msgpack::timestamp_ticks(h, p_, in.type->unit, ticks)) {
      case Errc::ok: break;
      case Errc::syntax_error:
        return f.set(Errc::syntax_error,
                     "a timestamp of " + std::to_string(h.bits) + " bytes, not 4, 8 or 12",
                     at(start));
      default:
        return f.set(Errc::out_of_range, "a timestamp this field's unit cannot hold", at(start));
    }
    p_ += h.bits;
    std::memcpy(p, &ticks, 8);
    return true;
  }
};

}  // namespace

const FormatWriter& msgpack_writer() {
  static const MsgpackWriter writer;
  return writer;
}

FormatReader* msgpack_reader(void* storage) { return make_reader<MsgpackReader>(storage); }

std::string msgpack_enum_text(std::string_view name) { return msgpack::str_item(name); }

std::string msgpack_object_head(const FormatTraits& traits, std::size_t fields) {
  std::uint8_t head[msgpack::kMaxHead];
  const std::uint8_t* end = traits.keyed_objects ? msgpack::put_map_head(head, fields)
                                                 : msgpack::put_array_head(head, fields);
  return {reinterpret_cast<const char*>(head), static_cast<std::size_t>(end - head)};
}

WriteBound msgpack_write_bound(const Instr& in) {
  switch (in.op) {
    case Op::Bool: return {.fixed = 1};
    case Op::Int:
    case Op::UInt:
    case Op::Enum: return {.fixed = msgpack::kMaxNumber};
    case Op::Float: return {.fixed = in.width == 4 ? 5u : 9u};
    // jitser_msgpack_put_string may copy a word past a short string's end.
    case Op::String: return {.fixed = msgpack::kMaxHead + 16, .per_byte = 1, .fallible = true};
    case Op::Bytes: return {.fixed = msgpack::kMaxHead, .per_byte = 1};
    case Op::Decimal: return {.fixed = 1 + 2 * msgpack::kMaxNumber};
    case Op::Time: return {.fixed = msgpack::kMaxTimestamp};
    case Op::List:
    case Op::Array: return {.fixed = msgpack::kMaxHead};
    default: return {};
  }
}

}  // namespace jitser

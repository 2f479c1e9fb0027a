// CBOR's operations for the interpreter (docs/formats/cbor.md), on the encodings of wire.h and
// the items of items.h. Objects are maps keyed by field name. The writer states every count
// first; the reader also takes indefinite lengths, so an iterator's Slot holds the items it has
// left to read, or kOpen for an iterator that reads to a break.
#include "formats/cbor/cbor_ops.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "formats/cbor/deterministic.h"
#include "formats/cbor/items.h"
#include "formats/cbor/read_rules.h"
#include "formats/cbor/time_rules.h"
#include "formats/cbor/value_cbor.h"
#include "formats/cbor/wire.h"
#include "formats/counted_writer.h"
#include "formats/cursor_reader.h"
#include "formats/lowering.h"
#include "formats/time_ticks.h"
#include "typeinfo/integers.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

using cbor::Head;
using cbor::Major;

class CborWriter final : public CountedWriter {
 public:
  bool frame(Buffer&, const Plan&, const RunOptions&, Fault&) const override { return true; }

  bool put(Buffer& out, const Instr& in, const void* p, std::uint32_t depth_left,
           Fault& f) const override {
    switch (in.op) {
      case Op::Bool:
        byte(out, *static_cast<const std::uint8_t*>(p) ? cbor::kTrue : cbor::kFalse);
        return true;
      case Op::Int: out.commit_to(cbor::put_int(room(out), load_signed(p, in.width))); return true;
      case Op::UInt: {
        std::uint64_t v = 0;
        std::memcpy(&v, p, in.width);
        out.commit_to(cbor::put_uint(room(out), v));
        return true;
      }
      case Op::Float: {
        double d;
        if (in.width == 4) {
          float x;
          std::memcpy(&x, p, 4);
          d = x;
        } else {
          std::memcpy(&d, p, 8);
        }
        out.commit_to(cbor::put_double(room(out), d));
        return true;
      }
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
        out.commit_to(cbor::put_head(room(out), Major::Bytes, n));
        if (n) out.append(ops.data(in.type, const_cast<void*>(p)), n);
        return true;
      }
      case Op::Enum: {
        const std::int64_t v = load_integer(*in.type, p);
        for (const EnumValue& d : in.type->values) {
          if (d.value != v) continue;
          if (in.enc == kEnumInteger) {
            out.commit_to(cbor::put_int(room(out), v));
          } else {
            text(out, d.name);
          }
          return true;
        }
        return f.set(Errc::unknown_enum, std::to_string(v) + " is not a value of " + in.type->name);
      }
      case Op::Decimal: {
        const auto& d = *static_cast<const Decimal*>(p);
        out.commit_to(cbor::put_decimal(out.ensure(cbor::kMaxDecimal), d.unscaled, d.scale));
        return true;
      }
      case Op::Time: {
        std::int64_t ticks;
        std::memcpy(&ticks, p, 8);
        if (in.type->kind == Kind::Duration) {
          out.commit_to(cbor::put_int(room(out), ticks));
          return true;
        }
        if (in.enc == cbor::kTimeText) {
          std::uint8_t* end =
              cbor::put_time_text(out.ensure(cbor::kMaxTimeText), ticks, in.type->unit);
          if (!end) {
            return f.set(Errc::out_of_range,
                         "timestamp outside the years 0001 to 9999 of RFC 3339");
          }
          out.commit_to(end);
          return true;
        }
        std::int64_t seconds;
        std::uint64_t nanos;
        split_ticks(ticks, in.type->unit, seconds, nanos);
        out.commit_to(cbor::put_timestamp(out.ensure(cbor::kMaxTime), seconds, nanos));
        return true;
      }
      case Op::Dynamic: {
        const Errc e = cbor::write_value(out, *static_cast<const Value*>(p), depth_left);
        switch (e) {
          case Errc::ok: return true;
          case Errc::invalid_utf8: return f.set(e, "string is not UTF-8");
          case Errc::unsupported:
            return f.set(e, "the jitser::Value holds an item CBOR has no form for");
          default: return f.set(Errc::depth_exceeded, "value nests too deep");
        }
      }
      default: return f.set(Errc::invalid_descriptor, "not a CBOR value");
    }
  }

  void null(Buffer& out) const override { byte(out, cbor::kNull); }

 private:
  void map_head(Buffer& out, std::size_t n) const override {
    out.commit_to(cbor::put_head(room(out), Major::Map, n));
  }
  void array_head(Buffer& out, std::size_t n) const override {
    out.commit_to(cbor::put_head(room(out), Major::Array, n));
  }
  static void byte(Buffer& out, std::uint8_t b) { out.append(&b, 1); }
  static std::uint8_t* room(Buffer& out) { return out.ensure(cbor::kMaxHead); }
  static void text(Buffer& out, std::string_view s) {
    out.commit_to(cbor::put_text_head(room(out), s.size()));
    if (!s.empty()) out.append(s.data(), s.size());
  }
};

// The reader keeps the input's position (CursorReader). An iterator's Slot holds the items it
// has left, or kOpen.
class CborReader final : public CursorReader {
 public:
  bool get(const Instr& in, Slot*, void* p, std::uint32_t depth_left, Fault& f) override {
    const std::uint8_t* start = p_;
    cbor::Failure failure;
    if (in.op == Op::Dynamic) {
      cbor::ValueFault vf;
      if (cbor::read_value(p_, end_, *static_cast<Value*>(p), depth_left, vf)) return true;
      return f.set(vf.code, std::move(vf.message), at(vf.at));
    }
    Head h;
    cbor::Tag tag;
    if (!cbor::read_untagged(p_, end_, h, tag, failure)) return failed(f, failure);
    switch (in.op) {
      case Op::Bool:
        if (h.major != Major::Simple || h.float_bytes || (h.n != 20 && h.n != 21)) {
          return mismatch(f, h, "a bool", start);
        }
        *static_cast<std::uint8_t*>(p) = h.n == 21;
        return true;
      case Op::Int:
      case Op::UInt: {
        cbor::Integer v;
        if (h.major != Major::Unsigned && h.major != Major::Negative && h.major != Major::Bytes) {
          return mismatch(f, h, (std::string("an integer (") + int_name(in) + ")").c_str(), start);
        }
        if (!cbor::read_integer(p_, end_, h, tag, v, start, failure)) return failed(f, failure);
        if (!cbor::int_fits(v, in.op == Op::Int, in.width)) {
          const std::string value =
              v.negative ? "-1 - " + std::to_string(v.n) : std::to_string(v.n);
          return f.set(Errc::out_of_range, value + " does not fit " + int_name(in), at(start));
        }
        const std::uint64_t bits = cbor::int_bits(v);
        std::memcpy(p, &bits, in.width);  // little-endian: the low bytes
        return true;
      }
      case Op::Float:
        switch (cbor::to_floating(h, in.width, p)) {
          case Errc::ok: return true;
          case Errc::type_mismatch: return mismatch(f, h, "a number", start);
          default:
            return f.set(Errc::out_of_range,
                         std::string("a number a ") + (in.width == 4 ? "float" : "double") +
                             " cannot hold exactly",
                         at(start));
        }
      case Op::String: {
        std::string_view s;
        if (h.major != Major::Text) return mismatch(f, h, "a text string", start);
        if (!cbor::read_string(p_, end_, h, scratch_, s, start, failure)) return failed(f, failure);
        assign_string(*in.type, p, s);
        return true;
      }
      case Op::Bytes: {
        std::string_view s;
        if (h.major != Major::Bytes) return mismatch(f, h, "a byte string", start);
        if (!cbor::read_string(p_, end_, h, scratch_, s, start, failure)) return failed(f, failure);
        const ListOps& ops = *in.type->list_ops;
        ops.resize(in.type, p, s.size());
        if (!s.empty()) std::memcpy(ops.data(in.type, p), s.data(), s.size());
        return true;
      }
      case Op::Enum: return enumerator(in, h, tag, p, f, start);
      case Op::Decimal:
        if (!tag.is(cbor::kTagDecimal)) return mismatch(f, h, "a decimal fraction (tag 4)", start);
        if (!cbor::read_decimal(p_, end_, h, *static_cast<Decimal*>(p), start, failure)) {
          return failed(f, failure);
        }
        return true;
      case Op::Time: {
        std::int64_t ticks = 0;
        if (in.type->kind == Kind::Duration) {
          cbor::Integer v;
          if (h.major != Major::Unsigned && h.major != Major::Negative) {
            return mismatch(f, h, "an integer (a duration)", start);
          }
          if (!cbor::read_integer(p_, end_, h, tag, v, start, failure)) return failed(f, failure);
          if (!cbor::int_fits(v, true, 8)) {
            return f.set(Errc::out_of_range, "a duration beyond int64", at(start));
          }
          ticks = static_cast<std::int64_t>(cbor::int_bits(v));
        } else if (!cbor::read_time(p_, end_, h, tag, in.type->unit, ticks, start, failure)) {
          return failed(f, failure);
        }
        std::memcpy(p, &ticks, 8);
        return true;
      }
      default: return f.set(Errc::invalid_descriptor, "not a CBOR value", at(start));
    }
  }

  // Null and undefined are both "no value", behind any tags; but a jitser::Value holds tags
  // and undefined, so one in an optional or pointer is empty only for a bare null.
  bool null(const Instr& in, Slot*, bool* is_null, Fault&) override {
    const std::uint8_t* q = p_;
    if (in.type->element->resolved().kind == Kind::Dynamic) {
      *is_null = q != end_ && *q == cbor::kNull;
      if (*is_null) ++p_;
      return true;
    }
    Head h;
    while (q != end_ && (*q >> 5) == static_cast<unsigned>(Major::Tag)) {
      if (cbor::get_head(q, end_, h) != cbor::HeadStatus::ok) break;
    }
    *is_null = q != end_ && (*q == cbor::kNull || *q == cbor::kUndefined);
    if (*is_null) p_ = q + 1;
    return true;
  }

  // CBOR has no references here: a shared object is read as a copy wherever it appears.
  bool shared(const Instr& in, Slot* v, SharedRef* ref, std::uint32_t*, Fault& f) override {
    bool is_null = false;
    if (!null(in, v, &is_null, f)) return false;
    *ref = is_null ? SharedRef::Null : SharedRef::New;
    return true;
  }

  // A positional object's array may be of indefinite length: then its break must follow the
  // last field.
  bool begin_fields(Slot* v, Slot* it, std::uint32_t fields, Fault& f) override {
    const std::uint8_t* start = p_;
    if (!container(Major::Array, 1, v, it, nullptr, f)) return false;
    return left(it) == kOpen || all_fields(left(it), fields, f, start);
  }
  bool end_fields(Slot* it, Fault& f) override {
    if (left(it) != kOpen || (p_ != end_ && *p_ == cbor::kBreak && ++p_)) return true;
    if (p_ == end_) return f.set(Errc::truncated, "input ends inside an item", at(end_));
    return f.set(Errc::unknown_field, "an array of more items than its object's fields", at(p_));
  }

  bool begin_object(Slot* v, Slot* it, Fault& f) override {
    return container(Major::Map, 2, v, it, nullptr, f);
  }

  // A key must be a text string or an integer (keys_by_number). The raw key is a definite
  // string's bytes or an integer's shortest head, head included; a key in chunks, behind a tag
  // or in a longer head is made so first.
  bool next_field(Slot* it, bool* more, const char** key, std::size_t* key_at, Slot* value,
                  Fault& f) override {
    if (!next(it, more, f)) return false;
    if (!*more) return true;
    const std::uint8_t* start = p_;
    *key_at = at(start);
    cbor::Failure failure;
    Head h;
    cbor::Tag tag;
    if (!cbor::read_untagged(p_, end_, h, tag, failure)) return failed(f, failure);
    if (h.major == Major::Unsigned || h.major == Major::Negative) {
      made_key_ = cbor::head_item(h.major, h.n);
      const bool shortest =
          !tag.present && made_key_.size() == static_cast<std::size_t>(p_ - start);
      *key = shortest ? raw_key(start, made_key_.size()) : copied_key(made_key_);
      mark(value);
      return true;
    }
    if (h.major != Major::Text) return mismatch(f, h, "a text or integer key", start);
    std::string_view text;
    if (!cbor::read_string(p_, end_, h, made_key_, text, start, failure)) return failed(f, failure);
    if (!h.indefinite && !tag.present) {
      *key = raw_key(start, static_cast<std::size_t>(p_ - start));
    } else {
      made_key_ = cbor::text_item(text);
      *key = copied_key(made_key_);
    }
    mark(value);
    return true;
  }

  bool key_text(const char* key, std::string_view* text) override {
    return cbor::key_text(reinterpret_cast<const std::uint8_t*>(key), key_digits_, *text);
  }

  bool skip(Slot*, Fault& f) override {
    const std::uint8_t* start = p_;
    cbor::HeadStatus why = cbor::HeadStatus::ok;
    switch (cbor::skip(p_, end_, why)) {
      case cbor::SkipStatus::ok: return true;
      case cbor::SkipStatus::truncated:
        return f.set(Errc::truncated, "input ends inside an item", at(end_));
      case cbor::SkipStatus::too_long:
        return f.set(Errc::length_too_large, "an item longer than the input left", at(start));
      case cbor::SkipStatus::malformed:
        return f.set(Errc::syntax_error,
                     why == cbor::HeadStatus::ok
                         ? "a chunk of an indefinite-length string that is not a definite one "
                           "of its type"
                         : cbor::head_fault(why),
                     at(p_));
    }
    return false;
  }

  bool begin_list(const Instr& in, Slot* v, std::uint32_t min_item_bytes, Slot* it,
                  std::uint64_t* count, Fault& f) override {
    const bool map = in.op == Op::Map;
    return container(map ? Major::Map : Major::Array,
                     std::max<std::uint32_t>(min_item_bytes, map ? 2 : 1), v, it, count, f);
  }

  bool next_element(Slot* it, bool* more, Slot* element, Fault& f) override {
    if (!next(it, more, f)) return false;
    if (*more) mark(element);
    return true;
  }
  bool next_entry(Slot* it, bool* more, Slot* key, Slot*, Fault& f) override {
    if (!next(it, more, f)) return false;
    if (*more) mark(key);
    return true;
  }

  bool get_key(const Instr& in, Slot* key, void* p, Fault& f) override {
    return get(in, key, p, 0, f);
  }

 private:
  static constexpr std::uint64_t kOpen = UINT64_MAX;  // an iterator that reads to a break

  bool failed(Fault& f, cbor::Failure& failure) {
    return f.set(failure.code, std::move(failure.message), at(failure.at));
  }

  bool mismatch(Fault& f, const Head& h, const char* expected, const std::uint8_t* start) {
    return f.set(Errc::type_mismatch,
                 std::string("expected ") + expected + ", found " + cbor::item_name(h), at(start));
  }

  // A map (`per_item` 2) or array: its count, checked against the input left at `per_item`
  // bytes an item, or kUnknownCount for an indefinite one, whose iterator reads to its break.
  bool container(Major major, std::uint32_t per_item, Slot* v, Slot* it, std::uint64_t* count,
                 Fault& f) {
    const std::uint8_t* start = p_;
    mark(v);
    cbor::Failure failure;
    Head h;
    cbor::Tag tag;
    if (!cbor::read_untagged(p_, end_, h, tag, failure)) return failed(f, failure);
    if (h.major != major) return mismatch(f, h, major == Major::Map ? "a map" : "an array", start);
    if (h.indefinite) {
      left(it) = kOpen;
      if (count) *count = kUnknownCount;
      return true;
    }
    if (h.n > static_cast<std::uint64_t>(end_ - p_) / per_item) {
      return f.set(Errc::length_too_large,
                   std::to_string(h.n) + " items in " + std::to_string(end_ - p_) + " bytes",
                   at(start));
    }
    left(it) = h.n;
    if (count) *count = h.n;
    return true;
  }

  // Whether the iterator has another item: its count, or the input up to the break.
  bool next(Slot* it, bool* more, Fault& f) {
    std::uint64_t& n = left(it);
    if (n != kOpen) {
      *more = n != 0;
      if (*more) --n;
      return true;
    }
    if (p_ == end_) return f.set(Errc::truncated, "input ends inside an item", at(end_));
    *more = *p_ != cbor::kBreak;
    if (!*more) ++p_;
    return true;
  }

  // An enum by its name, or by its integer where the Plan says so.
  bool enumerator(const Instr& in, const Head& h, const cbor::Tag& tag, void* p, Fault& f,
                  const std::uint8_t* start) {
    const TypeDesc& e = *in.type;
    cbor::Failure failure;
    if (in.enc == kEnumInteger) {
      if (h.major != Major::Unsigned && h.major != Major::Negative && h.major != Major::Bytes) {
        return mismatch(f, h, "an enum value (an integer)", start);
      }
      cbor::Integer v;
      if (!cbor::read_integer(p_, end_, h, tag, v, start, failure)) return failed(f, failure);
      if (!cbor::int_fits(v, true, 8) && !cbor::int_fits(v, false, 8)) {
        return f.set(Errc::unknown_enum, "an integer beyond 64 bits is not a value of " + e.name,
                     at(start));
      }
      return declared_value(e, static_cast<std::int64_t>(cbor::int_bits(v)), p, f, start);
    }
    std::string_view s;
    if (h.major != Major::Text) return mismatch(f, h, "an enum name", start);
    if (!cbor::read_string(p_, end_, h, scratch_, s, start, failure)) return failed(f, failure);
    for (const EnumValue& d : e.values) {
      if (d.name == s) {
        std::memcpy(p, &d.value, e.size);
        return true;
      }
    }
    return f.set(Errc::unknown_enum, "\"" + std::string(s) + "\" is not a value of " + e.name,
                 at(start));
  }

  std::string scratch_;     // an indefinite-length string's chunks, joined
  std::string made_key_;    // a key in chunks, behind a tag or in a longer head, made as written
  std::string key_digits_;  // an integer key's text
};

}  // namespace

const FormatWriter& cbor_writer() {
  static const CborWriter writer;
  return writer;
}

FormatReader* cbor_reader(void* storage) { return make_reader<CborReader>(storage); }

void cbor_finish_write(const RunOptions& options, Buffer& out) {
  if (options.deterministic) (void)cbor::sort_map_keys(out);
}

std::string cbor_enum_text(std::string_view name) { return cbor::text_item(name); }

std::string cbor_object_head(const FormatTraits& traits, std::size_t fields) {
  std::uint8_t head[cbor::kMaxHead];
  const std::uint8_t* end =
      cbor::put_head(head, traits.keyed_objects ? Major::Map : Major::Array, fields);
  return {reinterpret_cast<const char*>(head), static_cast<std::size_t>(end - head)};
}

WriteBound cbor_write_bound(const Instr& in) {
  switch (in.op) {
    case Op::Bool: return {.fixed = 1};
    case Op::Int:
    case Op::UInt:
    case Op::Enum:
    case Op::Float: return {.fixed = cbor::kMaxHead};
    // jitser_cbor_put_string may copy a word past a short string's end.
    case Op::String: return {.fixed = cbor::kMaxHead + 16, .per_byte = 1, .fallible = true};
    case Op::Bytes: return {.fixed = cbor::kMaxHead, .per_byte = 1};
    case Op::Decimal: return {.fixed = cbor::kMaxDecimal};
    case Op::Time:
      if (in.enc == cbor::kTimeText) return {.fixed = cbor::kMaxTimeText, .fallible = true};
      return {.fixed = cbor::kMaxTime};
    case Op::List:
    case Op::Array: return {.fixed = cbor::kMaxHead};
    default: return {};
  }
}

}  // namespace jitser

// The Protobuf wire format's operations for the interpreter (docs/formats/protobuf.md): a keyed
// format whose keys are field numbers, whose nested messages, strings and packed runs carry
// their length first, and in which a key may come again (FormatTraits::repeated_keys).
#include "formats/protobuf/protobuf_ops.h"

#include <charconv>
#include <cstddef>
#include <cstring>
#include <string>

#include "formats/protobuf/fields.h"
#include "formats/protobuf/sized.h"
#include "formats/protobuf/value_protobuf.h"
#include "formats/protobuf/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/integers.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

using namespace protobuf;

constexpr std::int64_t kNanosPerSecond = 1000000000;

// Timestamp and Duration as their messages hold them: seconds, and nanoseconds that a
// Duration gives the sign of its seconds.
void time_fields(std::int64_t ticks, const TypeDesc& t, std::int64_t& seconds,
                 std::int64_t& nanos) {
  std::uint64_t n = 0;
  split_ticks(ticks, t.unit, seconds, n);
  nanos = static_cast<std::int64_t>(n);
  if (t.kind == Kind::Duration && seconds < 0 && nanos > 0) {
    seconds += 1;
    nanos -= kNanosPerSecond;
  }
}

void varint(Buffer& out, std::uint64_t v) {
  out.commit_to(wire::put_varint(out.ensure(wire::kMaxVarintBytes), v));
}
void tag(Buffer& out, std::uint32_t number, wire::WireType type) {
  varint(out, wire::tag(number, type));
}

class ProtobufWriter final : public FormatWriter {
 public:
  bool frame(Buffer&, const Plan& plan, const RunOptions&, Fault& f) const override {
    for (const PlanField& field : plan.fields) {
      if (field.number > wire::kMaxFieldNumber) {
        return f.set(Errc::unsupported, "field '" + field.name + "' has number " +
                                            std::to_string(field.number) +
                                            ", past Protobuf's largest, 536870911");
      }
    }
    return true;
  }

  bool put(Buffer& out, const Instr& in, const void* p, std::uint32_t depth_left,
           Fault& f) const override {
    const auto type = static_cast<wire::WireType>(in.enc & wire::kWireTypeMask);
    switch (in.op) {
      case Op::Bool: varint(out, *static_cast<const std::uint8_t*>(p) != 0); return true;
      case Op::Int:
      case Op::UInt:
      case Op::Enum: {
        const TypeDesc& t = *in.type;
        const std::int64_t v = in.op == Op::Int ? load_signed(p, in.width) : load_integer(t, p);
        if (type == wire::kVarint) {
          varint(out, in.enc & wire::kZigzag ? wire::zigzag(v) : static_cast<std::uint64_t>(v));
        } else {
          out.append(&v, type == wire::kI32 ? 4 : 8);
        }
        return true;
      }
      case Op::Float: out.append(p, in.width); return true;
      case Op::String: {
        const auto& s = *static_cast<const std::string*>(p);
        varint(out, s.size());
        out.append(s.data(), s.size());
        return true;
      }
      case Op::Bytes: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(in.type, p);
        varint(out, n);
        out.append(ops.data(in.type, const_cast<void*>(p)), n);  // data() is only read
        return true;
      }
      case Op::Decimal: {
        const std::size_t mark = open_sized(out);
        write_decimal(out, *static_cast<const Decimal*>(p));
        close_sized(out, mark);
        return true;
      }
      case Op::Time: {
        std::int64_t ticks, seconds, nanos;
        std::memcpy(&ticks, p, 8);
        time_fields(ticks, *in.type, seconds, nanos);
        const std::size_t mark = open_sized(out);
        if (seconds) {
          tag(out, 1, wire::kVarint);
          varint(out, static_cast<std::uint64_t>(seconds));
        }
        if (nanos) {
          tag(out, 2, wire::kVarint);
          varint(out, static_cast<std::uint64_t>(nanos));
        }
        close_sized(out, mark);
        return true;
      }
      case Op::Dynamic: {
        const std::size_t mark = open_sized(out);
        if (write_value(out, *static_cast<const Value*>(p), depth_left) != Errc::ok) {
          return f.set(Errc::depth_exceeded, "value nests deeper than the levels left");
        }
        close_sized(out, mark);
        return true;
      }
      default: return f.set(Errc::invalid_descriptor, "not a Protobuf value");
    }
  }

  // Presence is the field's key: an empty optional or pointer is left out with it.
  void null(Buffer&) const override {}
  void present(Buffer&) const override {}
  void shared_new(Buffer&) const override {}
  void shared_ref(Buffer&, std::uint32_t) const override {}

  std::size_t begin_object(Buffer& out, bool root) const override {
    return root ? kNoMark : open_sized(out);
  }
  void field(Buffer& out, const PlanField& field, bool) const override {
    out.append(field.key.data(), field.key.size());
  }
  void end_object(Buffer& out, std::size_t mark) const override {
    if (mark != kNoMark) close_sized(out, mark);
  }
  // A packed run of scalars is one length-delimited value; the items of other lists each come
  // after their own key (PlanField::key_per_item).
  std::size_t begin_list(Buffer& out, const Instr& in, std::size_t) const override {
    return in.enc & wire::kPacked ? open_sized(out) : kNoMark;
  }
  void element(Buffer&, std::size_t) const override {}
  void end_list(Buffer& out, std::size_t, std::size_t mark) const override {
    if (mark != kNoMark) close_sized(out, mark);
  }
  // An entry is a message of the key, field 1, and the value, field 2.
  void begin_map(Buffer&, const Instr&, std::size_t) const override {}
  std::size_t begin_entry(Buffer& out, const Instr& in, std::size_t) const override {
    const std::size_t mark = open_sized(out);
    tag(out, 1, static_cast<wire::WireType>(in.enc & wire::kWireTypeMask));
    return mark;
  }
  void entry_value(Buffer& out, const Instr& in) const override {
    tag(out, 2,
        static_cast<wire::WireType>((in.enc >> wire::kMapValueShift) & wire::kWireTypeMask));
  }
  void end_entry(Buffer& out, std::size_t mark) const override { close_sized(out, mark); }
  void end_map(Buffer&, std::size_t) const override {}

 private:
  static constexpr std::size_t kNoMark = static_cast<std::size_t>(-1);
};

// What a reader's Slots hold: a field's value as read after its tag, or a cursor over the
// fields of a message, the scalars of a packed run, or the one item of an unpacked field.
struct Cursor {
  const std::uint8_t* p;    // the next byte; Single: where the item starts
  const std::uint8_t* end;  // of the message, the run, or the item's bytes
  // Message: the number of the field read last, four bytes and four zero bytes, the raw key
  // compared with PlanField::match. Single: the item's bits.
  std::uint64_t word;
  enum class Kind : std::uint8_t { Message, Packed, Single, Done } kind;
  wire::WireType type;  // Packed: the elements'; Single: the item's
};
static_assert(sizeof(FieldValue) <= sizeof(Slot) && sizeof(Cursor) <= sizeof(Slot));
static_assert(offsetof(FieldValue, p) == 0 && offsetof(Cursor, p) == 0,
              "offset() reads where any Slot's value is from its first word");

FieldValue& value_of(Slot* s) { return *reinterpret_cast<FieldValue*>(s->bytes); }

class ProtobufReader final : public FormatReader {
 public:
  bool open(std::span<const std::uint8_t> input, std::size_t, Slot* root, Fault&) override {
    begin_ = input.data();
    FieldValue& v = value_of(root);
    v = FieldValue{.p = input.data(), .end = input.data() + input.size(), .type = wire::kLen};
    return true;
  }
  bool frame(const Plan&, const RunOptions& options, Fault&) override {
    max_depth_ = options.max_depth;
    return true;
  }
  bool finish(Fault&) override { return true; }
  std::size_t offset(const Slot* value) const override {
    const auto* p = *reinterpret_cast<const std::uint8_t* const*>(value->bytes);
    return p ? static_cast<std::size_t>(p - begin_) : Status::kNoOffset;
  }

  bool get(const Instr& in, Slot* value, void* slot, std::uint32_t depth_left, Fault& f) override {
    FieldValue& v = value_of(value);
    const auto type = static_cast<wire::WireType>(in.enc & wire::kWireTypeMask);
    if (v.type == wire::kAbsent) {
      v.type = type;
      v.bits = 0;
      v.end = v.p;
    }
    if (v.type != type) {
      return f.set(Errc::type_mismatch,
                   std::string("wire type ") + wire_type_name(v.type) + " for a field of " +
                       wire_type_name(type),
                   at(v.p));
    }
    switch (in.op) {
      case Op::Bool: *static_cast<bool*>(slot) = v.bits != 0; return true;
      case Op::Int: {
        std::int64_t x = static_cast<std::int64_t>(v.bits);
        if (in.enc & wire::kZigzag) x = wire::unzigzag(v.bits);
        if (type == wire::kI32) x = static_cast<std::int32_t>(static_cast<std::uint32_t>(v.bits));
        return store_signed(in, x, slot, v, f);
      }
      case Op::UInt: return store_unsigned(in, v.bits, slot, v, f);
      case Op::Enum: {
        // Open: any value the enum's integer holds, declared or not.
        const TypeDesc& t = *in.type;
        if (is_unsigned(t.underlying)) return store_unsigned(in, v.bits, slot, v, f);
        return store_signed(in, static_cast<std::int64_t>(v.bits), slot, v, f);
      }
      case Op::Float: std::memcpy(slot, &v.bits, in.width); return true;
      case Op::String: {
        std::size_t bad = 0;
        const std::size_t n = static_cast<std::size_t>(v.end - v.p);
        if (n && !valid_utf8(v.p, n, &bad)) {
          return f.set(Errc::invalid_utf8, "string is not UTF-8", at(v.p + bad));
        }
        static_cast<std::string*>(slot)->assign(reinterpret_cast<const char*>(v.p), n);
        return true;
      }
      case Op::Bytes: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = static_cast<std::size_t>(v.end - v.p);
        ops.resize(in.type, slot, n);
        if (n) std::memcpy(ops.data(in.type, slot), v.p, n);
        return true;
      }
      case Op::Decimal: {
        ReadFailure fail;
        if (read_decimal(v.p, v.end, *static_cast<Decimal*>(slot), fail)) return true;
        return failed(fail, f);
      }
      case Op::Time: return time(*in.type, v, *static_cast<std::int64_t*>(slot), f);
      case Op::Dynamic: {
        ReadFailure fail;
        if (read_value(v.p, v.end, *static_cast<Value*>(slot), depth_left, fail)) return true;
        return failed(fail, f);
      }
      default: return f.set(Errc::invalid_descriptor, "not a Protobuf value", at(v.p));
    }
  }

  // A field the input holds is present: absence is its key's.
  bool null(const Instr&, Slot* value, bool* is_null, Fault&) override {
    *is_null = value_of(value).type == wire::kAbsent;
    return true;
  }
  bool shared(const Instr&, Slot* value, SharedRef* ref, std::uint32_t*, Fault&) override {
    *ref = value_of(value).type == wire::kAbsent ? SharedRef::Null : SharedRef::New;
    return true;
  }

  bool begin_object(Slot* value, Slot* iterator, Fault& f) override {
    const FieldValue& v = value_of(value);
    if (v.type != wire::kLen && v.type != wire::kAbsent) {
      return f.set(Errc::type_mismatch,
                   std::string("wire type ") + wire_type_name(v.type) + " for a message", at(v.p));
    }
    Cursor& c = cursor(iterator);
    c = Cursor{.p = v.p,
               .end = v.type == wire::kAbsent ? v.p : v.end,
               .word = 0,
               .kind = Cursor::Kind::Message,
               .type = wire::kAbsent};
    return true;
  }
  bool next_field(Slot* iterator, bool* more, const char** key, std::size_t* key_at, Slot* value,
                  Fault& f) override {
    Cursor& c = cursor(iterator);
    if (c.p == c.end) {
      *more = false;
      return true;
    }
    *key_at = static_cast<std::size_t>(c.p - begin_);
    ReadFailure fail;
    FieldValue& v = value_of(value);
    if (!protobuf::next_field(c.p, c.end, v, max_depth_, fail)) return failed(fail, f);
    c.word = v.number;
    *key = reinterpret_cast<const char*>(&c.word);
    *more = true;
    return true;
  }
  bool key_text(const char* key, std::string_view* text) override {
    std::uint32_t number = 0;
    std::memcpy(&number, key, 4);
    const auto r = std::to_chars(text_, text_ + sizeof text_, number);
    *text = std::string_view(text_, static_cast<std::size_t>(r.ptr - text_));
    return true;
  }
  bool skip(Slot*, Fault&) override { return true; }  // next_field read past it

  bool begin_list(const Instr& in, Slot* value, std::uint32_t, Slot* iterator, std::uint64_t* count,
                  Fault&) override {
    *count = kUnknownCount;
    const FieldValue& v = value_of(value);
    Cursor& c = cursor(iterator);
    c = Cursor{
        .p = v.p, .end = v.end, .word = v.bits, .kind = Cursor::Kind::Single, .type = v.type};
    if (v.type == wire::kAbsent) {
      c.kind = Cursor::Kind::Done;
    } else if (in.op != Op::Map && (in.enc & wire::kPacked) && v.type == wire::kLen) {
      c.kind = Cursor::Kind::Packed;
      c.type = static_cast<wire::WireType>(in.enc & wire::kWireTypeMask);
    }
    return true;
  }
  bool next_element(Slot* iterator, bool* more, Slot* element, Fault& f) override {
    Cursor& c = cursor(iterator);
    switch (c.kind) {
      case Cursor::Kind::Single:
        value_of(element) = single(c);
        c.kind = Cursor::Kind::Done;
        *more = true;
        return true;
      case Cursor::Kind::Packed: {
        if (c.p == c.end) break;
        ReadFailure fail;
        if (!read_field_value(c.p, c.end, c.type, 0, value_of(element), 0, fail)) {
          return failed(fail, f);
        }
        *more = true;
        return true;
      }
      default: break;
    }
    *more = false;
    return true;
  }
  // A map's entry: a message of the key, field 1, and the value, field 2, either of which may
  // be absent (then its zero value) or come twice (then the last counts).
  bool next_entry(Slot* iterator, bool* more, Slot* key, Slot* value, Fault& f) override {
    Cursor& c = cursor(iterator);
    if (c.kind != Cursor::Kind::Single) {
      *more = false;
      return true;
    }
    c.kind = Cursor::Kind::Done;
    const FieldValue entry = single(c);
    if (entry.type != wire::kLen) {
      return f.set(Errc::type_mismatch,
                   std::string("wire type ") + wire_type_name(entry.type) + " for a map entry",
                   at(entry.p));
    }
    value_of(key) = FieldValue{.p = entry.p};
    value_of(value) = FieldValue{.p = entry.p};
    ReadFailure fail;
    for (const std::uint8_t* p = entry.p; p != entry.end;) {
      FieldValue field;
      if (!protobuf::next_field(p, entry.end, field, max_depth_, fail)) return failed(fail, f);
      if (field.number == 1) value_of(key) = field;
      if (field.number == 2) value_of(value) = field;
    }
    *more = true;
    return true;
  }
  bool get_key(const Instr& in, Slot* key, void* slot, Fault& f) override {
    return get(in, key, slot, 0, f);
  }

 private:
  static Cursor& cursor(Slot* s) { return *reinterpret_cast<Cursor*>(s->bytes); }
  static FieldValue single(const Cursor& c) {
    return FieldValue{.p = c.p, .end = c.end, .bits = c.word, .type = c.type};
  }

  std::size_t at(const std::uint8_t* p) const {
    return p ? static_cast<std::size_t>(p - begin_) : Status::kNoOffset;
  }
  bool failed(const ReadFailure& fail, Fault& f) const {
    return f.set(fail.code, fail.message, at(fail.at));
  }

  bool store_signed(const Instr& in, std::int64_t x, void* slot, const FieldValue& v, Fault& f) {
    const unsigned bits = 8 * in.width;
    if (bits < 64) {
      const std::int64_t most = (std::int64_t{1} << (bits - 1)) - 1;
      if (x > most || x < -most - 1) {
        return f.set(Errc::out_of_range,
                     std::to_string(x) + " does not fit " + std::to_string(bits) + " bits",
                     at(v.p));
      }
    }
    std::memcpy(slot, &x, in.width);  // little-endian: the low bytes
    return true;
  }
  bool store_unsigned(const Instr& in, std::uint64_t x, void* slot, const FieldValue& v, Fault& f) {
    const unsigned bits = 8 * in.width;
    if (bits < 64 && x >> bits) {
      return f.set(Errc::out_of_range,
                   std::to_string(x) + " does not fit " + std::to_string(bits) + " bits", at(v.p));
    }
    std::memcpy(slot, &x, in.width);
    return true;
  }

  // The fields of Timestamp and Duration, varints by number.
  template <class Each>
  bool varint_fields(const FieldValue& v, Fault& f, Each each) {
    ReadFailure fail;
    for (const std::uint8_t* p = v.p; p != v.end;) {
      FieldValue field;
      if (!protobuf::next_field(p, v.end, field, max_depth_, fail)) return failed(fail, f);
      if (field.number != 1 && field.number != 2) continue;
      if (field.type != wire::kVarint) {
        return f.set(Errc::type_mismatch,
                     std::string("wire type ") + wire_type_name(field.type) + " for a varint",
                     at(field.p));
      }
      if (!each(field)) return false;
    }
    return true;
  }

  bool time(const TypeDesc& t, const FieldValue& v, std::int64_t& ticks, Fault& f) {
    std::int64_t seconds = 0, nanos = 0;
    const std::uint8_t* nanos_at = v.p;
    const bool ok = varint_fields(v, f, [&](const FieldValue& field) {
      if (field.number == 1) {
        seconds = static_cast<std::int64_t>(field.bits);
        return true;
      }
      nanos = static_cast<std::int64_t>(field.bits);
      nanos_at = field.p;
      return true;
    });
    if (!ok) return false;
    const bool duration = t.kind == Kind::Duration;
    const bool in_range = duration ? nanos > -kNanosPerSecond && nanos < kNanosPerSecond &&
                                         !(seconds > 0 && nanos < 0) && !(seconds < 0 && nanos > 0)
                                   : nanos >= 0 && nanos < kNanosPerSecond;
    if (!in_range) {
      return f.set(
          Errc::out_of_range,
          "nanoseconds " + std::to_string(nanos) + " with seconds " + std::to_string(seconds),
          at(nanos_at));
    }
    if (nanos < 0) {
      seconds -= 1;
      nanos += kNanosPerSecond;
    }
    if (!join_ticks(seconds, static_cast<std::uint64_t>(nanos), t.unit, ticks)) {
      return f.set(Errc::out_of_range, "time does not fit a 64-bit count of its unit", at(v.p));
    }
    return true;
  }

  const std::uint8_t* begin_ = nullptr;
  std::uint32_t max_depth_ = 128;
  char text_[12] = {};
};

}  // namespace

const FormatWriter& protobuf_writer() {
  static const ProtobufWriter writer;
  return writer;
}

FormatReader* protobuf_reader(void* storage) { return make_reader<ProtobufReader>(storage); }

}  // namespace jitser

// The Protobuf wire format's operations for the interpreter (docs/formats/protobuf.md): a keyed
// format whose keys are field numbers, whose nested messages, strings and packed runs carry
// their length first, and in which a key may come again (FormatTraits::repeated_keys).
#include "formats/protobuf/protobuf_ops.h"

#include <charconv>
#include <cstddef>
#include <cstring>
#include <string>

#include "formats/protobuf/fields.h"
#include "formats/protobuf/lower_protobuf.h"
#include "formats/protobuf/protobuf_slot.h"
#include "formats/protobuf/sized.h"
#include "formats/protobuf/value_protobuf.h"
#include "formats/protobuf/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/integers.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

using namespace protobuf;

void varint(Buffer& out, std::uint64_t v) {
  out.commit_to(wire::put_varint(out.ensure(wire::kMaxVarintBytes), v));
}
void tag(Buffer& out, std::uint32_t number, wire::WireType type) {
  varint(out, wire::tag(number, type));
}

class ProtobufWriter final : public FormatWriter {
 public:
  bool frame(Buffer&, const Plan& plan, const RunOptions&, Fault& f) const override {
    if (const PlanField* field = unwritable_field(plan)) {
      return f.set(Errc::unsupported, "field '" + field->name + "' has number " +
                                          std::to_string(field->number) +
                                          ", past Protobuf's largest, 536870911");
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
        const std::string_view s = string_at(*in.type, p);
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
      case Op::Decimal:
        out.commit_to(
            put_decimal_message(out.ensure(kMaxSmallMessage), *static_cast<const Decimal*>(p)));
        return true;
      case Op::Time: {
        std::int64_t ticks;
        std::memcpy(&ticks, p, 8);
        out.commit_to(put_time_message(out.ensure(kMaxSmallMessage), ticks, in.type->unit,
                                       in.type->kind == Kind::Duration));
        return true;
      }
      case Op::Dynamic: {
        const std::size_t mark = open_sized(out);
        if (const Errc e = write_value(out, *static_cast<const Value*>(p), depth_left);
            e != Errc::ok) {
          if (e == Errc::unsupported) {
            return f.set(e, "the jitser::Value holds an item Protobuf has no form for");
          }
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

  std::size_t begin_object(Buffer& out, const FormatTraits&, bool root,
                           std::size_t) const override {
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
    if (!as_type(v, type)) {
      return f.set(Errc::type_mismatch,
                   std::string("wire type ") + wire_type_name(v.type) + " for a field of " +
                       wire_type_name(type),
                   at(v.p));
    }
    switch (in.op) {
      case Op::Bool: *static_cast<bool*>(slot) = v.bits != 0; return true;
      case Op::Int: return store_signed(in, signed_value(v.bits, in.enc), slot, v, f);
      case Op::UInt: return store_unsigned(in, v.bits, slot, v, f);
      case Op::Enum:
        // Open: any value the enum's integer holds, declared or not.
        if (is_unsigned(in.type->underlying)) return store_unsigned(in, v.bits, slot, v, f);
        return store_signed(in, signed_value(v.bits, in.enc), slot, v, f);
      case Op::Float: std::memcpy(slot, &v.bits, in.width); return true;
      case Op::String: {
        std::size_t bad = 0;
        const std::size_t n = static_cast<std::size_t>(v.end - v.p);
        if (n && !valid_utf8(v.p, n, &bad)) {
          return f.set(Errc::invalid_utf8, "string is not UTF-8", at(v.p + bad));
        }
        assign_string(in.type->allocator, slot, reinterpret_cast<const char*>(v.p), n);
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
      case Op::Time: {
        ReadFailure fail;
        if (read_time(v, in.type->unit, in.type->kind == Kind::Duration,
                      *static_cast<std::int64_t*>(slot), fail)) {
          return true;
        }
        return failed(fail, f);
      }
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
    if (!begin_message(v, cursor_of(iterator), 0)) {
      return f.set(Errc::type_mismatch,
                   std::string("wire type ") + wire_type_name(v.type) + " for a message", at(v.p));
    }
    return true;
  }
  bool next_field(Slot* iterator, bool* more, const char** key, std::size_t* key_at, Slot* value,
                  Fault& f) override {
    Cursor& c = cursor_of(iterator);
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
    begin_items(value_of(value), in.op != Op::Map && (in.enc & wire::kPacked), in.enc,
                cursor_of(iterator));
    return true;
  }
  bool next_element(Slot* iterator, bool* more, Slot* element, Fault& f) override {
    Cursor& c = cursor_of(iterator);
    const std::uint8_t* at = c.p;
    switch (next_item(c, value_of(element))) {
      case ItemStatus::item: *more = true; return true;
      case ItemStatus::done: *more = false; return true;
      case ItemStatus::malformed: break;
    }
    ReadFailure fail;
    FieldValue item;
    read_field_value(at, c.end, c.type, 0, item, 0, fail);
    return failed(fail, f);
  }
  // A map's entry: a message of the key, field 1, and the value, field 2, either of which may
  // be absent (then its zero value) or come twice (then the last counts).
  bool next_entry(Slot* iterator, bool* more, Slot* key, Slot* value, Fault& f) override {
    Cursor& c = cursor_of(iterator);
    if (c.kind != Cursor::Kind::Single) {
      *more = false;
      return true;
    }
    FieldValue entry;
    next_item(c, entry);
    if (entry.type != wire::kLen) {
      return f.set(Errc::type_mismatch,
                   std::string("wire type ") + wire_type_name(entry.type) + " for a map entry",
                   at(entry.p));
    }
    ReadFailure fail;
    if (!read_entry(entry, value_of(key), value_of(value), max_depth_, fail)) {
      return failed(fail, f);
    }
    *more = true;
    return true;
  }
  bool get_key(const Instr& in, Slot* key, void* slot, Fault& f) override {
    return get(in, key, slot, 0, f);
  }

 private:
  std::size_t at(const std::uint8_t* p) const {
    return p ? static_cast<std::size_t>(p - begin_) : Status::kNoOffset;
  }
  bool failed(const ReadFailure& fail, Fault& f) const {
    return f.set(fail.code, fail.message, at(fail.at));
  }

  bool store_signed(const Instr& in, std::int64_t x, void* slot, const FieldValue& v, Fault& f) {
    if (!fits_signed(x, in.width)) {
      return f.set(Errc::out_of_range,
                   std::to_string(x) + " does not fit " + std::to_string(8 * in.width) + " bits",
                   at(v.p));
    }
    std::memcpy(slot, &x, in.width);  // little-endian: the low bytes
    return true;
  }
  bool store_unsigned(const Instr& in, std::uint64_t x, void* slot, const FieldValue& v, Fault& f) {
    if (!fits_unsigned(x, in.width)) {
      return f.set(Errc::out_of_range,
                   std::to_string(x) + " does not fit " + std::to_string(8 * in.width) + " bits",
                   at(v.p));
    }
    std::memcpy(slot, &x, in.width);
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

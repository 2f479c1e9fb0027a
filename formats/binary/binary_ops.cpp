// The binary format's operations for the interpreter (docs/formats/binary.md), on the encodings
// of wire.h: a positional format in which every value is read where the last one ended.
#include "formats/binary/binary_ops.h"

#include <cstring>
#include <string>

#include "formats/binary/value_binary.h"
#include "formats/binary/wire.h"
#include "formats/time_ticks.h"
#include "typeinfo/integers.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

class BinaryWriter final : public FormatWriter {
 public:
  bool frame(Buffer& out, const Plan& plan, const RunOptions& options, Fault&) const override {
    out.commit_to(wire::put_frame(out.ensure(wire::kMaxFrameBytes), plan.fingerprint,
                                  options.write_fingerprint));
    return true;
  }

  bool put(Buffer& out, const Instr& in, const void* p, std::uint32_t depth_left,
           Fault& f) const override {
    switch (in.op) {
      case Op::Bool: byte(out, *static_cast<const std::uint8_t*>(p) != 0); return true;
      case Op::Float: out.append(p, in.width); return true;
      case Op::UInt: {
        if (in.enc == wire::kFixed) {
          out.append(p, in.width);
          return true;
        }
        std::uint64_t v = 0;
        std::memcpy(&v, p, in.width);
        varuint(out, v);
        return true;
      }
      case Op::Int:
        switch (in.enc) {
          case wire::kFixed: out.append(p, in.width); return true;
          case wire::kCompact: {
            std::int64_t v;
            std::memcpy(&v, p, 8);
            out.commit_to(wire::put_int64_compact(out.ensure(9), v));
            return true;
          }
          default: varuint(out, wire::zigzag(load_signed(p, in.width))); return true;
        }
      case Op::String: {
        const std::string_view s = string_at(*in.type, p);
        varuint(out, s.size());
        out.append(s.data(), s.size());
        return true;
      }
      case Op::Bytes: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(in.type, p);
        varuint(out, n);
        out.append(ops.data(in.type, const_cast<void*>(p)), n);  // data() is only read
        return true;
      }
      case Op::Enum: {
        const std::int64_t v = load_integer(*in.type, p);
        if (!enum_declared(*in.type, v)) {
          return f.set(Errc::unknown_enum,
                       std::to_string(v) + " is not a value of " + in.type->name);
        }
        varuint(out, wire::zigzag(v));
        return true;
      }
      case Op::Decimal: {
        const auto& d = *static_cast<const Decimal*>(p);
        varuint(out, wire::zigzag(d.unscaled));
        varuint(out, wire::zigzag(d.scale));
        return true;
      }
      case Op::Time: {
        std::int64_t ticks, seconds;
        std::uint64_t nanos;
        std::memcpy(&ticks, p, 8);
        split_ticks(ticks, in.type->unit, seconds, nanos);
        varuint(out, wire::zigzag(seconds));
        varuint(out, nanos);
        return true;
      }
      case Op::Dynamic:
        if (wire::write_value(out, *static_cast<const Value*>(p), depth_left) != Errc::ok) {
          return f.set(Errc::depth_exceeded, "value nests deeper than the levels left");
        }
        return true;
      default: return f.set(Errc::invalid_descriptor, "not a binary value");
    }
  }

  void null(Buffer& out) const override { byte(out, wire::kNull); }
  void present(Buffer& out) const override { byte(out, wire::kNotNull); }
  void shared_new(Buffer& out) const override { byte(out, wire::kRefValue); }
  void shared_ref(Buffer& out, std::uint32_t id) const override {
    byte(out, wire::kRef);
    varuint(out, id);
  }

  std::size_t begin_object(Buffer&, const FormatTraits&, bool, std::size_t) const override {
    return 0;
  }
  void field(Buffer&, const PlanField&, bool) const override {}
  void end_object(Buffer&, std::size_t) const override {}

  // A list: its count, and when it has elements, their header. An array: nothing.
  std::size_t begin_list(Buffer& out, const Instr& in, std::size_t n) const override {
    if (in.op == Op::Array) return 0;
    varuint(out, n);
    if (n) byte(out, in.enc);
    return 0;
  }
  void element(Buffer&, std::size_t) const override {}
  void end_list(Buffer&, std::size_t, std::size_t) const override {}
  void begin_map(Buffer& out, const Instr& in, std::size_t n) const override {
    begin_list(out, in, n);
  }
  std::size_t begin_entry(Buffer&, const Instr&, std::size_t) const override { return 0; }
  void entry_value(Buffer&, const Instr&) const override {}
  void end_entry(Buffer&, std::size_t) const override {}
  void end_map(Buffer&, std::size_t) const override {}

 private:
  static void varuint(Buffer& out, std::uint64_t v) {
    out.commit_to(wire::put_varuint(out.ensure(wire::kMaxVarintBytes), v));
  }
  static void byte(Buffer& out, std::uint8_t b) {
    *out.ensure(1) = b;
    out.commit(1);
  }
};

class BinaryReader final : public FormatReader {
 public:
  bool open(std::span<const std::uint8_t> input, std::size_t, Slot*, Fault&) override {
    begin_ = p_ = input.data();
    end_ = input.data() + input.size();
    return true;
  }

  bool frame(const Plan& plan, const RunOptions& options, Fault& f) override {
    const std::uint8_t* at_start = p_;
    std::size_t need = 0;
    const wire::FrameStatus status =
        wire::get_frame(p_, end_, plan.fingerprint, options.require_fingerprint, need);
    switch (status) {
      case wire::FrameStatus::ok: return true;
      case wire::FrameStatus::truncated: return truncated(f, need);
      case wire::FrameStatus::bad_magic:
        return f.set(Errc::bad_header, "not jitser binary (bad magic byte)", at(p_));
      case wire::FrameStatus::bad_flags:
        return f.set(Errc::bad_header,
                     "unsupported version or flags " + std::to_string(at_start[1]), at(p_));
      case wire::FrameStatus::missing_fingerprint:
        return f.set(Errc::fingerprint_mismatch, "input carries no schema fingerprint", at(p_));
      case wire::FrameStatus::other_fingerprint:
        return f.set(
            Errc::fingerprint_mismatch,
            "bytes were written for a different schema of " + display_name(*plan.root_type),
            at(p_));
    }
    return false;
  }

  bool finish(Fault& f) override {
    if (p_ == end_) return true;
    return f.set(Errc::trailing_bytes,
                 std::to_string(end_ - p_) + " bytes after the end of the value", at(p_));
  }

  std::size_t offset(const Slot*) const override { return at(p_); }

  bool get(const Instr& in, Slot*, void* p, std::uint32_t depth_left, Fault& f) override {
    switch (in.op) {
      case Op::Bool: {
        const std::uint8_t* start = p_;
        std::uint8_t b = 0;
        if (!byte(f, b)) return false;
        if (b > 1) return f.set(Errc::invalid_bool, "bool byte " + std::to_string(b), at(start));
        *static_cast<std::uint8_t*>(p) = b;
        return true;
      }
      case Op::Int:
      case Op::UInt:
      case Op::Float:
        switch (in.enc) {
          case wire::kFixed:
            if (remaining() < in.width) return truncated(f, in.width);
            std::memcpy(p, p_, in.width);
            p_ += in.width;
            return true;
          case wire::kCompact: return compact(f, p);
          default: {
            std::uint64_t v;
            if (!varuint(f, in.width * 8u, v)) return false;
            if (in.enc == wire::kZigzag) v = static_cast<std::uint64_t>(wire::unzigzag(v));
            std::memcpy(p, &v, in.width);  // little-endian: the low bytes are the narrow value
            return true;
          }
        }
      case Op::String: {
        std::uint64_t n;
        if (!count(f, 1, n)) return false;
        std::size_t bad = 0;
        if (!valid_utf8(p_, n, &bad)) {
          return f.set(Errc::invalid_utf8, "string is not UTF-8", at(p_ + bad));
        }
        assign_string(in.type->allocator, p, reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return true;
      }
      case Op::Bytes: {
        std::uint64_t n;
        if (!count(f, 1, n)) return false;
        in.type->list_ops->resize(in.type, p, n);
        if (n) std::memcpy(in.type->list_ops->data(in.type, p), p_, n);
        p_ += n;
        return true;
      }
      case Op::Enum: {
        const std::uint8_t* start = p_;
        std::uint64_t raw;
        if (!varuint(f, 64, raw)) return false;
        const std::int64_t v = wire::unzigzag(raw);
        if (!enum_declared(*in.type, v)) {
          return f.set(Errc::unknown_enum,
                       std::to_string(v) + " is not a value of " + in.type->name, at(start));
        }
        std::memcpy(p, &v, in.width);  // little-endian: the low bytes are the narrow value
        return true;
      }
      case Op::Decimal: {
        std::uint64_t unscaled, scale;
        if (!varuint(f, 64, unscaled)) return false;
        const std::uint8_t* start = p_;
        if (!varuint(f, 64, scale)) return false;
        const std::int64_t s = wire::unzigzag(scale);
        if (!wire::scale_fits(s)) {
          return f.set(Errc::out_of_range,
                       "decimal scale " + std::to_string(s) + " does not fit int32", at(start));
        }
        auto& d = *static_cast<Decimal*>(p);
        d.unscaled = wire::unzigzag(unscaled);
        d.scale = static_cast<std::int32_t>(s);
        return true;
      }
      case Op::Time: {
        const std::uint8_t* start = p_;
        std::uint64_t raw_seconds, nanos;
        if (!varuint(f, 64, raw_seconds) || !varuint(f, 32, nanos)) return false;
        if (!wire::nanos_valid(nanos)) {
          return f.set(Errc::out_of_range, "nanoseconds " + std::to_string(nanos) + " of a second",
                       at(start));
        }
        std::int64_t ticks;
        if (!join_ticks(wire::unzigzag(raw_seconds), nanos, in.type->unit, ticks)) {
          return f.set(Errc::out_of_range, "time does not fit a 64-bit count of its unit",
                       at(start));
        }
        std::memcpy(p, &ticks, 8);
        return true;
      }
      case Op::Dynamic: {
        const std::uint8_t* start = p_;
        const Errc e = wire::read_value(&p_, end_, *static_cast<Value*>(p), depth_left);
        if (e == Errc::ok) return true;
        const std::uint8_t* where = p_;
        p_ = start;
        return f.set(e, dynamic_message(e), at(where));
      }
      default: return f.set(Errc::invalid_descriptor, "not a binary value", at(p_));
    }
  }

  bool null(const Instr&, Slot*, bool* is_null, Fault& f) override {
    const std::uint8_t* start = p_;
    std::uint8_t flag = 0;
    if (!byte(f, flag)) return false;
    if (flag != wire::kNull && flag != wire::kNotNull) {
      return f.set(Errc::bad_flag, "null flag " + std::to_string(flag), at(start));
    }
    *is_null = flag == wire::kNull;
    return true;
  }

  bool shared(const Instr&, Slot*, SharedRef* ref, std::uint32_t* id, Fault& f) override {
    const std::uint8_t* start = p_;
    std::uint8_t flag = 0;
    if (!byte(f, flag)) return false;
    switch (flag) {
      case wire::kNull: *ref = SharedRef::Null; return true;
      case wire::kRefValue: *ref = SharedRef::New; return true;
      case wire::kRef: {
        std::uint64_t v;
        if (!varuint(f, 32, v)) return false;
        *ref = SharedRef::Earlier;
        *id = static_cast<std::uint32_t>(v);
        return true;
      }
      default: return f.set(Errc::bad_flag, "reference flag " + std::to_string(flag), at(start));
    }
  }

  // Fields follow each other by position: the interpreter never asks for keys.
  bool begin_object(Slot*, Slot*, Fault& f) override { return unkeyed(f); }
  bool next_field(Slot*, bool*, const char**, std::size_t*, Slot*, Fault& f) override {
    return unkeyed(f);
  }
  bool key_text(const char*, std::string_view*) override { return false; }
  bool skip(Slot*, Fault& f) override { return unkeyed(f); }

  // A list's or map's count comes first, bounded by the bytes left, then (when there are
  // items) the element header the schema gives; an array's count is the schema's. The items
  // follow each other: the interpreter never asks for the next one.
  bool begin_list(const Instr& in, Slot*, std::uint32_t min_item_bytes, Slot*, std::uint64_t* n,
                  Fault& f) override {
    if (in.op == Op::Array) {
      *n = in.count;
      return true;
    }
    return count(f, min_item_bytes, *n) && (*n == 0 || header(in, f));
  }
  bool next_element(Slot*, bool*, Slot*, Fault& f) override { return counted(f); }
  bool next_entry(Slot*, bool*, Slot*, Slot*, Fault& f) override { return counted(f); }
  bool get_key(const Instr& in, Slot* key, void* p, Fault& f) override {
    return get(in, key, p, 0, f);
  }

 private:
  std::size_t at(const std::uint8_t* p) const { return static_cast<std::size_t>(p - begin_); }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }

  bool truncated(Fault& f, std::size_t need) {
    return f.set(
        Errc::truncated,
        "needs " + std::to_string(need) + " bytes, " + std::to_string(remaining()) + " left",
        at(p_));
  }
  static bool unkeyed(Fault& f) {
    return f.set(Errc::invalid_descriptor, "binary objects have no keys");
  }
  static bool counted(Fault& f) {
    return f.set(Errc::invalid_descriptor, "binary lists and maps give their counts first");
  }

  bool varuint(Fault& f, unsigned bits, std::uint64_t& out) {
    const std::uint8_t* start = p_;
    switch (wire::get_varuint(p_, end_, bits, out)) {
      case wire::VarintStatus::ok: return true;
      case wire::VarintStatus::truncated:
        return f.set(Errc::truncated, "input ends inside a varint", at(start));
      case wire::VarintStatus::overlong:
        return f.set(Errc::varint_overlong,
                     "varint longer than a " + std::to_string(bits) + "-bit value needs",
                     at(start));
      case wire::VarintStatus::overflow:
        return f.set(Errc::varint_overflow, "varint does not fit " + std::to_string(bits) + " bits",
                     at(start));
    }
    return false;
  }

  bool byte(Fault& f, std::uint8_t& out) {
    if (p_ == end_) return truncated(f, 1);
    out = *p_++;
    return true;
  }

  // A count of items of at least `min_bytes` each, checked against the bytes that are left
  // before anything is allocated for it.
  bool count(Fault& f, std::size_t min_bytes, std::uint64_t& n) {
    const std::uint8_t* start = p_;
    if (!varuint(f, 64, n)) return false;
    if (!wire::count_fits(n, remaining(), min_bytes)) {
      return f.set(Errc::length_too_large,
                   "count " + std::to_string(n) + " exceeds the " + std::to_string(remaining()) +
                       " bytes left",
                   at(start));
    }
    return true;
  }

  // The element header of a list or map must be the one the schema gives (Instr::enc).
  bool header(const Instr& in, Fault& f) {
    const std::uint8_t* start = p_;
    std::uint8_t h = 0;
    if (!byte(f, h)) return false;
    if (h != in.enc) {
      return f.set(Errc::bad_flag,
                   "element header " + std::to_string(h) + " does not fit elements of type " +
                       display_name(in.type->element->resolved()),
                   at(start));
    }
    return true;
  }

  bool compact(Fault& f, void* p) {
    std::int64_t v = 0;
    std::size_t need = 0;
    switch (wire::get_int64_compact(p_, end_, v, need)) {
      case wire::CompactStatus::ok: std::memcpy(p, &v, 8); return true;
      case wire::CompactStatus::truncated: return truncated(f, need);
      case wire::CompactStatus::bad_tag:
        return f.set(Errc::bad_flag, "compact int64 tag " + std::to_string(p_[0]), at(p_));
      case wire::CompactStatus::overlong:
        return f.set(Errc::varint_overlong, "compact int64 in its long form holds a short value",
                     at(p_));
    }
    return false;
  }

  static std::string dynamic_message(Errc e) {
    switch (e) {
      case Errc::truncated: return "input ends inside a value";
      case Errc::bad_flag: return "not a value type tag";
      case Errc::depth_exceeded: return "value nests deeper than the levels left";
      case Errc::length_too_large: return "count exceeds the bytes left";
      default: return std::string(errc_name(e));
    }
  }

  const std::uint8_t* begin_ = nullptr;
  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* end_ = nullptr;
};

}  // namespace

const FormatWriter& binary_writer() {
  static const BinaryWriter writer;
  return writer;
}

FormatReader* binary_reader(void* storage) { return make_reader<BinaryReader>(storage); }

WriteBound binary_write_bound(const Instr& in) {
  constexpr std::uint32_t kVarint = wire::kMaxVarintBytes;
  switch (in.op) {
    case Op::Frame: return {.fixed = wire::kMaxFrameBytes};
    case Op::Bool: return {.fixed = 1};
    case Op::Int:
    case Op::UInt:
    case Op::Float:
      switch (in.enc) {
        case wire::kFixed: return {.fixed = in.width};
        case wire::kCompact: return {.fixed = 9};
        default: return {.fixed = (in.width * 8u + 6) / 7};
      }
    // jitser_binary_put_string may copy 16 bytes past the string's end.
    case Op::String: return {.fixed = kVarint + 16, .per_byte = 1};
    case Op::Bytes: return {.fixed = kVarint, .per_byte = 1};
    case Op::Enum: return {.fixed = kVarint};
    case Op::Decimal:
    case Op::Time: return {.fixed = 2 * kVarint};
    case Op::List: return {.fixed = kVarint + 1};
    case Op::Shared: return {.fixed = 1 + kVarint};
    default: return {};
  }
}

}  // namespace jitser

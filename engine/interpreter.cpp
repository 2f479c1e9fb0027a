#include "engine/interpreter.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/walker.h"
#include "formats/binary/value_binary.h"
#include "formats/binary/wire.h"
#include "formats/format_table.h"
#include "formats/time_ticks.h"
#include "typeinfo/utf8.h"
#include "typeinfo/value_slot.h"

namespace jitser {
namespace {

using namespace interp;

class Writer : public Walker<Writer, const std::uint8_t*> {
  friend Walker;

 public:
  Writer(const Plan& plan, const RunOptions& options, Buffer& out)
      : Walker(plan, options), out_(out) {}

  Status run_root(const void* object) {
    if (run(plan_.root, static_cast<const std::uint8_t*>(object))) return Status();
    return failure_.status(plan_);
  }

 private:
  bool fail(Errc code, std::string message) {
    failure_.code = code;
    failure_.message = std::move(message);
    return false;
  }

  void varuint(std::uint64_t v) {
    out_.commit_to(wire::put_varuint(out_.ensure(wire::kMaxVarintBytes), v));
  }
  void byte(std::uint8_t b) {
    *out_.ensure(1) = b;
    out_.commit(1);
  }

  bool op(const Instr& in, const std::uint8_t* p) {
    switch (in.op) {
      case Op::Frame: {
        std::uint8_t* o = out_.ensure(10);
        o[0] = wire::kMagic;
        o[1] = wire::kVersion | (options_.write_fingerprint ? wire::kHasFingerprint : 0);
        if (!options_.write_fingerprint) {
          out_.commit(2);
          return true;
        }
        std::memcpy(o + 2, &plan_.fingerprint, 8);
        out_.commit(10);
        return true;
      }
      case Op::Bool: {
        std::uint8_t b = 0;
        std::memcpy(&b, p, 1);
        byte(b != 0);
        return true;
      }
      case Op::Float: out_.append(p, in.width); return true;
      case Op::UInt: {
        if (in.enc == wire::kFixed) {
          out_.append(p, in.width);
          return true;
        }
        std::uint64_t v = 0;
        std::memcpy(&v, p, in.width);
        varuint(v);
        return true;
      }
      case Op::Int: {
        switch (in.enc) {
          case wire::kFixed: out_.append(p, in.width); return true;
          case wire::kCompact: {
            std::int64_t v;
            std::memcpy(&v, p, 8);
            out_.commit_to(wire::put_int64_compact(out_.ensure(9), v));
            return true;
          }
          default: varuint(wire::zigzag(load_signed(p, in.width))); return true;
        }
      }
      case Op::String: {
        const auto& s = *reinterpret_cast<const std::string*>(p);
        varuint(s.size());
        out_.append(s.data(), s.size());
        return true;
      }
      case Op::Bytes: {
        void* list = const_cast<std::uint8_t*>(p);  // data() is only read
        const std::size_t n = in.type->list_ops->size(p);
        varuint(n);
        out_.append(in.type->list_ops->data(list), n);
        return true;
      }
      case Op::Enum: {
        const std::int64_t v = load_enum(*in.type, p);
        if (!enum_declared(*in.type, v)) {
          return fail(Errc::unknown_enum,
                      std::to_string(v) + " is not a value of " + in.type->name);
        }
        varuint(wire::zigzag(v));
        return true;
      }
      case Op::Decimal: {
        const auto& d = *reinterpret_cast<const Decimal*>(p);
        varuint(wire::zigzag(d.unscaled));
        varuint(wire::zigzag(d.scale));
        return true;
      }
      case Op::Time: {
        std::int64_t ticks, seconds;
        std::uint64_t nanos;
        std::memcpy(&ticks, p, 8);
        split_ticks(ticks, in.type->unit, seconds, nanos);
        varuint(wire::zigzag(seconds));
        varuint(nanos);
        return true;
      }
      case Op::Dynamic: {
        if (wire::write_value(out_, *reinterpret_cast<const Value*>(p),
                              options_.max_depth - depth_) != Errc::ok) {
          return fail(Errc::depth_exceeded,
                      "value nests deeper than " + std::to_string(options_.max_depth) + " levels");
        }
        return true;
      }
      case Op::Struct: {
        return nested(in.a, p);
      }
      case Op::Nullable: {
        const void* value = in.type->nullable_ops->get(p);
        if (!value) {
          byte(wire::kNull);
          return true;
        }
        byte(wire::kNotNull);
        return nested(in.a, static_cast<const std::uint8_t*>(value));
      }
      case Op::Shared: {
        const void* object = in.type->shared_ops->get(p);
        if (!object) {
          byte(wire::kNull);
          return true;
        }
        auto [it, first] = refs_.try_emplace({object, in.type->shared_ops},
                                             static_cast<std::uint32_t>(refs_.size()));
        if (!first) {
          byte(wire::kRef);
          varuint(it->second);
          return true;
        }
        byte(wire::kRefValue);
        return nested(in.a, static_cast<const std::uint8_t*>(object));
      }
      case Op::List: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(p);
        varuint(n);
        if (n == 0) return true;
        byte(in.enc);
        if (!ops.data) {  // std::vector<bool>
          std::uint8_t* o = out_.ensure(n);
          for (std::size_t i = 0; i < n; ++i) o[i] = ops.get_bool(p, i);
          out_.commit(n);
          return true;
        }
        const auto* data = static_cast<const std::uint8_t*>(ops.data(const_cast<std::uint8_t*>(p)));
        return elements(in.a, data, element_of(in).size, n);
      }
      case Op::Array: return elements(in.a, p, element_of(in).size, in.count);
      case Op::Map: {
        const MapOps& ops = *in.type->map_ops;
        const std::size_t n = ops.size(p);
        varuint(n);
        if (n == 0) return true;
        byte(in.enc);
        if (!enter()) return false;
        alignas(std::max_align_t) unsigned char cursor[kMapIteratorSize];
        ops.begin(p, cursor);
        const void* key;
        const void* value;
        while (ops.next(cursor, &key, &value)) {
          if (!run(in.a, static_cast<const std::uint8_t*>(key)) ||
              !run(in.b, static_cast<const std::uint8_t*>(value))) {
            failure_.path.push_back(key_text(in.type->key->resolved(), key));
            return false;
          }
        }
        --depth_;
        return true;
      }
      default: break;
    }
    return fail(Errc::invalid_descriptor, "not a binary instruction");
  }

  // Identity is the address and the shared_ptr type: an aliasing shared_ptr of another type
  // at the same address is another object to a reader, so it is written as one.
  struct IdentityHash {
    std::size_t operator()(const std::pair<const void*, const SharedOps*>& k) const {
      return std::hash<const void*>()(k.first) * 31 + std::hash<const void*>()(k.second);
    }
  };
  Buffer& out_;
  std::unordered_map<std::pair<const void*, const SharedOps*>, std::uint32_t, IdentityHash> refs_;
};

class Reader : public Walker<Reader, std::uint8_t*> {
  friend Walker;

 public:
  Reader(const Plan& plan, const RunOptions& options, std::span<const std::uint8_t> input)
      : Walker(plan, options),
        begin_(input.data()),
        p_(input.data()),
        end_(input.data() + input.size()) {}

  ~Reader() {
    // After a failure, objects created by this call may form cycles through shared_ptr that the
    // caller cannot see. Emptying each one breaks them, so dropping the target frees everything.
    if (failure_.code != Errc::ok) {
      for (const SharedObject& r : refs_) r.holder->shared_ops->clear_object(r.object.get());
    }
  }

  Status run_root(void* object) {
    if (!run(plan_.root, static_cast<std::uint8_t*>(object))) return failure_.status(plan_);
    if (p_ != end_) {
      return Status(Errc::trailing_bytes,
                    std::to_string(end_ - p_) + " bytes after the end of the value",
                    static_cast<std::size_t>(p_ - begin_), display_name(*plan_.root_type));
    }
    return Status();
  }

 private:
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }

  bool fail(Errc code, std::string message) { return fail(code, std::move(message), p_); }
  bool fail(Errc code, std::string message, const std::uint8_t* at) {
    failure_.code = code;
    failure_.message = std::move(message);
    failure_.offset = static_cast<std::size_t>(at - begin_);
    return false;
  }
  bool truncated(std::size_t need) {
    return fail(
        Errc::truncated,
        "needs " + std::to_string(need) + " bytes, " + std::to_string(remaining()) + " left", p_);
  }

  bool varuint(unsigned bits, std::uint64_t& out) {
    const std::uint8_t* at = p_;
    switch (wire::get_varuint(p_, end_, bits, out)) {
      case wire::VarintStatus::ok: return true;
      case wire::VarintStatus::truncated:
        return fail(Errc::truncated, "input ends inside a varint", at);
      case wire::VarintStatus::overlong:
        return fail(Errc::varint_overlong,
                    "varint longer than a " + std::to_string(bits) + "-bit value needs", at);
      case wire::VarintStatus::overflow:
        return fail(Errc::varint_overflow, "varint does not fit " + std::to_string(bits) + " bits",
                    at);
    }
    return false;
  }

  bool byte(std::uint8_t& out) {
    if (p_ == end_) return truncated(1);
    out = *p_++;
    return true;
  }

  // A count of items of at least `min_bytes` each, checked against the bytes that are left
  // before anything is allocated for it.
  bool count(std::size_t min_bytes, std::uint64_t& n) {
    const std::uint8_t* at = p_;
    if (!varuint(64, n)) return false;
    const std::uint64_t limit = min_bytes ? remaining() / min_bytes : wire::kMaxEmptyElements;
    if (n > limit) {
      return fail(Errc::length_too_large,
                  "count " + std::to_string(n) + " exceeds the " + std::to_string(remaining()) +
                      " bytes left",
                  at);
    }
    return true;
  }

  // The element header of a list or map must be the one the schema gives (Instr::enc).
  bool header(const Instr& in) {
    const std::uint8_t* at = p_;
    std::uint8_t h = 0;
    if (!byte(h)) return false;
    if (h != in.enc) {
      return fail(Errc::bad_flag,
                  "element header " + std::to_string(h) + " does not fit elements of type " +
                      display_name(element_of(in)),
                  at);
    }
    return true;
  }

  std::string dynamic_message(Errc e) const {
    switch (e) {
      case Errc::truncated: return "input ends inside a value";
      case Errc::bad_flag: return "not a value type tag";
      case Errc::depth_exceeded:
        return "value nests deeper than " + std::to_string(options_.max_depth) + " levels";
      case Errc::length_too_large: return "count exceeds the bytes left";
      default: return std::string(errc_name(e));
    }
  }

  bool fixed(const Instr& in, std::uint8_t* p) {
    if (remaining() < in.width) return truncated(in.width);
    std::memcpy(p, p_, in.width);
    p_ += in.width;
    return true;
  }

  bool compact(std::uint8_t* p) {
    if (remaining() < 4) return truncated(4);
    std::int64_t v;
    if (!(p_[0] & 1)) {
      std::uint32_t raw;
      std::memcpy(&raw, p_, 4);
      v = static_cast<std::int32_t>(raw) >> 1;
      p_ += 4;
    } else {
      if (p_[0] != 0x01)
        return fail(Errc::bad_flag, "compact int64 tag " + std::to_string(p_[0]), p_);
      if (remaining() < 9) return truncated(9);
      std::memcpy(&v, p_ + 1, 8);
      if (v >= -(std::int64_t{1} << 30) && v < (std::int64_t{1} << 30)) {
        return fail(Errc::varint_overlong, "compact int64 in its long form holds a short value",
                    p_);
      }
      p_ += 9;
    }
    std::memcpy(p, &v, 8);
    return true;
  }

  bool op(const Instr& in, std::uint8_t* p) {
    switch (in.op) {
      case Op::Frame: {
        if (remaining() < 2) return truncated(2);
        if (p_[0] != wire::kMagic)
          return fail(Errc::bad_header, "not jitser binary (bad magic byte)", p_);
        const std::uint8_t flags = p_[1];
        if ((flags & wire::kVersionMask) != wire::kVersion ||
            (flags & ~(wire::kVersionMask | wire::kHasFingerprint))) {
          return fail(Errc::bad_header, "unsupported version or flags " + std::to_string(flags),
                      p_ + 1);
        }
        p_ += 2;
        if (!(flags & wire::kHasFingerprint)) {
          if (options_.require_fingerprint) {
            return fail(Errc::fingerprint_mismatch, "input carries no schema fingerprint", p_);
          }
          return true;
        }
        if (remaining() < 8) return truncated(8);
        std::uint64_t fp;
        std::memcpy(&fp, p_, 8);
        if (fp != plan_.fingerprint) {
          return fail(
              Errc::fingerprint_mismatch,
              "bytes were written for a different schema of " + display_name(*plan_.root_type), p_);
        }
        p_ += 8;
        return true;
      }
      case Op::Bool: {
        const std::uint8_t* at = p_;
        std::uint8_t b = 0;
        if (!byte(b)) return false;
        if (b > 1) return fail(Errc::invalid_bool, "bool byte " + std::to_string(b), at);
        *p = b;
        return true;
      }
      case Op::Int:
      case Op::UInt:
      case Op::Float:
        switch (in.enc) {
          case wire::kFixed: return fixed(in, p);
          case wire::kCompact: return compact(p);
          default: {
            std::uint64_t v;
            if (!varuint(in.width * 8u, v)) return false;
            if (in.enc == wire::kZigzag) v = static_cast<std::uint64_t>(wire::unzigzag(v));
            std::memcpy(p, &v, in.width);  // little-endian: the low bytes are the narrow value
            return true;
          }
        }
      case Op::String: {
        std::uint64_t n;
        if (!count(1, n)) return false;
        std::size_t bad = 0;
        if (!valid_utf8(p_, n, &bad))
          return fail(Errc::invalid_utf8, "string is not UTF-8", p_ + bad);
        reinterpret_cast<std::string*>(p)->assign(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return true;
      }
      case Op::Bytes: {
        std::uint64_t n;
        if (!count(1, n)) return false;
        in.type->list_ops->resize(p, n);
        if (n) std::memcpy(in.type->list_ops->data(p), p_, n);
        p_ += n;
        return true;
      }
      case Op::Enum: {
        const std::uint8_t* at = p_;
        std::uint64_t raw;
        if (!varuint(64, raw)) return false;
        const std::int64_t v = wire::unzigzag(raw);
        if (!enum_declared(*in.type, v)) {
          return fail(Errc::unknown_enum, std::to_string(v) + " is not a value of " + in.type->name,
                      at);
        }
        std::memcpy(p, &v, in.width);  // little-endian: the low bytes are the narrow value
        return true;
      }
      case Op::Decimal: {
        std::uint64_t unscaled, scale;
        if (!varuint(64, unscaled)) return false;
        const std::uint8_t* at = p_;
        if (!varuint(64, scale)) return false;
        const std::int64_t s = wire::unzigzag(scale);
        if (s < std::numeric_limits<std::int32_t>::min() ||
            s > std::numeric_limits<std::int32_t>::max()) {
          return fail(Errc::out_of_range,
                      "decimal scale " + std::to_string(s) + " does not fit int32", at);
        }
        auto& d = *reinterpret_cast<Decimal*>(p);
        d.unscaled = wire::unzigzag(unscaled);
        d.scale = static_cast<std::int32_t>(s);
        return true;
      }
      case Op::Time: {
        const std::uint8_t* at = p_;
        std::uint64_t raw_seconds, nanos;
        if (!varuint(64, raw_seconds) || !varuint(32, nanos)) return false;
        if (nanos >= 1000000000)
          return fail(Errc::out_of_range, "nanoseconds " + std::to_string(nanos) + " of a second",
                      at);
        std::int64_t ticks;
        if (!join_ticks(wire::unzigzag(raw_seconds), nanos, in.type->unit, ticks)) {
          return fail(Errc::out_of_range, "time does not fit a 64-bit count of its unit", at);
        }
        std::memcpy(p, &ticks, 8);
        return true;
      }
      case Op::Dynamic: {
        const std::uint8_t* at = p_;
        const Errc e =
            wire::read_value(&p_, end_, *reinterpret_cast<Value*>(p), options_.max_depth - depth_);
        if (e == Errc::ok) return true;
        const std::uint8_t* where = p_;
        p_ = at;
        return fail(e, dynamic_message(e), where);
      }
      case Op::Struct: {
        return nested(in.a, p);
      }
      case Op::Nullable: {
        const std::uint8_t* at = p_;
        std::uint8_t flag = 0;
        if (!byte(flag)) return false;
        const NullableOps& ops = *in.type->nullable_ops;
        if (flag == wire::kNull) {
          ops.reset(p);
          return true;
        }
        if (flag != wire::kNotNull)
          return fail(Errc::bad_flag, "null flag " + std::to_string(flag), at);
        return nested(in.a, static_cast<std::uint8_t*>(ops.fill(p)));
      }
      case Op::Shared: {
        const std::uint8_t* at = p_;
        std::uint8_t flag = 0;
        if (!byte(flag)) return false;
        const SharedOps& ops = *in.type->shared_ops;
        switch (flag) {
          case wire::kNull: ops.reset(p); return true;
          case wire::kRef: {
            std::uint64_t id;
            if (!varuint(32, id)) return false;
            if (id >= refs_.size()) {
              return fail(Errc::bad_reference,
                          "reference " + std::to_string(id) + " but only " +
                              std::to_string(refs_.size()) + " objects read",
                          at);
            }
            // The object must have been read as this very shared_ptr type: anything else would
            // point this field at an object of another layout.
            const SharedObject& r = refs_[id];
            if (r.holder->shared_ops != &ops) {
              return fail(Errc::bad_reference,
                          "reference " + std::to_string(id) + " is to a " +
                              display_name(*r.holder) + ", not a " + display_name(*in.type),
                          at);
            }
            ops.assign(p, r.object);
            return true;
          }
          case wire::kRefValue: {
            auto* object = static_cast<std::uint8_t*>(ops.emplace(p));
            refs_.push_back({ops.share(p), in.type});  // before its fields: they may refer back
            return nested(in.a, object);
          }
          default: return fail(Errc::bad_flag, "reference flag " + std::to_string(flag), at);
        }
      }
      case Op::List: {
        const ListOps& ops = *in.type->list_ops;
        std::uint64_t n;
        if (!count(plan_.routines[in.a].min_wire_bytes, n)) return false;
        if (n == 0) {
          ops.resize(p, 0);
          return true;
        }
        if (!header(in)) return false;
        ops.resize(p, n);
        if (!ops.data) {  // std::vector<bool>
          for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* at = p_;
            std::uint8_t b = 0;
            if (!byte(b)) return false;
            if (b > 1) return fail(Errc::invalid_bool, "bool byte " + std::to_string(b), at);
            ops.set_bool(p, i, b);
          }
          return true;
        }
        return elements(in.a, static_cast<std::uint8_t*>(ops.data(p)), element_of(in).size, n);
      }
      case Op::Array: return elements(in.a, p, element_of(in).size, in.count);
      case Op::Map: {
        const MapOps& ops = *in.type->map_ops;
        const std::uint32_t min_entry =
            plan_.routines[in.a].min_wire_bytes + plan_.routines[in.b].min_wire_bytes;
        std::uint64_t n;
        if (!count(min_entry, n)) return false;
        ops.clear(p);
        if (n == 0) return true;
        if (!header(in) || !enter()) return false;
        const TypeDesc& key_type = in.type->key->resolved();
        for (std::uint64_t i = 0; i < n; ++i) {
          ValueSlot key(key_type);
          const std::uint8_t* at = p_;
          if (!run(in.a, static_cast<std::uint8_t*>(key.get()))) {
            failure_.path.push_back("[#" + std::to_string(i) + "]");
            return false;
          }
          // The key's text is only made on failure: it is part of the path, not of the work.
          const void* stored_key = nullptr;
          void* value = ops.insert(p, key.get(), &stored_key);
          if (!value) {
            failure_.path.push_back(key_text(key_type, key.get()));
            return fail(Errc::duplicate_key, "the key appears twice", at);
          }
          if (!run(in.b, static_cast<std::uint8_t*>(value))) {
            failure_.path.push_back(key_text(key_type, stored_key));
            return false;
          }
        }
        --depth_;
        return true;
      }
      default: break;
    }
    return fail(Errc::invalid_descriptor, "not a binary instruction", p_);
  }

  const std::uint8_t* begin_;
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  // Objects read through shared_ptr fields, by reference id, with the type they were read as.
  struct SharedObject {
    std::shared_ptr<void> object;
    const TypeDesc* holder;
  };
  std::vector<SharedObject> refs_;
};

}  // namespace

Status interpret_binary_serialize(const Plan& plan, const RunOptions& options, const void* object,
                                  Buffer& out) {
  return Writer(plan, options, out).run_root(object);
}

Status interpret_binary_deserialize(const Plan& plan, const RunOptions& options,
                                    std::span<const std::uint8_t> input, void* object) {
  return Reader(plan, options, input).run_root(object);
}

Status interpret_serialize(const Plan& plan, const RunOptions& options, const void* object,
                           Buffer& out) {
  Status s;
  switch (plan.format) {
    case Format::Binary: s = interpret_binary_serialize(plan, options, object, out); break;
    case Format::Json: s = interpret_json_serialize(plan, options, object, out); break;
  }
  if (s.ok()) {
    if (auto finish = format_entry(plan.format).finish_write) finish(options, out);
  }
  return s;
}

Status interpret_deserialize(const Plan& plan, const RunOptions& options,
                             std::span<const std::uint8_t> input, std::size_t padding,
                             void* object) {
  switch (plan.format) {
    case Format::Binary: return interpret_binary_deserialize(plan, options, input, object);
    case Format::Json: return interpret_json_deserialize(plan, options, input, padding, object);
  }
  return Status(Errc::invalid_descriptor, "unknown format");
}

}  // namespace jitser

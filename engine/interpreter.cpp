// The one interpreter: walks a Plan over the user's object and calls the format's operations
// (formats/ops.h) for its bytes. What every format shares is written here once: nesting depth,
// field paths, shared objects, keyed-object dispatch (the field expected next tried first, a
// bitset of fields seen, defaults for missing fields, strict mode), lists that grow or are
// sized by their count, maps.
#include "engine/interpreter.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/field_default.h"
#include "formats/format_table.h"
#include "formats/ops.h"
#include "typeinfo/integers.h"
#include "typeinfo/map_refill.h"
#include "typeinfo/memory.h"
#include "typeinfo/strings.h"

namespace jitser {
namespace {

const TypeDesc& element_of(const Instr& in) { return in.type->element->resolved(); }

// Text between an opening and a closing piece (a field path's "[12]"), appended piece by piece:
// GCC 12 at -O3 warns falsely (-Wrestrict) of a literal put in front of a temporary string
// ("[" + std::to_string(i)).
std::string bracketed(std::string_view open, std::string_view text, std::string_view close) {
  std::string piece(open);
  piece += text;
  piece += close;
  return piece;
}

// A map key in a field path: ["text"] or [12].
std::string key_text(const TypeDesc& key, const void* p) {
  if (key.kind == Kind::String) {
    return bracketed("[\"", string_at(key, p), "\"]");
  }
  if (is_unsigned(key.kind == Kind::Enum ? key.underlying : key.kind)) {
    return bracketed("[", std::to_string(static_cast<std::uint64_t>(load_integer(key, p))), "]");
  }
  return bracketed("[", std::to_string(load_integer(key, p)), "]");
}

// One bool of a std::vector<bool>, as the format reads and writes a Bool field.
constexpr Instr kBoolElement{.op = Op::Bool, .width = 1};

// What the Writer and the Reader share: the failure gathered while unwinding (each level adds
// its piece of the field path on the way out, so the hot path never builds a path), and the
// nesting depth.
class Walk {
 public:
  Walk(const Plan& plan, const RunOptions& options) : plan_(plan), options_(options) {}

 protected:
  Status status() const {
    std::string joined = display_name(*plan_.root_type);
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) joined += *it;
    return Status(fault_.code, fault_.message, fault_.offset, std::move(joined));
  }

  bool field_failed(const Instr& in) {
    if (in.field != kNoField) path_.push_back("." + plan_.fields[in.field].name);
    return false;
  }
  bool element_failed(std::size_t i) {
    path_.push_back(bracketed("[", std::to_string(i), "]"));
    return false;
  }

  // One level deeper; `offset` says where, should that be too deep.
  template <class Offset>
  bool enter(Offset&& offset) {
    if (++depth_ > options_.max_depth) {
      return fault_.set(Errc::depth_exceeded,
                        "nesting deeper than " + std::to_string(options_.max_depth) + " levels",
                        offset());
    }
    return true;
  }
  void leave() { --depth_; }

  // Two fields of one oneof holding a value fail at the second, in both directions.
  bool oneofs_ok(const Routine& routine, const std::uint8_t* base, std::size_t offset) {
    if (!routine.oneofs) return true;
    const FieldDesc* second = oneof_conflict(*routine.type, base);
    if (!second) return true;
    path_.push_back("." + (second->cpp_name.empty() ? second->name : second->cpp_name));
    return fault_.set(Errc::oneof_conflict,
                      "a second field of oneof '" + second->oneof + "' holds a value", offset);
  }
  // A dynamic value that nests too deep fails with the message of every depth failure.
  bool value_failed() {
    if (fault_.code == Errc::depth_exceeded) {
      fault_.message = "nesting deeper than " + std::to_string(options_.max_depth) + " levels";
    }
    return false;
  }
  std::uint32_t depth_left() const { return options_.max_depth - depth_; }

  const Plan& plan_;
  const RunOptions& options_;
  // Fields have keys; items of count-prefixed containers follow each other with nothing
  // between them (the format is not asked for separators, nor for the next item).
  const bool keyed_ = plan_.traits.keyed_objects;
  const bool counted_ = plan_.traits.containers == FormatTraits::Containers::CountPrefixed;
  std::uint32_t depth_ = 0;
  Fault fault_;
  std::vector<std::string> path_;  // innermost first
};

class Writer : Walk {
 public:
  Writer(const Plan& plan, const RunOptions& options, const FormatWriter& ops, Buffer& out)
      : Walk(plan, options), ops_(ops), out_(out) {}

  Status run_root(const void* object) {
    if (run(plan_.root, static_cast<const std::uint8_t*>(object))) return Status();
    return status();
  }

 private:
  bool run(std::uint32_t r, const std::uint8_t* base) {
    const Routine& routine = plan_.routines[r];
    if (routine.object) return object(routine, base);
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      if (!op(in, base + in.offset)) return field_failed(in);
    }
    return true;
  }

  // Runs routine r one level deeper.
  bool nested(std::uint32_t r, const std::uint8_t* base) {
    if (!enter([] { return Status::kNoOffset; })) return false;
    const bool ok = run(r, base);
    leave();
    return ok;
  }

  // Whether the field of `in` is written, as the options and the field's flags say.
  bool written(const Instr& in, const std::uint8_t* base) const {
    const PlanField& field = plan_.fields[in.field];
    const std::uint8_t* slot = base + in.offset;
    // The rule is out of line: ask it only where some field may be left out.
    const bool may_omit = options_.omit_null || options_.omit_default || field.omit_empty;
    if (keyed_ && may_omit &&
        left_out(*field.desc, slot, options_.omit_null, options_.omit_default, field.omit_empty)) {
      return false;
    }
    return !(field.omit_absent && equals_absent(*field.desc, slot));
  }

  bool object(const Routine& routine, const std::uint8_t* base) {
    if (!oneofs_ok(routine, base, Status::kNoOffset)) return false;
    // Formats that state an object's count of fields first learn it before any is written.
    std::size_t fields = 0;
    if (plan_.traits.counted_objects) {
      for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
        fields += written(plan_.code[i], base);
      }
    }
    const std::size_t mark =
        ops_.begin_object(out_, plan_.traits, std::exchange(root_, false), fields);
    bool first = true;
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      const PlanField& field = plan_.fields[in.field];
      const std::uint8_t* slot = base + in.offset;
      if (!written(in, base)) continue;
      if (field.key_per_item) {
        item_key_ = &field;  // taken by the list or map the instruction writes
      } else if (keyed_) {
        ops_.field(out_, field, first);
      }
      first = false;
      if (!op(in, slot)) return field_failed(in);
    }
    ops_.end_object(out_, mark);
    return true;
  }

  bool op(const Instr& in, const std::uint8_t* p) {
    switch (in.op) {
      case Op::Frame: return ops_.frame(out_, plan_, options_, fault_);
      case Op::Struct: return nested(in.a, p);
      case Op::Nullable: {
        const void* held = in.type->nullable_ops->get(in.type, p);
        if (!held) {
          ops_.null(out_);
          return true;
        }
        ops_.present(out_);
        return nested(in.a, static_cast<const std::uint8_t*>(held));
      }
      case Op::Shared: return shared(in, p);
      case Op::List: {
        const ListOps& ops = *in.type->list_ops;
        const std::size_t n = ops.size(in.type, p);
        if (!ops.data) {  // std::vector<bool>
          return list(in, n, [&](std::size_t i) {
            const bool b = ops.get_bool(in.type, p, i);
            return ops_.put(out_, kBoolElement, &b, 0, fault_);
          });
        }
        const auto* data =
            static_cast<const std::uint8_t*>(ops.data(in.type, const_cast<std::uint8_t*>(p)));
        const std::size_t stride = element_of(in).size;
        return list(in, n, [&](std::size_t i) { return run(in.a, data + i * stride); });
      }
      case Op::Array: {
        const std::size_t stride = element_of(in).size;
        return list(in, in.count, [&](std::size_t i) { return run(in.a, p + i * stride); });
      }
      case Op::Map: return map(in, p);
      default: return ops_.put(out_, in, p, depth_left(), fault_) || value_failed();
    }
  }

  template <class Each>
  bool list(const Instr& in, std::size_t n, Each&& each) {
    const PlanField* item_key = std::exchange(item_key_, nullptr);
    if (!enter([] { return Status::kNoOffset; })) return false;
    const std::size_t mark = ops_.begin_list(out_, in, n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!counted_) ops_.element(out_, i);
      if (item_key) ops_.field(out_, *item_key, false);
      if (!each(i)) return element_failed(i);
    }
    ops_.end_list(out_, n, mark);
    leave();
    return true;
  }

  bool map(const Instr& in, const std::uint8_t* p) {
    const MapOps& ops = *in.type->map_ops;
    const std::size_t n = ops.size(in.type, p);
    const PlanField* item_key = std::exchange(item_key_, nullptr);
    if (!enter([] { return Status::kNoOffset; })) return false;
    ops_.begin_map(out_, in, n);
    alignas(std::max_align_t) unsigned char cursor[kMapIteratorSize];
    ops.begin(in.type, p, cursor);
    const void* key;
    const void* value;
    for (std::size_t i = 0; ops.next(in.type, cursor, &key, &value); ++i) {
      if (item_key) ops_.field(out_, *item_key, false);
      const std::size_t mark = counted_ ? 0 : ops_.begin_entry(out_, in, i);
      if (!run(in.a, static_cast<const std::uint8_t*>(key))) {
        path_.push_back(key_text(in.type->key->resolved(), key));
        return false;
      }
      if (!counted_) ops_.entry_value(out_, in);
      if (!run(in.b, static_cast<const std::uint8_t*>(value))) {
        path_.push_back(key_text(in.type->key->resolved(), key));
        return false;
      }
      if (!counted_) ops_.end_entry(out_, mark);
    }
    ops_.end_map(out_, n);
    leave();
    return true;
  }

  // Formats that keep identity write an object once and refer to it after; the others write a
  // copy wherever it appears, and one that contains itself would never end.
  bool shared(const Instr& in, const std::uint8_t* p) {
    const void* object = in.type->shared_ops->get(in.type, p);
    if (!object) {
      ops_.null(out_);
      return true;
    }
    if (plan_.traits.shared_identity) {
      auto [it, first] = refs_.try_emplace({object, in.type->shared_ops},
                                           static_cast<std::uint32_t>(refs_.size()));
      if (!first) {
        ops_.shared_ref(out_, it->second);
        return true;
      }
      ops_.shared_new(out_);
      return nested(in.a, static_cast<const std::uint8_t*>(object));
    }
    if (std::find(open_.begin(), open_.end(), object) != open_.end()) {
      return fault_.set(Errc::cycle, "a shared " + display_name(*in.type->element) +
                                         " contains itself, and " + format_name(plan_.format) +
                                         " writes no cycles");
    }
    open_.push_back(object);
    ops_.present(out_);
    const bool ok = nested(in.a, static_cast<const std::uint8_t*>(object));
    open_.pop_back();
    return ok;
  }

  // Identity is the address and the shared_ptr type: an aliasing shared_ptr of another type
  // at the same address is another object to a reader, so it is written as one.
  struct IdentityHash {
    std::size_t operator()(const std::pair<const void*, const SharedOps*>& k) const {
      return std::hash<const void*>()(k.first) * 31 + std::hash<const void*>()(k.second);
    }
  };
  const FormatWriter& ops_;
  Buffer& out_;
  bool root_ = true;                     // the next object begun is the document's value
  const PlanField* item_key_ = nullptr;  // the field whose key goes before each item
  std::unordered_map<std::pair<const void*, const SharedOps*>, std::uint32_t, IdentityHash> refs_;
  std::vector<const void*> open_;  // shared objects being written as copies, outermost first
};

class Reader : Walk {
 public:
  Reader(const Plan& plan, const RunOptions& options, FormatReader& ops)
      : Walk(plan, options), ops_(ops) {}

  ~Reader() {
    // After a failure, objects created by this call may form cycles through shared_ptr that the
    // caller cannot see. Emptying each one breaks them, so dropping the target frees everything.
    if (fault_.code != Errc::ok) {
      for (const SharedObject& r : refs_)
        r.holder->shared_ops->clear_object(r.holder, r.object.get());
    }
  }

  Status run_root(std::span<const std::uint8_t> input, std::size_t padding, void* object) {
    resource_ = memory_resource_of(*plan_.root_type, object);
    Slot root;
    if (!ops_.open(input, padding, &root, fault_) ||
        !run(plan_.root, static_cast<std::uint8_t*>(object), &root) || !ops_.finish(fault_)) {
      return status();
    }
    return Status();
  }

 private:
  // Runs routine r on `v`, the value the routine reads: the whole of it for a struct in a keyed
  // format, and in a positional one the place where its fields follow each other. `merge`:
  // the object was read before (FormatTraits::repeated_keys), and what it holds stays.
  bool run(std::uint32_t r, std::uint8_t* base, Slot* v, bool merge = false) {
    const Routine& routine = plan_.routines[r];
    if (routine.object && keyed_) {
      return keyed_object(routine, base, v, merge) && oneofs_ok(routine, base, ops_.offset(v));
    }
    // Formats that count a positional object's fields state how many before the first.
    const bool counted = routine.object && plan_.traits.counted_objects;
    Slot it;
    if (counted && !ops_.begin_fields(v, &it, routine.end - routine.begin, fault_)) return false;
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      if (!op(in, base + in.offset, v)) return field_failed(in);
    }
    if (counted && !ops_.end_fields(&it, fault_)) return false;
    return oneofs_ok(routine, base, ops_.offset(v));
  }

  bool nested(std::uint32_t r, std::uint8_t* base, Slot* v, bool merge = false) {
    if (!enter([&] { return ops_.offset(v); })) return false;
    const bool ok = run(r, base, v, merge);
    leave();
    return ok;
  }

  // Which field of the routine a raw key names: the expected one (fields in declaration order
  // match on the first compare), then the others, then, for a key written with escapes, by its
  // text. -1: none; -2: a malformed key.
  int field_index(const Routine& routine, std::uint32_t expected, const char* raw) {
    const std::uint32_t n = routine.end - routine.begin;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t i = (expected + k) % n;
      const std::string& match = plan_.fields[plan_.code[routine.begin + i].field].match;
      if (std::memcmp(raw, match.data(), match.size()) == 0) return static_cast<int>(i);
    }
    std::string_view text;
    if (!ops_.key_text(raw, &text)) return -2;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (names_field(*plan_.fields[plan_.code[routine.begin + i].field].desc, text)) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  bool keyed_object(const Routine& routine, std::uint8_t* base, Slot* v, bool merge) {
    const std::uint32_t n = routine.end - routine.begin;
    // Formats with repeated keys: the items each list or array field holds so far (on the
    // stack for all but the widest structs, made at the first such field), and the refill of
    // each map field.
    std::size_t inline_items[32];
    std::vector<std::size_t> heap_items;
    std::size_t* items = nullptr;
    std::unique_ptr<std::optional<MapRefill>[]> refills;
    // Which fields were read: a bitset on the stack for all but the widest structs.
    std::uint64_t inline_words[2] = {};
    std::vector<std::uint64_t> heap_words;
    std::uint64_t* seen = inline_words;
    if (n > 128) {
      heap_words.assign((n + 63) / 64, 0);
      seen = heap_words.data();
    }
    auto was_seen = [&](std::uint32_t i) { return (seen[i / 64] >> (i % 64) & 1) != 0; };
    Slot it, value;
    if (!ops_.begin_object(v, &it, fault_)) return false;
    std::uint32_t expected = 0;
    for (;;) {
      bool more = false;
      const char* raw = nullptr;
      std::size_t key_at = 0;
      if (!ops_.next_field(&it, &more, &raw, &key_at, &value, fault_)) return false;
      if (!more) break;
      const int i = field_index(routine, expected, raw);
      if (i == -2) return fault_.set(Errc::syntax_error, "malformed key", key_at);
      if (i < 0) {
        if (options_.strict) {
          std::string_view name;
          (void)ops_.key_text(raw, &name);
          return fault_.set(Errc::unknown_field,
                            bracketed("\"", name, "\" is not a field of ") + routine.type->name,
                            key_at);
        }
        if (!ops_.skip(&value, fault_)) return false;
        continue;
      }
      const Instr& in = plan_.code[routine.begin + i];
      const bool again = was_seen(static_cast<std::uint32_t>(i));
      if (again && !repeated_) {
        field_failed(in);
        return fault_.set(Errc::duplicate_key, "the field appears twice", key_at);
      }
      seen[i / 64] |= std::uint64_t{1} << (i % 64);
      // A key that comes once per item is likely to come again next.
      expected = static_cast<std::uint32_t>(i) + (plan_.fields[in.field].key_per_item ? 0 : 1);
      std::uint8_t* p = base + in.offset;
      bool ok;
      if (repeated_ && (in.op == Op::List || in.op == Op::Array)) {
        if (!items) {
          if (n > std::size(inline_items)) heap_items.resize(n);
          items = n > std::size(inline_items) ? heap_items.data() : inline_items;
          std::fill(items, items + n, kNotStarted);
        }
        std::size_t& count = items[static_cast<std::size_t>(i)];
        if (count == kNotStarted) count = merge ? held_items(in, p) : 0;
        ok = more_items(in, p, &value, count);
      } else if (repeated_ && in.op == Op::Map) {
        // Read into afresh, a map's entries are refilled from the first appearance to the
        // object's end; merged into, it keeps what it holds.
        MapRefill* refill = nullptr;
        if (!merge) {
          if (!refills) refills = std::make_unique<std::optional<MapRefill>[]>(n);
          std::optional<MapRefill>& r = refills[static_cast<std::size_t>(i)];
          if (!r) r.emplace(*in.type, p, UINT64_MAX);
          refill = &*r;
        }
        ok = map(in, p, &value, refill);
      } else {
        ok = op(in, p, &value, again || merge);
      }
      if (!ok) return field_failed(in);
      if (repeated_ && routine.oneofs)
        drop_alternatives(routine, static_cast<std::uint32_t>(i), base);
    }
    // Containers that gained items from each appearance keep those read, and no more.
    for (std::uint32_t i = 0; items && i < n; ++i) {
      if (items[i] == kNotStarted) continue;
      const Instr& in = plan_.code[routine.begin + i];
      if (!items_end(in, base + in.offset, items[i], v)) return field_failed(in);
    }
    if (merge) return true;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (was_seen(i)) continue;
      const Instr& in = plan_.code[routine.begin + i];
      const PlanField& field = plan_.fields[in.field];
      if (field.required) {
        field_failed(in);
        return fault_.set(Errc::missing_field,
                          "required field \"" + field.desc->name + "\" is missing", ops_.offset(v));
      }
      apply_absent(*field.desc, base + in.offset);
    }
    return true;
  }

  // Formats with repeated keys: a field of a oneof just read empties the others of its group,
  // as the last of them to come wins.
  void drop_alternatives(const Routine& routine, std::uint32_t read, std::uint8_t* base) {
    const std::string& group = plan_.fields[plan_.code[routine.begin + read].field].desc->oneof;
    if (group.empty()) return;
    for (std::uint32_t k = 0; k < routine.end - routine.begin; ++k) {
      const Instr& other = plan_.code[routine.begin + k];
      if (k == read || plan_.fields[other.field].desc->oneof != group) continue;
      if (other.op == Op::Shared) {
        other.type->shared_ops->reset(other.type, base + other.offset);
      } else {
        other.type->nullable_ops->reset(other.type, base + other.offset);
      }
    }
  }

  // Formats with repeated keys: the items a list or array holds already, to which a merge
  // adds; items read in each appearance of the field, from index `count` on; and the end,
  // which cuts a list to the items read and wants an array full.
  static constexpr std::size_t kNotStarted = static_cast<std::size_t>(-1);
  std::size_t held_items(const Instr& in, const std::uint8_t* p) const {
    return in.op == Op::Array ? in.count : in.type->list_ops->size(in.type, p);
  }
  bool more_items(const Instr& in, std::uint8_t* p, Slot* v, std::size_t& count) {
    if (!enter([&] { return ops_.offset(v); })) return false;
    Slot it, element;
    std::uint64_t stated = 0;
    if (!ops_.begin_list(in, v, plan_.routines[in.a].min_wire_bytes, &it, &stated, fault_)) {
      return false;
    }
    const std::size_t stride = element_of(in).size;
    for (;; ++count) {
      bool more = false;
      if (!ops_.next_element(&it, &more, &element, fault_)) return element_failed(count);
      if (!more) break;
      if (in.op == Op::Array) {
        if (count >= in.count) {
          return too_many(in, &element);
        }
        if (!run(in.a, p + count * stride, &element)) return element_failed(count);
        continue;
      }
      const ListOps& ops = *in.type->list_ops;
      const std::size_t have = ops.size(in.type, p);
      if (count >= have) ops.resize(in.type, p, std::max<std::size_t>(count + 1, have * 2));
      if (!ops.data) {  // std::vector<bool>
        bool b = false;
        if (!ops_.get(kBoolElement, &element, &b, 0, fault_)) return element_failed(count);
        ops.set_bool(in.type, p, count, b);
        continue;
      }
      auto* data = static_cast<std::uint8_t*>(ops.data(in.type, p));
      if (!run(in.a, data + count * stride, &element)) return element_failed(count);
    }
    leave();
    return true;
  }
  bool items_end(const Instr& in, std::uint8_t* p, std::size_t count, Slot* v) {
    if (in.op == Op::List) {
      in.type->list_ops->resize(in.type, p, count);
      return true;
    }
    return count == in.count || too_few(in, count, v);
  }
  // An array's elements must be as many as its type has.
  bool too_many(const Instr& in, const Slot* element) {
    return fault_.set(
        Errc::out_of_range,
        "more than the " + std::to_string(in.count) + " elements of " + display_name(*in.type),
        ops_.offset(element));
  }
  bool too_few(const Instr& in, std::size_t n, const Slot* v) {
    return fault_.set(Errc::out_of_range,
                      std::to_string(n) + " elements for the " + std::to_string(in.count) + " of " +
                          display_name(*in.type),
                      ops_.offset(v));
  }

  // `again`: formats with repeated keys read this field before; an object merges.
  bool op(const Instr& in, std::uint8_t* p, Slot* v, bool again = false) {
    switch (in.op) {
      case Op::Frame: return ops_.frame(plan_, options_, fault_);
      case Op::Struct: return nested(in.a, p, v, again);
      case Op::Nullable: {
        const NullableOps& ops = *in.type->nullable_ops;
        bool is_null = false;
        if (!ops_.null(in, v, &is_null, fault_)) return false;
        if (is_null) {
          ops.reset(in.type, p);
          return true;
        }
        const bool merge = again && ops.get(in.type, p) != nullptr;
        return nested(in.a, static_cast<std::uint8_t*>(ops.fill(in.type, p)), v, merge);
      }
      case Op::Shared: return shared(in, p, v);
      case Op::List: return list(in, p, v);
      case Op::Array: return array(in, p, v);
      case Op::Map: return map(in, p, v);
      default: return ops_.get(in, v, p, depth_left(), fault_) || value_failed();
    }
  }

  bool shared(const Instr& in, std::uint8_t* p, Slot* v) {
    const SharedOps& ops = *in.type->shared_ops;
    const std::size_t at = ops_.offset(v);
    SharedRef ref = SharedRef::Null;
    std::uint32_t id = 0;
    if (!ops_.shared(in, v, &ref, &id, fault_)) return false;
    switch (ref) {
      case SharedRef::Null: ops.reset(in.type, p); return true;
      case SharedRef::Earlier: {
        if (id >= refs_.size()) {
          return fault_.set(Errc::bad_reference,
                            "reference " + std::to_string(id) + " but only " +
                                std::to_string(refs_.size()) + " objects read",
                            at);
        }
        // The object must have been read as this very shared_ptr type: anything else would
        // point this field at an object of another layout.
        const SharedObject& r = refs_[id];
        if (r.holder->shared_ops != &ops) {
          return fault_.set(Errc::bad_reference,
                            "reference " + std::to_string(id) + " is to a " +
                                display_name(*r.holder) + ", not a " + display_name(*in.type),
                            at);
        }
        ops.assign(in.type, p, r.object);
        return true;
      }
      case SharedRef::New: {
        auto* object = static_cast<std::uint8_t*>(shared_object_to_read(*in.type, p, resource_));
        // Recorded before its fields, which may refer back; a copy each time where the format
        // keeps no identity, as the object there may be shared with others.
        if (plan_.traits.shared_identity) refs_.push_back({ops.share(in.type, p), in.type});
        return nested(in.a, object, v);
      }
    }
    return false;
  }

  // A list's or array's elements, one level deeper: begin(count) once the format has given
  // it (kUnknownCount when the end is found by reading), each(i, element) for every element,
  // and end(n) after the n read.
  template <class Begin, class Each, class End>
  bool elements(const Instr& in, Slot* v, Begin&& begin, Each&& each, End&& end) {
    if (!enter([&] { return ops_.offset(v); })) return false;
    Slot it, element;
    std::uint64_t count = 0;
    if (!ops_.begin_list(in, v, plan_.routines[in.a].min_wire_bytes, &it, &count, fault_)) {
      return false;
    }
    begin(count);
    std::size_t i = 0;
    for (;; ++i) {
      bool more = false;
      if (!next(i, count, &it, &more, &element)) return false;
      if (!more) break;
      if (!each(i, &element)) return false;
    }
    if (!end(i)) return false;
    leave();
    return true;
  }

  // Elements already in a list are read into in place (their buffers reused). A list whose
  // count comes first is sized once; one whose end is found by reading grows by doubling and
  // is cut to the elements read at the end.
  bool list(const Instr& in, std::uint8_t* p, Slot* v) {
    const ListOps& ops = *in.type->list_ops;
    const std::size_t stride = element_of(in).size;
    std::size_t have = ops.size(in.type, p);
    return elements(
        in, v,
        [&](std::uint64_t count) {
          if (count == kUnknownCount) return;
          ops.resize(in.type, p, count);
          have = count;
        },
        [&](std::size_t i, Slot* element) {
          if (i >= have) {
            ops.resize(in.type, p, std::max<std::size_t>(i + 1, have * 2));
            have = ops.size(in.type, p);
          }
          if (!ops.data) {  // std::vector<bool>
            bool b = false;
            if (!ops_.get(kBoolElement, element, &b, 0, fault_)) return element_failed(i);
            ops.set_bool(in.type, p, i, b);
            return true;
          }
          return run(in.a, static_cast<std::uint8_t*>(ops.data(in.type, p)) + i * stride,
                     element) ||
                 element_failed(i);
        },
        [&](std::size_t n) {
          if (n != have) ops.resize(in.type, p, n);
          return true;
        });
  }

  // An array's elements must be as many as its type has.
  bool array(const Instr& in, std::uint8_t* p, Slot* v) {
    const std::size_t stride = element_of(in).size;
    return elements(
        in, v, [](std::uint64_t) {},
        [&](std::size_t i, Slot* element) {
          if (i >= in.count) {
            return too_many(in, element);
          }
          return run(in.a, p + i * stride, element) || element_failed(i);
        },
        [&](std::size_t n) { return n == in.count || too_few(in, n, v); });
  }

  // A map's entries. Formats with repeated keys read a map field's appearances into one refill
  // that lasts to the object's end (`outer`, keyed_object), or, merging, into what the map
  // holds (no refill); there an entry of a key read before replaces it.
  bool map(const Instr& in, std::uint8_t* p, Slot* v, MapRefill* outer = nullptr) {
    if (!enter([&] { return ops_.offset(v); })) return false;
    Slot it, key_value, value;
    std::uint64_t count = 0;
    const std::uint32_t min_entry =
        plan_.routines[in.a].min_wire_bytes + plan_.routines[in.b].min_wire_bytes;
    if (!ops_.begin_list(in, v, min_entry, &it, &count, fault_)) return false;
    std::optional<MapRefill> own;
    MapRefill* refill = repeated_ ? outer : &own.emplace(*in.type, p, count);
    const MapOps& ops = *in.type->map_ops;
    const TypeDesc& key_type = in.type->key->resolved();
    const Instr& key_in = plan_.code[plan_.routines[in.a].begin];
    for (std::uint64_t i = 0;; ++i) {
      bool more = false;
      if (count != kUnknownCount) {
        more = i < count;
      } else if (!ops_.next_entry(&it, &more, &key_value, &value, fault_)) {
        return false;
      }
      if (!more) break;
      // Without a refill the key is read into a value of its own: strings, integers and enums,
      // which fit here.
      alignas(std::max_align_t) unsigned char storage[64];
      static_assert(sizeof(std::string) <= sizeof storage);
      struct Made {
        const TypeDesc* type;
        void* at;
        ~Made() {
          if (type) type->value_ops->destroy(type, at);
        }
      } made{refill ? nullptr : &key_type, storage};
      if (!refill) key_type.value_ops->construct(&key_type, storage);
      void* key = refill ? refill->key() : storage;
      const std::size_t at = ops_.offset(&key_value);
      if (!ops_.get_key(key_in, &key_value, key, fault_)) {
        path_.push_back(bracketed("[#", std::to_string(i), "]"));
        return false;
      }
      // The key's text is only made on failure: it is part of the path, not of the work.
      const void* stored_key = nullptr;
      void* target =
          refill ? refill->insert(&stored_key) : ops.insert(in.type, p, key, &stored_key);
      if (!target && repeated_) {
        target = ops.find(in.type, p, key);
        stored_key = key;
      }
      if (!target) {
        path_.push_back(key_text(key_type, key));
        return fault_.set(Errc::duplicate_key, "the key appears twice", at);
      }
      if (!run(in.b, static_cast<std::uint8_t*>(target), &value)) {
        path_.push_back(key_text(key_type, stored_key));
        return false;
      }
    }
    leave();
    return true;
  }

  // The next item of a list or array: by its count where the format gives one first.
  bool next(std::size_t i, std::uint64_t count, Slot* it, bool* more, Slot* element) {
    if (count != kUnknownCount) {
      *more = i < count;
      return true;
    }
    return ops_.next_element(it, more, element, fault_);
  }

  FormatReader& ops_;
  const bool repeated_ = plan_.traits.repeated_keys;
  // Objects read through shared_ptr fields, by reference id, with the type they were read as.
  struct SharedObject {
    std::shared_ptr<void> object;
    const TypeDesc* holder;
  };
  std::vector<SharedObject> refs_;
  std::pmr::memory_resource* resource_ = nullptr;  // the root's, where shared objects are made
};

}  // namespace

Status interpret_serialize(const Plan& plan, const RunOptions& options, const void* object,
                           Buffer& out) {
  const FormatEntry& format = format_entry(plan.format);
  Status s = Writer(plan, options, format.writer(), out).run_root(object);
  if (s.ok() && format.finish_write) format.finish_write(options, out);
  return s;
}

Status interpret_deserialize(const Plan& plan, const RunOptions& options,
                             std::span<const std::uint8_t> input, std::size_t padding,
                             void* object) {
  alignas(std::max_align_t) unsigned char storage[kReaderStorage];
  struct Made {
    FormatReader* ops;
    ~Made() { ops->~FormatReader(); }
  } made{format_entry(plan.format).reader(storage)};
  return Reader(plan, options, *made.ops).run_root(input, padding, object);
}

}  // namespace jitser

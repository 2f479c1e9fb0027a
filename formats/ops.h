// A format's operations: what the one interpreter (engine/interpreter.cpp) calls to write and
// read a format's bytes, while it does everything the formats share itself (walking routines,
// nesting depth, field paths, shared objects, defaults, key dispatch, growing lists).
//
// A format implements a FormatWriter and a FormatReader in its folder; the table of formats
// (format_table.h) makes them. Each operation does one step of the format's wire rules and
// reports a failure as a Fault: its code, its message and where in the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>

#include <jitser/buffer.h>
#include <jitser/status.h>

#include "formats/plan.h"

namespace jitser {

/// Why an operation failed. Operations fill it on the failure path only.
struct Fault {
  Errc code = Errc::ok;
  std::string message;
  std::size_t offset = Status::kNoOffset;  // into the input, for reads

  bool set(Errc c, std::string m, std::size_t at = Status::kNoOffset) {
    code = c;
    message = std::move(m);
    offset = at;
    return false;
  }
};

/// A value, or an iterator over an object, list or map, as a reader holds it: plain bytes to
/// everyone but the format (JSON: a simdjson value or iterator; binary: the items left).
struct alignas(8) Slot {
  unsigned char bytes[32] = {};  // all zero: holds nothing yet
};

/// What a shared_ptr's encoding says.
enum class SharedRef : std::uint8_t {
  Null,     // no object
  New,      // an object follows
  Earlier,  // the object read with this reference id before (formats that keep identity)
};

/// Writers keep no state of their own: one serves every call.
class FormatWriter {
 public:
  virtual ~FormatWriter() = default;

  /// The framing before the root value (Op::Frame).
  virtual bool frame(Buffer& out, const Plan& plan, const RunOptions& options, Fault& f) const = 0;
  /// A value of a leaf kind (Bool to Dynamic) at `slot`; `depth_left` bounds a Dynamic's nesting.
  virtual bool put(Buffer& out, const Instr& in, const void* slot, std::uint32_t depth_left,
                   Fault& f) const = 0;
  /// An empty optional, pointer or shared_ptr.
  virtual void null(Buffer& out) const = 0;
  /// Before the value an optional or pointer holds.
  virtual void present(Buffer& out) const = 0;
  /// Formats that keep identity: before a shared object written the first time, or in place of
  /// one written before, by its reference id.
  virtual void shared_new(Buffer& out) const = 0;
  virtual void shared_ref(Buffer& out, std::uint32_t id) const = 0;

  /// A struct's fields: begin, each field's key (keyed formats; `first` for the first one
  /// written), end. `root` is the document's value itself, not one nested in it. What begin
  /// returns, end gets: where a format that prefixes a nested object with its size in bytes
  /// (Protobuf) left room for it. `fields`: how many fields follow, in formats whose objects
  /// state it first (FormatTraits::counted_objects), else 0. `traits` are the Plan's: a format
  /// may lay objects out more than one way.
  virtual std::size_t begin_object(Buffer& out, const FormatTraits& traits, bool root,
                                   std::size_t fields) const = 0;
  virtual void field(Buffer& out, const PlanField& field, bool first) const = 0;
  virtual void end_object(Buffer& out, std::size_t mark) const = 0;
  /// A list or array of n elements (`in` says which): begin, before element i (not asked of
  /// formats whose containers are count-prefixed), end with what begin returned.
  virtual std::size_t begin_list(Buffer& out, const Instr& in, std::size_t n) const = 0;
  virtual void element(Buffer& out, std::size_t i) const = 0;
  virtual void end_list(Buffer& out, std::size_t n, std::size_t mark) const = 0;
  /// A map of n entries (`in`): begin; for entry i, begin_entry before its key and
  /// entry_value between key and value, end_entry after it with what begin_entry returned
  /// (none asked of count-prefixed formats); end.
  virtual void begin_map(Buffer& out, const Instr& in, std::size_t n) const = 0;
  virtual std::size_t begin_entry(Buffer& out, const Instr& in, std::size_t i) const = 0;
  virtual void entry_value(Buffer& out, const Instr& in) const = 0;
  virtual void end_entry(Buffer& out, std::size_t mark) const = 0;
  virtual void end_map(Buffer& out, std::size_t n) const = 0;
};

/// The count a reader gives for a container whose end it finds only by reading (JSON).
inline constexpr std::uint64_t kUnknownCount = std::numeric_limits<std::uint64_t>::max();

/// Room for a format's reader: the interpreter makes one per call in place, without allocating.
inline constexpr std::size_t kReaderStorage = 256;

class FormatReader {
 public:
  virtual ~FormatReader() = default;

  /// Starts reading `input`, of which `padding` bytes past the end may be read; sets `root`.
  virtual bool open(std::span<const std::uint8_t> input, std::size_t padding, Slot* root,
                    Fault& f) = 0;
  /// The framing before the root value (Op::Frame).
  virtual bool frame(const Plan& plan, const RunOptions& options, Fault& f) = 0;
  /// After the root value: fails when more follows than the format allows.
  virtual bool finish(Fault& f) = 0;
  /// Where `value` starts in the input, for failures the interpreter finds.
  virtual std::size_t offset(const Slot* value) const = 0;

  /// A value of a leaf kind (Bool to Dynamic) into `slot`.
  virtual bool get(const Instr& in, Slot* value, void* slot, std::uint32_t depth_left,
                   Fault& f) = 0;
  /// Whether an optional's or pointer's value is null (then consumed).
  virtual bool null(const Instr& in, Slot* value, bool* is_null, Fault& f) = 0;
  /// What a shared_ptr's value is; for SharedRef::Earlier, *id is the reference id.
  virtual bool shared(const Instr& in, Slot* value, SharedRef* ref, std::uint32_t* id,
                      Fault& f) = 0;

  /// Keyed formats: starts the object in `value`; next_field then yields each field's raw key
  /// (as PlanField::match is compared with it), its offset, and its value, until *more is false.
  virtual bool begin_object(Slot* value, Slot* iterator, Fault& f) = 0;
  virtual bool next_field(Slot* iterator, bool* more, const char** key, std::size_t* key_at,
                          Slot* value, Fault& f) = 0;
  /// Positional formats whose objects state their number of fields
  /// (FormatTraits::counted_objects): starts the object in `value`, which must hold `fields`
  /// values, read after it as any positional object's are; end_fields follows the last. Only
  /// such formats implement them.
  virtual bool begin_fields(Slot*, Slot*, std::uint32_t, Fault& f) { return uncounted(f); }
  virtual bool end_fields(Slot*, Fault& f) { return uncounted(f); }
  /// The text of a raw key that matched no field as written (it has escapes, or names no
  /// field); false when it is malformed.
  virtual bool key_text(const char* key, std::string_view* text) = 0;
  /// A value no field reads.
  virtual bool skip(Slot* value, Fault& f) = 0;

  /// Starts a list, array or map (`in` says which) in `value`. *count is its number of items
  /// when the format states it first, checked against the input left at `min_item_bytes` an
  /// item, else kUnknownCount.
  virtual bool begin_list(const Instr& in, Slot* value, std::uint32_t min_item_bytes,
                          Slot* iterator, std::uint64_t* count, Fault& f) = 0;
  /// For containers of unknown count: the next element, or the next entry of a map (its key
  /// and value), until *more is false. Counted items follow each other unasked.
  virtual bool next_element(Slot* iterator, bool* more, Slot* element, Fault& f) = 0;
  virtual bool next_entry(Slot* iterator, bool* more, Slot* key, Slot* value, Fault& f) = 0;
  /// A map key, as the key routine's one instruction `in` says.
  virtual bool get_key(const Instr& in, Slot* key, void* slot, Fault& f) = 0;

 private:
  static bool uncounted(Fault& f) {
    return f.set(Errc::invalid_descriptor, "this format's objects do not count their fields");
  }
};

/// Makes a format's reader of type R in kReaderStorage bytes at `storage`, aligned for any type.
template <class R>
FormatReader* make_reader(void* storage) {
  static_assert(sizeof(R) <= kReaderStorage && alignof(R) <= alignof(std::max_align_t));
  return ::new (storage) R();
}

}  // namespace jitser

// What the interpreter's readers of MessagePack and CBOR share: both keep one position in the
// input, as their items follow one another. A Slot of an object, a container, a field's value
// or an element holds where it starts (plus one: a Slot of zeros holds nothing), which failures
// found after it report; an iterator's Slot holds what the format counts of it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "formats/ops.h"
#include "typeinfo/integers.h"

namespace jitser {

class CursorReader : public FormatReader {
 public:
  bool open(std::span<const std::uint8_t> input, std::size_t, Slot*, Fault&) override {
    begin_ = p_ = input.data();
    end_ = input.data() + input.size();
    return true;
  }

  // A raw key is compared with every PlanField::match in full, so the longest one is readable
  // from wherever a key starts (raw_key).
  bool frame(const Plan& plan, const RunOptions&, Fault&) override {
    for (const PlanField& field : plan.fields)
      longest_match_ = std::max(longest_match_, field.match.size());
    return true;
  }

  bool finish(Fault& f) override {
    if (p_ == end_) return true;
    return f.set(Errc::trailing_bytes,
                 std::to_string(end_ - p_) + " bytes after the end of the value", at(p_));
  }

  std::size_t offset(const Slot* value) const override {
    std::uint64_t start;
    std::memcpy(&start, value->bytes, 8);
    return start ? start - 1 : at(p_);
  }

 protected:
  /// The count an iterator's Slot holds.
  static std::uint64_t& left(Slot* it) { return *reinterpret_cast<std::uint64_t*>(it->bytes); }
  /// Marks `value` as starting at the position.
  void mark(Slot* value) const {
    const std::uint64_t start = at(p_) + 1;
    std::memcpy(value->bytes, &start, 8);
  }
  std::size_t at(const std::uint8_t* p) const { return static_cast<std::size_t>(p - begin_); }

  /// The raw key of `bytes` bytes at `start` in the input (the key's head and text, as the
  /// format's PlanField::match holds them): in place when the longest match can be read from
  /// there, else a copy.
  const char* raw_key(const std::uint8_t* start, std::size_t bytes) {
    if (static_cast<std::size_t>(end_ - start) >= std::max(bytes, longest_match_)) {
      return reinterpret_cast<const char*>(start);
    }
    return copied_key({reinterpret_cast<const char*>(start), bytes});
  }
  /// A raw key made outside the input, copied with zeros after it as far as the longest match.
  const char* copied_key(std::string_view key) {
    key_scratch_.assign(std::max(key.size(), longest_match_), '\0');
    std::memcpy(key_scratch_.data(), key.data(), key.size());
    return key_scratch_.data();
  }

  /// A positional object's head counts `count` items where it has `fields`.
  bool all_fields(std::uint64_t count, std::uint32_t fields, Fault& f,
                  const std::uint8_t* start) const {
    if (count == fields) return true;
    return f.set(count < fields ? Errc::missing_field : Errc::unknown_field,
                 "an array of " + std::to_string(count) + " items for an object of " +
                     std::to_string(fields) + " fields",
                 at(start));
  }

  /// An enum read as its integer `v`, which must be one of the values `e` declares, into p.
  bool declared_value(const TypeDesc& e, std::int64_t v, void* p, Fault& f,
                      const std::uint8_t* start) const {
    if (!enum_declared(e, v)) {
      return f.set(Errc::unknown_enum, std::to_string(v) + " is not a value of " + e.name,
                   at(start));
    }
    std::memcpy(p, &v, e.size);
    return true;
  }

  const std::uint8_t* begin_ = nullptr;
  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* end_ = nullptr;

 private:
  std::size_t longest_match_ = 0;
  std::string key_scratch_;  // a key that cannot be compared in place
};

}  // namespace jitser

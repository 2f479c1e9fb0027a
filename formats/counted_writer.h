// What the interpreter's writers of MessagePack and CBOR share: objects are maps keyed by the
// fields' pre-encoded keys (or, positional, arrays of their values), and every object, list and
// map states its count first, so nothing goes between or after items. A format gives its map
// and array heads and its values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/ops.h"

namespace jitser {

class CountedWriter : public FormatWriter {
 public:
  void present(Buffer&) const override {}
  void shared_new(Buffer&) const override {}
  void shared_ref(Buffer&, std::uint32_t) const override {}

  std::size_t begin_object(Buffer& out, const FormatTraits& traits, bool,
                           std::size_t fields) const override {
    if (traits.keyed_objects) {
      map_head(out, fields);
    } else {
      array_head(out, fields);
    }
    return 0;
  }
  void field(Buffer& out, const PlanField& field, bool) const override {
    out.append(field.key.data(), field.key.size());
  }
  void end_object(Buffer&, std::size_t) const override {}
  std::size_t begin_list(Buffer& out, const Instr&, std::size_t n) const override {
    array_head(out, n);
    return 0;
  }
  void element(Buffer&, std::size_t) const override {}
  void end_list(Buffer&, std::size_t, std::size_t) const override {}
  void begin_map(Buffer& out, const Instr&, std::size_t n) const override { map_head(out, n); }
  std::size_t begin_entry(Buffer&, const Instr&, std::size_t) const override { return 0; }
  void entry_value(Buffer&, const Instr&) const override {}
  void end_entry(Buffer&, std::size_t) const override {}
  void end_map(Buffer&, std::size_t) const override {}

 protected:
  /// The head of a map of n entries, and of an array of n items.
  virtual void map_head(Buffer& out, std::size_t n) const = 0;
  virtual void array_head(Buffer& out, std::size_t n) const = 0;
};

}  // namespace jitser

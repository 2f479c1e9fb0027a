// What every format's lowering shares: routines reserved before their bodies (a struct may reach
// itself through a pointer), one routine per struct and per element shape, and field names.
// A format supplies `slot`, the instructions for one value of a type.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "formats/plan.h"

namespace jitser {

/// Instr::enc of an Enum that value_slot lowers for a Plan that writes enums as integers
/// (FormatTraits::enum_names false), for the operations of the formats that use value_slot.
inline constexpr std::uint8_t kEnumInteger = 1;

class Lowering {
 public:
  explicit Lowering(Plan& plan) : plan_(plan) {}
  virtual ~Lowering() = default;

  /// The root routine: the format's framing, then the root value.
  std::uint32_t frame(const TypeDesc& root);

 protected:
  /// Appends the instructions for one value of `type` at `offset` from the routine's base;
  /// `field` is its index in Plan::fields, or kNoField.
  virtual void slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
                    std::vector<Instr>& out) = 0;
  /// The field's key as the format writes it before the value, and what a reader compares a
  /// raw key with (PlanField::key and match); none for positional formats.
  virtual void keys(const FieldDesc&, PlanField&) {}

  /// `slot` for formats that pick every encoding from the value (MessagePack, CBOR): one
  /// instruction per value, of the op its kind has, with no encoding of its own but
  /// kEnumInteger.
  void value_slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
                  std::vector<Instr>& out);

  std::uint32_t reserve(const TypeDesc& type);
  void finish(std::uint32_t index, const std::vector<Instr>& body);
  /// Adds a field of struct `s` to Plan::fields; `index` is its place in the declaration.
  std::uint16_t field(const FieldDesc& f, std::size_t index);
  std::uint32_t struct_routine(const TypeDesc& s);
  /// The routine that handles one container element (or map key) of this type. Elements of the
  /// same shape share one routine, so the JIT compiles each shape once; `variant` separates
  /// shapes a format lowers differently by role (a JSON map key).
  std::uint32_t element_routine(const TypeDesc& element, std::uint8_t variant = 0);

  Plan& plan_;
  std::uint8_t variant_ = 0;          // the variant of the element routine being lowered
  const TypeDesc* struct_ = nullptr;  // the struct whose fields are being lowered

 private:
  // Two element types with one name, size and set of ops tables lower to the same instructions.
  using LeafKey = std::tuple<std::string, std::size_t, const ValueOps*, const ListOps*,
                             const NullableOps*, const SharedOps*, const MapOps*, std::uint8_t>;
  std::map<const TypeDesc*, std::uint32_t> structs_;
  std::map<LeafKey, std::uint32_t> leaves_;
};

}  // namespace jitser

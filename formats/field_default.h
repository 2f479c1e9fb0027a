// What a reader does with a field the input leaves out, and whether a writer may leave one out:
// the rules of docs/design.md, shared by both tiers of every format that may omit fields.
#pragma once

#include <string_view>

#include <jitser/type_desc.h>

namespace jitser {

/// Gives the absent field at `slot` its declared default, empties it when it is optional or a
/// pointer, or (declared nullable, no default) makes it a default-constructed value. False when
/// the field is required.
bool apply_missing(const FieldDesc& field, void* slot);

/// What formats in which no field is required (FormatTraits::repeated_keys) make of an absent
/// field: its declared default, else empty or zero, as a value-initialized one is.
void apply_absent(const FieldDesc& field, void* slot);

/// True when input must hold the field: apply_missing fails for it.
bool is_required(const FieldDesc& field);

/// True when the field declares a default and the value at `slot` equals it, floats by their
/// bits (so -0.0 does not equal a default of 0.0).
bool equals_default(const FieldDesc& field, const void* slot);

/// True when the field holds an optional or pointer that is empty, or that holds only empty
/// optionals or pointers or a null jitser::Value: what JSON writes as null.
bool holds_nothing(const FieldDesc& field, const void* slot);

/// Whether a key read from input names the field: its name, or its second name (FieldDesc::alias).
inline bool names_field(const FieldDesc& field, std::string_view key) {
  return field.name == key || (!field.alias.empty() && field.alias == key);
}

/// True when the field holds what Protobuf calls a default value, which its JSON leaves out:
/// what holds_nothing says JSON writes as null, an empty string, bytes, list or map, false, or
/// a number or enum of zero bits.
bool holds_zero(const FieldDesc& field, const void* slot);

/// True when the field holds what apply_absent makes of it: a writer in a format where no field
/// is required (Protobuf) leaves such a field out. Unlike holds_zero it looks no deeper than
/// the field's own optional or pointer, so that one holding an empty one stays.
bool equals_absent(const FieldDesc& field, const void* slot);

/// Whether a keyed format's writer leaves the field out: it holds nothing (`omit_null`), its
/// default (`omit_default`), or, for a field that is omitted when empty, what a reader makes of
/// it when it is missing (its default, else its zero value).
bool left_out(const FieldDesc& field, const void* slot, bool omit_null, bool omit_default,
              bool omit_empty);

/// The struct at `base` of type `s` with two fields of one oneof holding a value: the second of
/// them, which both tiers refuse. Null when every oneof holds at most one.
const FieldDesc* oneof_conflict(const TypeDesc& s, const void* base);

}  // namespace jitser

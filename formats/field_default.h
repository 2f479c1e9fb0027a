// What a reader does with a field the input leaves out, and whether a writer may leave one out:
// the rules of docs/design.md, shared by both tiers of every format that may omit fields.
#pragma once

#include <jitser/type_desc.h>

namespace jitser {

/// Gives the absent field at `slot` its declared default, empties it when it is optional or a
/// pointer, or (declared nullable, no default) makes it a default-constructed value. False when
/// the field is required.
bool apply_missing(const FieldDesc& field, void* slot);

/// True when input must hold the field: apply_missing fails for it.
bool is_required(const FieldDesc& field);

/// True when the field declares a default and the value at `slot` equals it, floats by their
/// bits (so -0.0 does not equal a default of 0.0).
bool equals_default(const FieldDesc& field, const void* slot);

/// True when the field holds an optional or pointer that is empty, or that holds only empty
/// optionals or pointers or a null jitser::Value: what JSON writes as null.
bool holds_nothing(const FieldDesc& field, const void* slot);

/// The struct at `base` of type `s` with two fields of one oneof holding a value: the second of
/// them, which both tiers refuse. Null when every oneof holds at most one.
const FieldDesc* oneof_conflict(const TypeDesc& s, const void* base);

}  // namespace jitser

#include "formats/field_default.h"

#include <algorithm>
#include <cstring>
#include <string>

#include <jitser/value.h>

#include "typeinfo/integers.h"
#include "typeinfo/strings.h"

namespace jitser {
namespace {

// The default as the bytes the field holds; the registry has checked it fits the field's kind.
template <class F>
bool with_default(const FieldDesc& field, F&& f) {
  const TypeDesc& t = field.type->resolved();
  const DefaultValue& d = field.default_value;
  if (std::holds_alternative<std::monostate>(d)) return false;
  const Kind k = t.kind == Kind::Enum ? t.underlying : t.kind;
  if (const auto* s = std::get_if<std::string>(&d)) return f(std::string(*s));
  if (const auto* b = std::get_if<bool>(&d)) return f(*b);
  if (k == Kind::Float32 || k == Kind::Float64) {
    double v;
    if (const auto* x = std::get_if<double>(&d)) {
      v = *x;
    } else if (const auto* i = std::get_if<std::int64_t>(&d)) {
      v = static_cast<double>(*i);
    } else {
      v = static_cast<double>(std::get<std::uint64_t>(d));
    }
    return k == Kind::Float32 ? f(static_cast<float>(v)) : f(v);
  }
  std::uint64_t bits = std::holds_alternative<std::int64_t>(d)
                           ? static_cast<std::uint64_t>(std::get<std::int64_t>(d))
                           : std::get<std::uint64_t>(d);
  unsigned char bytes[8];
  std::memcpy(bytes, &bits, 8);  // little-endian: the low bytes are the narrow value
  return f(std::make_pair(bytes, t.size));
}

}  // namespace

bool apply_missing(const FieldDesc& field, void* slot) {
  const TypeDesc& t = field.type->resolved();
  const bool has_default = with_default(field, [&](const auto& v) {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, std::string>) {
      assign_string(t, slot, v);
    } else if constexpr (std::is_same_v<V, std::pair<unsigned char*, std::size_t>>) {
      std::memcpy(slot, v.first, v.second);
    } else {
      std::memcpy(slot, &v, sizeof v);
    }
    return true;
  });
  if (has_default) return true;
  switch (t.kind) {
    case Kind::Optional:
    case Kind::UniquePtr: t.nullable_ops->reset(&t, slot); return true;
    case Kind::SharedPtr: t.shared_ops->reset(&t, slot); return true;
    default: break;
  }
  if (!field.nullable || !t.value_ops) return false;
  t.value_ops->destroy(&t, slot);
  t.value_ops->construct(&t, slot);
  return true;
}

void apply_absent(const FieldDesc& field, void* slot) {
  if (apply_missing(field, slot)) return;
  const TypeDesc& t = field.type->resolved();
  if (!t.value_ops) return;
  t.value_ops->destroy(&t, slot);
  t.value_ops->construct(&t, slot);
}

bool is_required(const FieldDesc& field) {
  const TypeDesc& t = field.type->resolved();
  if (!std::holds_alternative<std::monostate>(field.default_value)) return false;
  switch (t.kind) {
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr: return false;
    default: return !field.nullable || !t.value_ops;
  }
}

bool equals_default(const FieldDesc& field, const void* slot) {
  return with_default(field, [&](const auto& v) {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, std::string>) {
      return string_at(field.type->resolved(), slot) == v;
    } else if constexpr (std::is_same_v<V, std::pair<unsigned char*, std::size_t>>) {
      return std::memcmp(slot, v.first, v.second) == 0;
    } else {
      // By the bits: -0.0 is not a default of 0.0, or omit_default would drop its sign.
      return std::memcmp(slot, &v, sizeof v) == 0;
    }
  });
}

namespace {

// JSON writes an empty holder as null, and so a holder whose value is an empty holder, a null
// jitser::Value or a wrapper of either: reading null back leaves the outer holder empty.
bool empty_chain(const TypeDesc& declared, const void* at, bool held) {
  const TypeDesc& t = declared.resolved();
  switch (t.kind) {
    case Kind::Optional:
    case Kind::UniquePtr: {
      const void* v = t.nullable_ops->get(&t, at);
      return !v || empty_chain(*t.element, v, true);
    }
    case Kind::SharedPtr: {
      const void* v = t.shared_ops->get(&t, at);
      return !v || empty_chain(*t.element, v, true);
    }
    case Kind::Dynamic: return held && static_cast<const Value*>(at)->is_null();
    case Kind::Struct: {
      // A value wrapper is written as its one field, so one that holds nothing is a null too;
      // only inside a holder, which reads that null back as empty.
      if (!held || !t.wrapper) return false;
      const FieldDesc& inner = t.fields.front();
      return empty_chain(*inner.type, static_cast<const char*>(at) + inner.offset, true);
    }
    default: return false;
  }
}

}  // namespace

bool holds_nothing(const FieldDesc& field, const void* slot) {
  return empty_chain(*field.type, slot, false);
}

bool holds_zero(const FieldDesc& field, const void* slot) {
  const TypeDesc& t = field.type->resolved();
  if (is_plain_number(t.kind)) {
    const auto* bytes = static_cast<const unsigned char*>(slot);
    return std::all_of(bytes, bytes + t.size, [](unsigned char b) { return b == 0; });
  }
  switch (t.kind) {
    case Kind::Decimal: return static_cast<const Decimal*>(slot)->unscaled == 0;
    case Kind::String: return string_at(t, slot).empty();
    case Kind::Bytes:
    case Kind::List: return t.list_ops->size(&t, slot) == 0;
    case Kind::Map: return t.map_ops->size(&t, slot) == 0;
    case Kind::Dynamic: return static_cast<const Value*>(slot)->is_null();
    // What JSON writes as null, which reads back as empty.
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr: return holds_nothing(field, slot);
    default: return false;
  }
}

bool left_out(const FieldDesc& field, const void* slot, bool omit_null, bool omit_default,
              bool omit_empty) {
  // A field left out reads as its default, or as a default-constructed value: it may be left
  // out only when it holds that.
  const bool has_default = !std::holds_alternative<std::monostate>(field.default_value);
  return (omit_null && holds_nothing(field, slot)) ||
         (omit_default && equals_default(field, slot)) ||
         (omit_empty && (has_default ? equals_default(field, slot) : holds_zero(field, slot)));
}

bool equals_absent(const FieldDesc& field, const void* slot) {
  if (!std::holds_alternative<std::monostate>(field.default_value)) {
    return equals_default(field, slot);
  }
  const TypeDesc& t = field.type->resolved();
  switch (t.kind) {
    case Kind::Optional:
    case Kind::UniquePtr: return t.nullable_ops->get(&t, slot) == nullptr;
    case Kind::SharedPtr: return t.shared_ops->get(&t, slot) == nullptr;
    case Kind::Struct:
    case Kind::Array: return false;
    case Kind::Decimal: return *static_cast<const Decimal*>(slot) == Decimal{};
    default: return holds_zero(field, slot);
  }
}

const FieldDesc* oneof_conflict(const TypeDesc& s, const void* base) {
  const std::string* held_group = nullptr;  // the oneof of the last field found holding a value
  for (const FieldDesc& f : s.fields) {
    if (f.oneof.empty()) continue;
    const TypeDesc& t = *f.type;
    const void* slot = static_cast<const std::uint8_t*>(base) + f.offset;
    const bool holds = t.kind == Kind::SharedPtr ? t.shared_ops->get(&t, slot) != nullptr
                                                 : t.nullable_ops->get(&t, slot) != nullptr;
    if (!holds) continue;
    // A oneof's fields are adjacent (the registry checks), so one seen before is in this group
    // exactly when its group has the same name.
    if (held_group && *held_group == f.oneof) return &f;
    held_group = &f.oneof;
  }
  return nullptr;
}

}  // namespace jitser

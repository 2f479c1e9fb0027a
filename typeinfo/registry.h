// The registry: owns registered types, resolves references between them, validates, fingerprints.
//
// Types may be added in any order; references by name or C++ type are resolved when a codec is
// asked for (`resolve`), so a type may refer to one registered after it, or to itself through a
// pointer or container. Not thread-safe by itself: the Engine serializes access.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <typeindex>
#include <vector>

#include <jitser/status.h>
#include <jitser/type_desc.h>

namespace jitser {

class Registry {
 public:
  Registry();

  /// Checks the type on its own (names, numbers, offsets, ops) and stores a copy.
  Status add(TypeDesc desc);
  /// What add checks, without storing: whether add would take the type.
  Status check(const TypeDesc& desc) const;

  /// The registered type of that name or C++ type, with every reference in the graph reachable
  /// from it resolved and the whole graph validated. jitser::Value is always there, by its C++
  /// type and as "jitser::Value", for documents of any shape.
  Result<const TypeDesc*> resolve(std::string_view name);
  Result<const TypeDesc*> resolve(std::type_index cpp_type);

  /// Registered types in registration order.
  std::vector<const TypeDesc*> types() const;

 private:
  Result<const TypeDesc*> resolve_graph(TypeDesc* root);
  TypeDesc* lookup(const TypeDesc& reference);

  std::vector<std::unique_ptr<TypeDesc>> types_;
  std::map<std::string, TypeDesc*, std::less<>> by_name_;
  std::map<std::type_index, TypeDesc*> by_cpp_type_;
  TypeDesc value_type_;
};

/// Whether a field's default can be a value of its (resolved) type.
bool default_fits(const TypeDesc& type, const DefaultValue& d);
/// Whether a kind is one of the integers, the kinds an enum may have underneath.
bool is_integer(Kind kind);
/// Whether an enum value fits its underlying integer kind; a uint64 value is held as the int64
/// of the same bits, so every int64 fits the 64-bit kinds.
bool fits(Kind underlying, std::int64_t value);

/// The canonical schema text of a resolved type and every type it reaches; equal texts mean
/// equal wire schemas. Example: `Image{uri:string,width:int32}`.
std::string canonical_text(const TypeDesc& root);

/// xxHash64 of canonical_text(root).
std::uint64_t fingerprint(const TypeDesc& root);

}  // namespace jitser

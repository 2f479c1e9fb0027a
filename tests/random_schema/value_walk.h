// Random values of any registered type, and deep comparison of two values, walking the
// TypeDesc and its ops tables rather than any format: the random-schema test checks what both
// tiers read back against what it made, with no codec in between.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <jitser/type_desc.h>

namespace jitser::random_schema {

/// A shared object held from outside the value, with the type of the object.
struct SharedObject {
  const TypeDesc* type;
  std::shared_ptr<void> object;
};

struct FillOptions {
  /// Containers and pointers deeper than this are empty, so recursive types stay finite.
  int max_depth = 4;
  /// jitser::Value only holds what JSON reads back as the same type (no bytes or decimals).
  bool json_values = false;
  /// jitser::Value holds no decimals (MessagePack writes one as an array of two integers).
  bool no_value_decimals = false;
  /// jitser::Value also holds what only some formats carry: float32s (all but JSON, whose
  /// text of a float reads back as another double), maps with keys that are not all strings
  /// (MessagePack, CBOR, binary), CBOR's tags and simple values (CBOR, binary), and
  /// MessagePack's extensions (MessagePack, binary).
  bool value_floats = false;
  bool value_entries = false;
  bool value_cbor_items = false;
  bool value_extensions = false;
  /// jitser::Value maps hold their keys in the order CBOR's deterministic encoding writes them
  /// (shorter keys first, then by their bytes), so that they read back in the order they had.
  bool value_maps_in_key_order = false;
  /// When set, every object made behind a shared_ptr is held here too, in the order made, as
  /// another value sharing it would hold it: a reader must then leave it as it was.
  std::vector<SharedObject>* shared_with = nullptr;
};

/// Overwrites the live value of `type` at `at` with a random one: empty and long containers,
/// extreme integers, long and escaped strings, every declared enum value.
void fill(const TypeDesc& type, void* at, std::mt19937_64& rng, const FillOptions& options);

/// Whether two live values of `type` are equal, floats by their bits (so -0.0 differs from
/// 0.0); on a difference, `where` says at which path. With `null_is_empty`, an optional or
/// pointer that holds only empty optionals or pointers, or a null jitser::Value, equals an empty
/// one: JSON writes both as `null`.
bool equal(const TypeDesc& type, const void* a, const void* b, std::string& where,
           bool null_is_empty = false);

/// Every object behind a shared_ptr in the live value of `type` at `at`, each once.
std::vector<const void*> shared_objects(const TypeDesc& type, const void* at);

}  // namespace jitser::random_schema

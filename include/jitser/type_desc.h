// The plain type descriptor: what jitser knows about a type's shape and memory layout.
//
// A TypeDesc is plain data. The template builder (builder.h) fills it from C++ member pointers;
// programs that know a type only at run time fill it by hand. Both lowerings and the interpreter
// read nothing but this, so every operation on the user's memory that is not a plain load or
// store (growing a vector, emplacing an optional, iterating a map) is a function pointer in one
// of the ops tables below, captured once at registration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <typeindex>
#include <variant>
#include <vector>

#include <jitser/export.h>

namespace jitser {

enum class Kind : std::uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float32,
  Float64,
  String,     // std::string or std::pmr::string, UTF-8
  Bytes,      // std::vector (or std::pmr::vector) of std::uint8_t or std::byte
  Enum,       // registered by name; stored as its underlying integer
  Decimal,    // jitser::Decimal
  Timestamp,  // std::chrono::time_point<system_clock, duration<int64_t, unit>>
  Duration,   // std::chrono::duration<int64_t, unit>
  Struct,     // registered by name; fields at offsets
  List,       // std::vector<T> or std::pmr::vector<T>
  Array,      // std::array<T, N> or T[N]
  Optional,   // std::optional<T>
  UniquePtr,  // std::unique_ptr<T>
  SharedPtr,  // std::shared_ptr<T>: identity kept where the format can
  Map,        // std::map / std::unordered_map (or their std::pmr forms) with string, integer
              // or enum keys
  Dynamic,    // jitser::Value: any value, its type carried in the data
  Named,      // a reference to a registered Struct or Enum, resolved by the registry
};

/// The name of a kind as it appears in error messages and canonical schema text.
JITSER_API const char* kind_name(Kind kind);

/// Unit of a Timestamp or Duration's in-memory tick count.
enum class TimeUnit : std::uint8_t { Seconds, Millis, Micros, Nanos };

/// An exact decimal number: unscaled * 10^-scale.
struct Decimal {
  std::int64_t unscaled = 0;
  std::int32_t scale = 0;
  friend bool operator==(const Decimal&, const Decimal&) = default;
};

struct TypeDesc;

/// Where a String, Bytes or List allocates its storage (TypeDesc::allocator). Readers fill a
/// value through its own allocator, so a std::pmr container read into keeps drawing on the
/// memory resource it was made with (docs/design.md, "Memory").
enum class Allocator : std::uint8_t {
  Standard,     // std::allocator, or another allocator with no state
  Polymorphic,  // std::pmr::polymorphic_allocator: the memory resource the value was made with
};

// Operations on values whose layout belongs to the standard library, or to jitser for types
// with no C++ definition. Each table is a set of plain function pointers; a null pointer means
// the operation does not apply. Every operation gets the descriptor of the value it works on,
// `type`, from which a table shared by many types learns its element's size and operations;
// the tables the template builder makes ignore it.

/// Default-construct, destroy and move a value in place (used for temporaries such as map
/// keys, and by the containers of types with no C++ definition).
struct ValueOps {
  void (*construct)(const TypeDesc* type, void* at);
  void (*destroy)(const TypeDesc* type, void* at);
  // Moves the value at `from` into uninitialized memory at `to` and destroys what is left at
  // `from`, as std::vector moves its elements when it grows.
  void (*relocate)(const TypeDesc* type, void* from, void* to);
  // A struct whose C++ type is allocator-aware (its get_allocator() gives a
  // std::pmr::polymorphic_allocator): the memory resource the value at `at` was made with. A
  // read into such a root makes the objects behind its shared_ptrs there (docs/design.md,
  // "Memory"). Null for every other type.
  std::pmr::memory_resource* (*memory_resource)(const TypeDesc* type, const void* at) = nullptr;
};

/// std::vector<T>. `data` is null for std::vector<bool>, which uses get_bool/set_bool, and
/// set_bools where it is given (readers set one element at a time where it is null).
struct ListOps {
  std::size_t (*size)(const TypeDesc* type, const void* list);
  void* (*data)(const TypeDesc* type, void* list);
  void (*resize)(const TypeDesc* type, void* list, std::size_t n);
  bool (*get_bool)(const TypeDesc* type, const void* list, std::size_t i);
  void (*set_bool)(const TypeDesc* type, void* list, std::size_t i, bool value);
  /// Elements `from` to `from + n` from `values`, each true where it is not 0: one call for a
  /// run of them.
  void (*set_bools)(const TypeDesc* type, void* list, std::size_t from, const std::uint8_t* values,
                    std::size_t n) = nullptr;
};

/// std::optional<T> and std::unique_ptr<T>: something that holds zero or one value.
struct NullableOps {
  const void* (*get)(const TypeDesc* type, const void* holder);  // null when empty
  // The held value for a reader to fill, default-constructed first when there is none. Readers
  // overwrite every field of a used value, so one that is there keeps its strings' and
  // containers' storage, as a used root object does.
  void* (*fill)(const TypeDesc* type, void* holder);
  void (*reset)(const TypeDesc* type, void* holder);
};

/// std::shared_ptr<T>. `share`/`assign` move ownership through a type-erased shared_ptr so a
/// reference read later can point at an object read earlier.
struct SharedOps {
  const void* (*get)(const TypeDesc* type, const void* holder);
  // Makes a new default object for the holder and returns it: in `resource` when one is given
  // (its allocator reaches the object's constructor when the object is allocator-aware), else
  // with the global allocator.
  void* (*emplace)(const TypeDesc* type, void* holder, std::pmr::memory_resource* resource);
  // The held object when this holder is its only owner (no other shared_ptr holds it), else
  // null: an object a reader may read into in place, as it reads into a nested struct.
  void* (*sole)(const TypeDesc* type, void* holder);
  void (*reset)(const TypeDesc* type, void* holder);
  std::shared_ptr<void> (*share)(const TypeDesc* type, const void* holder);
  void (*assign)(const TypeDesc* type, void* holder, const std::shared_ptr<void>& object);
  // assign T{}: drops the object's own references
  void (*clear_object)(const TypeDesc* type, void* object);
};

/// Map iteration uses a small in-place iterator so neither tier allocates to walk a map.
inline constexpr std::size_t kMapIteratorSize = 32;
/// A reader's in-place state while it refills a map (MapOps::refill_begin).
inline constexpr std::size_t kMapRefillSize = 160;
struct MapOps {
  std::size_t (*size)(const TypeDesc* type, const void* map);
  void (*clear)(const TypeDesc* type, void* map);
  // Moves *key into the map and returns the default-constructed value to fill, with the key's
  // place in the map in *stored_key; returns null, leaving *key alone, when it was there already.
  void* (*insert)(const TypeDesc* type, void* map, void* key, const void** stored_key);
  void (*begin)(const TypeDesc* type, const void* map, void* iterator);
  bool (*next)(const TypeDesc* type, void* iterator, const void** key, const void** value);

  // Reading a whole map into one that may hold entries, as readers do: the entries it holds
  // are set aside, and each entry read reuses one of them, its node and its key's and value's
  // storage, rather than allocating anew. refill_begin starts, with `state` the reader's
  // kMapRefillSize bytes and `count` the entries to come when the format says (else
  // UINT64_MAX), which an unordered map reserves. refill_key is where to read the next key;
  // refill_insert then puts that entry into the map, after the last one when keys come in
  // order, and returns its value to fill (a reused value, which the reader overwrites), with
  // the key's place in *stored_key; or null, when the key is there already. refill_end frees
  // the entries not reused, on failure too.
  void (*refill_begin)(const TypeDesc* type, void* map, void* state, std::uint64_t count);
  void* (*refill_key)(const TypeDesc* type, void* state);
  void* (*refill_insert)(const TypeDesc* type, void* map, void* state, const void** stored_key);
  void (*refill_end)(const TypeDesc* type, void* state);

  // The value of the entry with *key, or null when the map has none: formats in which a later
  // entry replaces an earlier one of the same key (Protobuf) read into it.
  void* (*find)(const TypeDesc* type, void* map, const void* key);
};

/// A field's default, applied by formats that may omit fields.
using DefaultValue =
    std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string>;

/// An owning, deep-copying pointer to a nested TypeDesc (element, key): descriptors are values.
class JITSER_API TypeBox {
 public:
  TypeBox() = default;
  explicit TypeBox(TypeDesc desc);
  TypeBox(const TypeBox& other);
  TypeBox& operator=(const TypeBox& other);
  TypeBox(TypeBox&&) noexcept = default;
  TypeBox& operator=(TypeBox&&) noexcept = default;
  ~TypeBox();

  explicit operator bool() const { return ptr_ != nullptr; }
  const TypeDesc& operator*() const { return *ptr_; }
  const TypeDesc* operator->() const { return ptr_.get(); }
  TypeDesc* get() { return ptr_.get(); }
  const TypeDesc* get() const { return ptr_.get(); }

 private:
  std::unique_ptr<TypeDesc> ptr_;
};

/// How a field's integers are written where a format gives a choice (Protobuf); the other
/// formats have one encoding per kind.
enum class IntEncoding : std::uint8_t {
  Varint,  // a varint of the value: negative ones take ten bytes (Protobuf int32, int64, uint*)
  Zigzag,  // a varint of the zigzag-mapped value (sint32, sint64)
  Fixed,   // a little-endian word of 4 or 8 bytes (fixed32, fixed64, sfixed32, sfixed64)
};

struct FieldDesc {
  std::string name;      // the name written on the wire (the declared name unless renamed)
  std::string cpp_name;  // the declared name, for error messages; defaults to name
  // A second name keyed formats accept on read, or empty: a Protobuf field's own name, when
  // `name` is its JSON name (`has_bitrate` for `hasBitrate`).
  std::string alias;
  std::size_t offset = 0;
  TypeBox type;
  std::uint32_t number = 0;  // Protobuf field number; 0 means "declaration index + 1"
  bool nullable = false;     // absence is not an error in formats that may omit fields
  DefaultValue default_value;
  // The group of alternatives (a Protobuf oneof) the field belongs to, or empty. Its fields
  // are adjacent, each an optional or pointer, and at most one of them holds a value: writers
  // and readers refuse a value with two (`oneof_conflict`).
  std::string oneof;
  // Applies to the field's integers, those of its list and the values of its map.
  IntEncoding encoding = IntEncoding::Varint;
};

struct EnumValue {
  std::string name;
  std::int64_t value = 0;
};

struct TypeDesc {
  Kind kind = Kind::Struct;
  std::string name;  // Struct and Enum: the registered name; Named: the name referred to
  std::size_t size = 0;
  std::size_t align = 1;

  // Struct
  std::vector<FieldDesc> fields;
  bool wrapper = false;  // encodes as its single field
  // A Protobuf message (loaded from a .proto): JSON follows Protobuf's JSON mapping for its
  // fields (docs/proto.md).
  bool message = false;

  // Enum: the underlying integer kind and the declared values
  Kind underlying = Kind::Int32;
  std::vector<EnumValue> values;

  // List, Array, Optional, UniquePtr, SharedPtr: element; Map: key and element (the value)
  TypeBox element;
  TypeBox key;
  std::size_t count = 0;  // Array
  TimeUnit unit = TimeUnit::Nanos;
  Allocator allocator = Allocator::Standard;  // String, Bytes, List

  const ValueOps* value_ops = nullptr;
  const ListOps* list_ops = nullptr;
  const NullableOps* nullable_ops = nullptr;
  const SharedOps* shared_ops = nullptr;
  const MapOps* map_ops = nullptr;

  // Named: the C++ type referred to, when the template builder made the reference.
  std::optional<std::type_index> cpp_type;
  // Named: filled by the registry when it resolves the reference.
  const TypeDesc* target = nullptr;
  // Struct and Enum registered through the template builder: their C++ type.
  std::optional<std::type_index> registered_cpp_type;

  /// This type, or for Named the registered type it refers to.
  const TypeDesc& resolved() const { return kind == Kind::Named && target ? *target : *this; }
};

/// A readable name for a type: registered name, or e.g. "list<Image>", "map<string,int32>".
JITSER_API std::string display_name(const TypeDesc& type);

}  // namespace jitser

// jitser::Object: an owning value of a registered type, made and destroyed through the type's
// own operations. It is how a program holds a value of a type with no C++ definition (one
// loaded with Engine::load_schema), and hands it to that type's codecs:
//
//   engine.load_schema(text);
//   auto codec = engine.codec("Reading", jitser::Format::Json);
//   jitser::Object reading(codec->type());        // default-constructed
//   codec->deserialize(json, reading);
//
// Its fields are reached by name or path, through a Ref:
//
//   reading.at("sensor")->set("t-1");
//   reading.at("values")->append()->set(21.5);
//   std::int64_t n = *reading.at("samples[2].count")->get_int();
//   jitser::Value whole = *reading.root()->get();
//
// An Object uses its type's descriptor, which its Engine owns: destroy it before the Engine.
// Destroying it frees every shared object it reaches, also those in cycles that input made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <jitser/export.h>
#include <jitser/status.h>
#include <jitser/type_desc.h>
#include <jitser/value.h>

namespace jitser {

/// A reference to one value inside an Object: the root, a field, an element, a map entry or
/// what an optional or pointer holds. It does not own the value and lives no longer than it:
/// a list that grows or a map entry removed leaves Refs into them dangling, as iterators do.
///
/// Every operation checks the value's kind and fails with a Status that names the path
/// (`Reading.values[3]`): `unknown_field` for a name the struct does not declare,
/// `type_mismatch` for the wrong kind of value or operation, `out_of_range` for an index past
/// the end, a key that is not there, or a number the value cannot hold.
class JITSER_API Ref {
 public:
  /// The value of `type` at `at`, named `path` in errors; Object::root() and at() make Refs.
  Ref(const TypeDesc& type, void* at, std::string path);

  /// The value's type: a registered struct or enum, or a kind such as list<int32>.
  const TypeDesc& type() const { return *type_; }
  /// Where the value is in its Object, as errors name it.
  const std::string& path() const { return path_; }

  /// A struct's field by its name.
  Result<Ref> field(std::string_view name) const;
  /// The value a path names, from this one: field names separated by dots, `[i]` for an element
  /// of a list or array, `[7]` or `["key"]` for a map entry (`images[0].size`,
  /// `by_sku["a-1"].count`). An optional or pointer on the way must hold a value.
  Result<Ref> at(std::string_view path) const;

  /// Lists, arrays and maps: how many elements or entries.
  Result<std::size_t> size() const;
  /// The element at `index` of a list or array.
  Result<Ref> element(std::size_t index) const;
  /// A new default element at the end of a list.
  Result<Ref> append() const;
  /// A map's entry for `key` (a string, an integer or an enum's name, as the key type is),
  /// made default when it is not there.
  Result<Ref> entry(const Value& key) const;
  /// A map's entry for `key`, which must be there.
  Result<Ref> find(const Value& key) const;

  /// Optionals and pointers: whether they hold a value.
  Result<bool> has_value() const;
  /// What an optional or pointer holds, made default when it holds nothing.
  Result<Ref> value() const;
  /// Empties an optional or pointer.
  Status reset() const;

  /// Scalars, typed: an integer or enum (get_int, get_uint; get_int also a timestamp's or
  /// duration's ticks), a float, a bool, a string.
  Result<std::int64_t> get_int() const;
  Result<std::uint64_t> get_uint() const;
  Result<double> get_double() const;
  Result<bool> get_bool() const;
  Result<std::string_view> get_string() const;

  /// The value as a jitser::Value: a struct as a map of its fields in order, lists and arrays
  /// as arrays, maps as maps with their keys as text, an empty optional or pointer as null,
  /// enums by name, timestamps and durations as integer ticks of their unit. A shared object
  /// met again inside itself is `cycle`.
  Result<Value> get() const;
  /// Replaces the value with `v`, converted as get() converts the other way: an integer for any
  /// integer, float or enum (its number), a double for a float, a string for a string, bytes
  /// or an enum (its name), a map for a struct (members name fields; fields it leaves out are
  /// default) or a map, null to empty an optional or pointer. A value that does not fit is an
  /// error, and leaves the value partly replaced.
  Status set(const Value& v) const;

 private:
  const TypeDesc* type_;
  void* at_;
  std::string path_;
  // An element of a std::vector<bool>, which has no address: the list's type (at_ is the list)
  // and the index.
  const TypeDesc* bits_ = nullptr;
  std::size_t bit_ = 0;
};

class JITSER_API Object {
 public:
  /// Empty: holds nothing.
  Object() = default;
  /// A default-constructed value of `type` (a registered struct, as a codec's type()).
  explicit Object(const TypeDesc& type);
  Object(Object&& other) noexcept;
  Object& operator=(Object&& other) noexcept;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  ~Object();

  bool empty() const { return storage_ == nullptr; }
  /// The type of the value, or null when empty.
  const TypeDesc* type() const { return type_; }
  /// The value's storage, laid out as its type says; null when empty.
  void* get() { return storage_; }
  const void* get() const { return storage_; }

  /// The whole value, for access by name and path; `type_mismatch` when the Object is empty.
  Result<Ref> root();
  /// The value a path names (Ref::at) from the root.
  Result<Ref> at(std::string_view path);

 private:
  void reset();

  const TypeDesc* type_ = nullptr;
  void* storage_ = nullptr;
};

}  // namespace jitser

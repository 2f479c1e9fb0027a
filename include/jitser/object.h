// jitser::Object: an owning value of a registered type, made and destroyed through the type's
// own operations. It is how a program holds a value of a type with no C++ definition (one
// loaded with Engine::load_schema), and hands it to that type's codecs:
//
//   engine.load_schema(text);
//   auto codec = engine.codec("Reading", jitser::Format::Json);
//   jitser::Object reading(codec->type());        // default-constructed
//   codec->deserialize(json, reading);
//
// An Object uses its type's descriptor, which its Engine owns: destroy it before the Engine.
#pragma once

#include <jitser/export.h>
#include <jitser/type_desc.h>

namespace jitser {

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

 private:
  void reset();

  const TypeDesc* type_ = nullptr;
  void* storage_ = nullptr;
};

}  // namespace jitser

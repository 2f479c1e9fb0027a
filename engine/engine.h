// Engine and codecs: the public entry point of jitser.
//
//   jitser::Engine engine;
//   engine.add(jitser::Struct<Image>("Image").field("uri", &Image::uri) ...);   // -> Status
//   auto codec = engine.codec<Image>(jitser::Format::Binary);                    // -> Result
//   jitser::Buffer out;
//   codec->serialize(image, out);                                                // -> Status
//   codec->deserialize(out.bytes(), image);                                      // -> Status
//
// An Engine is safe to use from many threads. Codecs are cheap handles that stay valid while
// their Engine lives; a codec's methods may be called concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include "engine/buffer.h"
#include "formats/format.h"
#include "typeinfo/builder.h"
#include "typeinfo/status.h"
#include "typeinfo/type_desc.h"

namespace jitser {

struct EngineOptions {
  /// Deepest nesting of structs, containers and pointers a codec reads or writes.
  std::uint32_t max_depth = 128;
  /// Binary: write the root type's schema fingerprint, so readers with another schema refuse.
  bool binary_fingerprint = true;
  /// Binary: refuse input that carries no fingerprint.
  bool require_fingerprint = false;
};

namespace detail {
struct CodecState;
}

/// A codec for a type known only by its descriptor: objects are passed as pointers.
class DynCodec {
 public:
  /// Replaces the content of `out` with the object's encoding.
  Status serialize(const void* object, Buffer& out) const;
  /// Reads `input` into the live object. On failure the object is valid but unspecified.
  Status deserialize(std::span<const std::uint8_t> input, void* object) const;

  const TypeDesc& type() const;
  Format format() const;
  /// The Plan the codec runs, as text (see formats/plan.h).
  std::string dump_plan(Direction direction) const;

 private:
  friend class Engine;
  explicit DynCodec(const detail::CodecState* state) : state_(state) {}
  const detail::CodecState* state_;
};

/// A codec for the registered C++ type T.
template <class T>
class Codec {
 public:
  explicit Codec(DynCodec dyn) : dyn_(dyn) {}

  Status serialize(const T& value, Buffer& out) const { return dyn_.serialize(&value, out); }
  Result<std::vector<std::uint8_t>> serialize(const T& value) const {
    Buffer out;
    if (Status s = dyn_.serialize(&value, out); !s) return s;
    return out.to_vector();
  }
  Status deserialize(std::span<const std::uint8_t> input, T& value) const {
    return dyn_.deserialize(input, &value);
  }
  Result<T> deserialize(std::span<const std::uint8_t> input) const {
    T value{};
    if (Status s = dyn_.deserialize(input, &value); !s) return s;
    return value;
  }
  const DynCodec& dyn() const { return dyn_; }

 private:
  DynCodec dyn_;
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Registers a struct or enum. References to other types are checked when a codec is made,
  /// so types may be added in any order.
  Status add(TypeDesc desc);
  template <class T>
  Status add(const Struct<T>& builder) {
    return add(TypeDesc(builder.desc()));
  }
  template <class E>
  Status add(const Enum<E>& builder) {
    return add(TypeDesc(builder.desc()));
  }

  /// The codec for a registered type and format; made once, then shared.
  Result<DynCodec> codec(std::string_view type_name, Format format);
  template <class T>
  Result<Codec<T>> codec(Format format) {
    Result<DynCodec> dyn = codec(std::type_index(typeid(T)), format);
    if (!dyn) return dyn.status();
    return Codec<T>(*dyn);
  }

  /// Registered types, in registration order.
  std::vector<const TypeDesc*> types() const;
  /// The schema fingerprint of a registered type: xxHash64 of its schema_text.
  Result<std::uint64_t> fingerprint(std::string_view type_name);
  /// The canonical schema text of a registered type and the types it reaches; comparing two
  /// programs' texts shows why their fingerprints differ.
  Result<std::string> schema_text(std::string_view type_name);

 private:
  Result<DynCodec> codec(std::type_index cpp_type, Format format);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jitser

// libcbor, the CBOR library a C++ user would otherwise pick from Debian, used the way its
// documentation shows: values written with the cbor_encode_* functions into a buffer, and read
// by cbor_load into its tree of items, bound by hand to the payload's fields (maps keyed by
// field name, as jitser writes them; enums by name). A benchmark peer, and the other side of
// the CBOR interop tests.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "bench/payloads.h"

namespace jitser::bench::cbor_peers {

/// The payloads the peer binds.
template <class F>
void for_each_payload(F&& f) {
  using namespace jitser::payloads;
  f("MediaContent", make_media_content());
  f("A1", make_a1());
  f("Foo", make_foo());
  f("FooImmutable", make_foo_immutable());
  f("FooWithDefault", make_foo_with_default());
  f("FooWithValueClass", make_foo_with_value_class());
  f("StringList", make_string_list());
  f("StringMap", make_string_map());
}

/// libcbor bound to a payload type T: holds a value, written and read as often as a benchmark
/// asks.
template <class T>
class LibCbor {
 public:
  explicit LibCbor(const T& value);
  ~LibCbor();
  LibCbor(const LibCbor&) = delete;
  LibCbor& operator=(const LibCbor&) = delete;

  /// Encodes the value into the peer's buffer, and returns the bytes.
  std::span<const std::uint8_t> write();
  /// Loads `bytes` and binds them to the value; false when libcbor or the binding refuses.
  bool read(std::span<const std::uint8_t> bytes);
  /// The value last read (or made).
  const T& value() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jitser::bench::cbor_peers

// msgpack-cxx, the MessagePack library a C++ user would otherwise pick, used the way its
// documentation shows: structs of the payloads' fields annotated with MSGPACK_DEFINE_MAP (maps
// keyed by field name, the document jitser writes) or MSGPACK_DEFINE (arrays in declaration
// order), packed into an sbuffer, and read by msgpack::unpack plus convert. Enums are written by
// name, as jitser writes them. A benchmark peer, and the other side of the interop tests.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "bench/payloads.h"

namespace jitser::bench::msgpack_peers {

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

enum class Layout { Map, Array };

/// msgpack-cxx's struct for a payload value of type T, in one layout: made once from the value,
/// then written and read as often as a benchmark asks.
template <class T>
class MsgpackCxx {
 public:
  MsgpackCxx(Layout layout, const T& value);
  ~MsgpackCxx();
  MsgpackCxx(const MsgpackCxx&) = delete;
  MsgpackCxx& operator=(const MsgpackCxx&) = delete;

  /// Packs the struct into the peer's buffer, and returns the bytes.
  std::span<const std::uint8_t> write();
  /// Unpacks `bytes` and converts them into the peer's struct; false when msgpack-cxx refuses.
  bool read(std::span<const std::uint8_t> bytes);
  /// The struct last read (or made), as the payload type.
  T value() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jitser::bench::msgpack_peers

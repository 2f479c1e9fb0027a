// The protobuf peer: protoc-generated classes, with the copying a program that keeps its data in
// plain C++ structs does on each side (struct to message to bytes, bytes to message to struct).
// The message is reused between calls, as protobuf's guide advises.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "bench/payloads.h"

namespace jitser::bench::protobuf_peer {

template <class T>
class Codec {
 public:
  Codec();
  ~Codec();
  /// Replaces `out` with the encoding of `value`; false if protobuf fails.
  bool serialize(const T& value, std::string& out);
  /// Reads `bytes` into `value`; false if protobuf refuses them.
  bool deserialize(std::string_view bytes, T& value);
  /// Parses `bytes` into the reused generated message only, copying nothing out of it.
  bool parse(std::string_view bytes);

 private:
  struct Message;
  std::unique_ptr<Message> message_;
};

extern template class Codec<payloads::MediaContent>;
extern template class Codec<payloads::Sample>;

}  // namespace jitser::bench::protobuf_peer

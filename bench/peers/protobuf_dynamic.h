// The protobuf_dynamic peer: DynamicMessage, what protobuf offers a program that learns its
// message types at run time. The type is built from a descriptor at run time (in a pool of its
// own, not from generated code), and the value lives in the message, as a jitser::Object holds
// the value of a type loaded from a schema.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "bench/payloads.h"

namespace jitser::bench::protobuf_dynamic {

class Message {
 public:
  /// A dynamic message of the payload's protobuf type (bench/peers/payloads.proto) that holds
  /// `value`.
  explicit Message(const payloads::MediaContent& value);
  ~Message();

  /// Protobuf's binary encoding of the message, into `out`.
  bool serialize(std::string& out) const;
  /// Reads `bytes` into the message.
  bool deserialize(std::string_view bytes);
  /// Protobuf's JSON mapping, as google::protobuf::util::MessageToJsonString writes it.
  bool to_json(std::string& out) const;
  /// Reads JSON with google::protobuf::util::JsonStringToMessage.
  bool from_json(std::string_view json);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace jitser::bench::protobuf_dynamic

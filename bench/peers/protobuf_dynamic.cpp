#include "bench/peers/protobuf_dynamic.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include <cstdlib>

#include "bench/peers/protobuf_peer.h"
#include "payloads.pb.h"

namespace jitser::bench::protobuf_dynamic {

namespace gp = google::protobuf;

struct Message::State {
  gp::DescriptorPool pool;
  gp::DynamicMessageFactory factory{&pool};
  std::unique_ptr<gp::Message> message;
};

Message::Message(const payloads::MediaContent& value) : state_(std::make_unique<State>()) {
  // The file's descriptor as data, built into a pool of its own: the message type the factory
  // makes knows nothing of the generated classes.
  gp::FileDescriptorProto file;
  jitser::bench::pb::MediaContent::descriptor()->file()->CopyTo(&file);
  const gp::FileDescriptor* built = state_->pool.BuildFile(file);
  const gp::Descriptor* type =
      built ? state_->pool.FindMessageTypeByName("jitser.bench.pb.MediaContent") : nullptr;
  if (!type) std::abort();
  state_->message.reset(state_->factory.GetPrototype(type)->New());
  // The value, through the generated peer's encoding of it.
  std::string bytes;
  protobuf_peer::Codec<payloads::MediaContent> generated;
  if (!generated.serialize(value, bytes) || !deserialize(bytes)) std::abort();
}

Message::~Message() = default;

bool Message::serialize(std::string& out) const { return state_->message->SerializeToString(&out); }

bool Message::deserialize(std::string_view bytes) {
  return state_->message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

bool Message::to_json(std::string& out) const {
  out.clear();
  return gp::util::MessageToJsonString(*state_->message, &out).ok();
}

bool Message::from_json(std::string_view json) {
  return gp::util::JsonStringToMessage(gp::StringPiece(json.data(), json.size()),
                                       state_->message.get())
      .ok();
}

}  // namespace jitser::bench::protobuf_dynamic

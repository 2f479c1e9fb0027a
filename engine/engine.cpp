#include "engine/engine.h"

#include <map>
#include <mutex>

#include "engine/interpreter.h"
#include "formats/binary/lower_binary.h"
#include "typeinfo/registry.h"

namespace jitser {
namespace detail {

struct CodecState {
  const TypeDesc* type;
  Format format;
  Plan serialize;
  Plan deserialize;
  RunOptions run;
};

}  // namespace detail

struct Engine::Impl {
  EngineOptions options;
  mutable std::mutex mutex;
  Registry registry;
  std::map<std::pair<const TypeDesc*, Format>, std::unique_ptr<detail::CodecState>> codecs;

  Result<DynCodec> codec_for(Result<const TypeDesc*> type, Format format) {
    if (!type) return type.status();
    auto& slot = codecs[{*type, format}];
    if (!slot) {
      auto state = std::make_unique<detail::CodecState>();
      state->type = *type;
      state->format = format;
      switch (format) {
        case Format::Binary:
          state->serialize = lower_binary(**type, Direction::Serialize);
          state->deserialize = lower_binary(**type, Direction::Deserialize);
          break;
      }
      state->run =
          RunOptions{options.max_depth, options.binary_fingerprint, options.require_fingerprint};
      slot = std::move(state);
    }
    return DynCodec(slot.get());
  }
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
}
Engine::~Engine() = default;

Status Engine::add(TypeDesc desc) {
  std::lock_guard lock(impl_->mutex);
  return impl_->registry.add(std::move(desc));
}

Result<DynCodec> Engine::codec(std::string_view type_name, Format format) {
  std::lock_guard lock(impl_->mutex);
  return impl_->codec_for(impl_->registry.resolve(type_name), format);
}

Result<DynCodec> Engine::codec(std::type_index cpp_type, Format format) {
  std::lock_guard lock(impl_->mutex);
  return impl_->codec_for(impl_->registry.resolve(cpp_type), format);
}

std::vector<const TypeDesc*> Engine::types() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->registry.types();
}

Result<std::uint64_t> Engine::fingerprint(std::string_view type_name) {
  std::lock_guard lock(impl_->mutex);
  Result<const TypeDesc*> type = impl_->registry.resolve(type_name);
  if (!type) return type.status();
  return jitser::fingerprint(**type);
}

Result<std::string> Engine::schema_text(std::string_view type_name) {
  std::lock_guard lock(impl_->mutex);
  Result<const TypeDesc*> type = impl_->registry.resolve(type_name);
  if (!type) return type.status();
  return canonical_text(**type);
}

Status DynCodec::serialize(const void* object, Buffer& out) const {
  out.clear();
  return interpret_serialize(state_->serialize, state_->run, object, out);
}

Status DynCodec::deserialize(std::span<const std::uint8_t> input, void* object) const {
  return interpret_deserialize(state_->deserialize, state_->run, input, object);
}

const TypeDesc& DynCodec::type() const { return *state_->type; }
Format DynCodec::format() const { return state_->format; }

std::string DynCodec::dump_plan(Direction direction) const {
  return jitser::dump_plan(direction == Direction::Serialize ? state_->serialize
                                                             : state_->deserialize);
}

}  // namespace jitser

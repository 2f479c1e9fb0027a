// The benchmark: `<format>/<payload>/<op>/<impl>`, one entry per payload, format and tier.
// Every entry first checks that its round trip gives back an equal value; an entry that does
// not is reported as an error instead of a time.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>

#include "bench/payloads.h"
#include "bench/peers/protobuf_peer.h"

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

// protobuf/<payload>/<op>/protobuf_generated: the same values through protoc's classes, from
// and into the same plain structs, reusing the message, the output string and the target as
// the jitser entries reuse their Buffer and target.
template <class T>
void register_protobuf(const std::string& payload, const T& sample) {
  auto value = std::make_shared<T>(sample);
  const std::string prefix = "protobuf/" + payload + "/";
  benchmark::RegisterBenchmark(
      (prefix + "serialize/protobuf_generated").c_str(), [value](benchmark::State& state) {
        bench::protobuf_peer::Codec<T> codec;
        std::string out;
        for (auto _ : state) {
          if (!codec.serialize(*value, out)) {
            state.SkipWithError("serialize failed");
            break;
          }
          benchmark::DoNotOptimize(out.data());
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
      });
  benchmark::RegisterBenchmark(
      (prefix + "deserialize/protobuf_generated").c_str(), [value](benchmark::State& state) {
        bench::protobuf_peer::Codec<T> codec;
        std::string in;
        T target{};
        if (!codec.serialize(*value, in) || !codec.deserialize(in, target) || !(target == *value)) {
          state.SkipWithError("round trip does not give back an equal value");
          return;
        }
        for (auto _ : state) {
          if (!codec.deserialize(in, target)) {
            state.SkipWithError("deserialize failed");
            break;
          }
          benchmark::DoNotOptimize(&target);
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
      });
}

// binary/MediaContent/compile/jit: from registration to compiled code for every codec of
// MediaContent (one module, holding Media's and Image's routines too), with the Engine's LLJIT
// started on the way. Destroying the Engine is left out of the time.
void register_compile() {
  benchmark::RegisterBenchmark(
      "binary/MediaContent/compile/jit",
      [](benchmark::State& state) {
        for (auto _ : state) {
          auto engine = std::make_unique<Engine>(EngineOptions{.jit = JitPolicy::Sync});
          const auto start = std::chrono::steady_clock::now();
          if (!payloads::register_all(*engine) ||
              !engine->codec<payloads::MediaContent>(Format::Binary)) {
            state.SkipWithError("no codec");
            break;
          }
          const auto end = std::chrono::steady_clock::now();
          for (const CodecStats& s : engine->stats()) {
            if (s.tier != Tier::Compiled) {
              state.SkipWithError(("not compiled: " + s.failure).c_str());
              return;
            }
          }
          state.SetIterationTime(std::chrono::duration<double>(end - start).count());
          state.PauseTiming();
          engine.reset();
          state.ResumeTiming();
        }
      })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  for (Tier tier : {Tier::Interpreter, Tier::Compiled}) {
    payloads::for_each_payload(
        [tier](const char* name, const auto& value) { register_binary(name, value, tier); });
  }
  register_protobuf("MediaContent", payloads::make_media_content());
  register_protobuf("Sample", payloads::make_sample());
  register_compile();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// The benchmark: `<format>/<payload>/<op>/<impl>`, one entry per payload, format and tier.
// Every entry first checks that its round trip gives back an equal value; an entry that does
// not is reported as an error instead of a time.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <memory_resource>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <jitser/proto.h>

#include "bench/generated_types.h"
#include "bench/payloads.h"
#include "bench/peers/cbor_peers.h"
#include "bench/peers/json_peers.h"
#include "bench/peers/msgpack_peers.h"
#include "bench/peers/protobuf_dynamic.h"
#include "bench/peers/protobuf_peer.h"

namespace {

using namespace jitser;

// What an entry of the payloads runs: the interpreter (`interp`), first-tier code (`first`,
// docs/jit.md), optimized code (`jit`), or optimized code with structs as arrays
// (`jit_array`, EngineOptions::struct_arrays: MessagePack's and CBOR's compact layout).
enum class Impl { Interp, First, Jit, JitArray };

constexpr Tier tier_of(Impl impl) {
  return impl == Impl::Interp ? Tier::Interpreter : Tier::Compiled;
}
constexpr Impl impl_of(Tier tier) { return tier == Tier::Compiled ? Impl::Jit : Impl::Interp; }

// One engine per Impl: the interpreter's never compiles, the others compile every codec before
// it is handed out. Each entry checks that its codec really runs what it is named for.
Engine& engine_for(Impl impl) {
  static Engine interp(EngineOptions{.jit = JitPolicy::Off});
  static Engine first(EngineOptions{.jit = JitPolicy::Sync, .tiers = CompileTiers::First});
  static Engine jit(EngineOptions{.jit = JitPolicy::Sync});
  static Engine jit_array(EngineOptions{.struct_arrays = true, .jit = JitPolicy::Sync});
  static const bool registered =
      payloads::register_all(interp).ok() && payloads::register_all(first).ok() &&
      payloads::register_all(jit).ok() && payloads::register_all(jit_array).ok();
  if (!registered) std::abort();
  switch (impl) {
    case Impl::Interp: return interp;
    case Impl::First: return first;
    case Impl::Jit: return jit;
    case Impl::JitArray: return jit_array;
  }
  std::abort();
}

const char* impl_name(Impl impl) {
  switch (impl) {
    case Impl::Interp: return "interp";
    case Impl::First: return "first";
    case Impl::Jit: return "jit";
    case Impl::JitArray: return "jit_array";
  }
  return "?";
}
const char* impl_name(Tier tier) { return impl_name(impl_of(tier)); }

template <class T>
bool on_tier(const Codec<T>& codec, Impl impl, benchmark::State& state) {
  const CodecStats stats = codec.dyn().stats();
  const CompiledCode code = impl == Impl::Interp  ? CompiledCode::None
                            : impl == Impl::First ? CompiledCode::FirstTier
                                                  : CompiledCode::Optimized;
  if (stats.tier == tier_of(impl) && stats.code == code) return true;
  state.SkipWithError(
      ("codec runs other code (JITSER_JIT or JITSER_TIERS set?) " + stats.failure).c_str());
  return false;
}

// After a compiled entry's timed loop: every call ran compiled code to its end, none was
// covered for by the interpreter (a fallback would time the interpreter under the jit name).
template <class T>
void check_ran_compiled(const Codec<T>& codec, Impl impl, std::uint64_t compiled_before,
                        benchmark::State& state) {
  if (impl == Impl::Interp) return;
  const CodecStats stats = codec.dyn().stats();
  if (stats.tier_disagreements != 0 ||
      stats.compiled_calls - compiled_before < static_cast<std::uint64_t>(state.iterations())) {
    state.SkipWithError("compiled code failed and the interpreter covered for it");
  }
}

// <format>/<payload>/{serialize,deserialize}/<impl>. `input`, when given, is what deserialize
// reads instead of the codec's own output (the shuffled JSON document).
template <class T>
void register_codec(Format format, const std::string& payload, const T& sample, Impl tier,
                    std::optional<std::string> input = std::nullopt) {
  auto value = std::make_shared<T>();
  {
    // The sample arrives by reference; keep an equal copy by a round trip of our own.
    auto codec = engine_for(Impl::Interp).codec<T>(Format::Binary);
    if (!codec) std::abort();
    Buffer out;
    if (!codec->serialize(sample, out) || !codec->deserialize(out.bytes(), *value)) std::abort();
  }
  const std::string prefix = std::string(format_name(format)) + "/" + payload + "/";
  const std::string impl = impl_name(tier);
  if (!input)
    benchmark::RegisterBenchmark(
        (prefix + "serialize/" + impl).c_str(), [value, tier, format](benchmark::State& state) {
          auto codec = engine_for(tier).codec<T>(format);
          if (!codec || !on_tier(*codec, tier, state)) return;
          Buffer out;
          const std::uint64_t before = codec->dyn().stats().compiled_calls;
          for (auto _ : state) {
            if (!codec->serialize(*value, out)) {
              state.SkipWithError("serialize failed");
              break;
            }
            benchmark::DoNotOptimize(out.data());
          }
          check_ran_compiled(*codec, tier, before, state);
          state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
        });
  benchmark::RegisterBenchmark(
      (prefix + "deserialize/" + impl).c_str(),
      [value, tier, format, input](benchmark::State& state) {
        auto codec = engine_for(tier).codec<T>(format);
        if (!codec || !on_tier(*codec, tier, state)) return;
        Buffer in;
        if (input) {
          in.append(input->data(), input->size());
        } else {
          (void)codec->serialize(*value, in);
        }
        T check{};
        if (!codec->deserialize(in.padded(), check) || !(check == *value)) {
          state.SkipWithError("round trip does not give back an equal value");
          return;
        }
        const std::uint64_t before = codec->dyn().stats().compiled_calls;
        if constexpr (std::is_same_v<T, payloads::Graph>) {
          // Fresh each time: reading into a used Graph would replace accounts whose cycles
          // only the Graph's destructor breaks.
          for (auto _ : state) {
            T target{};
            if (!codec->deserialize(in.padded(), target)) {
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
            if (!codec->deserialize(in.padded(), target)) {
              state.SkipWithError("deserialize failed");
              break;
            }
            benchmark::DoNotOptimize(&target);
          }
        }
        check_ran_compiled(*codec, tier, before, state);
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
      });
}

// <format>/<payload>_pmr/deserialize/<impl>: a payload in std::pmr types read as a server reads
// a request into memory of its own: into a fresh value over a monotonic buffer that is released
// after each read, so that nothing read costs a call to malloc or free (docs/design.md,
// "Memory"). The fresh value's destruction is timed, as Graph's is.
template <class T>
void register_arena_read(Format format, Impl tier, const std::string& payload, T (*make)()) {
  const std::string name =
      std::string(format_name(format)) + "/" + payload + "/deserialize/" + impl_name(tier);
  benchmark::RegisterBenchmark(name.c_str(), [format, tier, make](benchmark::State& state) {
    auto codec = engine_for(tier).codec<T>(format);
    if (!codec || !on_tier(*codec, tier, state)) return;
    const T sample = make();
    Buffer in;
    (void)codec->serialize(sample, in);
    // Room for every node and string, so that the buffer never asks its upstream for more.
    std::vector<std::byte> memory(64 << 20);
    std::pmr::monotonic_buffer_resource arena(memory.data(), memory.size());
    {
      T check(&arena);
      if (!codec->deserialize(in.padded(), check) || !(check == sample)) {
        state.SkipWithError("round trip does not give back an equal value");
        return;
      }
    }
    arena.release();
    const std::uint64_t before = codec->dyn().stats().compiled_calls;
    for (auto _ : state) {
      {
        T target(&arena);
        if (!codec->deserialize(in.padded(), target)) {
          state.SkipWithError("deserialize failed");
          break;
        }
        benchmark::DoNotOptimize(&target);
      }
      arena.release();
    }
    check_ran_compiled(*codec, tier, before, state);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
  });
}

// binary/Graph/deserialize/handwritten_copy: the sample copied by hand into a fresh Graph,
// destroyed as the interp and jit entries' are, with no bytes read: the cost of the objects
// alone, the floor under any reader into a fresh Graph. Graph_pmr's is the same over the arena
// its readers use, released after each copy as theirs is.
void register_graph_copies() {
  benchmark::RegisterBenchmark("binary/Graph/deserialize/handwritten_copy",
                               [](benchmark::State& state) {
                                 const payloads::Graph sample = payloads::make_graph();
                                 if (!(payloads::copy_graph(sample) == sample)) {
                                   state.SkipWithError("the copy is not equal to the sample");
                                   return;
                                 }
                                 for (auto _ : state) {
                                   payloads::Graph target = payloads::copy_graph(sample);
                                   benchmark::DoNotOptimize(&target);
                                 }
                               });
  benchmark::RegisterBenchmark(
      "binary/Graph_pmr/deserialize/handwritten_copy", [](benchmark::State& state) {
        const payloads::GraphPmr sample = payloads::make_graph_pmr();
        std::vector<std::byte> memory(64 << 20);
        std::pmr::monotonic_buffer_resource arena(memory.data(), memory.size());
        if (!(payloads::copy_graph(sample, &arena) == sample)) {
          state.SkipWithError("the copy is not equal to the sample");
          return;
        }
        arena.release();
        for (auto _ : state) {
          {
            payloads::GraphPmr target = payloads::copy_graph(sample, &arena);
            benchmark::DoNotOptimize(&target);
          }
          arena.release();
        }
      });
}

// One engine per tier with the payload types loaded from their schema text, as a program that
// learns its types at run time has them: no C++ type behind them.
Engine& text_engine_for(Tier tier) {
  static Engine interp(EngineOptions{.jit = JitPolicy::Off});
  static Engine jit(EngineOptions{.jit = JitPolicy::Sync});
  static const bool loaded = [] {
    Result<std::string> text = engine_for(Impl::Interp).schema_text("MediaContent");
    return text && interp.load_schema(*text).ok() && jit.load_schema(*text).ok();
  }();
  if (!loaded) std::abort();
  return tier == Tier::Compiled ? jit : interp;
}

// <format>/<payload>_text/{serialize,deserialize}/<tier>: the payload's sample through the
// type loaded from its schema text, which must write the bytes the C++ type writes.
template <class T>
void register_text_codec(Format format, const std::string& payload, const T& sample, Tier tier) {
  Buffer expected;
  {
    auto codec = engine_for(Impl::Interp).codec<T>(format);
    if (!codec || !codec->serialize(sample, expected)) std::abort();
  }
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(expected.to_vector());
  const std::string prefix = std::string(format_name(format)) + "/" + payload + "_text/";
  const std::string impl = impl_name(tier);
  // The object read from the C++ type's bytes, written back: the same bytes, or an error.
  auto ready = [payload, format, tier, bytes](benchmark::State& state, Object& object) {
    Result<DynCodec> codec = text_engine_for(tier).codec(payload, format);
    if (!codec) {
      state.SkipWithError(codec.status().to_string().c_str());
      return codec;
    }
    if (codec->stats().tier != tier) {
      state.SkipWithError("codec runs on the other tier (JITSER_JIT set?)");
      return Result<DynCodec>(Status(Errc::internal, "tier"));
    }
    object = Object(codec->type());
    Buffer again;
    if (!codec->deserialize(*bytes, object.get()) || !codec->serialize(object.get(), again) ||
        again.to_vector() != *bytes) {
      state.SkipWithError("the loaded type does not write the C++ type's bytes");
      return Result<DynCodec>(Status(Errc::internal, "bytes"));
    }
    return codec;
  };
  benchmark::RegisterBenchmark(
      (prefix + "serialize/" + impl).c_str(), [ready](benchmark::State& state) {
        Object object;
        Result<DynCodec> codec = ready(state, object);
        if (!codec) return;
        Buffer out;
        for (auto _ : state) {
          if (!codec->serialize(object.get(), out)) {
            state.SkipWithError("serialize failed");
            break;
          }
          benchmark::DoNotOptimize(out.data());
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
      });
  benchmark::RegisterBenchmark(
      (prefix + "deserialize/" + impl).c_str(), [ready, bytes](benchmark::State& state) {
        Object object;
        Result<DynCodec> codec = ready(state, object);
        if (!codec) return;
        Buffer in;
        in.append(bytes->data(), bytes->size());
        for (auto _ : state) {
          if (!codec->deserialize(in.padded(), object.get())) {
            state.SkipWithError("deserialize failed");
            break;
          }
          benchmark::DoNotOptimize(object.get());
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
      });
}

// One engine per tier with MediaContent loaded from bench/peers/payloads.proto, as a program
// that learns its types at run time has them: no C++ type behind them.
Engine& schema_engine_for(Tier tier) {
  static Engine interp(EngineOptions{.jit = JitPolicy::Off});
  static Engine jit(EngineOptions{.jit = JitPolicy::Sync});
  static const bool loaded = [] {
    const std::string file = JITSER_SOURCE_DIR "/bench/peers/payloads.proto";
    return load_proto(interp, file).ok() && load_proto(jit, file).ok();
  }();
  if (!loaded) std::abort();
  return tier == Tier::Compiled ? jit : interp;
}

// <format>/MediaContent_schema/{serialize,deserialize}/<tier>: MediaContent's sample through
// the type loaded from the .proto. The object is read from protobuf's own JSON of the sample
// (DynamicMessage's MessageToJsonString), which its JSON codec must write back byte for byte;
// its binary bytes must read back and write again the same.
void register_schema_codec(Format format, Tier tier) {
  static const std::string kType = "jitser.bench.pb.MediaContent";
  auto protobuf_json = std::make_shared<std::string>();
  if (!bench::protobuf_dynamic::Message(payloads::make_media_content()).to_json(*protobuf_json)) {
    std::abort();
  }
  const std::string prefix = std::string(format_name(format)) + "/MediaContent_schema/";
  const std::string impl = impl_name(tier);
  // The object and its bytes in the format, or an error.
  auto ready = [format, tier, protobuf_json](benchmark::State& state, Object& object,
                                             Buffer& bytes) {
    Result<DynCodec> json = schema_engine_for(tier).codec(kType, Format::Json);
    Result<DynCodec> codec = schema_engine_for(tier).codec(kType, format);
    if (!json || !codec) {
      state.SkipWithError((json ? codec : json).status().to_string().c_str());
      return codec;
    }
    if (codec->stats().tier != tier) {
      state.SkipWithError("codec runs on the other tier (JITSER_JIT set?)");
      return Result<DynCodec>(Status(Errc::internal, "tier"));
    }
    object = Object(codec->type());
    Buffer text, again;
    Object back(codec->type());
    if (!json->deserialize(*protobuf_json, object) || !json->serialize(object, text) ||
        std::string_view(reinterpret_cast<const char*>(text.data()), text.size()) !=
            *protobuf_json ||
        !codec->serialize(object, bytes) || !codec->deserialize(bytes.bytes(), back) ||
        !codec->serialize(back, again) || again.to_vector() != bytes.to_vector()) {
      state.SkipWithError("the .proto type does not write protobuf's JSON, or its bytes back");
      return Result<DynCodec>(Status(Errc::internal, "bytes"));
    }
    return codec;
  };
  benchmark::RegisterBenchmark(
      (prefix + "serialize/" + impl).c_str(), [ready](benchmark::State& state) {
        Object object;
        Buffer out;
        Result<DynCodec> codec = ready(state, object, out);
        if (!codec) return;
        for (auto _ : state) {
          if (!codec->serialize(object, out)) {
            state.SkipWithError("serialize failed");
            break;
          }
          benchmark::DoNotOptimize(out.data());
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
      });
  benchmark::RegisterBenchmark(
      (prefix + "deserialize/" + impl).c_str(), [ready](benchmark::State& state) {
        Object object;
        Buffer in;
        Result<DynCodec> codec = ready(state, object, in);
        if (!codec) return;
        in.reserve(in.size() + kReadPadding);
        for (auto _ : state) {
          if (!codec->deserialize(in.padded(), object)) {
            state.SkipWithError("deserialize failed");
            break;
          }
          benchmark::DoNotOptimize(object.get());
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
  // Parsing into the generated message alone: what a program that keeps its data in the
  // generated classes pays to read.
  benchmark::RegisterBenchmark(
      (prefix + "parse/protobuf_generated").c_str(), [value](benchmark::State& state) {
        bench::protobuf_peer::Codec<T> codec;
        std::string in;
        if (!codec.serialize(*value, in) || !codec.parse(in)) {
          state.SkipWithError("protobuf does not parse its own bytes");
          return;
        }
        for (auto _ : state) {
          if (!codec.parse(in)) {
            state.SkipWithError("parse failed");
            break;
          }
          benchmark::ClobberMemory();
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
      });
}

// protobuf/MediaContent/<op>/protobuf_dynamic and json/MediaContent/<op>/protobuf_dynamic_json:
// DynamicMessage, of a type built at run time, holding the value as an Object does; its JSON
// reader reads what its writer wrote.
void register_protobuf_dynamic() {
  namespace dynamic = bench::protobuf_dynamic;
  auto message = std::make_shared<dynamic::Message>(payloads::make_media_content());
  using Step = bool (*)(dynamic::Message&, std::string&);
  auto entry = [message](const std::string& name, Step prepare, Step step) {
    benchmark::RegisterBenchmark(name.c_str(), [message, prepare, step](benchmark::State& state) {
      std::string bytes;
      if (!prepare(*message, bytes)) {
        state.SkipWithError("protobuf refused the value");
        return;
      }
      for (auto _ : state) {
        if (!step(*message, bytes)) {
          state.SkipWithError("protobuf failed");
          break;
        }
        benchmark::DoNotOptimize(bytes.data());
      }
      state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
    });
  };
  auto encode = [](dynamic::Message& m, std::string& bytes) { return m.serialize(bytes); };
  auto decode = [](dynamic::Message& m, std::string& bytes) { return m.deserialize(bytes); };
  auto to_json = [](dynamic::Message& m, std::string& text) { return m.to_json(text); };
  auto from_json = [](dynamic::Message& m, std::string& text) { return m.from_json(text); };
  entry("protobuf/MediaContent/serialize/protobuf_dynamic", encode, encode);
  entry("protobuf/MediaContent/deserialize/protobuf_dynamic", encode, decode);
  entry("json/MediaContent/serialize/protobuf_dynamic_json", to_json, to_json);
  entry("json/MediaContent/deserialize/protobuf_dynamic_json", to_json, from_json);
}

// json/<payload>/<op>/{rapidjson,nlohmann,simdjson_ondemand}: the peers of bench/peers/
// json_peers.h on the same values. Readers read jitser's own output (or `input`), from a
// reused string with simdjson's padding, into one reused object.
template <class T>
void register_json_peers(const std::string& payload, const T& sample,
                         std::optional<std::string> input = std::nullopt) {
  namespace peers = bench::json_peers;
  auto value = std::make_shared<T>(sample);
  auto text = std::make_shared<std::string>();
  if (input) {
    *text = *input;
  } else {
    Buffer out;
    auto codec = engine_for(Impl::Interp).codec<T>(Format::Json);
    if (!codec || !codec->serialize(sample, out)) std::abort();
    text->assign(reinterpret_cast<const char*>(out.data()), out.size());
  }
  const std::string prefix = "json/" + payload + "/";
  using Write = bool (*)(const T&, std::string&);
  using Read = bool (*)(std::string_view, T&);
  if (!input) {
    for (auto [impl, write] :
         {std::pair<const char*, Write>{"rapidjson", peers::rapidjson_write<T>},
          std::pair<const char*, Write>{"nlohmann", peers::nlohmann_write<T>}}) {
      benchmark::RegisterBenchmark(
          (prefix + "serialize/" + impl).c_str(), [value, write](benchmark::State& state) {
            std::string out;
            for (auto _ : state) {
              if (!write(*value, out)) {
                state.SkipWithError("serialize failed");
                break;
              }
              benchmark::DoNotOptimize(out.data());
            }
            state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
          });
    }
  }
  for (auto [impl, read] :
       {std::pair<const char*, Read>{"rapidjson", peers::rapidjson_read<T>},
        std::pair<const char*, Read>{"nlohmann", peers::nlohmann_read<T>},
        std::pair<const char*, Read>{"simdjson_ondemand", peers::simdjson_read<T>}}) {
    benchmark::RegisterBenchmark(
        (prefix + "deserialize/" + impl).c_str(), [value, text, read](benchmark::State& state) {
          std::string padded = *text + std::string(64, '\0');
          const std::string_view json(padded.data(), text->size());
          T target{};
          if (!read(json, target) || !(target == *value)) {
            state.SkipWithError("round trip does not give back an equal value");
            return;
          }
          for (auto _ : state) {
            if (!read(json, target)) {
              state.SkipWithError("deserialize failed");
              break;
            }
            benchmark::DoNotOptimize(&target);
          }
          state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * json.size()));
        });
  }
}

// A peer library bound to a payload (write() the bytes of its value, read(bytes) it back,
// value() what it read): <prefix>serialize/<impl> and <prefix>deserialize/<impl>, the latter
// reading the bytes the peer wrote.
template <class Peer, class T>
void register_peer(const std::string& prefix, const char* impl, std::shared_ptr<Peer> peer,
                   const T& sample) {
  benchmark::RegisterBenchmark(
      (prefix + "serialize/" + impl).c_str(), [peer](benchmark::State& state) {
        std::size_t size = 0;
        for (auto _ : state) {
          const auto bytes = peer->write();
          benchmark::DoNotOptimize(bytes.data());
          size = bytes.size();
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
      });
  const auto written = peer->write();
  auto input = std::make_shared<std::vector<std::uint8_t>>(written.begin(), written.end());
  benchmark::RegisterBenchmark(
      (prefix + "deserialize/" + impl).c_str(), [peer, input, sample](benchmark::State& state) {
        if (!peer->read(*input) || !(peer->value() == sample)) {
          state.SkipWithError("round trip does not give back an equal value");
          return;
        }
        for (auto _ : state) {
          if (!peer->read(*input)) {
            state.SkipWithError("deserialize failed");
            break;
          }
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input->size()));
      });
}

// msgpack-cxx in its two layouts: msgpack/<payload>/<op>/msgpack_cxx_map and _array (the map
// layout's bytes are the document jitser writes).
template <class T>
void register_msgpack_peers(const std::string& payload, const T& sample) {
  namespace peers = bench::msgpack_peers;
  for (auto [impl, layout] : {std::pair{"msgpack_cxx_map", peers::Layout::Map},
                              std::pair{"msgpack_cxx_array", peers::Layout::Array}}) {
    register_peer("msgpack/" + payload + "/", impl,
                  std::make_shared<peers::MsgpackCxx<T>>(layout, sample), sample);
  }
}

// libcbor: cbor/<payload>/<op>/libcbor.
template <class T>
void register_cbor_peers(const std::string& payload, const T& sample) {
  register_peer("cbor/" + payload + "/", "libcbor",
                std::make_shared<bench::cbor_peers::LibCbor<T>>(sample), sample);
}

// The same document with every object's keys in reverse order.
nlohmann::ordered_json reversed(const nlohmann::ordered_json& j) {
  if (j.is_array()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& e : j) out.push_back(reversed(e));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  std::vector<std::pair<std::string, const nlohmann::ordered_json*>> items;
  for (auto it = j.begin(); it != j.end(); ++it) items.emplace_back(it.key(), &it.value());
  for (auto it = items.rbegin(); it != items.rend(); ++it) out[it->first] = reversed(*it->second);
  return out;
}

// JSON has no references: its Graph is the sample without the shared and cyclic links (no
// manager, friends, by_name or owner), so that it can be written and read back equal.
payloads::Graph json_graph() {
  payloads::Graph g = payloads::make_graph();
  g.by_name.clear();
  g.owner.reset();
  for (const auto& a : g.accounts) {
    a->manager.reset();
    a->friends.clear();
  }
  return g;
}

// A timing of a new Engine with `options` from registration until MediaContent's codecs in
// `formats`, compiled side by side by compile_all, run `code`, the Engine's LLJIT started on
// the way. Destroying the Engine is left out of the time.
void register_compile_timing(const char* name, EngineOptions options, std::vector<Format> formats,
                             CompiledCode code) {
  benchmark::RegisterBenchmark(
      name,
      [options, formats, code](benchmark::State& state) {
        for (auto _ : state) {
          auto engine = std::make_unique<Engine>(options);
          const auto start = std::chrono::steady_clock::now();
          const bool made =
              payloads::register_all(*engine).ok() &&
              engine->compile_all({.types = {"MediaContent"}, .formats = formats}).ok();
          if (!made) {
            state.SkipWithError("no codec");
            break;
          }
          const auto end = std::chrono::steady_clock::now();
          for (const CodecStats& s : engine->stats()) {
            if (s.code != code) {
              state.SkipWithError(("not the code timed: " + s.failure).c_str());
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

// <format>/MediaContent/compile/jit: optimized code for MediaContent's codecs in one format
// (one module, holding Media's and Image's routines too). compile/MediaContent/first and
// .../optimized: first-tier and optimized code for MediaContent's binary and JSON codecs (both
// directions).
void register_compile() {
  for (const auto& [name, format] : {std::pair{"binary", Format::Binary},
                                     {"json", Format::Json},
                                     {"msgpack", Format::Msgpack},
                                     {"cbor", Format::Cbor}}) {
    register_compile_timing((std::string(name) + "/MediaContent/compile/jit").c_str(),
                            EngineOptions{.jit = JitPolicy::Sync}, {format},
                            CompiledCode::Optimized);
  }
  register_compile_timing("compile/MediaContent/first",
                          EngineOptions{.jit = JitPolicy::Sync, .tiers = CompileTiers::First},
                          {Format::Binary, Format::Json}, CompiledCode::FirstTier);
  register_compile_timing("compile/MediaContent/optimized",
                          EngineOptions{.jit = JitPolicy::Sync, .tiers = CompileTiers::Optimized},
                          {Format::Binary, Format::Json}, CompiledCode::Optimized);
}

// The resident memory of this process, in bytes.
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

// compile/generated1000/cold and .../cached: the binary and JSON codecs of 1,000 generated
// types (bench/generated_types.h), 2,000 codecs, brought to first-tier code by compile_all in a
// fresh Engine: cold over an empty code cache, cached over one that the cached entry fills
// before its first timing. Counters: `codecs`; `KB_per_codec`, the resident memory compiled
// code added to the Engine, whose codecs were made on the interpreter first; and `MB_kept`,
// what the process holds after the Engine is gone, above what it held before it was made.
// Returns the cached entry's directory, once it made one, for main to remove.
std::shared_ptr<const std::string> register_compile_generated() {
  constexpr int kTypes = 1000;
  auto warm_dir = std::make_shared<std::string>();
  for (const bool cached : {false, true}) {
    benchmark::RegisterBenchmark(
        cached ? "compile/generated1000/cached" : "compile/generated1000/cold",
        [cached, warm_dir](benchmark::State& state) {
          const std::string schema = bench::generated_schema(kTypes, 20);
          const std::vector<std::string> names = bench::generated_struct_names(kTypes);
          const std::vector<Format> formats = {Format::Binary, Format::Json};
          auto new_dir = [] {
            char made[] = "/tmp/jitser-bench-generated-XXXXXX";
            return std::string(::mkdtemp(made) ? made : "");
          };
          // Codecs made on the interpreter first (lazy, and never called), then compiled.
          auto run = [&](const std::string& dir, bool hits, double& seconds, double& added) {
            Engine engine(EngineOptions{.jit = JitPolicy::Lazy,
                                        .tiers = CompileTiers::First,
                                        .lazy_calls = UINT32_MAX,
                                        .cache_dir = dir});
            if (!engine.load_schema(schema)) return false;
            for (const std::string& name : names) {
              for (const Format format : formats) {
                if (!engine.codec(name, format)) return false;
              }
            }
            const double before = resident_bytes();
            const auto start = std::chrono::steady_clock::now();
            if (!engine.compile_all({.formats = formats})) return false;
            seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            added = resident_bytes() - before;
            for (const CodecStats& s : engine.stats()) {
              if (s.code != CompiledCode::FirstTier || (hits && s.cache != "hit")) {
                state.SkipWithError(
                    (s.type + " not on first-tier code: " + s.failure + " " + s.cache).c_str());
                return false;
              }
            }
            return true;
          };
          double seconds = 0, added = 0;
          if (cached && warm_dir->empty()) {
            *warm_dir = new_dir();
            if (!run(*warm_dir, false, seconds, added)) return;
          }
          const double start_resident = resident_bytes();
          for (auto _ : state) {
            const std::string dir = cached ? *warm_dir : new_dir();
            const bool ran = run(dir, cached, seconds, added);
            if (!cached) std::filesystem::remove_all(dir);
            if (!ran) break;
            state.SetIterationTime(seconds);
          }
          const double codecs = 2.0 * kTypes;
          state.counters["codecs"] = codecs;
          state.counters["KB_per_codec"] = added / codecs / 1024;
          state.counters["MB_kept"] = (resident_bytes() - start_resident) / (1024 * 1024);
        })
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  return warm_dir;
}

// compile/all/cached: every payload codec in binary and JSON, both directions, in a fresh Engine
// over a warm code cache (docs/jit.md): from registration until every codec runs code linked
// from the cache. The cache is a directory of this run's, warmed before the first iteration.
void register_compile_cached() {
  benchmark::RegisterBenchmark(
      "compile/all/cached",
      [](benchmark::State& state) {
        char dir[] = "/tmp/jitser-bench-cache-XXXXXX";
        if (!::mkdtemp(dir)) {
          state.SkipWithError("no cache directory");
          return;
        }
        std::vector<std::string> names;
        payloads::for_each_payload([&](const char* name, const auto&) { names.push_back(name); });
        auto all_codecs = [&](Engine& engine) {
          if (!payloads::register_all(engine)) return false;
          for (const std::string& name : names) {
            for (const Format format : {Format::Binary, Format::Json}) {
              if (!engine.codec(name, format)) return false;
            }
          }
          return true;
        };
        const EngineOptions options{.jit = JitPolicy::Sync, .cache_dir = dir};
        {
          Engine warm(options);
          if (!all_codecs(warm)) state.SkipWithError("no codec");
        }
        for (auto _ : state) {
          auto engine = std::make_unique<Engine>(options);
          const auto start = std::chrono::steady_clock::now();
          if (!all_codecs(*engine)) {
            state.SkipWithError("no codec");
            break;
          }
          const auto end = std::chrono::steady_clock::now();
          for (const CodecStats& s : engine->stats()) {
            if (s.tier != Tier::Compiled || s.cache != "hit") {
              state.SkipWithError((s.type + " not linked from the cache: " + s.cache).c_str());
              break;
            }
          }
          state.SetIterationTime(std::chrono::duration<double>(end - start).count());
          state.PauseTiming();
          engine.reset();
          state.ResumeTiming();
        }
        std::filesystem::remove_all(dir);
      })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  for (Impl tier : {Impl::Interp, Impl::Jit}) {
    payloads::for_each_payload([tier](const char* name, const auto& value) {
      register_codec(Format::Binary, name, value, tier);
    });
  }
  for (Impl tier : {Impl::Interp, Impl::Jit}) {
    payloads::for_each_payload([tier](const char* name, const auto& value) {
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, payloads::Graph>) {
        register_codec(Format::Json, name, json_graph(), tier);
      } else {
        register_codec(Format::Json, name, value, tier);
      }
    });
  }
  bench::json_peers::for_each_payload(
      [](const char* name, const auto& value) { register_json_peers(name, value); });
  {
    // MediaContent with every object's keys in reverse order.
    Buffer out;
    auto codec = engine_for(Impl::Interp).codec<payloads::MediaContent>(Format::Json);
    if (!codec || !codec->serialize(payloads::make_media_content(), out)) std::abort();
    const std::string shuffled =
        reversed(nlohmann::ordered_json::parse(out.data(), out.data() + out.size())).dump();
    for (Impl tier : {Impl::Interp, Impl::Jit}) {
      register_codec(Format::Json, "MediaContent_shuffled", payloads::make_media_content(), tier,
                     shuffled);
    }
    register_json_peers("MediaContent_shuffled", payloads::make_media_content(), shuffled);
  }
  for (const Format format : all_formats()) {
    for (Impl tier : {Impl::Interp, Impl::Jit}) {
      if (tier == Impl::Interp || format_compiles(format)) {
        register_arena_read(format, tier, "StringMap_pmr", &payloads::make_string_map_pmr);
      }
    }
  }
  for (Impl tier : {Impl::Interp, Impl::Jit}) {
    register_arena_read(Format::Binary, tier, "Graph_pmr", &payloads::make_graph_pmr);
  }
  register_graph_copies();
  // A Graph has cycles, which Protobuf cannot write.
  for (Impl tier : {Impl::Interp, Impl::Jit}) {
    payloads::for_each_payload([tier](const char* name, const auto& value) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(value)>, payloads::Graph>) {
        register_codec(Format::Protobuf, name, value, tier);
      }
    });
  }
  // MessagePack and CBOR copy shared objects, so they refuse the Graph's cycles too.
  for (const Format format : {Format::Msgpack, Format::Cbor}) {
    for (Impl tier : {Impl::Interp, Impl::Jit}) {
      payloads::for_each_payload([format, tier](const char* name, const auto& value) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(value)>, payloads::Graph>) {
          register_codec(format, name, value, tier);
        }
      });
    }
  }
  // jit_array against msgpack_cxx_array: both write the same bytes.
  bench::msgpack_peers::for_each_payload([](const char* name, const auto& value) {
    register_codec(Format::Msgpack, name, value, Impl::JitArray);
    register_msgpack_peers(name, value);
  });
  bench::cbor_peers::for_each_payload(
      [](const char* name, const auto& value) { register_cbor_peers(name, value); });
  // First-tier code, which runs while optimized code compiles (docs/jit.md).
  for (const Format format : all_formats()) {
    if (!format_compiles(format)) continue;
    register_codec(format, "MediaContent", payloads::make_media_content(), Impl::First);
    register_codec(format, "Sample", payloads::make_sample(), Impl::First);
  }
  for (const Format format : all_formats()) {
    for (Tier tier : {Tier::Interpreter, Tier::Compiled}) {
      if (tier == Tier::Compiled && !format_compiles(format)) continue;
      register_text_codec(format, "MediaContent", payloads::make_media_content(), tier);
      register_schema_codec(format, tier);
    }
  }
  register_protobuf("MediaContent", payloads::make_media_content());
  register_protobuf("Sample", payloads::make_sample());
  register_protobuf_dynamic();
  register_compile();
  register_compile_cached();
  const std::shared_ptr<const std::string> generated_cache = register_compile_generated();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  if (!generated_cache->empty()) std::filesystem::remove_all(*generated_cache);
  benchmark::Shutdown();
  return 0;
}

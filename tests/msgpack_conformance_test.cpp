// The MessagePack test suite (github.com/kawanet/msgpack-test-suite, from the npm package
// msgpack-test-suite, copied out by scripts/msgpack_test_suite.sh): every encoding each case
// lists for its value reads into a jitser::Value that holds that value, which writes back to
// the shortest of them. Timestamps are read into a typed field, as jitser::Value holds no
// extension types yet; those it refuses with `unsupported`. The file is
// in the CMake cache's JITSER_MSGPACK_TEST_SUITE directory, or the environment variable of that
// name; CTest's fixture msgpack_test_suite.fetch writes it before this test runs.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support.h"
#include "value_json.h"

namespace jitser {
namespace {

using nlohmann::ordered_json;
using Nanos = std::chrono::sys_time<std::chrono::nanoseconds>;

// The suite's bytes: hex pairs joined by '-'.
std::vector<std::uint8_t> bytes_of(const std::string& dashed) {
  std::string hex = dashed;
  for (char& c : hex) {
    if (c == '-') c = ' ';
  }
  return test::from_hex(hex);
}

// Whether `v` holds the case's value: its one key besides "msgpack" says of what kind.
::testing::AssertionResult holds(const Value& v, const std::string& kind, const ordered_json& x) {
  if (kind == "binary") {
    if (v.type() == Value::Type::Bytes && v.as_bytes() == bytes_of(x.get<std::string>())) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "not the bytes " << x.dump();
  }
  if (kind == "bignum") {
    const std::string digits = x.get<std::string>();
    switch (v.type()) {
      case Value::Type::Int:
        if (std::to_string(v.as_int()) == digits) return ::testing::AssertionSuccess();
        break;
      case Value::Type::UInt:
        if (std::to_string(v.as_uint()) == digits) return ::testing::AssertionSuccess();
        break;
      case Value::Type::Double:
        if (v.as_double() == std::stod(digits)) return ::testing::AssertionSuccess();
        break;
      default: break;
    }
    return ::testing::AssertionFailure() << "not the number " << digits;
  }
  return test::agrees(v, x);
}

struct Counts {
  int cases = 0, encodings = 0, timestamps = 0, extensions = 0;
};

TEST(MsgpackConformance, EveryEncodingReadsToTheCasesValue) {
  const char* dir = std::getenv("JITSER_MSGPACK_TEST_SUITE");
  if (!dir) dir = JITSER_MSGPACK_TEST_SUITE_DIR;
  const std::filesystem::path file = std::filesystem::path(dir) / "msgpack-test-suite.json";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file << " cannot be read: run scripts/msgpack_test_suite.sh " << dir;
  const ordered_json suite = ordered_json::parse(in);

  Engine e;
  ASSERT_TRUE(test::add_one<Nanos>(e).ok());
  Codec<Value> values = test::codec_of<Value>(e, Format::Msgpack);
  Codec<test::One<Nanos>> stamps = test::codec_of<test::One<Nanos>>(e, Format::Msgpack);
  Counts n;
  for (const auto& [group, cases] : suite.items()) {
    for (const ordered_json& c : cases) {
      std::string kind;
      for (const auto& [key, value] : c.items()) {
        // A number past 2^53 is given as "bignum" only; others as both, of which that is exact.
        if (key != "msgpack" && (kind.empty() || key == "bignum")) kind = key;
      }
      SCOPED_TRACE(group + ": " + c.dump());
      ++n.cases;
      const ordered_json& encodings = c.at("msgpack");
      for (std::size_t i = 0; i < encodings.size(); ++i) {
        const std::vector<std::uint8_t> bytes = bytes_of(encodings[i].get<std::string>());
        SCOPED_TRACE(encodings[i].get<std::string>());
        ++n.encodings;
        Value v;
        const Status read = values.deserialize(bytes, v);
        if (kind == "timestamp" || kind == "ext") {
          EXPECT_EQ(read.code(), Errc::unsupported) << read.to_string();
          if (kind == "ext") {
            ++n.extensions;
            continue;
          }
          ++n.timestamps;
          // {"v": timestamp}, read into a field of nanoseconds, which holds +-292 years.
          std::vector<std::uint8_t> one = test::from_hex("81 A1 76");
          one.insert(one.end(), bytes.begin(), bytes.end());
          test::One<Nanos> t;
          const Status typed = stamps.deserialize(one, t);
          const auto seconds = c.at("timestamp")[0].get<std::int64_t>();
          const auto nanos = c.at("timestamp")[1].get<std::int64_t>();
          if (seconds > INT64_MAX / 1000000000 || seconds < INT64_MIN / 1000000000) {
            EXPECT_EQ(typed.code(), Errc::out_of_range) << typed.to_string();
          } else {
            ASSERT_TRUE(typed.ok()) << typed.to_string();
            EXPECT_EQ(t.v.time_since_epoch().count(), seconds * 1000000000 + nanos);
          }
          continue;
        }
        ASSERT_TRUE(read.ok()) << read.to_string();
        EXPECT_TRUE(holds(v, kind, c.at(kind)));
        // The Value of the first encoding writes back to one of the case's encodings, of the
        // fewest bytes: the shortest form. A Value holds floats as doubles (float widths in Value are left out:
        // docs/formats/msgpack.md), so a value a float 32 holds is written as a float 64.
        if (i == 0) {
          Buffer out;
          ASSERT_TRUE(values.serialize(v, out).ok());
          const std::vector<std::uint8_t> written = out.to_vector();
          std::size_t fewest = SIZE_MAX;
          bool listed = false;
          for (const ordered_json& other : encodings) {
            const std::vector<std::uint8_t> b = bytes_of(other.get<std::string>());
            if (b.front() != 0xca) fewest = std::min(fewest, b.size());
            listed |= b == written;
          }
          EXPECT_TRUE(listed) << test::to_hex(written);
          EXPECT_EQ(written.size(), fewest) << test::to_hex(written);
        }
      }
    }
  }
  EXPECT_EQ(n.cases, 85);
  EXPECT_GT(n.encodings, n.cases);
  EXPECT_GT(n.timestamps, 0);
  EXPECT_GT(n.extensions, 0);
  std::printf(
      "msgpack-test-suite: %d cases, %d encodings (%d timestamps read typed, %d extension "
      "encodings refused by Value)\n",
      n.cases, n.encodings, n.timestamps, n.extensions);
}

}  // namespace
}  // namespace jitser

// The MessagePack test suite (github.com/kawanet/msgpack-test-suite, from the npm package
// msgpack-test-suite, copied out by scripts/msgpack_test_suite.sh): every encoding each case
// lists for its value reads into a jitser::Value that holds that value and writes back to one
// of them, no longer than the first (the suite's own form). Extensions, timestamps among them,
// are held as Extension values; timestamps are also read into a typed field. The file is
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
      case Value::Type::Float:
        if (static_cast<double>(v.as_float()) == std::stod(digits)) {
          return ::testing::AssertionSuccess();
        }
        break;
      default: break;
    }
    return ::testing::AssertionFailure() << "not the number " << digits;
  }
  if (kind == "ext") {
    const Value expected(
        Extension{static_cast<std::int8_t>(x[0].get<int>()), bytes_of(x[1].get<std::string>())});
    if (v == expected) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "not the extension " << x.dump();
  }
  if (kind == "timestamp") {
    if (v.type() == Value::Type::Extension && v.as_extension().type == -1) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "not a timestamp extension";
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
        ASSERT_TRUE(read.ok()) << read.to_string();
        EXPECT_TRUE(holds(v, kind, c.at(kind)));
        // Written back: one of the case's encodings, which reads back the same, and none longer
        // than the first, the suite's own form (which is the same bytes but where an integer
        // has two of the fewest: 2^63 - 1 is uint 64 or int 64).
        Buffer out;
        ASSERT_TRUE(values.serialize(v, out).ok());
        const std::vector<std::uint8_t> written = out.to_vector();
        bool listed = false;
        for (const ordered_json& other : encodings) {
          listed |= bytes_of(other.get<std::string>()) == written;
        }
        EXPECT_TRUE(listed) << test::to_hex(written);
        Value again;
        ASSERT_TRUE(values.deserialize(written, again).ok());
        EXPECT_EQ(again, v);
        if (i == 0) {
          EXPECT_LE(written.size(), bytes.size()) << test::to_hex(written);
        }
        if (kind == "ext") ++n.extensions;
        if (kind != "timestamp") continue;
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
      }
    }
  }
  EXPECT_EQ(n.cases, 85);
  EXPECT_GT(n.encodings, n.cases);
  EXPECT_GT(n.timestamps, 0);
  EXPECT_GT(n.extensions, 0);
  std::printf(
      "msgpack-test-suite: %d cases, %d encodings (%d timestamps, also read typed, and %d "
      "other extensions), each read into a Value and written back\n",
      n.cases, n.encodings, n.timestamps, n.extensions);
}

}  // namespace
}  // namespace jitser

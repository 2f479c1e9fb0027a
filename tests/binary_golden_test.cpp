// The examples of docs/formats/binary.md, read from the document itself: every example row must
// be what the codec writes, and must read back to the value.
#include <xxhash.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <regex>

#include "support.h"

namespace jitser {
namespace {

using test::One;

using test::Color;

struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
  bool operator==(const Point&) const = default;
};

struct SharedPair {
  std::shared_ptr<One<std::int32_t>> a;
  std::shared_ptr<One<std::int32_t>> b;
};

// Writes `value` with a fresh fingerprint-free engine, reads it back, and compares.
template <class T>
std::string encode(Status (*add)(Engine&), const T& value,
                   std::function<bool(const T&, const T&)> equal = std::equal_to<T>()) {
  EngineOptions options;
  options.write_fingerprint = false;
  Engine e(options);
  if (Status s = add(e); !s) return "registration failed: " + s.to_string();
  auto codec = test::codec_of<T>(e);
  Buffer out;
  if (Status s = codec.serialize(value, out); !s) return "serialize failed: " + s.to_string();
  T back{};
  if (Status s = codec.deserialize(out.bytes(), back); !s)
    return "deserialize failed: " + s.to_string();
  if (!equal(back, value)) return "read back a different value";
  return test::to_hex(out.bytes());
}

template <class T>
Status add_one(Engine& e) {
  return test::add_one<T>(e);
}

Status add_color(Engine& e) {
  if (Status s = test::add_color(e); !s) return s;
  return test::add_one<Color>(e);
}

Status add_shared(Engine& e) {
  if (Status s = test::add_one<std::int32_t>(e, "Int"); !s) return s;
  if (Status s =
          e.add(Struct<SharedPair>("Pair").field("a", &SharedPair::a).field("b", &SharedPair::b));
      !s)
    return s;
  return test::add_one<std::vector<std::shared_ptr<One<std::int32_t>>>>(e, "SharedList");
}

std::map<std::string, std::function<std::string()>> examples() {
  using namespace std::chrono;
  using I32 = One<std::int32_t>;
  auto same_one = [](const auto& a, const auto& b) { return a.v == b.v; };
  return {
      {"point",
       [] {
         return encode(
             +[](Engine& e) {
               return e.add(Struct<Point>("Point").field("x", &Point::x).field("y", &Point::y));
             },
             Point{1, -2});
       }},
      {"string", [=] { return encode<One<std::string>>(add_one<std::string>, {"hi"}, same_one); }},
      {"int16", [=] { return encode<One<std::int16_t>>(add_one<std::int16_t>, {-2}, same_one); }},
      {"float", [=] { return encode<One<float>>(add_one<float>, {1.5f}, same_one); }},
      {"uint64",
       [=] { return encode<One<std::uint64_t>>(add_one<std::uint64_t>, {300}, same_one); }},
      {"int64_short",
       [=] { return encode<One<std::int64_t>>(add_one<std::int64_t>, {300}, same_one); }},
      {"int64_minus_one",
       [=] { return encode<One<std::int64_t>>(add_one<std::int64_t>, {-1}, same_one); }},
      {"int64_long",
       [=] {
         return encode<One<std::int64_t>>(add_one<std::int64_t>, {std::int64_t{1} << 40}, same_one);
       }},
      {"enum", [=] { return encode<One<Color>>(add_color, {Color::Blue}, same_one); }},
      {"decimal",
       [=] {
         return encode<One<Decimal>>(add_one<Decimal>, {Decimal{12345, 2}}, same_one);
       }},
      {"timestamp",
       [=] {
         return encode<One<sys_time<milliseconds>>>(add_one<sys_time<milliseconds>>,
                                                    {sys_time<milliseconds>(milliseconds(1500))},
                                                    same_one);
       }},
      {"duration",
       [=] {
         return encode<One<milliseconds>>(add_one<milliseconds>, {milliseconds(-1)}, same_one);
       }},
      {"optional_none",
       [=] {
         return encode<One<std::optional<std::int32_t>>>(add_one<std::optional<std::int32_t>>, {},
                                                         same_one);
       }},
      {"optional_some",
       [=] {
         return encode<One<std::optional<std::int32_t>>>(add_one<std::optional<std::int32_t>>, {5},
                                                         same_one);
       }},
      {"list",
       [=] {
         return encode<One<std::vector<std::int32_t>>>(add_one<std::vector<std::int32_t>>, {{1, 2}},
                                                       same_one);
       }},
      {"list_empty",
       [=] {
         return encode<One<std::vector<std::int32_t>>>(add_one<std::vector<std::int32_t>>, {},
                                                       same_one);
       }},
      {"map",
       [=] {
         return encode<One<std::map<std::string, std::int32_t>>>(
             add_one<std::map<std::string, std::int32_t>>, {{{"a", 1}}}, same_one);
       }},
      {"shared_twice",
       [] {
         auto p = std::make_shared<I32>(I32{1});
         return encode<SharedPair>(
             add_shared, SharedPair{p, p},
             [](const SharedPair& a, const SharedPair&) { return a.a == a.b && a.a->v == 1; });
       }},
      {"shared_list",
       [] {
         using L = One<std::vector<std::shared_ptr<I32>>>;
         return encode<L>(add_shared, L{{std::make_shared<I32>(I32{1}), nullptr}},
                          [](const L& a, const L&) {
                            return a.v.size() == 2 && a.v[0] && a.v[0]->v == 1 && !a.v[1];
                          });
       }},
      {"value",
       [=] {
         return encode<One<Value>>(
             add_one<Value>, {Value::Map{{"a", 1}, {"b", Value::Array{true, nullptr}}}}, same_one);
       }},
      {"value_decimal",
       [=] {
         return encode<One<Value>>(add_one<Value>, {Value(Decimal{-5, 2})}, same_one);
       }},
  };
}

struct Meters {
  double value = 0;
};
struct Tagged {
  Color color = Color::Green;
  Meters length;
  std::optional<std::string> note;
};

// The fingerprint examples: canonical text, its hash and the header, as the document writes
// them, against what an engine computes and writes.
TEST(BinaryGolden, FingerprintExamplesInTheSpecification) {
  EngineOptions options;
  options.write_fingerprint = true;
  Engine e(options);
  ASSERT_TRUE(test::add_color(e).ok());
  ASSERT_TRUE(e.add(Struct<Point>("Point").field("x", &Point::x).field("y", &Point::y)).ok());
  ASSERT_TRUE(e.add(Struct<Meters>("Meters").wraps("value", &Meters::value)).ok());
  ASSERT_TRUE(e.add(Struct<Tagged>("Tagged")
                        .field("color", &Tagged::color)
                        .field("length", &Tagged::length, opt().number(3))
                        .field("note", &Tagged::note, opt().nullable()))
                  .ok());
  std::map<std::string, std::function<std::string()>> headers{
      {"Point", [&] { return test::to_hex(*test::codec_of<Point>(e).serialize(Point{})); }},
      {"Tagged", [&] { return test::to_hex(*test::codec_of<Tagged>(e).serialize(Tagged{})); }},
  };
  std::ifstream doc(JITSER_SOURCE_DIR "/docs/formats/binary.md");
  ASSERT_TRUE(doc) << "docs/formats/binary.md not found";
  const std::regex row(R"(^\| (\w+) \| `([^`]+)` \| `([0-9A-F]{16})` \| `([0-9A-F ]+)` \|$)");
  int rows = 0;
  for (std::string line; std::getline(doc, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    ++rows;
    const std::string type = m[1];
    std::string text = m[2];
    for (std::size_t at; (at = text.find("\\n")) != std::string::npos;) text.replace(at, 2, "\n");
    const std::uint64_t fingerprint = std::stoull(m[3], nullptr, 16);
    EXPECT_EQ(XXH64(text.data(), text.size(), 0), fingerprint) << type << ": the document's hash";
    EXPECT_EQ(*e.schema_text(type), text) << type;
    EXPECT_EQ(*e.fingerprint(type), fingerprint) << type;
    ASSERT_TRUE(headers.count(type)) << type;
    EXPECT_EQ(headers[type]().substr(0, m[4].length()), m[4].str()) << type;
  }
  EXPECT_EQ(rows, 2);
}

TEST(BinaryGolden, EveryExampleInTheSpecification) {
  std::ifstream doc(JITSER_SOURCE_DIR "/docs/formats/binary.md");
  ASSERT_TRUE(doc) << "docs/formats/binary.md not found";
  const std::regex row(R"(^\| ([a-z0-9_]+) \| .* \| `([0-9A-F ]+)` \|$)");
  auto cases = examples();
  std::size_t seen = 0;
  for (std::string line; std::getline(doc, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    ++seen;
    auto it = cases.find(m[1]);
    ASSERT_NE(it, cases.end()) << "the specification has an example the test does not know: "
                               << m[1];
    EXPECT_EQ(it->second(), m[2].str()) << "example " << m[1];
    cases.erase(it);
  }
  EXPECT_TRUE(cases.empty()) << cases.size()
                             << " examples are missing from the specification, e.g. "
                             << (cases.empty() ? "" : cases.begin()->first);
  EXPECT_EQ(seen, 21u);
}

}  // namespace
}  // namespace jitser

// JSON: what jitser writes, what it reads, and how it refuses bad input. Expected texts are
// RFC 8259 JSON as any JSON library writes it, not copies of jitser's own rules.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>

#include "bench/payloads.h"
#include "formats/json/json_write.h"
#include "support.h"

namespace jitser {
namespace {

using test::One;

std::string text_of(const Buffer& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }
std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

template <class T>
std::string write(const T& v, EngineOptions options = {}) {
  Engine e(options);
  EXPECT_TRUE(test::add_color(e).ok());
  EXPECT_TRUE(test::add_one<decltype(v.v)>(e).ok());
  Buffer out;
  Status s = test::codec_of<T>(e, Format::Json).serialize(v, out);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return text_of(out);
}

template <class V>
Status read(const std::string& json, One<V>& into, EngineOptions options = {}) {
  Engine e(options);
  EXPECT_TRUE(test::add_color(e).ok());
  EXPECT_TRUE(test::add_one<V>(e).ok());
  return test::codec_of<One<V>>(e, Format::Json).deserialize(bytes_of(json), into);
}

TEST(Json, Scalars) {
  EXPECT_EQ(write(One<bool>{true}), R"({"v":true})");
  EXPECT_EQ(write(One<std::int8_t>{-128}), R"({"v":-128})");
  EXPECT_EQ(write(One<std::int64_t>{INT64_MIN}), R"({"v":-9223372036854775808})");
  EXPECT_EQ(write(One<std::uint64_t>{UINT64_MAX}), R"({"v":18446744073709551615})");
  EXPECT_EQ(write(One<double>{0.1}), R"({"v":0.1})");
  EXPECT_EQ(write(One<double>{1e300}), R"({"v":1e+300})");
  EXPECT_EQ(write(One<double>{2}), R"({"v":2.0})");
  EXPECT_EQ(write(One<float>{0.1f}), R"({"v":0.1})");
  EXPECT_EQ(write(One<test::Color>{test::Color::Blue}), R"({"v":"Blue"})");
}

TEST(Json, ShortestFloatsReadBackExactly) {
  for (double d : {0.1, 1.0 / 3, 5e-324, 1.7976931348623157e308, -0.0, 123456789.125}) {
    One<double> back;
    ASSERT_TRUE(read(write(One<double>{d}), back).ok());
    EXPECT_EQ(std::signbit(back.v), std::signbit(d));
    EXPECT_EQ(back.v, d);
  }
  One<float> f;
  ASSERT_TRUE(read(write(One<float>{3.4028235e38f}), f).ok());
  EXPECT_EQ(f.v, 3.4028235e38f);
}

// jitser's float text against the standard library's shortest form (std::to_chars, which
// jitser falls back on and whose output it must equal): random short decimals of every scale,
// integers with trailing zeros, and random bit patterns, as double and as float.
template <class F>
void expect_floats_as_to_chars(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto expected = [](F v) {
    char text[64];
    char* end = std::to_chars(text, text + sizeof text, v).ptr;
    std::string s(text, end);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  };
  auto check = [&](F v) {
    if (!std::isfinite(v)) return;
    char out[json::kMaxFloatChars];
    char* end = std::is_same_v<F, double> ? json::put_double(out, static_cast<double>(v))
                                          : json::put_float(out, static_cast<float>(v));
    ASSERT_NE(end, nullptr);
    ASSERT_EQ(std::string(out, end), expected(v)) << std::hexfloat << v;
  };
  for (int i = 0; i < 200000; ++i) {
    const auto digits = static_cast<std::int64_t>(rng() % 100000000);
    const int scale = static_cast<int>(rng() % 24) - 8;
    F v = static_cast<F>(digits) * static_cast<F>(std::pow(10.0, -scale));
    if (rng() % 2) v = -v;
    check(v);
    check(static_cast<F>(static_cast<double>(digits) / std::pow(10.0, rng() % 12)));
    F bits;
    const std::uint64_t raw = rng();
    std::memcpy(&bits, &raw, sizeof bits);
    check(bits);
  }
  for (double v = 1; v < 1e22; v *= 10) {
    for (int lead : {1, 12, 123, 999}) check(static_cast<F>(v * lead));
  }
}

TEST(Json, FloatsAreTheStandardLibrarysShortestForm) {
  expect_floats_as_to_chars<double>(7);
  expect_floats_as_to_chars<float>(8);
}

TEST(Json, NotFiniteIsAnError) {
  Engine e;
  ASSERT_TRUE(test::add_one<double>(e).ok());
  ASSERT_TRUE(test::add_one<float>(e, "OneFloat").ok());
  Buffer out;
  for (double d : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    Status s = test::codec_of<One<double>>(e, Format::Json).serialize({d}, out);
    EXPECT_EQ(s.code(), Errc::not_finite) << d;
    EXPECT_EQ(s.path(), "One.v");
  }
  for (float f : {std::nanf(""), HUGE_VALF, -HUGE_VALF}) {
    Status s = test::codec_of<One<float>>(e, Format::Json).serialize({f}, out);
    EXPECT_EQ(s.code(), Errc::not_finite) << f;
    EXPECT_EQ(s.path(), "OneFloat.v");
  }
}

// -0.0 is written with its sign and reads back negative, in both formats.
TEST(Json, NegativeZeroKeepsItsSign) {
  EXPECT_EQ(write(One<double>{-0.0}), R"({"v":-0.0})");
  EXPECT_EQ(write(One<float>{-0.0f}), R"({"v":-0.0})");
  One<double> d{1};
  ASSERT_TRUE(read(R"({"v":-0.0})", d).ok());
  EXPECT_TRUE(std::signbit(d.v));
  One<float> f{1};
  ASSERT_TRUE(read(R"({"v":-0})", f).ok());
  EXPECT_TRUE(std::signbit(f.v));
  Engine e;
  ASSERT_TRUE(test::add_one<double>(e).ok());
  Codec<One<double>> binary = test::codec_of<One<double>>(e, Format::Binary);
  One<double> back{1};
  ASSERT_TRUE(binary.deserialize(*binary.serialize(One<double>{-0.0}), back).ok());
  EXPECT_TRUE(std::signbit(back.v));
}

// Fixed arrays (std::array and C arrays) are JSON arrays of exactly their length; unordered maps
// are objects; std::byte vectors are base64 like uint8_t ones.
struct WithCArray {
  std::int32_t v[3] = {};
};

TEST(Json, ArraysUnorderedMapsAndStdBytes) {
  EXPECT_EQ(write(One<std::array<std::int16_t, 3>>{{1, -2, 3}}), R"({"v":[1,-2,3]})");
  One<std::array<std::int16_t, 3>> a;
  ASSERT_TRUE(read(R"({"v":[4,5,6]})", a).ok());
  EXPECT_EQ(a.v, (std::array<std::int16_t, 3>{4, 5, 6}));
  EXPECT_FALSE(read(R"({"v":[4,5]})", a).ok());
  EXPECT_FALSE(read(R"({"v":[4,5,6,7]})", a).ok());

  Engine e;
  ASSERT_TRUE(e.add(Struct<WithCArray>("WithCArray").field("v", &WithCArray::v)).ok());
  Codec<WithCArray> c_array = test::codec_of<WithCArray>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(c_array.serialize(WithCArray{{7, 8, 9}}, out).ok());
  EXPECT_EQ(text_of(out), R"({"v":[7,8,9]})");
  WithCArray back;
  ASSERT_TRUE(c_array.deserialize(bytes_of(R"({"v":[1,2,3]})"), back).ok());
  EXPECT_EQ(back.v[2], 3);

  EXPECT_EQ(write(One<std::unordered_map<std::string, std::int32_t>>{{{"k", 1}}}),
            R"({"v":{"k":1}})");
  One<std::unordered_map<std::string, std::int32_t>> m;
  ASSERT_TRUE(read(R"({"v":{"a":1,"b":2}})", m).ok());
  EXPECT_EQ(m.v, (std::unordered_map<std::string, std::int32_t>{{"a", 1}, {"b", 2}}));

  EXPECT_EQ(write(One<std::vector<std::byte>>{{std::byte{0}, std::byte{0xff}, std::byte{0x10}}}),
            R"({"v":"AP8Q"})");
  One<std::vector<std::byte>> b;
  ASSERT_TRUE(read(R"({"v":"AP8Q"})", b).ok());
  EXPECT_EQ(b.v, (std::vector<std::byte>{std::byte{0}, std::byte{0xff}, std::byte{0x10}}));
}

// JSON has no references: an object two pointers share is written twice and read back as two.
struct TwoShared {
  std::shared_ptr<One<std::int32_t>> a;
  std::shared_ptr<One<std::int32_t>> b;
};

TEST(Json, SharedObjectsAreWrittenAsCopies) {
  Engine e;
  ASSERT_TRUE(test::add_one<std::int32_t>(e).ok());
  ASSERT_TRUE(
      e.add(Struct<TwoShared>("TwoShared").field("a", &TwoShared::a).field("b", &TwoShared::b))
          .ok());
  Codec<TwoShared> codec = test::codec_of<TwoShared>(e, Format::Json);
  TwoShared value;
  value.a = value.b = std::make_shared<One<std::int32_t>>(One<std::int32_t>{4});
  Buffer out;
  ASSERT_TRUE(codec.serialize(value, out).ok());
  EXPECT_EQ(text_of(out), R"({"a":{"v":4},"b":{"v":4}})");
  TwoShared back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  ASSERT_TRUE(back.a && back.b);
  EXPECT_NE(back.a, back.b);
  EXPECT_EQ(back.a->v, 4);
  EXPECT_EQ(back.b->v, 4);
}

// Timestamps in every unit, at the ends of what RFC 3339 and their tick count hold; one tick
// past the last year RFC 3339 writes is an error on writing.
template <class D>
void expect_times_round_trip(std::initializer_list<std::pair<std::int64_t, const char*>> cases) {
  using T = std::chrono::sys_time<D>;
  for (const auto& [ticks, text] : cases) {
    const T t{D{ticks}};
    EXPECT_EQ(write(One<T>{t}), std::string(R"({"v":")") + text + "\"}") << ticks;
    One<T> back;
    ASSERT_TRUE(read(std::string(R"({"v":")") + text + "\"}", back).ok()) << text;
    EXPECT_EQ(back.v, t) << text;
  }
}

TEST(Json, TimestampsInEveryUnitAtTheEndsOfTheirRange) {
  using namespace std::chrono;
  expect_times_round_trip<seconds>({{-62135596800, "0001-01-01T00:00:00Z"},
                                    {253402300799, "9999-12-31T23:59:59Z"},
                                    {0, "1970-01-01T00:00:00Z"}});
  expect_times_round_trip<milliseconds>({{-62135596800000, "0001-01-01T00:00:00.000Z"},
                                         {253402300799999, "9999-12-31T23:59:59.999Z"},
                                         {-1, "1969-12-31T23:59:59.999Z"}});
  expect_times_round_trip<microseconds>({{-62135596800000000, "0001-01-01T00:00:00.000000Z"},
                                         {253402300799999999, "9999-12-31T23:59:59.999999Z"}});
  expect_times_round_trip<nanoseconds>({{INT64_MIN, "1677-09-21T00:12:43.145224192Z"},
                                        {INT64_MAX, "2262-04-11T23:47:16.854775807Z"}});
  Engine e;
  ASSERT_TRUE(test::add_one<sys_time<seconds>>(e).ok());
  Buffer out;
  Codec<One<sys_time<seconds>>> codec = test::codec_of<One<sys_time<seconds>>>(e, Format::Json);
  for (std::int64_t beyond : {std::int64_t{253402300800}, std::int64_t{-62135596801}}) {
    const Status s = codec.serialize({sys_time<seconds>{seconds{beyond}}}, out);
    EXPECT_EQ(s.code(), Errc::out_of_range) << beyond;
    EXPECT_EQ(s.path(), "One.v");
  }
  One<sys_time<nanoseconds>> ns;
  EXPECT_EQ(read(R"({"v":"2262-04-11T23:47:16.854775808Z"})", ns).code(), Errc::out_of_range);
}

// rename sets the key written and read; number() leaves the bytes alone (it is the Protobuf
// field number) but is part of the schema, so the fingerprint changes with it.
struct Renamed {
  std::int32_t width = 0;
};

TEST(Json, RenameAndNumberOnTheWire) {
  Engine plain, renamed, numbered;
  ASSERT_TRUE(plain.add(Struct<Renamed>("Renamed").field("width", &Renamed::width)).ok());
  ASSERT_TRUE(
      renamed.add(Struct<Renamed>("Renamed").field("width", &Renamed::width, opt().rename("w")))
          .ok());
  ASSERT_TRUE(
      numbered.add(Struct<Renamed>("Renamed").field("width", &Renamed::width, opt().number(9)))
          .ok());
  Buffer out;
  ASSERT_TRUE(test::codec_of<Renamed>(renamed, Format::Json).serialize(Renamed{3}, out).ok());
  EXPECT_EQ(text_of(out), R"({"w":3})");
  Renamed back;
  ASSERT_TRUE(test::codec_of<Renamed>(renamed, Format::Json)
                  .deserialize(bytes_of(R"({"w":4})"), back)
                  .ok());
  EXPECT_EQ(back.width, 4);
  const Status s =
      test::codec_of<Renamed>(renamed, Format::Json).deserialize(bytes_of(R"({"width":4})"), back);
  EXPECT_EQ(s.code(), Errc::missing_field);
  EXPECT_EQ(s.path(), "Renamed.width");
  ASSERT_TRUE(test::codec_of<Renamed>(numbered, Format::Json).serialize(Renamed{3}, out).ok());
  EXPECT_EQ(text_of(out), R"({"width":3})");
  EXPECT_NE(*plain.fingerprint("Renamed"), *numbered.fingerprint("Renamed"));
  EXPECT_NE(*plain.fingerprint("Renamed"), *renamed.fingerprint("Renamed"));
}

TEST(Json, StringEscapes) {
  EXPECT_EQ(write(One<std::string>{"a\"b\\c\n\x01\x1f/\xc3\xa9"}),
            "{\"v\":\"a\\\"b\\\\c\\n\\u0001\\u001f/\xc3\xa9\"}");
  One<std::string> back;
  ASSERT_TRUE(read(R"({"v":"\u00e9\ud83d\ude00\/\t"})", back).ok());
  EXPECT_EQ(back.v, "\xc3\xa9\xf0\x9f\x98\x80/\t");
  Engine e;
  ASSERT_TRUE(test::add_one<std::string>(e).ok());
  Buffer out;
  EXPECT_EQ(test::codec_of<One<std::string>>(e, Format::Json).serialize({"\xff"}, out).code(),
            Errc::invalid_utf8);
}

// Reading into one object again and again, as a server does: each string replaces the last,
// whether it is shorter or longer, held in place or on the heap, written with escapes (read
// from simdjson's string buffer) or without (read from the input).
TEST(Json, StringsReplaceThoseOfAUsedObject) {
  Engine e;
  ASSERT_TRUE(test::add_one<std::string>(e).ok());
  auto codec = test::codec_of<One<std::string>>(e, Format::Json);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 80; ++n) lengths.push_back(n);
  std::shuffle(lengths.begin(), lengths.end(), std::mt19937(7));
  One<std::string> into{std::string(100, 'z')};
  for (bool escaped : {false, true}) {
    for (std::size_t n : lengths) {
      std::string expected;
      for (std::size_t i = 0; i < n; ++i) expected += static_cast<char>('a' + i % 26);
      std::string json = "{\"v\":\"" + expected + "\"}";
      if (escaped && n) {
        // In the middle, or last, where a scan's final word or vector ends.
        const std::size_t at = n % 2 ? n / 2 : n - 1;
        expected[at] = '\n';
        json.replace(6 + at, 1, "\\n");
      }
      ASSERT_TRUE(codec.deserialize(bytes_of(json), into).ok()) << json;
      EXPECT_EQ(into.v, expected) << json;
      EXPECT_EQ(std::strlen(into.v.c_str()), n) << json;  // terminated where it ends
    }
  }
}
TEST(Json, BytesAreBase64) {
  // RFC 4648 section 10's test vectors.
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foobar", "Zm9vYmFy"}};
  for (auto [raw, encoded] : vectors) {
    const std::string s(raw);
    One<std::vector<std::uint8_t>> v{{s.begin(), s.end()}};
    EXPECT_EQ(write(v), std::string("{\"v\":\"") + encoded + "\"}");
    One<std::vector<std::uint8_t>> back;
    ASSERT_TRUE(read(write(v), back).ok());
    EXPECT_EQ(back.v, v.v);
  }
  One<std::vector<std::uint8_t>> back;
  for (const char* bad : {R"({"v":"Zg="})", R"({"v":"Z!=="})", R"({"v":"Zh=="})"}) {
    Status s = read(bad, back);
    EXPECT_EQ(s.code(), Errc::invalid_base64) << bad;
    EXPECT_EQ(s.offset(), 5u);
    EXPECT_EQ(s.path(), "One.v");
  }
}

// Every length, so that the last group comes whole and with one or two '=' after groups that
// decode together; and a character outside the alphabet in each place of the text, which the
// reader finds wherever it is.
TEST(Json, Base64OfEveryLengthAndABadCharacterAnywhere) {
  Engine e;
  ASSERT_TRUE(test::add_one<std::vector<std::uint8_t>>(e).ok());
  Codec<One<std::vector<std::uint8_t>>> codec =
      test::codec_of<One<std::vector<std::uint8_t>>>(e, Format::Json);
  // Long enough for several of the vector decoder's blocks and the characters after them.
  for (std::size_t n = 0; n <= 80; ++n) {
    One<std::vector<std::uint8_t>> sent;
    for (std::size_t i = 0; i < n; ++i) sent.v.push_back(static_cast<std::uint8_t>(i * 37 + n));
    Buffer out;
    ASSERT_TRUE(codec.serialize(sent, out).ok());
    const std::string text = text_of(out);
    One<std::vector<std::uint8_t>> back;
    ASSERT_TRUE(codec.deserialize(bytes_of(text), back).ok()) << text;
    EXPECT_EQ(back.v, sent.v) << text;
    const std::size_t first = text.find(":\"") + 2;
    const std::size_t end = text.rfind('"');
    for (std::size_t at = first; at < end; ++at) {
      // Neighbours of the alphabet's ranges in every row of the ASCII table that has some.
      for (const char bad : {'!', '-', '_', '=', ' ', '.', ':', '@', '[', '`', '{', '\x7f'}) {
        // In the last group an '=' may make another valid text ("5gA=" to "5g==").
        if (bad == '=' && at + 4 >= end) continue;
        std::string broken = text;
        broken[at] = bad;
        const Status s = codec.deserialize(bytes_of(broken), back);
        EXPECT_EQ(s.code(), Errc::invalid_base64) << broken;
      }
    }
  }
}

TEST(Json, DecimalsKeepEveryDigit) {
  EXPECT_EQ(write(One<Decimal>{{12345, 2}}), R"({"v":123.45})");
  EXPECT_EQ(write(One<Decimal>{{-5, 3}}), R"({"v":-0.005})");
  EXPECT_EQ(write(One<Decimal>{{12345, -3}}), R"({"v":12345e3})");
  EXPECT_EQ(write(One<Decimal>{{INT64_MIN, 0}}), R"({"v":-9223372036854775808})");
  One<Decimal> back;
  ASSERT_TRUE(read(R"({"v":1.50})", back).ok());
  EXPECT_EQ(back.v, (Decimal{150, 2}));
  ASSERT_TRUE(read(R"({"v":-15e-1})", back).ok());
  EXPECT_EQ(back.v, (Decimal{-15, 1}));
}

TEST(Json, TimesAreRfc3339) {
  using namespace std::chrono;
  const sys_time<microseconds> t = sys_days{2024y / 2 / 29} + 13h + 4min + 5s + 123456us;
  EXPECT_EQ(write(One<sys_time<microseconds>>{t}), R"({"v":"2024-02-29T13:04:05.123456Z"})");
  One<sys_time<microseconds>> back;
  ASSERT_TRUE(read(R"({"v":"2024-02-29T15:04:05.123456+02:00"})", back).ok());
  EXPECT_EQ(back.v, t);
  EXPECT_EQ(read(R"({"v":"2024-02-30T00:00:00Z"})", back).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":"2024-02-29T13:04:05.1234567Z"})", back).code(), Errc::out_of_range);
  EXPECT_EQ(write(One<duration<std::int64_t, std::milli>>{-1500ms}), R"({"v":"-1.500s"})");
  One<duration<std::int64_t, std::milli>> d;
  ASSERT_TRUE(read(R"({"v":"-1.500s"})", d).ok());
  EXPECT_EQ(d.v, -1500ms);
}

// Every rule of RFC 3339 that the reader applies, each broken once: the date and time at
// their fixed places, 't' and 'z' in either case, a fraction of one to the unit's digits, a
// zone of "Z" or "+hh:mm", and the ranges of each field.
TEST(Json, TimestampsAcceptRfc3339AndNothingLooser) {
  using namespace std::chrono;
  Engine e;
  ASSERT_TRUE(test::add_one<sys_time<microseconds>>(e).ok());
  const Codec<One<sys_time<microseconds>>> codec =
      test::codec_of<One<sys_time<microseconds>>>(e, Format::Json);
  const sys_time<microseconds> base = sys_days{2024y / 2 / 29} + 13h + 4min + 5s;
  const std::pair<const char*, sys_time<microseconds>> accepted[] = {
      {"2024-02-29T13:04:05Z", base},
      {"2024-02-29t13:04:05z", base},
      {"2024-02-29T13:04:05.1Z", base + 100000us},
      {"2024-02-29T13:04:05.000007Z", base + 7us},
      {"2024-02-29T14:34:05.5+01:30", base + 500000us},
      {"2024-02-29T12:04:05-01:00", base},
      {"2024-02-29T13:04:05-00:00", base},
      {"0001-01-01T00:00:00Z", sys_days{1y / 1 / 1}},
      {"9999-12-31T23:59:59.999999Z", sys_days{9999y / 12 / 31} + 23h + 59min + 59s + 999999us},
  };
  for (const auto& [text, want] : accepted) {
    One<sys_time<microseconds>> back;
    const Status s = codec.deserialize(bytes_of(std::string(R"({"v":")") + text + "\"}"), back);
    EXPECT_TRUE(s.ok()) << text << ": " << s.to_string();
    EXPECT_EQ(back.v, want) << text;
  }
  for (const char* text : {"2024-02-29T13:04:05",
                           "2024-02-29 13:04:05Z",
                           "2024-02-29T13:04:05.Z",
                           "2024-02-29T13:04:05.1234567Z",
                           "2024-02-29T13:04:05.12a4Z",
                           "2024-02-29T24:00:00Z",
                           "2024-02-29T13:60:05Z",
                           "2024-02-29T13:04:60Z",
                           "2024-13-01T13:04:05Z",
                           "2024-00-01T13:04:05Z",
                           "2024-04-31T13:04:05Z",
                           "2023-02-29T13:04:05Z",
                           "0000-01-01T00:00:00Z",
                           "2024-02-29T13:04:05+24:00",
                           "2024-02-29T13:04:05+01:60",
                           "2024-02-29T13:04:05+0100",
                           "2024-02-29T13:04:05+01:00Z",
                           "2024-02-29T13:04:05Zz",
                           "2024-02-29T13:04:05+01:0",
                           "2024/02/29T13:04:05Z",
                           "2024-02-29T13-04-05Z",
                           "-2024-02-29T13:04:05Z",
                           " 2024-02-29T13:04:05Z",
                           "24-02-29T13:04:05Z",
                           "2024-2-29T13:04:05Z",
                           "2024-02-29T13:04:5Z",
                           "2024-02-29X13:04:05Z",
                           "2024-02-29T13:04:05Y",
                           "",
                           "2024"}) {
    One<sys_time<microseconds>> back;
    const Status s = codec.deserialize(bytes_of(std::string(R"({"v":")") + text + "\"}"), back);
    EXPECT_EQ(s.code(), Errc::out_of_range) << text;
    EXPECT_EQ(s.offset(), 5u) << text;
  }
}

TEST(Json, MapsWithIntegerKeysWriteStrings) {
  EXPECT_EQ(write(One<std::map<std::int32_t, std::int32_t>>{{{333, 444}, {-1, 2}}}),
            R"({"v":{"-1":2,"333":444}})");
  One<std::map<std::int32_t, std::int32_t>> back;
  ASSERT_TRUE(read(R"({"v":{"333":444}})", back).ok());
  EXPECT_EQ(back.v, (std::map<std::int32_t, std::int32_t>{{333, 444}}));
  Status s = read(R"({"v":{"x":1}})", back);
  EXPECT_EQ(s.code(), Errc::type_mismatch);
  EXPECT_EQ(s.offset(), 6u);
  s = read(R"({"v":{"1":1,"1":2}})", back);
  EXPECT_EQ(s.code(), Errc::duplicate_key);
  EXPECT_EQ(s.path(), "One.v[1]");
  One<std::map<test::Color, bool>> by_enum;
  ASSERT_TRUE(read(R"({"v":{"Red":true}})", by_enum).ok());
  EXPECT_TRUE(by_enum.v.at(test::Color::Red));
}

TEST(Json, PayloadsRoundTripInBothDirections) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  payloads::for_each_payload([&](const char* name, const auto& v) {
    using T = std::decay_t<decltype(v)>;
    Codec<T> codec = test::codec_of<T>(e, Format::Json);
    Buffer out;
    Status s = codec.serialize(v, out);
    if (std::string(name) == "Graph") {
      // The sample graph has cycles, which JSON cannot write.
      EXPECT_EQ(s.code(), Errc::cycle);
      EXPECT_EQ(s.path(), "Graph.accounts[0].manager");
      return;
    }
    ASSERT_TRUE(s.ok()) << name << ": " << s.to_string();
    T back{};
    s = codec.deserialize(out.bytes(), back);
    ASSERT_TRUE(s.ok()) << name << ": " << s.to_string();
    EXPECT_TRUE(back == v) << name;
  });
}

TEST(Json, KeysInAnyOrderUnknownKeysSkipped) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Moshi> codec = test::codec_of<payloads::Moshi>(e, Format::Json);
  payloads::Moshi m;
  ASSERT_TRUE(
      codec.deserialize(bytes_of(R"( { "c" : 3, "x": [1, {"y": null}], "a":1, "b":2 } )"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 2, 3}));
  // b is missing: its default, 5.
  ASSERT_TRUE(codec.deserialize(bytes_of(R"({"a":1,"c":3})"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));
  // A key written with escapes is still the field.
  ASSERT_TRUE(codec.deserialize(bytes_of(R"({"\u0061":7,"b":2,"c":3})"), m).ok());
  EXPECT_EQ(m.a, 7);
}

TEST(Json, ErrorsNameFieldAndOffset) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Moshi> moshi = test::codec_of<payloads::Moshi>(e, Format::Json);
  payloads::Moshi m;
  struct Case {
    const char* json;
    Errc code;
    std::size_t offset;
    const char* path;
  };
  const Case cases[] = {
      {R"({"a":1,"b":2})", Errc::missing_field, 0, "Moshi.c"},
      {R"({"a":null,"b":2,"c":3})", Errc::type_mismatch, 5, "Moshi.a"},
      {R"({"a":1,"a":1,"c":3})", Errc::duplicate_key, 7, "Moshi.a"},
      {R"({"a":2147483648,"c":3})", Errc::out_of_range, 5, "Moshi.a"},
      {R"({"a":1.5,"c":3})", Errc::type_mismatch, 5, "Moshi.a"},
      {R"({"a":"1","c":3})", Errc::type_mismatch, 5, "Moshi.a"},
      {R"({"a":1,"c":3} x)", Errc::trailing_bytes, 14, "Moshi"},
      {R"([1,2,3])", Errc::type_mismatch, 0, "Moshi"},
      // The root's offset is where its value starts, after any whitespace.
      {" \n {\"a\":1,\"b\":2}", Errc::missing_field, 3, "Moshi.c"},
      {"\t5", Errc::type_mismatch, 1, "Moshi"},
      // Input that ends early is truncated, at its end, wherever it ends (docs/formats/json.md).
      {"", Errc::truncated, 0, "Moshi"},
      {"  ", Errc::truncated, 2, "Moshi"},
      {"{", Errc::truncated, 1, "Moshi"},
      {R"({"a)", Errc::truncated, 3, "Moshi"},
      {R"({"a":)", Errc::truncated, 5, "Moshi.a"},
      {R"({"a":1)", Errc::truncated, 6, "Moshi.a"},
      {R"({"a":1,"b":2,)", Errc::truncated, 13, "Moshi"},
      {R"({"a":1,"b":2,"c":3 )", Errc::truncated, 19, "Moshi"},
      {R"({"a":1,"b":2,"c":"3)", Errc::truncated, 19, "Moshi"},
      // Malformed text is a syntax error where reading stopped.
      {R"({"a":1,,"c":3})", Errc::syntax_error, 7, "Moshi"},
      {R"({"a":tru,"c":3})", Errc::syntax_error, 5, "Moshi.a"},
      {R"({"a":nul,"c":3})", Errc::syntax_error, 5, "Moshi.a"},
      {R"({"a":-,"c":3})", Errc::syntax_error, 5, "Moshi.a"},
      {R"({"a":01,"c":3})", Errc::syntax_error, 5, "Moshi.a"},
      // Invalid UTF-8 is reported at its first bad byte.
      {"{\"a\":1,\"x\":\"ab\xff\",\"c\":3}", Errc::invalid_utf8, 14, "Moshi"},
      {"{\"a\":1,\"c\":3,\"\xc3\":0}", Errc::invalid_utf8, 14, "Moshi"},
  };
  for (const Case& c : cases) {
    Status s = moshi.deserialize(bytes_of(c.json), m);
    EXPECT_EQ(s.code(), c.code) << c.json << ": " << s.to_string();
    EXPECT_EQ(s.offset(), c.offset) << c.json << ": " << s.to_string();
    EXPECT_EQ(s.path(), c.path) << c.json;
  }
  Codec<payloads::MediaContent> media = test::codec_of<payloads::MediaContent>(e, Format::Json);
  payloads::MediaContent mc;
  Buffer out;
  ASSERT_TRUE(media.serialize(payloads::make_media_content(), out).ok());
  std::string text = text_of(out);
  const std::size_t at = text.find("\"SMALL\"");
  text.replace(at, 7, "\"HUGE\" ");
  Status s = media.deserialize(bytes_of(text), mc);
  EXPECT_EQ(s.code(), Errc::unknown_enum);
  EXPECT_EQ(s.offset(), at);
  EXPECT_EQ(s.path(), "MediaContent.images[1].size");
}

// Every number RFC 8259 allows is a number: one that does not fit the field is out_of_range,
// whatever its width or sign; a fraction or exponent for an integer is a type mismatch; text
// that is no number is a syntax error. "-0" is zero for every integer type.
TEST(Json, NumbersThatDoNotFitAreOutOfRange) {
  One<std::uint64_t> u64;
  One<std::int64_t> i64;
  One<std::uint32_t> u32;
  One<std::int8_t> i8;
  One<std::uint8_t> u8;
  One<double> d;
  EXPECT_EQ(read(R"({"v":18446744073709551616})", u64).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":-1})", u64).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":-9223372036854775809})", i64).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":99999999999999999999999})", i64).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":4294967296})", u32).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":128})", i8).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":1e400})", d).code(), Errc::out_of_range);
  EXPECT_EQ(read(R"({"v":-1e400})", d).code(), Errc::out_of_range);
  const Status s = read(R"({"v":18446744073709551616})", u64);
  EXPECT_EQ(s.path(), "One.v");
  EXPECT_EQ(s.offset(), 5u);
  EXPECT_EQ(read(R"({"v":1.5})", i64).code(), Errc::type_mismatch);
  EXPECT_EQ(read(R"({"v":1e2})", u32).code(), Errc::type_mismatch);
  EXPECT_EQ(read(R"({"v":01})", i64).code(), Errc::syntax_error);
  EXPECT_EQ(read(R"({"v":1.})", d).code(), Errc::syntax_error);
  u64.v = u32.v = u8.v = 7;
  i64.v = i8.v = 7;
  EXPECT_TRUE(read(R"({"v":-0})", u64).ok());
  EXPECT_TRUE(read(R"({"v":-0})", u32).ok());
  EXPECT_TRUE(read(R"({"v":-0})", u8).ok());
  EXPECT_TRUE(read(R"({"v":-0})", i64).ok());
  EXPECT_TRUE(read(R"({"v":-0})", i8).ok());
  EXPECT_EQ(u64.v + u32.v + u8.v, 0u);
  EXPECT_EQ(i64.v + i8.v, 0);
  EXPECT_TRUE(read(R"({"v":1e-400})", d).ok());
  EXPECT_EQ(d.v, 0.0);
}

// A decimal is written with every digit, with an exponent past the scales it writes plainly,
// and reads back exactly at every scale, even where no double could hold it.
TEST(Json, DecimalsRoundTripAtEveryScale) {
  for (std::int32_t scale : {0, 1, 20, 21, -1, -312, 312, -400, 400, INT32_MIN, INT32_MAX}) {
    for (std::int64_t unscaled : {std::int64_t{41279}, std::int64_t{-1}, INT64_MIN, INT64_MAX}) {
      const Decimal value{unscaled, scale};
      One<Decimal> back;
      const std::string text = write(One<Decimal>{value});
      ASSERT_TRUE(read(text, back).ok()) << text;
      EXPECT_EQ(back.v, value) << text;
    }
  }
  EXPECT_EQ(write(One<Decimal>{Decimal{41279, -312}}), R"({"v":41279e312})");
}

// A decimal as the whole document (a wrapper's root number) is read and consumed like any other
// root value: reading its text once left it unread, and the reader saw trailing bytes.
struct Price {
  Decimal v;
};

TEST(Json, RootDecimalsAreConsumed) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Price>("Price").wraps("v", &Price::v)).ok());
  Codec<Price> codec = test::codec_of<Price>(e, Format::Json);
  for (const char* text : {"41279e312", " -1.50 ", "7"}) {
    Price p;
    const Status s = codec.deserialize(bytes_of(text), p);
    EXPECT_TRUE(s.ok()) << text << ": " << s.to_string();
  }
  Price p;
  EXPECT_EQ(codec.deserialize(bytes_of("1 2"), p).code(), Errc::trailing_bytes);
}

// jitser::Value holds 64-bit integers and finite doubles; a number beyond them is refused,
// out_of_range, rather than rounded.
TEST(Json, ValueRefusesNumbersItCannotHold) {
  Engine e;
  Codec<Value> codec = test::codec_of<Value>(e, Format::Json);
  for (const char* text :
       {"18446744073709551616", "-9223372036854775809", "1e400", "[1e400]", R"({"k":-1e400})"}) {
    Value v;
    const Status s = codec.deserialize(bytes_of(text), v);
    EXPECT_EQ(s.code(), Errc::out_of_range) << text << ": " << s.to_string();
  }
  Value v;
  ASSERT_TRUE(codec.deserialize(bytes_of("18446744073709551615"), v).ok());
  EXPECT_EQ(v.as_uint(), UINT64_MAX);
}

// A float32 in a Value is written as the shortest text that reads back to it; what JSON has
// no form for (maps keyed by non-strings, CBOR's tags and simple values, MessagePack's
// extensions) is refused, not changed.
TEST(Json, ValueWritesFloatsAndRefusesWhatJsonCannotHold) {
  Engine e;
  Codec<Value> codec = test::codec_of<Value>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(codec.serialize(Value(Value::Array{Value(0.1f), Value(1.5f)}), out).ok());
  const auto text = out.bytes();
  EXPECT_EQ(std::string(text.begin(), text.end()), "[0.1,1.5]");
  for (const Value& v : {Value(Value::Entries{{Value(1), Value(2)}}), Value(Tagged(1, Value(0))),
                         Value(kUndefined), Value(Extension{1, {}})}) {
    const Status s = codec.serialize(Value(Value::Array{v}), out);
    EXPECT_EQ(s.code(), Errc::unsupported) << value_type_name(v.type()) << ": " << s.to_string();
  }
}

// A number of more than 19 digits with a fraction read as 0 into a Value (simdjson 3.0's
// get_number); the soak's random Values found it, as large integral doubles are written with
// all their digits.
TEST(Json, ValueReadsLongNumbersExactly) {
  Engine e;
  Codec<Value> codec = test::codec_of<Value>(e, Format::Json);
  Value v;
  ASSERT_TRUE(
      codec.deserialize(bytes_of("[12345678901234567890.0,-5088143117563430912.0]"), v).ok());
  EXPECT_EQ(v, (Value::Array{12345678901234567890.0, -5088143117563430912.0}));
  for (double d : {-5088143117563430912.0, 123456789012345683968.0, 3.2569379839610365e21}) {
    Buffer out;
    ASSERT_TRUE(codec.serialize(Value(d), out).ok());
    Value back;
    ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
    EXPECT_EQ(back, Value(d)) << text_of(out);
  }
}

struct OneField {
  std::uint32_t v = 0;
};
struct HoldsOneField {
  std::optional<OneField> held;
  std::int32_t after = 0;
};

// An optional of a struct of one field is written as an object, braces and key (the soak found
// compiled code writing the field's value bare, as binary may).
TEST(Json, OptionalOfAStructOfOneFieldIsAnObject) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<OneField>("OneField").field("v", &OneField::v)).ok());
  ASSERT_TRUE(e.add(Struct<HoldsOneField>("HoldsOneField")
                        .field("held", &HoldsOneField::held)
                        .field("after", &HoldsOneField::after))
                  .ok());
  Codec<HoldsOneField> codec = test::codec_of<HoldsOneField>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(codec.serialize(HoldsOneField{OneField{7}, 2}, out).ok());
  EXPECT_EQ(text_of(out), R"({"held":{"v":7},"after":2})");
  ASSERT_TRUE(codec.serialize(HoldsOneField{std::nullopt, 2}, out).ok());
  EXPECT_EQ(text_of(out), R"({"held":null,"after":2})");
}

// omit_null leaves out a field whose holders hold nothing however deeply nested, as JSON writes
// them all as null: reading the document and writing it again gives the same document.
TEST(Json, OmitNullLooksThroughNestedHolders) {
  using Nested = std::optional<std::shared_ptr<std::optional<std::unique_ptr<int>>>>;
  EngineOptions options;
  options.omit_null = true;
  Engine e(options);
  ASSERT_TRUE(test::add_one<Nested>(e).ok());
  Codec<One<Nested>> codec = test::codec_of<One<Nested>>(e, Format::Json);
  One<Nested> value;
  value.v = std::make_shared<std::optional<std::unique_ptr<int>>>(std::unique_ptr<int>());
  Buffer out;
  ASSERT_TRUE(codec.serialize(value, out).ok());
  EXPECT_EQ(text_of(out), "{}");
  value.v = std::make_shared<std::optional<std::unique_ptr<int>>>(std::make_unique<int>(3));
  ASSERT_TRUE(codec.serialize(value, out).ok());
  EXPECT_EQ(text_of(out), R"({"v":3})");
  One<Nested> back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  ASSERT_TRUE(back.v && *back.v && **back.v && ***back.v);
  EXPECT_EQ(****back.v, 3);
}

// A wrapper is written as its one field: one that holds a null Value inside a pointer is a
// null, which omit_null leaves out and which reads back as an empty pointer (the soak found
// the written document changing on a second write).
struct Boxed {
  Value value;
};

TEST(Json, OmitNullLooksThroughWrappers) {
  EngineOptions options;
  options.omit_null = true;
  Engine e(options);
  ASSERT_TRUE(e.add(Struct<Boxed>("Boxed").wraps("value", &Boxed::value)).ok());
  ASSERT_TRUE(test::add_one<std::shared_ptr<Boxed>>(e).ok());
  Codec<One<std::shared_ptr<Boxed>>> codec =
      test::codec_of<One<std::shared_ptr<Boxed>>>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(codec.serialize({std::make_shared<Boxed>()}, out).ok());
  EXPECT_EQ(text_of(out), "{}");
  ASSERT_TRUE(codec.serialize({std::make_shared<Boxed>(Boxed{Value(2)})}, out).ok());
  EXPECT_EQ(text_of(out), R"({"v":2})");
}

// omit_default compares floats by their bits: -0.0 is not a default of 0.0, so it is written
// and keeps its sign (the soak found a default of 0.0 dropping it).
struct Scaled {
  double factor = 0.0;
  float ratio = 0.0f;
};

TEST(Json, OmitDefaultKeepsNegativeZero) {
  EngineOptions options;
  options.omit_default = true;
  Engine e(options);
  ASSERT_TRUE(e.add(Struct<Scaled>("Scaled")
                        .field("factor", &Scaled::factor, opt().default_to(0.0))
                        .field("ratio", &Scaled::ratio, opt().default_to(0.0)))
                  .ok());
  Codec<Scaled> codec = test::codec_of<Scaled>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(codec.serialize(Scaled{0.0, 0.0f}, out).ok());
  EXPECT_EQ(text_of(out), "{}");
  ASSERT_TRUE(codec.serialize(Scaled{-0.0, -0.0f}, out).ok());
  EXPECT_EQ(text_of(out), R"({"factor":-0.0,"ratio":-0.0})");
  Scaled back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_TRUE(std::signbit(back.factor));
  EXPECT_TRUE(std::signbit(back.ratio));
}

// nullable(): the field may be missing, and then holds a default-constructed value; an
// explicit null is still a type mismatch for a type that has no null (README, field options).
struct Counted {
  std::int32_t n = 5;
  std::string s = "x";
};

TEST(Json, NullableMeansTheFieldMayBeMissing) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Counted>("Counted")
                        .field("n", &Counted::n, opt().nullable())
                        .field("s", &Counted::s, opt().nullable()))
                  .ok());
  Codec<Counted> codec = test::codec_of<Counted>(e, Format::Json);
  Counted c;
  ASSERT_TRUE(codec.deserialize(bytes_of(R"({"s":"y"})"), c).ok());
  EXPECT_EQ(c.n, 0);
  EXPECT_EQ(c.s, "y");
  ASSERT_TRUE(codec.deserialize(bytes_of("{}"), c).ok());
  EXPECT_EQ(c.s, "");
  const Status s = codec.deserialize(bytes_of(R"({"n":null,"s":"y"})"), c);
  EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
  EXPECT_EQ(s.path(), "Counted.n");
}

TEST(Json, BadInputNeverCrashes) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::MediaContent> codec = test::codec_of<payloads::MediaContent>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(codec.serialize(payloads::make_media_content(), out).ok());
  const std::string text = text_of(out);
  std::size_t failures = 0;
  for (std::size_t n = 0; n < text.size(); ++n) {  // every truncation
    payloads::MediaContent mc;
    failures += !codec.deserialize(bytes_of(text.substr(0, n)), mc).ok();
  }
  EXPECT_EQ(failures, text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {  // every byte replaced by a structural one
    for (char c : {'{', '}', '"', ',', ':', '\\', '\0'}) {
      std::string bad = text;
      bad[i] = c;
      payloads::MediaContent mc;
      (void)codec.deserialize(bytes_of(bad), mc);
    }
  }
}

TEST(Json, StrictRejectsUnknownKeys) {
  Engine e({.strict = true});
  ASSERT_TRUE(payloads::register_all(e).ok());
  payloads::Moshi m;
  Status s = test::codec_of<payloads::Moshi>(e, Format::Json)
                 .deserialize(bytes_of(R"({"a":1,"zz":0,"b":2,"c":3})"), m);
  EXPECT_EQ(s.code(), Errc::unknown_field);
  EXPECT_EQ(s.offset(), 7u);
}

struct Options {
  std::optional<std::int32_t> maybe;
  std::int32_t count = 3;
  std::string name;
};

TEST(Json, OmitNullsAndDefaultsPretty) {
  auto run = [](EngineOptions options, const Options& o) {
    Engine e(options);
    EXPECT_TRUE(e.add(Struct<Options>("Options")
                          .field("maybe", &Options::maybe)
                          .field("count", &Options::count, opt().default_to(3))
                          .field("name", &Options::name))
                    .ok());
    Codec<Options> codec = test::codec_of<Options>(e, Format::Json);
    Buffer out;
    EXPECT_TRUE(codec.serialize(o, out).ok());
    Options back{{9}, 9, "x"};
    EXPECT_TRUE(codec.deserialize(out.bytes(), back).ok()) << text_of(out);
    EXPECT_EQ(back.maybe, o.maybe);
    EXPECT_EQ(back.count, o.count);
    EXPECT_EQ(back.name, o.name);
    return text_of(out);
  };
  const Options o{std::nullopt, 3, "n"};
  EXPECT_EQ(run({}, o), R"({"maybe":null,"count":3,"name":"n"})");
  EXPECT_EQ(run({.omit_null = true}, o), R"({"count":3,"name":"n"})");
  EXPECT_EQ(run({.omit_null = true, .omit_default = true}, o), R"({"name":"n"})");
  EXPECT_EQ(run({.pretty = true}, Options{1, 4, "a,b"}),
            "{\n  \"maybe\": 1,\n  \"count\": 4,\n  \"name\": \"a,b\"\n}");
}

TEST(Json, PaddedInputIsReadInPlace) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::A1> codec = test::codec_of<payloads::A1>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(codec.serialize(payloads::make_a1(), out).ok());
  out.reserve(out.size() + 64);
  payloads::A1 back;
  ASSERT_TRUE(codec.deserialize(out.padded(), back).ok());
  EXPECT_EQ(back, payloads::make_a1());
}

TEST(Json, ValueAsDocumentAndField) {
  Engine e;
  const Value doc = Value::Map{{"id", 7},
                               {"big", std::uint64_t{18446744073709551615ull}},
                               {"tags", Value::Array{"a", nullptr, true, 1.5}},
                               {"nested", Value::Map{{"k", Value::Array{}}}}};
  for (Format f : {Format::Json, Format::Binary}) {
    Codec<Value> codec = test::codec_of<Value>(e, f);
    Buffer out;
    ASSERT_TRUE(codec.serialize(doc, out).ok());
    Value back;
    ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok()) << format_name(f);
    EXPECT_EQ(back, doc) << format_name(f);
  }
  ASSERT_TRUE(test::add_one<Value>(e).ok());
  Codec<One<Value>> json = test::codec_of<One<Value>>(e, Format::Json);
  Buffer out;
  ASSERT_TRUE(json.serialize(One<Value>{doc}, out).ok());
  EXPECT_EQ(
      text_of(out),
      R"({"v":{"id":7,"big":18446744073709551615,"tags":["a",null,true,1.5],"nested":{"k":[]}}})");
  One<Value> back;
  Status s = json.deserialize(bytes_of(R"({"v":{"a":[1,}})"), back);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.path(), "One.v");
}

TEST(Json, StatsNameTheSimdjsonKernels) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  const std::string kernel =
      test::codec_of<payloads::Moshi>(e, Format::Json).dyn().stats().reader_kernel;
  EXPECT_EQ(kernel.rfind("stage 1 ", 0), 0u) << kernel;
  EXPECT_NE(kernel.find(", On-Demand "), std::string::npos) << kernel;
  EXPECT_EQ(test::codec_of<payloads::Moshi>(e).dyn().stats().reader_kernel, "");
}

TEST(Json, DepthIsBounded) {
  Engine e({.max_depth = 16});
  Codec<Value> codec = test::codec_of<Value>(e, Format::Json);
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  Value v;
  EXPECT_EQ(codec.deserialize(bytes_of(deep), v).code(), Errc::depth_exceeded);
}

}  // namespace
}  // namespace jitser

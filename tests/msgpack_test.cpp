// MessagePack: what jitser writes, what it reads, and how it refuses bad input. Expected bytes
// are golden vectors of the MessagePack specification's formats (github.com/msgpack/msgpack,
// spec.md), not copies of jitser's own rules.
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "bench/payloads.h"
#include "formats/msgpack/wire.h"
#include "support.h"

namespace jitser {
namespace {

using test::from_hex;
using test::One;
using test::to_hex;

// {"v": ...}: a fixmap of one entry, the fixstr "v", then the value.
constexpr const char* kOneV = "81 A1 76";

template <class V>
std::string write_hex(const V& v, EngineOptions options = {}) {
  Engine e(options);
  EXPECT_TRUE(test::add_color(e).ok());
  EXPECT_TRUE(test::add_one<V>(e).ok());
  Buffer out;
  const Status s = test::codec_of<One<V>>(e, Format::Msgpack).serialize(One<V>{v}, out);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return to_hex(out.bytes());
}

template <class V>
Status read_hex(const std::string& hex, One<V>& into, EngineOptions options = {}) {
  Engine e(options);
  EXPECT_TRUE(test::add_color(e).ok());
  EXPECT_TRUE(test::add_one<V>(e).ok());
  return test::codec_of<One<V>>(e, Format::Msgpack).deserialize(from_hex(hex), into);
}

// The specification's own example: {"compact":true,"schema":0}.
struct Example {
  bool compact = false;
  std::int32_t schema = 0;
};

TEST(Msgpack, WritesTheSpecificationsExample) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Example>("Example")
                        .field("compact", &Example::compact)
                        .field("schema", &Example::schema))
                  .ok());
  Codec<Example> codec = test::codec_of<Example>(e, Format::Msgpack);
  Buffer out;
  ASSERT_TRUE(codec.serialize(Example{true, 0}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "82 A7 63 6F 6D 70 61 63 74 C3 A6 73 63 68 65 6D 61 00");
  Example back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_TRUE(back.compact);
}

TEST(Msgpack, IntegersInTheirShortestForm) {
  const std::pair<std::int64_t, const char*> signed_cases[] = {
      {0, "00"},
      {127, "7F"},
      {128, "CC 80"},
      {255, "CC FF"},
      {256, "CD 01 00"},
      {65535, "CD FF FF"},
      {65536, "CE 00 01 00 00"},
      {4294967295, "CE FF FF FF FF"},
      {4294967296, "CF 00 00 00 01 00 00 00 00"},
      {-1, "FF"},
      {-32, "E0"},
      {-33, "D0 DF"},
      {-128, "D0 80"},
      {-129, "D1 FF 7F"},
      {-32768, "D1 80 00"},
      {-32769, "D2 FF FF 7F FF"},
      {-2147483649, "D3 FF FF FF FF 7F FF FF FF"},
      {INT64_MIN, "D3 80 00 00 00 00 00 00 00"},
  };
  for (const auto& [v, hex] : signed_cases) {
    EXPECT_EQ(write_hex(v), std::string(kOneV) + " " + hex) << v;
    One<std::int64_t> back;
    ASSERT_TRUE(read_hex(write_hex(v), back).ok()) << v;
    EXPECT_EQ(back.v, v);
  }
  EXPECT_EQ(write_hex(std::uint64_t{UINT64_MAX}),
            std::string(kOneV) + " CF FF FF FF FF FF FF FF FF");
  EXPECT_EQ(write_hex(std::uint8_t{200}), std::string(kOneV) + " CC C8");
  EXPECT_EQ(write_hex(std::int8_t{-5}), std::string(kOneV) + " FB");
}

TEST(Msgpack, ReadsEveryIntegerEncodingWhoseValueFits) {
  for (const char* hex : {"01", "CC 01", "CD 00 01", "CE 00 00 00 01", "CF 00 00 00 00 00 00 00 01",
                          "D0 01", "D1 00 01", "D2 00 00 00 01", "D3 00 00 00 00 00 00 00 01"}) {
    One<std::int16_t> back;
    const Status s = read_hex(std::string(kOneV) + " " + hex, back);
    ASSERT_TRUE(s.ok()) << hex << ": " << s.to_string();
    EXPECT_EQ(back.v, 1) << hex;
    One<std::uint64_t> u;
    ASSERT_TRUE(read_hex(std::string(kOneV) + " " + hex, u).ok()) << hex;
    EXPECT_EQ(u.v, 1u) << hex;
  }
  One<std::int8_t> small;
  Status s = read_hex(std::string(kOneV) + " CC 80", small);
  EXPECT_EQ(s.code(), Errc::out_of_range) << s.to_string();
  EXPECT_EQ(s.offset(), 3u);
  EXPECT_EQ(s.path(), "One.v");
  One<std::uint32_t> unsigned_field;
  s = read_hex(std::string(kOneV) + " FF", unsigned_field);
  EXPECT_EQ(s.code(), Errc::out_of_range) << s.to_string();
  One<std::int64_t> wide;
  s = read_hex(std::string(kOneV) + " CF 80 00 00 00 00 00 00 00", wide);
  EXPECT_EQ(s.code(), Errc::out_of_range) << s.to_string();
}

// Every sized integer form amid other items reads its own bytes: those after it, here the next
// elements, do not leak into it. The last element is read near the input's end, where there is
// nothing after it to read.
TEST(Msgpack, IntegersAmidOtherItemsReadOnlyTheirOwnBytes) {
  struct Case {
    const char* hex;
    std::int64_t value;
  };
  const Case cases[] = {
      {"CC FE", 254},
      {"CD 01 02", 258},
      {"CE 01 02 03 04", 0x01020304},
      {"CF 01 02 03 04 05 06 07 08", 0x0102030405060708},
      {"D0 FE", -2},
      {"D1 FE DC", -0x0124},
      {"D2 FE DC BA 98", -0x01234568},
      {"D3 FE DC BA 98 76 54 32 10", -0x0123456789abcdf0},
      {"D1 01 02", 258},  // a signed form's value that is not negative
  };
  for (const Case& c : cases) {
    One<std::vector<std::int64_t>> back;
    const std::string hex = std::string(kOneV) + " 93 " + c.hex + " " + c.hex + " " + c.hex;
    const Status s = read_hex(hex, back);
    ASSERT_TRUE(s.ok()) << c.hex << ": " << s.to_string();
    EXPECT_EQ(back.v, std::vector<std::int64_t>(3, c.value)) << c.hex;
  }
}

TEST(Msgpack, FloatsAsDeclared) {
  EXPECT_EQ(write_hex(1.5f), std::string(kOneV) + " CA 3F C0 00 00");
  EXPECT_EQ(write_hex(1.5), std::string(kOneV) + " CB 3F F8 00 00 00 00 00 00");
  // A float 32 into a double, an integer into either, a float 64 into a float that holds it.
  One<double> d;
  ASSERT_TRUE(read_hex(std::string(kOneV) + " CA 3F C0 00 00", d).ok());
  EXPECT_EQ(d.v, 1.5);
  ASSERT_TRUE(read_hex(std::string(kOneV) + " D0 FE", d).ok());
  EXPECT_EQ(d.v, -2.0);
  One<float> f;
  ASSERT_TRUE(read_hex(std::string(kOneV) + " CB 3F F8 00 00 00 00 00 00", f).ok());
  EXPECT_EQ(f.v, 1.5f);
  // 0.1 as a double is no float.
  const Status s = read_hex(std::string(kOneV) + " CB 3F B9 99 99 99 99 99 9A", f);
  EXPECT_EQ(s.code(), Errc::out_of_range) << s.to_string();
  One<double> nan;
  ASSERT_TRUE(read_hex(write_hex(std::numeric_limits<double>::quiet_NaN()), nan).ok());
  EXPECT_TRUE(std::isnan(nan.v));
}

TEST(Msgpack, StringsBytesAndBools) {
  EXPECT_EQ(write_hex(std::string("abc")), std::string(kOneV) + " A3 61 62 63");
  const std::string s32(32, 'x');
  EXPECT_EQ(write_hex(s32).substr(0, 14), "81 A1 76 D9 20");
  EXPECT_EQ(write_hex(std::string(256, 'y')).substr(0, 17), "81 A1 76 DA 01 00");
  EXPECT_EQ(write_hex(std::vector<std::uint8_t>{}), std::string(kOneV) + " C4 00");
  EXPECT_EQ(write_hex(std::vector<std::uint8_t>{1, 2}), std::string(kOneV) + " C4 02 01 02");
  EXPECT_EQ(write_hex(true), std::string(kOneV) + " C3");
  EXPECT_EQ(write_hex(false), std::string(kOneV) + " C2");
  // Every str head reads, the longer ones too.
  for (const char* hex : {"A2 68 69", "D9 02 68 69", "DA 00 02 68 69", "DB 00 00 00 02 68 69"}) {
    One<std::string> back;
    const Status st = read_hex(std::string(kOneV) + " " + hex, back);
    ASSERT_TRUE(st.ok()) << hex << ": " << st.to_string();
    EXPECT_EQ(back.v, "hi");
  }
  One<std::string> text;
  Status st = read_hex(std::string(kOneV) + " A2 C3 28", text);
  EXPECT_EQ(st.code(), Errc::invalid_utf8) << st.to_string();
  st = read_hex(std::string(kOneV) + " C4 01 61", text);
  EXPECT_EQ(st.code(), Errc::type_mismatch) << st.to_string();
  One<bool> b;
  st = read_hex(std::string(kOneV) + " 01", b);
  EXPECT_EQ(st.code(), Errc::type_mismatch) << st.to_string();
}

// Strings of every length up to past the short and word-at-a-time paths: ASCII and multi-byte
// text is written as it is and read back, and a byte that is not UTF-8, wherever it is, is
// refused both ways.
TEST(Msgpack, StringsOfEveryLengthAreCheckedAsUtf8) {
  Engine e;
  ASSERT_TRUE(test::add_one<std::string>(e).ok());
  Codec<One<std::string>> codec = test::codec_of<One<std::string>>(e, Format::Msgpack);
  for (std::size_t n = 0; n <= 70; ++n) {
    for (const char* odd : {"", "\xC3\xA9", "\xFF"}) {
      for (std::size_t at : {std::size_t{0}, n / 2, n}) {
        std::string s(n, 'a');
        s.insert(at, odd);
        SCOPED_TRACE(
            test::to_hex(std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())));
        Buffer out;
        const Status w = codec.serialize(One<std::string>{s}, out);
        if (std::string(odd) == "\xFF") {
          EXPECT_EQ(w.code(), Errc::invalid_utf8) << w.to_string();
          // The same bytes as a str, read.
          std::vector<std::uint8_t> bad = test::from_hex(kOneV);
          std::uint8_t head[5];
          const std::uint8_t* end = msgpack::put_str_head(head, s.size());
          bad.insert(bad.end(), static_cast<const std::uint8_t*>(head), end);
          bad.insert(bad.end(), s.begin(), s.end());
          One<std::string> back;
          EXPECT_EQ(codec.deserialize(bad, back).code(), Errc::invalid_utf8);
          continue;
        }
        ASSERT_TRUE(w.ok()) << w.to_string();
        One<std::string> back;
        ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
        EXPECT_EQ(back.v, s);
      }
    }
  }
}

TEST(Msgpack, EnumsByNameAndContainers) {
  EXPECT_EQ(write_hex(test::Color::Blue), std::string(kOneV) + " A4 42 6C 75 65");
  One<test::Color> c;
  ASSERT_TRUE(read_hex(std::string(kOneV) + " A3 52 65 64", c).ok());
  EXPECT_EQ(c.v, test::Color::Red);
  // Enums are written and read by name: an integer, even a declared value's, is not one.
  EXPECT_EQ(read_hex(std::string(kOneV) + " 07", c).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(std::string(kOneV) + " A4 50 69 6E 6B", c).code(), Errc::unknown_enum);

  EXPECT_EQ(write_hex(std::vector<std::int32_t>{1, -1}), std::string(kOneV) + " 92 01 FF");
  EXPECT_EQ(write_hex(std::vector<bool>{true, false}), std::string(kOneV) + " 92 C3 C2");
  EXPECT_EQ(write_hex(std::array<std::uint8_t, 2>{3, 4}), std::string(kOneV) + " 92 03 04");
  EXPECT_EQ(write_hex(std::map<std::string, std::int32_t>{{"a", 1}}),
            std::string(kOneV) + " 81 A1 61 01");
  // Integer keys are written as integers.
  EXPECT_EQ(write_hex(std::map<std::int32_t, bool>{{-2, true}, {300, false}}),
            std::string(kOneV) + " 82 FE C3 CD 01 2C C2");
  EXPECT_EQ(write_hex(std::optional<std::int32_t>{}), std::string(kOneV) + " C0");
  EXPECT_EQ(write_hex(std::optional<std::int32_t>{5}), std::string(kOneV) + " 05");
  EXPECT_EQ(write_hex(std::vector<std::int32_t>(16, 0)).substr(0, 17), "81 A1 76 DC 00 10");

  One<std::map<std::int32_t, bool>> m;
  ASSERT_TRUE(read_hex(std::string(kOneV) + " 82 FE C3 CD 01 2C C2", m).ok());
  EXPECT_EQ(m.v, (std::map<std::int32_t, bool>{{-2, true}, {300, false}}));
  Status s = read_hex(std::string(kOneV) + " 82 01 C3 01 C2", m);
  EXPECT_EQ(s.code(), Errc::duplicate_key) << s.to_string();
  One<std::array<std::uint8_t, 2>> a;
  s = read_hex(std::string(kOneV) + " 93 01 02 03", a);
  EXPECT_EQ(s.code(), Errc::out_of_range) << s.to_string();
  One<std::vector<std::int32_t>> list;
  ASSERT_TRUE(read_hex(std::string(kOneV) + " DD 00 00 00 02 01 02", list).ok());
  EXPECT_EQ(list.v, (std::vector<std::int32_t>{1, 2}));
}

// EngineOptions::enum_integers: an enum is its integer in its shortest form, and only a
// declared one is written or read; a name is then a type mismatch.
TEST(Msgpack, EnumsAsIntegersByOption) {
  const EngineOptions integers{.enum_integers = true};
  EXPECT_EQ(write_hex(test::Color::Blue, integers), std::string(kOneV) + " 07");
  EXPECT_EQ(write_hex(test::Color::Red, integers), std::string(kOneV) + " FF");
  One<test::Color> c;
  ASSERT_TRUE(read_hex(std::string(kOneV) + " 07", c, integers).ok());
  EXPECT_EQ(c.v, test::Color::Blue);
  ASSERT_TRUE(read_hex(std::string(kOneV) + " D1 FF FF", c, integers).ok());  // int 16
  EXPECT_EQ(c.v, test::Color::Red);
  Status s = read_hex(std::string(kOneV) + " 05", c, integers);
  EXPECT_EQ(s.code(), Errc::unknown_enum) << s.to_string();
  EXPECT_EQ(s.offset(), 3u);
  s = read_hex(std::string(kOneV) + " A4 42 6C 75 65", c, integers);
  EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
  Engine e(integers);
  ASSERT_TRUE(test::add_color(e).ok());
  ASSERT_TRUE(test::add_one<test::Color>(e).ok());
  Buffer out;
  s = test::codec_of<One<test::Color>>(e, Format::Msgpack)
          .serialize(One<test::Color>{static_cast<test::Color>(5)}, out);
  EXPECT_EQ(s.code(), Errc::unknown_enum) << s.to_string();
}

// EngineOptions::struct_arrays: a struct is an array of its fields in declaration order, nested
// structs too, and an array of another length is refused, fewer items as a missing field and
// more as an unknown one.
TEST(Msgpack, StructsAsArraysByOption) {
  Engine e(EngineOptions{.struct_arrays = true});
  ASSERT_TRUE(e.add(Struct<Example>("Example")
                        .field("compact", &Example::compact)
                        .field("schema", &Example::schema))
                  .ok());
  ASSERT_TRUE(test::add_one<std::vector<Example>>(e).ok());
  Codec<Example> codec = test::codec_of<Example>(e, Format::Msgpack);
  Buffer out;
  ASSERT_TRUE(codec.serialize(Example{true, 5}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "92 C3 05");
  Example back;
  ASSERT_TRUE(codec.deserialize(from_hex("92 C2 CD 01 2C"), back).ok());
  EXPECT_FALSE(back.compact);
  EXPECT_EQ(back.schema, 300);
  Status s = codec.deserialize(from_hex("91 C3"), back);
  EXPECT_EQ(s.code(), Errc::missing_field) << s.to_string();
  EXPECT_EQ(s.offset(), 0u);
  s = codec.deserialize(from_hex("93 C3 00 00"), back);
  EXPECT_EQ(s.code(), Errc::unknown_field) << s.to_string();
  s = codec.deserialize(from_hex("82 A7 63 6F 6D 70 61 63 74 C3 A6 73 63 68 65 6D 61 00"), back);
  EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
  s = codec.deserialize(from_hex("92 C3 A1 30"), back);
  EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
  EXPECT_EQ(s.offset(), 2u);
  EXPECT_NE(s.to_string().find("schema"), std::string::npos) << s.to_string();

  using Many = One<std::vector<Example>>;
  Codec<Many> many = test::codec_of<Many>(e, Format::Msgpack);
  out.clear();
  ASSERT_TRUE(many.serialize(Many{{{true, 1}, {false, -1}}}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "91 92 92 C3 01 92 C2 FF");
  Many read;
  ASSERT_TRUE(many.deserialize(out.bytes(), read).ok());
  ASSERT_EQ(read.v.size(), 2u);
  EXPECT_EQ(read.v[1].schema, -1);
}

using Nanos = std::chrono::time_point<std::chrono::system_clock, std::chrono::nanoseconds>;

TEST(Msgpack, TimestampsAsTheExtensionTypeInEachOfItsForms) {
  const Nanos one_second{std::chrono::seconds(1)};
  // 32 bits of seconds; 30 of nanoseconds and 34 of seconds; 32 of nanoseconds and 64 of seconds.
  EXPECT_EQ(write_hex(one_second), std::string(kOneV) + " D6 FF 00 00 00 01");
  EXPECT_EQ(write_hex(one_second + std::chrono::nanoseconds(1)),
            std::string(kOneV) + " D7 FF 00 00 00 04 00 00 00 01");
  EXPECT_EQ(write_hex(Nanos{std::chrono::seconds(-1)}),
            std::string(kOneV) + " C7 0C FF 00 00 00 00 FF FF FF FF FF FF FF FF");
  for (const char* hex : {"D6 FF 00 00 00 01", "D7 FF 00 00 00 00 00 00 00 01",
                          "C7 0C FF 00 00 00 00 00 00 00 00 00 00 00 01"}) {
    One<Nanos> back;
    const Status s = read_hex(std::string(kOneV) + " " + hex, back);
    ASSERT_TRUE(s.ok()) << hex << ": " << s.to_string();
    EXPECT_EQ(back.v, one_second) << hex;
  }
  One<Nanos> back;
  // Nanoseconds past a second, and an extension type of another number or size.
  EXPECT_EQ(read_hex(std::string(kOneV) + " D7 FF EE 6B 28 00 00 00 00 01", back).code(),
            Errc::out_of_range);
  EXPECT_EQ(read_hex(std::string(kOneV) + " D6 01 00 00 00 01", back).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(std::string(kOneV) + " D5 FF 00 01", back).code(), Errc::syntax_error);
  // Durations are integers of their unit.
  EXPECT_EQ(write_hex(std::chrono::milliseconds(1500)), std::string(kOneV) + " CD 05 DC");
}

TEST(Msgpack, KeysInAnyOrderUnknownSkippedMissingDefaulted) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Moshi> codec = test::codec_of<payloads::Moshi>(e, Format::Msgpack);
  payloads::Moshi m;
  // {"c":3, "zz":[1,{"q":nil}], "a":1}: b takes its default.
  ASSERT_TRUE(
      codec.deserialize(from_hex("83 A1 63 03 A2 7A 7A 92 01 81 A1 71 C0 A1 61 01"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));
  // A key in a longer str head than needed names its field too.
  ASSERT_TRUE(codec.deserialize(from_hex("82 D9 01 61 02 A1 63 04"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{2, 5, 4}));

  struct Case {
    const char* hex;
    Errc code;
    std::size_t offset;
    const char* path;
  };
  const Case cases[] = {
      {"82 A1 61 01 A1 62 02", Errc::missing_field, 0, "Moshi.c"},
      {"83 A1 61 01 A1 61 01 A1 63 03", Errc::duplicate_key, 4, "Moshi.a"},
      {"82 A1 61 C0 A1 63 03", Errc::type_mismatch, 3, "Moshi.a"},
      {"82 A1 61 CE 80 00 00 00 A1 63 03", Errc::out_of_range, 3, "Moshi.a"},
      {"82 01 02 A1 63 03", Errc::type_mismatch, 1, "Moshi"},
      {"92 01 02", Errc::type_mismatch, 0, "Moshi"},
      {"82 A1 61 01 A1 63 03 C0", Errc::trailing_bytes, 7, "Moshi"},
      {"", Errc::truncated, 0, "Moshi"},
      // A count the bytes left cannot hold is refused before any item is read.
      {"82 A1 61", Errc::length_too_large, 0, "Moshi"},
      {"81 A1 61", Errc::truncated, 3, "Moshi.a"},
      {"82 A1 61 01 A1", Errc::length_too_large, 4, "Moshi"},
      {"82 A1 61 CD 01", Errc::truncated, 5, "Moshi.a"},
      {"DF FF FF FF FF A1 61 01", Errc::length_too_large, 0, "Moshi"},
      {"82 A1 61 01 A2 7A 7A DD FF FF FF FF", Errc::length_too_large, 7, "Moshi"},
      {"82 A1 61 01 A2 7A 7A C1 A1 63 03", Errc::syntax_error, 7, "Moshi"},
      {"82 A1 61 C1 A1 63 03", Errc::syntax_error, 3, "Moshi.a"},
  };
  for (const Case& c : cases) {
    const Status s = codec.deserialize(from_hex(c.hex), m);
    EXPECT_EQ(s.code(), c.code) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.offset(), c.offset) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.path(), c.path) << c.hex << ": " << s.to_string();
  }

  Engine strict({.strict = true});
  ASSERT_TRUE(payloads::register_all(strict).ok());
  const Status s = test::codec_of<payloads::Moshi>(strict, Format::Msgpack)
                       .deserialize(from_hex("83 A1 61 01 A2 7A 7A 00 A1 63 03"), m);
  EXPECT_EQ(s.code(), Errc::unknown_field) << s.to_string();
  EXPECT_EQ(s.offset(), 4u);
}

// A key at the very end of the input, shorter than the longest field name, is still compared
// in bounds (AddressSanitizer watches from_hex's exact-size bytes).
struct LongNames {
  std::int32_t a_field_with_a_long_name_indeed = 0;
  std::int32_t b = 0;
};

TEST(Msgpack, AShortKeyNearTheEndIsComparedInBounds) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<LongNames>("LongNames")
                        .field("a_field_with_a_long_name_indeed",
                               &LongNames::a_field_with_a_long_name_indeed,
                               opt().default_to(std::int64_t{9}))
                        .field("b", &LongNames::b))
                  .ok());
  LongNames back;
  ASSERT_TRUE(test::codec_of<LongNames>(e, Format::Msgpack)
                  .deserialize(from_hex("81 A1 62 07"), back)
                  .ok());
  EXPECT_EQ(back.b, 7);
  EXPECT_EQ(back.a_field_with_a_long_name_indeed, 9);
}

TEST(Msgpack, OmittedFieldsLeaveTheMapCountRight) {
  Engine e({.omit_null = true});
  ASSERT_TRUE(test::add_one<std::optional<std::int32_t>>(e).ok());
  Buffer out;
  auto codec = test::codec_of<One<std::optional<std::int32_t>>>(e, Format::Msgpack);
  ASSERT_TRUE(codec.serialize(One<std::optional<std::int32_t>>{}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "80");
  ASSERT_TRUE(codec.serialize(One<std::optional<std::int32_t>>{4}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), std::string(kOneV) + " 04");
}

TEST(Msgpack, ValuesOfUnknownShape) {
  const Value v(
      Value::Map{{"n", Value()},
                 {"list", Value(Value::Array{Value(true), Value(std::int64_t{-40}),
                                             Value(std::uint64_t{UINT64_MAX}), Value(0.5)})},
                 {"bin", Value(Value::Bytes{1, 2})},
                 {"s", Value("x")}});
  const std::string hex = write_hex(v);
  EXPECT_EQ(hex, std::string(kOneV) +
                     " 84 A1 6E C0 A4 6C 69 73 74 94 C3 D0 D8 CF FF FF FF FF FF FF FF FF CB 3F "
                     "E0 00 00 00 00 00 00 A3 62 69 6E C4 02 01 02 A1 73 A1 78");
  One<Value> back;
  ASSERT_TRUE(read_hex(hex, back).ok());
  EXPECT_EQ(back.v, v);
  // What only MessagePack carries is held as it came and written back byte for byte: an
  // extension (the timestamp's too), a float 32, a map with keys that are not str.
  const std::pair<const char*, Value> held[] = {
      {"D4 05 00", Value(Extension{5, {0}})},
      {"C7 03 80 01 02 03", Value(Extension{-128, {1, 2, 3}})},
      {"D6 FF 00 00 00 01", Value(Extension{-1, {0, 0, 0, 1}})},
      {"CA 3F 00 00 00", Value(0.5f)},
      {"82 01 02 A1 61 C0", Value(Value::Entries{{Value(1), Value(2)}, {Value("a"), Value()}})},
      {"81 A1 61 81 93 01 02 03 C3",
       Value(Value::Map{{"a", Value(Value::Entries{{Value(Value::Array{1, 2, 3}), true}})}})},
  };
  for (const auto& [item, value] : held) {
    ASSERT_TRUE(read_hex(std::string(kOneV) + " " + item, back).ok()) << item;
    EXPECT_EQ(back.v, value) << item;
    EXPECT_EQ(write_hex(value), std::string(kOneV) + " " + item);
  }
  EXPECT_EQ(read_hex(std::string(kOneV) + " C7 05 01 00", back).code(), Errc::length_too_large);
  // CBOR's tags and simple values have no MessagePack form.
  for (const Value& cbor_only : {Value(Tagged(1, Value(0))), Value(kUndefined)}) {
    Engine e;
    ASSERT_TRUE(test::add_one<Value>(e).ok());
    Buffer out;
    const Status s = test::codec_of<One<Value>>(e, Format::Msgpack).serialize({cbor_only}, out);
    EXPECT_EQ(s.code(), Errc::unsupported) << s.to_string();
  }
  // Nesting is bounded however the items are written.
  std::string deep = kOneV;
  for (int i = 0; i < 200; ++i) deep += " 91";
  deep += " C0";
  EXPECT_EQ(read_hex(deep, back).code(), Errc::depth_exceeded);
}

// Every payload round-trips, in the default layout and with structs as arrays and enums as
// integers, and input cut short anywhere is refused, never read past.
class MsgpackPayloads : public ::testing::TestWithParam<bool> {};

TEST_P(MsgpackPayloads, RoundTripAndEveryTruncationFails) {
  Engine e(EngineOptions{.struct_arrays = GetParam(), .enum_integers = GetParam()});
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::MediaContent> codec = test::codec_of<payloads::MediaContent>(e, Format::Msgpack);
  const payloads::MediaContent sent = payloads::make_media_content();
  Buffer out;
  ASSERT_TRUE(codec.serialize(sent, out).ok());
  payloads::MediaContent back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_EQ(back, sent);
  const std::vector<std::uint8_t> bytes = out.to_vector();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
    payloads::MediaContent x;
    const Status s = codec.deserialize(cut, x);
    EXPECT_FALSE(s.ok()) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, MsgpackPayloads, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "Compact" : "Default";
                         });

}  // namespace
}  // namespace jitser

// CBOR: what jitser writes, what it reads, and how it refuses bad input. Expected bytes are
// golden vectors of RFC 8949 (appendix A's examples, appendix F's not-well-formed items), not
// copies of jitser's own rules.
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "bench/payloads.h"
#include "formats/cbor/wire.h"
#include "support.h"

namespace jitser {
namespace {

using test::from_hex;
using test::One;
using test::to_hex;

// {"v": ...}: a map of one entry, the text "v", then the value.
constexpr const char* kOneV = "A1 61 76";

std::string one_v(const std::string& hex) { return std::string(kOneV) + " " + hex; }

template <class V>
std::string write_hex(const V& v, EngineOptions options = {}) {
  Engine e(options);
  EXPECT_TRUE(test::add_color(e).ok());
  EXPECT_TRUE(test::add_one<V>(e).ok());
  Buffer out;
  const Status s = test::codec_of<One<V>>(e, Format::Cbor).serialize(One<V>{v}, out);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return to_hex(out.bytes());
}

template <class V>
Status read_hex(const std::string& hex, One<V>& into, EngineOptions options = {}) {
  Engine e(options);
  EXPECT_TRUE(test::add_color(e).ok());
  EXPECT_TRUE(test::add_one<V>(e).ok());
  return test::codec_of<One<V>>(e, Format::Cbor).deserialize(from_hex(hex), into);
}

TEST(Cbor, IntegersInTheirShortestHead) {
  // RFC 8949, appendix A.
  const std::pair<std::int64_t, const char*> signed_cases[] = {
      {0, "00"},
      {1, "01"},
      {10, "0A"},
      {23, "17"},
      {24, "18 18"},
      {25, "18 19"},
      {100, "18 64"},
      {1000, "19 03 E8"},
      {1000000, "1A 00 0F 42 40"},
      {1000000000000, "1B 00 00 00 E8 D4 A5 10 00"},
      {-1, "20"},
      {-10, "29"},
      {-100, "38 63"},
      {-1000, "39 03 E7"},
      {INT64_MIN, "3B 7F FF FF FF FF FF FF FF"},
  };
  for (const auto& [v, hex] : signed_cases) {
    EXPECT_EQ(write_hex(v), one_v(hex)) << v;
    One<std::int64_t> back;
    ASSERT_TRUE(read_hex(one_v(hex), back).ok()) << v;
    EXPECT_EQ(back.v, v);
  }
  EXPECT_EQ(write_hex(std::uint64_t{UINT64_MAX}), one_v("1B FF FF FF FF FF FF FF FF"));
  EXPECT_EQ(write_hex(std::uint8_t{200}), one_v("18 C8"));
  EXPECT_EQ(write_hex(std::int8_t{-5}), one_v("24"));
}

TEST(Cbor, ReadsEveryIntegerHeadAndBignumWhoseValueFits) {
  for (const char* hex :
       {"01", "18 01", "19 00 01", "1A 00 00 00 01", "1B 00 00 00 00 00 00 00 01", "C2 41 01",
        "C2 43 00 00 01", "C2 5F 41 00 41 01 FF", "D9 D9 F7 01", "C6 01"}) {
    One<std::int16_t> back;
    const Status s = read_hex(one_v(hex), back);
    ASSERT_TRUE(s.ok()) << hex << ": " << s.to_string();
    EXPECT_EQ(back.v, 1) << hex;
    One<std::uint64_t> u;
    ASSERT_TRUE(read_hex(one_v(hex), u).ok()) << hex;
    EXPECT_EQ(u.v, 1u) << hex;
  }
  One<std::int64_t> wide;
  ASSERT_TRUE(read_hex(one_v("C3 48 7F FF FF FF FF FF FF FF"), wide).ok());
  EXPECT_EQ(wide.v, INT64_MIN);
  ASSERT_TRUE(read_hex(one_v("C3 40"), wide).ok());
  EXPECT_EQ(wide.v, -1);

  struct Bad {
    const char* hex;
    Errc code;
  };
  const Bad cases[] = {
      {"18 80", Errc::out_of_range},                             // 128 in an int8
      {"38 80", Errc::out_of_range},                             // -129 in an int8
      {"1B 80 00 00 00 00 00 00 00", Errc::out_of_range},        // 2^63 in an int64
      {"3B 80 00 00 00 00 00 00 00", Errc::out_of_range},        // -2^63 - 1
      {"C2 49 01 00 00 00 00 00 00 00 00", Errc::out_of_range},  // 2^64, the RFC's bignum
      {"C3 49 01 00 00 00 00 00 00 00 00", Errc::out_of_range},  // -2^64 - 1
      {"41 01", Errc::type_mismatch},                            // a byte string, not a bignum
      {"F9 3C 00", Errc::type_mismatch},
  };
  for (const Bad& c : cases) {
    One<std::int8_t> narrow;
    One<std::int64_t> any;
    const Status s =
        std::string(c.hex).rfind("18", 0) == 0 || std::string(c.hex).rfind("38", 0) == 0
            ? read_hex(one_v(c.hex), narrow)
            : read_hex(one_v(c.hex), any);
    EXPECT_EQ(s.code(), c.code) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.offset(), 3u) << c.hex;
    EXPECT_EQ(s.path(), "One.v") << c.hex;
  }
  One<std::uint32_t> unsigned_field;
  EXPECT_EQ(read_hex(one_v("20"), unsigned_field).code(), Errc::out_of_range);
}

// Compiled code reads an integer's argument from the word after its initial byte, where the
// input has one: the bytes after the integer, here the next elements, must not leak into it.
// The last element, near the input's end, is read without a word.
TEST(Cbor, IntegersAmidOtherItemsReadOnlyTheirOwnBytes) {
  struct Case {
    const char* hex;
    std::int64_t value;
  };
  const Case cases[] = {
      {"18 FE", 254},
      {"19 01 02", 258},
      {"1A 01 02 03 04", 0x01020304},
      {"1B 01 02 03 04 05 06 07 08", 0x0102030405060708},
      {"38 FE", -255},
      {"39 01 02", -259},
      {"3A 01 02 03 04", -0x01020305},
      {"3B 01 02 03 04 05 06 07 08", -0x0102030405060709},
  };
  for (const Case& c : cases) {
    One<std::vector<std::int64_t>> back;
    const Status s = read_hex(one_v("83 " + std::string(c.hex) + " " + c.hex + " " + c.hex), back);
    ASSERT_TRUE(s.ok()) << c.hex << ": " << s.to_string();
    EXPECT_EQ(back.v, std::vector<std::int64_t>(3, c.value)) << c.hex;
  }
}

TEST(Cbor, FloatsInTheShortestWidthThatKeepsTheirValue) {
  // RFC 8949, appendix A: preferred serialization.
  const std::pair<double, const char*> cases[] = {
      {0.0, "F9 00 00"},
      {-0.0, "F9 80 00"},
      {1.0, "F9 3C 00"},
      {1.1, "FB 3F F1 99 99 99 99 99 9A"},
      {1.5, "F9 3E 00"},
      {65504.0, "F9 7B FF"},
      {100000.0, "FA 47 C3 50 00"},
      {3.4028234663852886e+38, "FA 7F 7F FF FF"},
      {1.0e+300, "FB 7E 37 E4 3C 88 00 75 9C"},
      {5.960464477539063e-8, "F9 00 01"},
      {0.00006103515625, "F9 04 00"},
      {-4.0, "F9 C4 00"},
      {-4.1, "FB C0 10 66 66 66 66 66 66"},
      {std::numeric_limits<double>::infinity(), "F9 7C 00"},
      {std::numeric_limits<double>::quiet_NaN(), "F9 7E 00"},
      {-std::numeric_limits<double>::infinity(), "F9 FC 00"},
  };
  for (const auto& [v, hex] : cases) {
    EXPECT_EQ(write_hex(v), one_v(hex)) << v;
    One<double> back;
    ASSERT_TRUE(read_hex(one_v(hex), back).ok()) << hex;
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(back.v));
    } else {
      EXPECT_EQ(back.v, v) << hex;
      EXPECT_EQ(std::signbit(back.v), std::signbit(v)) << hex;
    }
  }
  EXPECT_EQ(write_hex(1.5f), one_v("F9 3E 00"));
  EXPECT_EQ(write_hex(0.1f), one_v("FA 3D CC CC CD"));
  // Every width of a value reads; the non-preferred ones of the RFC too.
  for (const char* hex : {"FA 7F 80 00 00", "FB 7F F0 00 00 00 00 00 00"}) {
    One<float> f;
    ASSERT_TRUE(read_hex(one_v(hex), f).ok()) << hex;
    EXPECT_TRUE(std::isinf(f.v) && f.v > 0) << hex;
  }
  One<float> f;
  ASSERT_TRUE(read_hex(one_v("FB 3F F8 00 00 00 00 00 00"), f).ok());
  EXPECT_EQ(f.v, 1.5f);
  One<double> d;
  ASSERT_TRUE(read_hex(one_v("38 63"), d).ok());
  EXPECT_EQ(d.v, -100.0);
  // 1.1 as a double is no float; 2^53 + 1 is no double.
  EXPECT_EQ(read_hex(one_v("FB 3F F1 99 99 99 99 99 9A"), f).code(), Errc::out_of_range);
  EXPECT_EQ(read_hex(one_v("1B 00 20 00 00 00 00 00 01"), d).code(), Errc::out_of_range);
  EXPECT_EQ(read_hex(one_v("F5"), d).code(), Errc::type_mismatch);
}

// Every half-precision float, NaN payloads included, is found to be one and written as it was;
// a double a bit off any of them is not one.
TEST(Cbor, EveryHalfIsFoundAndNothingElse) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const double d = cbor::from_half(static_cast<std::uint16_t>(bits));
    std::uint16_t h = 0;
    ASSERT_TRUE(cbor::to_half(d, h)) << bits;
    ASSERT_EQ(h, bits);
    if (std::isnan(d) || std::isinf(d)) continue;
    for (const double off : {std::nextafter(d, HUGE_VAL), std::nextafter(d, -HUGE_VAL)}) {
      std::uint16_t other = 0;
      EXPECT_FALSE(cbor::to_half(off, other)) << bits << " " << off;
    }
  }
  std::uint16_t h = 0;
  EXPECT_FALSE(cbor::to_half(65520.0, h));
  EXPECT_FALSE(cbor::to_half(0x1p-25, h));
  EXPECT_FALSE(cbor::to_half(std::numeric_limits<double>::denorm_min(), h));
}

TEST(Cbor, StringsBytesAndSimpleValues) {
  // RFC 8949, appendix A.
  EXPECT_EQ(write_hex(std::string()), one_v("60"));
  EXPECT_EQ(write_hex(std::string("IETF")), one_v("64 49 45 54 46"));
  EXPECT_EQ(write_hex(std::string("\"\\")), one_v("62 22 5C"));
  EXPECT_EQ(write_hex(std::string("\u00fc")), one_v("62 C3 BC"));
  EXPECT_EQ(write_hex(std::string("\u6c34")), one_v("63 E6 B0 B4"));
  EXPECT_EQ(write_hex(std::string("\xF0\x90\x85\x91")), one_v("64 F0 90 85 91"));
  EXPECT_EQ(write_hex(std::vector<std::uint8_t>{}), one_v("40"));
  EXPECT_EQ(write_hex(std::vector<std::uint8_t>{1, 2, 3, 4}), one_v("44 01 02 03 04"));
  EXPECT_EQ(write_hex(false), one_v("F4"));
  EXPECT_EQ(write_hex(true), one_v("F5"));
  EXPECT_EQ(write_hex(std::string(24, 'x')).substr(0, 14), "A1 61 76 78 18");
  EXPECT_EQ(write_hex(std::string(256, 'y')).substr(0, 17), "A1 61 76 79 01 00");

  // Indefinite-length strings read as their chunks joined (the RFC's "strea" "ming").
  One<std::string> text;
  ASSERT_TRUE(read_hex(one_v("7F 65 73 74 72 65 61 64 6D 69 6E 67 FF"), text).ok());
  EXPECT_EQ(text.v, "streaming");
  ASSERT_TRUE(read_hex(one_v("7F FF"), text).ok());
  EXPECT_EQ(text.v, "");
  ASSERT_TRUE(read_hex(one_v("79 00 02 68 69"), text).ok());
  EXPECT_EQ(text.v, "hi");
  One<std::vector<std::uint8_t>> bytes;
  ASSERT_TRUE(read_hex(one_v("5F 42 01 02 43 03 04 05 FF"), bytes).ok());
  EXPECT_EQ(bytes.v, (std::vector<std::uint8_t>{1, 2, 3, 4, 5}));

  struct Bad {
    const char* hex;
    Errc code;
    std::size_t offset;
  };
  const Bad cases[] = {
      {"62 C3 28", Errc::invalid_utf8, 3},
      // A character split between chunks: each chunk must be UTF-8 by itself.
      {"7F 61 C3 61 BC FF", Errc::invalid_utf8, 4},
      {"7F 41 61 FF", Errc::syntax_error, 4},        // a byte-string chunk in a text string
      {"7F 7F 61 61 FF FF", Errc::syntax_error, 4},  // a nested indefinite chunk
      {"7F 61 61", Errc::truncated, 6},
      {"41 61", Errc::type_mismatch, 3},
      {"78 05 61", Errc::length_too_large, 3},
  };
  for (const Bad& c : cases) {
    const Status s = read_hex(one_v(c.hex), text);
    EXPECT_EQ(s.code(), c.code) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.offset(), c.offset) << c.hex << ": " << s.to_string();
  }
  One<bool> b;
  EXPECT_EQ(read_hex(one_v("01"), b).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(one_v("F6"), b).code(), Errc::type_mismatch);
  // Null and undefined are both an empty optional.
  One<std::optional<std::int32_t>> opt;
  EXPECT_EQ(write_hex(std::optional<std::int32_t>{}), one_v("F6"));
  for (const char* hex : {"F6", "F7", "D9 D9 F7 F6"}) {
    opt.v = 3;
    ASSERT_TRUE(read_hex(one_v(hex), opt).ok()) << hex;
    EXPECT_FALSE(opt.v.has_value()) << hex;
  }
  // A Value holds tags and undefined, so an optional one is empty for a bare null alone.
  One<std::optional<Value>> held;
  ASSERT_TRUE(read_hex(one_v("F6"), held).ok());
  EXPECT_FALSE(held.v.has_value());
  for (const auto& [hex, value] : std::vector<std::pair<const char*, Value>>{
           {"F7", Value(kUndefined)},
           {"D9 D9 F7 F6", Value(Tagged(55799, Value()))},
           {"DB FF FF FF FF FF FF FF FF F7", Value(Tagged(UINT64_MAX, Value(kUndefined)))}}) {
    EXPECT_EQ(write_hex(std::optional<Value>(value)), one_v(hex));
    ASSERT_TRUE(read_hex(one_v(hex), held).ok()) << hex;
    ASSERT_TRUE(held.v.has_value()) << hex;
    EXPECT_EQ(*held.v, value) << hex;
  }
}

TEST(Cbor, EnumsByNameAndContainersOfEveryLength) {
  EXPECT_EQ(write_hex(test::Color::Blue), one_v("64 42 6C 75 65"));
  One<test::Color> c;
  ASSERT_TRUE(read_hex(one_v("63 52 65 64"), c).ok());
  EXPECT_EQ(c.v, test::Color::Red);
  EXPECT_EQ(read_hex(one_v("07"), c).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(one_v("64 50 69 6E 6B"), c).code(), Errc::unknown_enum);

  EXPECT_EQ(write_hex(std::vector<std::int32_t>{1, 2, 3}), one_v("83 01 02 03"));
  EXPECT_EQ(write_hex(std::vector<bool>{true, false}), one_v("82 F5 F4"));
  EXPECT_EQ(write_hex(std::array<std::uint8_t, 2>{3, 4}), one_v("82 03 04"));
  EXPECT_EQ(write_hex(std::map<std::string, std::int32_t>{{"a", 1}}), one_v("A1 61 61 01"));
  // Integer keys are written as integers: the RFC's {1: 2, 3: 4}.
  EXPECT_EQ(write_hex(std::map<std::int32_t, std::int32_t>{{1, 2}, {3, 4}}),
            one_v("A2 01 02 03 04"));
  std::vector<std::int32_t> to25(25);
  for (int i = 0; i < 25; ++i) to25[static_cast<std::size_t>(i)] = i + 1;
  const std::string hex25 =
      "98 19 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 15 16 17 18 18 18 19";
  EXPECT_EQ(write_hex(to25), one_v(hex25));

  // Every container reads definite or indefinite.
  One<std::vector<std::int32_t>> list;
  for (const std::string& hex :
       {hex25, std::string("9F 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D "
                           "0E 0F 10 11 12 13 14 15 16 17 18 18 18 19 FF")}) {
    ASSERT_TRUE(read_hex(one_v(hex), list).ok()) << hex;
    EXPECT_EQ(list.v, to25);
  }
  One<std::vector<std::vector<std::int32_t>>> nested;
  ASSERT_TRUE(read_hex(one_v("9F 82 02 03 9F 04 05 FF FF"), nested).ok());
  EXPECT_EQ(nested.v, (std::vector<std::vector<std::int32_t>>{{2, 3}, {4, 5}}));
  One<std::array<std::uint8_t, 2>> a;
  ASSERT_TRUE(read_hex(one_v("9F 03 04 FF"), a).ok());
  EXPECT_EQ(a.v, (std::array<std::uint8_t, 2>{3, 4}));
  EXPECT_EQ(read_hex(one_v("9F 03 04 05 FF"), a).code(), Errc::out_of_range);
  EXPECT_EQ(read_hex(one_v("83 01 02 03"), a).code(), Errc::out_of_range);
  One<std::map<std::int32_t, std::int32_t>> m;
  ASSERT_TRUE(read_hex(one_v("BF 01 02 03 04 FF"), m).ok());
  EXPECT_EQ(m.v, (std::map<std::int32_t, std::int32_t>{{1, 2}, {3, 4}}));
  EXPECT_EQ(read_hex(one_v("A2 01 02 01 04"), m).code(), Errc::duplicate_key);
  EXPECT_EQ(read_hex(one_v("9F 01"), list).code(), Errc::truncated);
}

using Nanos = std::chrono::time_point<std::chrono::system_clock, std::chrono::nanoseconds>;
using Millis = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;
using Seconds = std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds>;

TEST(Cbor, TimesAsEpochTagsDecimalsAsDecimalFractions) {
  // RFC 8949, appendix A: 1(1363896240) and 1(1363896240.5).
  const Nanos t{std::chrono::seconds(1363896240)};
  EXPECT_EQ(write_hex(t), one_v("C1 1A 51 4B 67 B0"));
  EXPECT_EQ(write_hex(t + std::chrono::milliseconds(500)), one_v("C1 FB 41 D4 52 D9 EC 20 00 00"));
  // A fraction no double keeps goes as extended time (RFC 9581): {1: seconds, -9: nanoseconds}.
  EXPECT_EQ(write_hex(t + std::chrono::nanoseconds(1)),
            one_v("D9 03 E9 A2 01 1A 51 4B 67 B0 28 01"));
  for (const Nanos sent : {t, t + std::chrono::milliseconds(500), t + std::chrono::nanoseconds(1),
                           Nanos{std::chrono::nanoseconds(-1)}, Nanos{}}) {
    One<Nanos> back;
    ASSERT_TRUE(read_hex(write_hex(sent), back).ok());
    EXPECT_EQ(back.v, sent);
  }
  One<Millis> ms;
  ASSERT_TRUE(read_hex(one_v("C1 FB 41 D4 52 D9 EC 20 00 00"), ms).ok());
  EXPECT_EQ(ms.v, Millis{std::chrono::milliseconds(1363896240500)});
  ASSERT_TRUE(read_hex(one_v("D9 03 E9 A2 01 01 22 18 2A"), ms).ok());  // {1: 1, -3: 42}
  EXPECT_EQ(ms.v, Millis{std::chrono::milliseconds(1042)});
  // The fraction first, or in an indefinite map, is the same time.
  for (const char* hex : {"D9 03 E9 A2 22 18 2A 01 01", "D9 03 E9 BF 01 01 22 18 2A FF"}) {
    ASSERT_TRUE(read_hex(one_v(hex), ms).ok()) << hex;
    EXPECT_EQ(ms.v, Millis{std::chrono::milliseconds(1042)}) << hex;
  }
  EXPECT_EQ(read_hex(one_v("D9 03 E9 A2 01 F9 3C 00 22 01"), ms).code(), Errc::syntax_error);
  EXPECT_EQ(read_hex(one_v("D9 03 E9 A1 22 01"), ms).code(), Errc::syntax_error);
  One<Nanos> back;
  EXPECT_EQ(read_hex(one_v("1A 51 4B 67 B0"), back).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(one_v("C1 F9 7C 00"), back).code(), Errc::out_of_range);
  EXPECT_EQ(read_hex(one_v("C1 1B 7F FF FF FF FF FF FF FF"), back).code(), Errc::out_of_range);
  EXPECT_EQ(write_hex(std::chrono::milliseconds(1500)), one_v("19 05 DC"));

  // RFC 8949, section 3.4.4: 273.15 is 4([-2, 27315]).
  EXPECT_EQ(write_hex(Decimal{27315, 2}), one_v("C4 82 21 19 6A B3"));
  One<Decimal> dec;
  ASSERT_TRUE(read_hex(one_v("C4 82 21 19 6A B3"), dec).ok());
  EXPECT_EQ(dec.v, (Decimal{27315, 2}));
  ASSERT_TRUE(read_hex(one_v("C4 9F 21 C2 42 6A B3 FF"), dec).ok());  // indefinite, a bignum
  EXPECT_EQ(dec.v, (Decimal{27315, 2}));
  EXPECT_EQ(read_hex(one_v("82 21 19 6A B3"), dec).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(one_v("C4 83 21 01 01"), dec).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(one_v("C4 82 1B 00 00 00 01 00 00 00 00 01"), dec).code(), Errc::out_of_range);
}

TEST(Cbor, KeysInAnyOrderUnknownSkippedMissingDefaulted) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Moshi> codec = test::codec_of<payloads::Moshi>(e, Format::Cbor);
  payloads::Moshi m;
  // {"c":3, "zz":[1,{"q":null}], "a":1}: b takes its default.
  ASSERT_TRUE(
      codec.deserialize(from_hex("A3 61 63 03 62 7A 7A 82 01 A1 61 71 F6 61 61 01"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));
  // An indefinite map; a key in a longer head than needed, or in chunks, names its field too.
  ASSERT_TRUE(codec.deserialize(from_hex("BF 78 01 61 02 7F 61 63 FF 04 FF"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{2, 5, 4}));
  // A tag before a key is stepped over, whatever its number (2^64 - 1 is one too).
  ASSERT_TRUE(
      codec
          .deserialize(from_hex("A2 61 61 01 DB FF FF FF FF FF FF FF FF 61 63 DB FF FF FF FF "
                                "FF FF FF FF 03"),
                       m)
          .ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));
  // Unknown values of every kind are stepped over, indefinite ones included.
  ASSERT_TRUE(codec
                  .deserialize(from_hex("A3 61 61 01 62 7A 7A BF 61 78 9F 5F 41 00 FF C1 F9 3C 00 "
                                        "FF FF 61 63 03"),
                               m)
                  .ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));

  struct Case {
    const char* hex;
    Errc code;
    std::size_t offset;
    const char* path;
  };
  const Case cases[] = {
      {"A2 61 61 01 61 62 02", Errc::missing_field, 0, "Moshi.c"},
      {"A3 61 61 01 61 61 01 61 63 03", Errc::duplicate_key, 4, "Moshi.a"},
      {"A2 61 61 F6 61 63 03", Errc::type_mismatch, 3, "Moshi.a"},
      {"A2 41 01 02 61 63 03", Errc::type_mismatch, 1, "Moshi"},
      {"82 01 02", Errc::type_mismatch, 0, "Moshi"},
      {"A2 61 61 01 61 63 03 F6", Errc::trailing_bytes, 7, "Moshi"},
      {"", Errc::truncated, 0, "Moshi"},
      {"A2 61 61", Errc::length_too_large, 0, "Moshi"},
      {"BF 61 61 01", Errc::truncated, 4, "Moshi"},
      {"BF 61 61 01 61 63 03 FF FF", Errc::trailing_bytes, 8, "Moshi"},
      {"A2 61 61 1C 61 63 03", Errc::syntax_error, 3, "Moshi.a"},
      {"A2 61 61 01 62 7A 7A FF 61 63 03", Errc::syntax_error, 7, "Moshi"},
  };
  for (const Case& c : cases) {
    const Status s = codec.deserialize(from_hex(c.hex), m);
    EXPECT_EQ(s.code(), c.code) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.offset(), c.offset) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.path(), c.path) << c.hex << ": " << s.to_string();
  }

  Engine strict({.strict = true});
  ASSERT_TRUE(payloads::register_all(strict).ok());
  const Status s = test::codec_of<payloads::Moshi>(strict, Format::Cbor)
                       .deserialize(from_hex("A3 61 61 01 62 7A 7A 00 61 63 03"), m);
  EXPECT_EQ(s.code(), Errc::unknown_field) << s.to_string();
  EXPECT_EQ(s.offset(), 4u);
}

// RFC 8949, appendix F: items that are not well-formed, each refused where it stands as an
// unknown field's value (stepped over by the reader) and as a jitser::Value.
TEST(Cbor, NotWellFormedItemsAreRefused) {
  const char* const items[] = {
      // The input ends in a head.
      "18", "19", "1A", "1B", "19 01", "1A 01 02", "1B 01 02 03 04 05 06 07", "38", "58", "78",
      "98", "9A 01 FF 00", "B8", "D8", "F8", "F9 00", "FA 00 00", "FB 00 00 00",
      // Definite-length strings with short data.
      "41", "61", "5A FF FF FF FF 00", "5B FF FF FF FF FF FF FF FF 01 02 03", "7A FF FF FF FF 00",
      "7B 7F FF FF FF FF FF FF FF 01 02 03",
      // Definite-length maps and arrays not closed with enough items.
      "81", "81 81 81 81 81 81 81 81 81", "82 00", "A1", "A2 01 02", "A1 00", "A2 00 00 00",
      // A tag without its content.
      "C0",
      // Indefinite-length strings, maps and arrays not closed by a break.
      "5F 41 00", "7F 61 00", "9F", "9F 01 02", "BF", "BF 01 02 01 02", "81 9F", "9F 80 00",
      "9F 9F 9F 9F 9F FF FF FF FF", "9F 81 9F 81 9F 9F FF FF FF",
      // Reserved additional information.
      "1C", "1D", "1E", "3C", "3D", "3E", "5C", "5D", "5E", "7C", "7D", "7E", "9C", "9D", "9E",
      "BC", "BD", "BE", "DC", "DD", "DE", "FC", "FD", "FE",
      // Reserved two-byte encodings of simple values.
      "F8 00", "F8 01", "F8 18", "F8 1F",
      // Chunks of an indefinite-length string that are not definite strings of its type.
      "5F 00 FF", "5F 21 FF", "5F 61 00 FF", "5F 80 FF", "5F A0 FF", "5F C0 00 FF", "5F E0 FF",
      "7F 41 00 FF", "5F 5F 41 00 FF FF", "7F 7F 61 00 FF FF",
      // A break outside an indefinite-length item, or where an item must be.
      "FF", "81 FF", "82 00 FF", "A1 FF", "A1 FF 00", "A1 00 FF", "A2 00 00 FF", "9F 81 FF",
      "9F 82 9F 81 9F 9F FF FF FF FF",
      // A break after a key, in an indefinite-length map.
      "BF 00 FF", "BF 00 00 00 FF",
      // Major types 0, 1 and 6 with additional information 31.
      "1F", "3F", "DF"};
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  ASSERT_TRUE(test::add_one<Value>(e).ok());
  Codec<payloads::Moshi> moshi = test::codec_of<payloads::Moshi>(e, Format::Cbor);
  Codec<One<Value>> value = test::codec_of<One<Value>>(e, Format::Cbor);
  for (const char* item : items) {
    // {"a": 1, "zz": <item>}: the item ends the input, and "c" is missing should it be read.
    payloads::Moshi m;
    Status s = moshi.deserialize(from_hex(std::string("A2 61 61 01 62 7A 7A ") + item), m);
    EXPECT_TRUE(s.code() == Errc::syntax_error || s.code() == Errc::truncated ||
                s.code() == Errc::length_too_large)
        << item << ": " << s.to_string();
    One<Value> v;
    s = value.deserialize(from_hex(one_v(item)), v);
    EXPECT_FALSE(s.ok()) << item;
  }
}

// RFC 8949, appendix A: every example a jitser::Value holds reads to its value, and those in
// preferred serialization are written back byte for byte.
TEST(Cbor, TheSpecificationsExamplesAsValues) {
  using A = Value::Array;
  using M = Value::Map;
  A to25;
  for (int i = 1; i <= 25; ++i) to25.emplace_back(i);
  struct Example {
    const char* hex;
    Value value;
    bool preferred;  // written back as it is
  };
  const Example examples[] = {
      {"00", Value(0), true},
      {"17", Value(23), true},
      {"18 64", Value(100), true},
      {"1B 00 00 00 E8 D4 A5 10 00", Value(std::int64_t{1000000000000}), true},
      {"1B FF FF FF FF FF FF FF FF", Value(std::uint64_t{UINT64_MAX}), true},
      {"3B 7F FF FF FF FF FF FF FF", Value(std::int64_t{INT64_MIN}), true},
      {"39 03 E7", Value(-1000), true},
      {"F9 80 00", Value(-0.0), true},
      {"F9 3E 00", Value(1.5), true},
      {"FA 47 C3 50 00", Value(100000.0), true},
      {"FB 7E 37 E4 3C 88 00 75 9C", Value(1.0e+300), true},
      {"F9 00 01", Value(5.960464477539063e-8), true},
      {"F9 FC 00", Value(-std::numeric_limits<double>::infinity()), true},
      {"FA 7F 80 00 00", Value(std::numeric_limits<double>::infinity()), false},
      {"FB 7F F0 00 00 00 00 00 00", Value(std::numeric_limits<double>::infinity()), false},
      {"F4", Value(false), true},
      {"F5", Value(true), true},
      {"F6", Value(), true},
      {"40", Value(Value::Bytes{}), true},
      {"44 01 02 03 04", Value(Value::Bytes{1, 2, 3, 4}), true},
      {"60", Value(""), true},
      {"64 49 45 54 46", Value("IETF"), true},
      {"63 E6 B0 B4", Value("\u6c34"), true},
      {"80", Value(A{}), true},
      {"83 01 82 02 03 82 04 05",
       Value(A{Value(1), Value(A{Value(2), Value(3)}), Value(A{Value(4), Value(5)})}), true},
      {"A0", Value(M{}), true},
      {"A2 61 61 01 61 62 82 02 03", Value(M{{"a", Value(1)}, {"b", Value(A{Value(2), Value(3)})}}),
       true},
      {"82 61 61 A1 61 62 61 63", Value(A{Value("a"), Value(M{{"b", Value("c")}})}), true},
      {"5F 42 01 02 43 03 04 05 FF", Value(Value::Bytes{1, 2, 3, 4, 5}), false},
      {"7F 65 73 74 72 65 61 64 6D 69 6E 67 FF", Value("streaming"), false},
      {"9F FF", Value(A{}), false},
      {"9F 01 82 02 03 9F 04 05 FF FF",
       Value(A{Value(1), Value(A{Value(2), Value(3)}), Value(A{Value(4), Value(5)})}), false},
      {"83 01 9F 02 03 FF 82 04 05",
       Value(A{Value(1), Value(A{Value(2), Value(3)}), Value(A{Value(4), Value(5)})}), false},
      {"BF 61 61 01 61 62 9F 02 03 FF FF",
       Value(M{{"a", Value(1)}, {"b", Value(A{Value(2), Value(3)})}}), false},
      {"BF 63 46 75 6E F5 63 41 6D 74 21 FF", Value(M{{"Fun", Value(true)}, {"Amt", Value(-2)}}),
       false},
      {"C4 82 21 19 6A B3", Value(Decimal{27315, 2}), true},
      {"C2 41 01", Value(1), false},
      // What a Value has no type of its own for it holds as it came: bignums beyond 64 bits,
      // other tags, simple values, and maps with keys that are not text.
      {"C2 49 01 00 00 00 00 00 00 00 00",
       Value(Tagged(2, Value(Value::Bytes{1, 0, 0, 0, 0, 0, 0, 0, 0}))), true},
      {"C3 49 01 00 00 00 00 00 00 00 00",
       Value(Tagged(3, Value(Value::Bytes{1, 0, 0, 0, 0, 0, 0, 0, 0}))), true},
      {"C0 74 32 30 31 33 2D 30 33 2D 32 31 54 32 30 3A 30 34 3A 30 30 5A",
       Value(Tagged(0, Value("2013-03-21T20:04:00Z"))), true},
      {"C1 1A 51 4B 67 B0", Value(Tagged(1, Value(1363896240))), true},
      {"C1 FB 41 D4 52 D9 EC 20 00 00", Value(Tagged(1, Value(1363896240.5))), true},
      {"D7 44 01 02 03 04", Value(Tagged(23, Value(Value::Bytes{1, 2, 3, 4}))), true},
      {"D8 18 45 64 49 45 54 46",
       Value(Tagged(24, Value(Value::Bytes{0x64, 0x49, 0x45, 0x54, 0x46}))), true},
      {"D8 20 76 68 74 74 70 3A 2F 2F 77 77 77 2E 65 78 61 6D 70 6C 65 2E 63 6F 6D",
       Value(Tagged(32, Value("http://www.example.com"))), true},
      {"D9 D9 F7 C1 01", Value(Tagged(55799, Value(Tagged(1, Value(1))))), true},
      {"F0", Value(Simple{16}), true},
      {"F7", Value(kUndefined), true},
      {"F8 FF", Value(Simple{255}), true},
      {"A2 01 02 03 04", Value(Value::Entries{{Value(1), Value(2)}, {Value(3), Value(4)}}), true},
      {"A2 61 61 01 02 03", Value(Value::Entries{{Value("a"), Value(1)}, {Value(2), Value(3)}}),
       true},
  };
  Engine e;
  ASSERT_TRUE(test::add_one<Value>(e).ok());
  Codec<One<Value>> codec = test::codec_of<One<Value>>(e, Format::Cbor);
  for (const Example& x : examples) {
    One<Value> back;
    const Status s = codec.deserialize(from_hex(one_v(x.hex)), back);
    ASSERT_TRUE(s.ok()) << x.hex << ": " << s.to_string();
    EXPECT_EQ(back.v, x.value) << x.hex;
    if (!x.preferred) continue;
    Buffer out;
    ASSERT_TRUE(codec.serialize(back, out).ok()) << x.hex;
    EXPECT_EQ(to_hex(out.bytes()), one_v(x.hex));
  }
  // A negative integer below int64 in a plain head is held as the bignum of its magnitude, and
  // a bignum that fits a head is written as one, as preferred serialization asks.
  for (const char* hex : {"3B FF FF FF FF FF FF FF FF", "3B 80 00 00 00 00 00 00 00"}) {
    One<Value> back;
    ASSERT_TRUE(codec.deserialize(from_hex(one_v(hex)), back).ok()) << hex;
    const std::vector<std::uint8_t> magnitude = from_hex(std::string(hex).substr(3));
    EXPECT_EQ(back.v, Value(Tagged(3, Value(Value::Bytes(magnitude.begin(), magnitude.end())))));
    Buffer out;
    ASSERT_TRUE(codec.serialize(back, out).ok()) << hex;
    EXPECT_EQ(to_hex(out.bytes()), one_v(hex));
  }
  for (const auto& [tagged, hex] : std::vector<std::pair<Value, const char*>>{
           {Value(Tagged(2, Value(Value::Bytes{}))), "00"},
           {Value(Tagged(2, Value(Value::Bytes{0, 0, 1, 0}))), "19 01 00"},
           {Value(Tagged(3, Value(Value::Bytes{0x7F}))), "38 7F"},
           {Value(Tagged(2, Value("01"))), "C2 62 30 31"}}) {
    Buffer out;
    ASSERT_TRUE(codec.serialize(One<Value>{tagged}, out).ok()) << hex;
    EXPECT_EQ(to_hex(out.bytes()), one_v(hex));
  }
  // A simple value with no one-byte form, or that is false, true or null, is not written.
  for (const std::uint8_t n : {20, 22, 24, 31}) {
    Buffer out;
    EXPECT_EQ(codec.serialize(One<Value>{Value(Simple{n})}, out).code(), Errc::unsupported) << +n;
  }
  Buffer out;
  EXPECT_EQ(codec.serialize(One<Value>{Value(Extension{1, {2}})}, out).code(), Errc::unsupported);
}

TEST(Cbor, OmittedFieldsLeaveTheMapCountRight) {
  Engine e({.omit_null = true});
  ASSERT_TRUE(test::add_one<std::optional<std::int32_t>>(e).ok());
  Buffer out;
  auto codec = test::codec_of<One<std::optional<std::int32_t>>>(e, Format::Cbor);
  ASSERT_TRUE(codec.serialize(One<std::optional<std::int32_t>>{}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "A0");
  ASSERT_TRUE(codec.serialize(One<std::optional<std::int32_t>>{4}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), one_v("04"));
}

// EngineOptions::enum_integers: an enum is its integer in its shortest head, and only a
// declared one is written or read, from any head or bignum that holds it; a name is then a type
// mismatch.
TEST(Cbor, EnumsAsIntegersByOption) {
  const EngineOptions integers{.enum_integers = true};
  EXPECT_EQ(write_hex(test::Color::Blue, integers), one_v("07"));
  EXPECT_EQ(write_hex(test::Color::Red, integers), one_v("20"));
  One<test::Color> c;
  ASSERT_TRUE(read_hex(one_v("19 00 07"), c, integers).ok());
  EXPECT_EQ(c.v, test::Color::Blue);
  ASSERT_TRUE(read_hex(one_v("C3 41 00"), c, integers).ok());  // bignum -1 - 0
  EXPECT_EQ(c.v, test::Color::Red);
  Status s = read_hex(one_v("05"), c, integers);
  EXPECT_EQ(s.code(), Errc::unknown_enum) << s.to_string();
  EXPECT_EQ(s.offset(), 3u);
  s = read_hex(one_v("64 42 6C 75 65"), c, integers);
  EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
  s = read_hex(one_v("3B FF FF FF FF FF FF FF FF"), c, integers);
  EXPECT_EQ(s.code(), Errc::unknown_enum) << s.to_string();
}

// EngineOptions::struct_arrays: a struct is an array of its fields in declaration order, of
// definite or indefinite length, and one of another length is refused, fewer items as a missing
// field and more as an unknown one.
TEST(Cbor, StructsAsArraysByOption) {
  Engine e(EngineOptions{.struct_arrays = true});
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Moshi> codec = test::codec_of<payloads::Moshi>(e, Format::Cbor);
  Buffer out;
  ASSERT_TRUE(codec.serialize(payloads::Moshi{1, 5, 3}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "83 01 05 03");
  payloads::Moshi m;
  ASSERT_TRUE(codec.deserialize(from_hex("9F 01 18 05 03 FF"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));
  ASSERT_TRUE(codec.deserialize(from_hex("C6 83 02 05 03"), m).ok());  // a tag is stepped over
  EXPECT_EQ(m, (payloads::Moshi{2, 5, 3}));
  Status s = codec.deserialize(from_hex("82 01 05"), m);
  EXPECT_EQ(s.code(), Errc::missing_field) << s.to_string();
  s = codec.deserialize(from_hex("84 01 05 03 00"), m);
  EXPECT_EQ(s.code(), Errc::unknown_field) << s.to_string();
  s = codec.deserialize(from_hex("9F 01 05 03 00 FF"), m);
  EXPECT_EQ(s.code(), Errc::unknown_field) << s.to_string();
  EXPECT_EQ(s.offset(), 4u);
  // An indefinite array that breaks early: the break stands where c's value goes.
  s = codec.deserialize(from_hex("9F 01 05 FF"), m);
  EXPECT_EQ(s.code(), Errc::syntax_error) << s.to_string();
  EXPECT_EQ(s.offset(), 3u);
  EXPECT_EQ(s.path(), "Moshi.c");
  s = codec.deserialize(from_hex("9F 01 05 03"), m);
  EXPECT_EQ(s.code(), Errc::truncated) << s.to_string();
  s = codec.deserialize(from_hex("A3 61 61 01 61 62 05 61 63 03"), m);
  EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
}

// EngineOptions::keys_by_number: a struct's keys are its fields' numbers, in their shortest
// heads. A reader takes a number in any head, behind a tag, or a field's name; an integer that
// is no field's number is skipped, or refused under strict.
TEST(Cbor, KeysByNumberByOption) {
  Engine e(EngineOptions{.keys_by_number = true});
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Moshi> codec = test::codec_of<payloads::Moshi>(e, Format::Cbor);
  Buffer out;
  ASSERT_TRUE(codec.serialize(payloads::Moshi{1, 7, 3}, out).ok());
  EXPECT_EQ(to_hex(out.bytes()), "A3 01 01 02 07 03 03");
  payloads::Moshi m;
  ASSERT_TRUE(codec.deserialize(from_hex("A3 03 03 19 00 01 01 C6 02 07"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 7, 3}));
  // Names, an unknown number and a negative key.
  ASSERT_TRUE(codec.deserialize(from_hex("A4 61 61 02 09 F6 20 F5 61 63 04"), m).ok());
  EXPECT_EQ(m, (payloads::Moshi{2, 5, 4}));
  const Status s = codec.deserialize(from_hex("A2 01 01 09 00"), m);
  EXPECT_EQ(s.code(), Errc::missing_field) << s.to_string();

  Engine strict(EngineOptions{.strict = true, .keys_by_number = true});
  ASSERT_TRUE(payloads::register_all(strict).ok());
  const Status u = test::codec_of<payloads::Moshi>(strict, Format::Cbor)
                       .deserialize(from_hex("A4 01 01 02 05 03 03 18 2A 00"), m);
  EXPECT_EQ(u.code(), Errc::unknown_field) << u.to_string();
  EXPECT_EQ(u.offset(), 7u);
  EXPECT_NE(u.to_string().find("\"42\""), std::string::npos) << u.to_string();

  // A reader keyed by name skips integer keys as keys of no field.
  Engine by_name;
  ASSERT_TRUE(payloads::register_all(by_name).ok());
  ASSERT_TRUE(test::codec_of<payloads::Moshi>(by_name, Format::Cbor)
                  .deserialize(from_hex("A3 61 61 01 01 02 61 63 03"), m)
                  .ok());
  EXPECT_EQ(m, (payloads::Moshi{1, 5, 3}));
}

// EngineOptions::text_timestamps: tag 0 with RFC 3339 text (RFC 8949, section 3.4.1), with as
// few fraction digits as the value needs. Readers take tag 0 whatever the option says.
TEST(Cbor, TimestampsAsTextByOption) {
  const EngineOptions text{.text_timestamps = true};
  auto text_item = [](std::string_view s) {
    return to_hex({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
  };
  const Nanos t{std::chrono::seconds(1363896240)};
  // RFC 8949, appendix A: 0("2013-03-21T20:04:00Z").
  const std::string rfc = "C0 74 32 30 31 33 2D 30 33 2D 32 31 54 32 30 3A 30 34 3A 30 30 5A";
  EXPECT_EQ(write_hex(t, text), one_v(rfc));
  EXPECT_EQ(write_hex(t + std::chrono::milliseconds(500), text),
            one_v("C0 78 18 " + text_item("2013-03-21T20:04:00.500Z")));
  EXPECT_EQ(write_hex(Nanos{std::chrono::nanoseconds(-1)}, text),
            one_v("C0 78 1E " + text_item("1969-12-31T23:59:59.999999999Z")));
  for (const Nanos sent : {t, t + std::chrono::milliseconds(500), t + std::chrono::nanoseconds(1),
                           Nanos{std::chrono::nanoseconds(-1)}, Nanos{}}) {
    One<Nanos> back;
    ASSERT_TRUE(read_hex(write_hex(sent, text), back).ok());
    EXPECT_EQ(back.v, sent);
    ASSERT_TRUE(read_hex(write_hex(sent, text), back, text).ok());
    EXPECT_EQ(back.v, sent);
  }
  // An offset, a lower-case "t", and text in chunks (an indefinite string) are the same time.
  One<Seconds> s;
  for (const std::string& hex :
       {"C0 78 19 " + text_item("2013-03-21T21:04:00+01:00"),
        "C0 74 " + text_item("2013-03-21t20:04:00Z"),
        "C0 7F 6A " + text_item("2013-03-21") + " 6A " + text_item("T20:04:00Z") + " FF"}) {
    ASSERT_TRUE(read_hex(one_v(hex), s).ok()) << hex;
    EXPECT_EQ(s.v, Seconds{std::chrono::seconds(1363896240)}) << hex;
  }
  // More fraction digits than the unit holds, text that is not RFC 3339, or no text at all.
  const Status digits = read_hex(one_v("C0 76 " + text_item("2013-03-21T20:04:00.5Z")), s);
  EXPECT_EQ(digits.code(), Errc::out_of_range);
  EXPECT_EQ(digits.offset(), 3u);
  EXPECT_EQ(read_hex(one_v("C0 74 " + text_item("2013-03-21 20:04:00Z")), s).code(),
            Errc::out_of_range);
  EXPECT_EQ(read_hex(one_v("C0 74 " + text_item("2013-02-30T20:04:00Z")), s).code(),
            Errc::out_of_range);
  EXPECT_EQ(read_hex(one_v("C0 1A 51 4B 67 B0"), s).code(), Errc::type_mismatch);
  EXPECT_EQ(read_hex(one_v("C0 73 " + text_item("2013-03-21T20:04:00")), s).code(),
            Errc::out_of_range);
  // Years RFC 3339 cannot write fail to write, and only with the option.
  Engine e(text);
  ASSERT_TRUE(test::add_color(e).ok());
  ASSERT_TRUE(test::add_one<Seconds>(e).ok());
  Buffer out;
  const One<Seconds> far{Seconds{std::chrono::seconds(253402300800)}};
  const Status s10000 = test::codec_of<One<Seconds>>(e, Format::Cbor).serialize(far, out);
  EXPECT_EQ(s10000.code(), Errc::out_of_range);
  EXPECT_NE(s10000.to_string().find("One.v"), std::string::npos) << s10000.to_string();
  EXPECT_EQ(write_hex(far.v), one_v("C1 1B 00 00 00 3A FF F4 41 80"));
}

// EngineOptions::deterministic (RFC 8949, section 4.2.1): every map's entries in the bytewise
// order of their encoded keys, a struct's fields and a map's entries alike, nested maps too; the
// reader takes keys in any order, so the value reads back.
TEST(Cbor, DeterministicEncodingSortsMapKeysByTheirBytes) {
  const EngineOptions sorted{.deterministic = true};
  // "b" (61 62) before "aa" (62 61 61): the shorter key's head is smaller.
  EXPECT_EQ(write_hex(std::map<std::string, std::int32_t>{{"aa", 1}, {"b", 2}}, sorted),
            one_v("A2 61 62 02 62 61 61 01"));
  EXPECT_EQ(write_hex(std::map<std::string, std::int32_t>{{"aa", 1}, {"b", 2}}),
            one_v("A2 62 61 61 01 61 62 02"));
  // 10 (0a) before 300 (19 01 2c) before -2 (21).
  EXPECT_EQ(write_hex(std::map<std::int32_t, bool>{{-2, true}, {10, false}, {300, true}}, sorted),
            one_v("A3 0A F4 19 01 2C F5 21 F5"));
  EXPECT_EQ(
      write_hex(std::vector<std::map<std::string, bool>>{{{"zz", true}, {"y", false}}}, sorted),
      one_v("81 A2 61 79 F4 62 7A 7A F5"));

  Engine e(sorted);
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::MediaContent> codec = test::codec_of<payloads::MediaContent>(e, Format::Cbor);
  const payloads::MediaContent sent = payloads::make_media_content();
  Buffer out;
  ASSERT_TRUE(codec.serialize(sent, out).ok());
  // {"media": ..., "images": ...}: "media" (65 ...) before "images" (66 ...).
  EXPECT_EQ(to_hex(out.bytes()).substr(0, 8), "A2 65 6D");
  payloads::MediaContent back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_EQ(back, sent);
}

// Every payload round-trips, in the default layout and with structs as arrays and enums as
// integers, and input cut short anywhere is refused, never read past.
class CborPayloads : public ::testing::TestWithParam<bool> {};

TEST_P(CborPayloads, RoundTripAndEveryTruncationFails) {
  Engine e(EngineOptions{.struct_arrays = GetParam(), .enum_integers = GetParam()});
  ASSERT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::MediaContent> codec = test::codec_of<payloads::MediaContent>(e, Format::Cbor);
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
    EXPECT_FALSE(codec.deserialize(cut, x).ok()) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, CborPayloads, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "Compact" : "Default";
                         });

}  // namespace
}  // namespace jitser

// The Protobuf wire format (docs/formats/protobuf.md): the encoding guide's examples, the
// reading rules of the specification, bad input, and interop both ways with libprotobuf, through
// protoc's generated classes for the benchmark payloads and DynamicMessage for random messages
// of a schema with every field kind, in whichever tier the suite's policy runs.
#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/message_differencer.h>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <jitser/proto.h>

#include "bench/payloads.h"
#include "bench/peers/protobuf_peer.h"
#include "payloads.pb.h"
#include "support.h"

namespace jitser {
namespace {

namespace gp = google::protobuf;

// The messages of the encoding guide (protobuf.dev/programming-guides/encoding): Test1 { int32
// a = 1; }, Test2 { string b = 2; }, Test3 { Test1 c = 3; }, Test5 { repeated int32 f = 6; },
// here as the fields of one struct.
struct Test1 {
  std::int32_t a = 0;
  friend bool operator==(const Test1&, const Test1&) = default;
};
struct Guide {
  std::int32_t a = 0;
  std::string b;
  Test1 c;
  std::vector<std::int32_t> f;
  std::vector<std::string> names;
  std::map<std::string, Test1> by_name;
  std::optional<std::int64_t> maybe;
  std::int32_t zig = 0;
  friend bool operator==(const Guide&, const Guide&) = default;
};

Status add_guide(Engine& engine) {
  if (Status s = engine.add(Struct<Test1>("Test1").field("a", &Test1::a)); !s) return s;
  return engine.add(Struct<Guide>("Guide")
                        .field("a", &Guide::a)
                        .field("b", &Guide::b)
                        .field("c", &Guide::c)
                        .field("f", &Guide::f, opt().number(6))
                        .field("names", &Guide::names, opt().number(7))
                        .field("by_name", &Guide::by_name, opt().number(8))
                        .field("maybe", &Guide::maybe, opt().number(9))
                        .field("zig", &Guide::zig, opt().number(10).encoding(IntEncoding::Zigzag)));
}

struct ProtobufGuide : ::testing::Test {
  void SetUp() override {
    ASSERT_TRUE(add_guide(engine).ok());
    codec.emplace(test::codec_of<Guide>(engine, Format::Protobuf));
  }
  Guide read(const std::string& hex) {
    Guide g;
    const std::vector<std::uint8_t> bytes = test::from_hex(hex);
    const Status s = codec->deserialize(bytes, g);
    EXPECT_TRUE(s.ok()) << hex << ": " << s.to_string();
    return g;
  }
  Status read_status(const std::string& hex, Guide& g) {
    const std::vector<std::uint8_t> bytes = test::from_hex(hex);
    return codec->deserialize(bytes, g);
  }
  std::string write(const Guide& g) {
    Buffer out;
    const Status s = codec->serialize(g, out);
    EXPECT_TRUE(s.ok()) << s.to_string();
    return test::to_hex(out.bytes());
  }
  Engine engine;
  std::optional<Codec<Guide>> codec;
};

TEST_F(ProtobufGuide, TheEncodingGuidesExamples) {
  EXPECT_EQ(read("08 96 01").a, 150);
  EXPECT_EQ(read("12 07 74 65 73 74 69 6E 67").b, "testing");
  EXPECT_EQ(read("1A 03 08 96 01").c.a, 150);
  EXPECT_EQ(read("32 06 03 8E 02 9E A7 05").f, (std::vector<std::int32_t>{3, 270, 86942}));

  Guide g;
  g.a = 150;
  g.b = "testing";
  g.c.a = 150;
  g.f = {3, 270, 86942};
  EXPECT_EQ(write(g), "08 96 01 12 07 74 65 73 74 69 6E 67 1A 03 08 96 01 32 06 03 8E 02 9E A7 05");
}

TEST_F(ProtobufGuide, ZeroValuesAreLeftOutAndAbsentFieldsReadAsZero) {
  // A struct held by value is always there, and so always written, empty or not.
  EXPECT_EQ(write(Guide{}), "1A 00");
  Guide used = read("08 96 01 12 01 78 32 01 05 3A 01 79 48 07");
  ASSERT_EQ(used.maybe, 7);
  // Reading into a used object: what the input leaves out becomes zero, empty or null.
  ASSERT_TRUE(read_status("", used).ok());
  EXPECT_EQ(used, Guide{});
  // An optional holding zero is present, and written.
  Guide g;
  g.maybe = 0;
  EXPECT_EQ(write(g), "1A 00 48 00");
  // sint32: -1 is 1 as a zigzag varint; int32: -1 takes ten bytes.
  g = Guide{};
  g.zig = -1;
  g.a = -1;
  EXPECT_EQ(write(g), "08 FF FF FF FF FF FF FF FF FF 01 1A 00 50 01");
  EXPECT_EQ(read("08 FF FF FF FF FF FF FF FF FF 01 50 01"), g);
}

TEST_F(ProtobufGuide, ReadingFollowsTheSpecificationNotOnlyOurOwnOutput) {
  // Fields in any order; the last value of a singular field wins.
  Guide g = read("12 01 78 08 01 08 02");
  EXPECT_EQ(g.a, 2);
  EXPECT_EQ(g.b, "x");
  // A nested message that comes twice merges: a from the first, then a again from the second.
  g = read("1A 02 08 05 1A 00");
  EXPECT_EQ(g.c.a, 5);
  g = read("1A 02 08 05 1A 02 08 06");
  EXPECT_EQ(g.c.a, 6);
  // Compiled code leaves those two merges to the interpreter, and the statistics count them
  // apart from disagreements between the tiers.
  CodecStats stats = codec->dyn().stats();
  EXPECT_EQ(stats.declined_calls, stats.tier == Tier::Compiled ? 2u : 0u);
  EXPECT_EQ(stats.tier_disagreements, 0u);
  // Repeated scalars packed, unpacked, and both, in one list.
  EXPECT_EQ(read("30 01 30 02 32 02 03 04 30 05").f, (std::vector<std::int32_t>{1, 2, 3, 4, 5}));
  // Repeated strings: one key each, appended in order.
  EXPECT_EQ(read("3A 01 61 08 01 3A 01 62").names, (std::vector<std::string>{"a", "b"}));
  // Map entries: key then value, value then key, either left out, a key again replacing.
  g = read("42 05 0A 01 6B 12 00 42 07 12 02 08 03 0A 01 6A 42 00 42 07 0A 01 6B 12 02 08 09");
  ASSERT_EQ(g.by_name.size(), 3u);
  EXPECT_EQ(g.by_name.at("k").a, 9);
  EXPECT_EQ(g.by_name.at("j").a, 3);
  EXPECT_EQ(g.by_name.at("").a, 0);
  // Unknown fields of every wire type are skipped, a group with its nested group included.
  g = read(
      "78 05 79 01 02 03 04 05 06 07 08 7A 02 AA BB 7D 01 02 03 04 "
      "7B 08 01 83 01 08 02 84 01 7C 08 2A");
  EXPECT_EQ(g.a, 42);
  // A varint with redundant high bytes is accepted, as Protobuf's readers accept it.
  EXPECT_EQ(read("08 81 80 80 80 00").a, 1);
  // Nothing else here is left to the interpreter.
  stats = codec->dyn().stats();
  EXPECT_EQ(stats.declined_calls, stats.tier == Tier::Compiled ? 2u : 0u);
  // A proto3 enum is open: values it does not declare are kept (Inner's tone, below, checks
  // it against protobuf).
}

TEST_F(ProtobufGuide, BadInputGetsItsOwnErrorWithItsPlace) {
  struct Case {
    const char* hex;
    Errc code;
    std::size_t offset;
  };
  const Case cases[] = {
      {"08", Errc::truncated, 1},                                         // a varint never ends
      {"08 80 80 80 80 80 80 80 80 80 80 01", Errc::varint_overlong, 1},  // eleven bytes
      {"08 FF FF FF FF FF FF FF FF FF 7F", Errc::varint_overlong, 1},     // past 64 bits
      {"12 05 61 62", Errc::length_too_large, 1},                         // a length past the end
      {"0A 01 61", Errc::type_mismatch, 2},                               // len for an int32
      {"10 01", Errc::type_mismatch, 1},                                  // varint for a string
      {"12 02 C3 28", Errc::invalid_utf8, 2},                             // not UTF-8
      {"00 01", Errc::syntax_error, 0},                                   // field number 0
      {"0E 01", Errc::syntax_error, 0},                                   // wire type 6
      {"7B 08 01", Errc::truncated, 1},                                   // a group never ends
      {"7B 84 01", Errc::syntax_error, 1},                                // ended by another group
      {"0C", Errc::syntax_error, 0},                                      // an end with no start
      {"08 80 80 80 80 10", Errc::out_of_range, 1},                       // 2^32 into an int32
      {"1A 02 08", Errc::length_too_large, 1},                            // a message past the end
      {"1A 01 08", Errc::truncated, 3},                                   // truncated inside it
  };
  for (const Case& c : cases) {
    Guide g;
    const Status s = read_status(c.hex, g);
    EXPECT_EQ(s.code(), c.code) << c.hex << ": " << s.to_string();
    EXPECT_EQ(s.offset(), c.offset) << c.hex << ": " << s.to_string();
  }
  // The field is named in the path.
  Guide g;
  EXPECT_EQ(read_status("1A 02 08 80", g).path(), "Guide.c");
}

TEST_F(ProtobufGuide, PackedRunsReadAlikeWithRoomPastTheInputOrNone) {
  // Compiled code reads a run's varints a word at a time where the input has room past it, and
  // byte by byte where it has none: both read the same values and find the same faults.
  struct Case {
    const char* hex;
    std::vector<std::int32_t> f;  // what the run reads as
    Errc code;
  };
  const Case cases[] = {
      {"32 0B FF FF FF FF FF FF FF FF FF 01 05", {-1, 5}, Errc::ok},
      {"32 0A 80 80 80 80 80 80 80 80 80 00", {0}, Errc::ok},  // ten bytes, redundant
      {"32 09 81 80 80 80 80 80 80 80 00", {1}, Errc::ok},     // nine
      {"32 05 96 01 07 AC 02", {150, 7, 300}, Errc::ok},
      {"32 0B 80 80 80 80 80 80 80 80 80 80 01", {}, Errc::varint_overlong},  // eleven bytes
      {"32 0A FF FF FF FF FF FF FF FF FF 7F", {}, Errc::varint_overlong},     // past 64 bits
      {"32 0A 80 80 80 80 80 80 80 80 80 02", {}, Errc::varint_overlong},
      {"32 02 01 80", {}, Errc::truncated},  // the run ends inside a varint
  };
  for (const Case& c : cases) {
    const std::vector<std::uint8_t> bytes = test::from_hex(c.hex);
    Buffer roomy;
    roomy.append(bytes.data(), bytes.size());
    Guide tight, padded;
    const Status a = codec->deserialize(bytes, tight);
    const Status b = codec->deserialize(roomy.padded(), padded);
    EXPECT_EQ(a.code(), c.code) << c.hex << ": " << a.to_string();
    EXPECT_EQ(b.code(), c.code) << c.hex << ": " << b.to_string();
    EXPECT_EQ(a.offset(), b.offset()) << c.hex;
    if (c.code == Errc::ok) {
      EXPECT_EQ(tight.f, c.f) << c.hex;
      EXPECT_EQ(padded.f, c.f) << c.hex;
    }
  }
  EXPECT_EQ(codec->dyn().stats().tier_disagreements, 0u);
}

TEST_F(ProtobufGuide, VarintsOfEveryLengthReadAsLibprotobufWritesThem) {
  // Compiled code joins a long varint's groups as one word, by pext where the host has it
  // fast: every bit length, singular (int64 `maybe`) and in a packed run of sign-extended
  // int32 (`f`), from libprotobuf's encoder, read with room past the input and without.
  std::mt19937_64 rng(20261203);
  std::vector<std::int64_t> wide;
  std::vector<std::int32_t> narrow;
  for (unsigned bits = 0; bits <= 64; ++bits) {
    for (int k = 0; k < 4; ++k) {
      const std::uint64_t top = bits ? std::uint64_t{1} << (bits - 1) : 0;
      const std::uint64_t v = top | (rng() & (top ? top - 1 : 0));
      wide.push_back(static_cast<std::int64_t>(v));
      if (bits <= 32) narrow.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
    }
  }
  auto encode = [](auto&& write) {
    std::string bytes;
    {
      gp::io::StringOutputStream stream(&bytes);
      gp::io::CodedOutputStream coded(&stream);
      write(coded);
    }
    return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
  };
  auto read_both = [&](const std::vector<std::uint8_t>& bytes, auto&& check) {
    Buffer roomy;
    roomy.append(bytes.data(), bytes.size());
    Guide tight, padded;
    const Status a = codec->deserialize(bytes, tight);
    const Status b = codec->deserialize(roomy.padded(), padded);
    ASSERT_TRUE(a.ok()) << a.to_string();
    ASSERT_TRUE(b.ok()) << b.to_string();
    check(tight);
    check(padded);
  };
  for (const std::int64_t v : wide) {
    read_both(encode([&](gp::io::CodedOutputStream& out) {
                out.WriteTag(9 << 3);
                out.WriteVarint64(static_cast<std::uint64_t>(v));
              }),
              [&](const Guide& g) { EXPECT_EQ(g.maybe, v); });
  }
  const std::vector<std::uint8_t> run = encode([&](gp::io::CodedOutputStream& out) {
    for (const std::int32_t v : narrow) out.WriteVarint32SignExtended(v);
  });
  read_both(encode([&](gp::io::CodedOutputStream& out) {
              out.WriteTag(6 << 3 | 2);
              out.WriteVarint32(static_cast<std::uint32_t>(run.size()));
              out.WriteRaw(run.data(), static_cast<int>(run.size()));
            }),
            [&](const Guide& g) { EXPECT_EQ(g.f, narrow); });
  EXPECT_EQ(codec->dyn().stats().tier_disagreements, 0u);
}

TEST_F(ProtobufGuide, EveryTruncationIsAnErrorAndTheTargetSurvives) {
  Guide g;
  g.a = -7;
  g.b = "a string of some length";
  g.c.a = 300;
  g.f = {1, -2, 300000};
  g.names = {"x", "", "yz"};
  g.by_name = {{"one", {1}}, {"two", {2}}};
  g.maybe = -1;
  g.zig = -100;
  Buffer out;
  ASSERT_TRUE(codec->serialize(g, out).ok());
  for (std::size_t n = 0; n < out.size(); ++n) {
    const std::vector<std::uint8_t> prefix(out.data(), out.data() + n);
    Guide back = g;
    const Status s = codec->deserialize(prefix, back);
    // A prefix that ends between two fields is a valid message of fewer fields.
    if (s.ok()) continue;
    EXPECT_TRUE(s.code() == Errc::truncated || s.code() == Errc::length_too_large)
        << n << ": " << s.to_string();
  }
  Guide back;
  ASSERT_TRUE(codec->deserialize(out.bytes(), back).ok());
  EXPECT_EQ(back, g);
}

struct Pick {
  std::optional<std::int32_t> n;
  std::optional<std::string> s;
};

TEST(Protobuf, TheLastFieldOfAOneofWins) {
  Engine engine;
  ASSERT_TRUE(engine
                  .add(Struct<Pick>("Pick")
                           .field("n", &Pick::n, opt().oneof("choice"))
                           .field("s", &Pick::s, opt().oneof("choice")))
                  .ok());
  auto codec = test::codec_of<Pick>(engine, Format::Protobuf);
  Pick p;
  std::vector<std::uint8_t> bytes = test::from_hex("08 05 12 01 78");
  ASSERT_TRUE(codec.deserialize(bytes, p).ok());
  EXPECT_EQ(p.n, std::nullopt);
  EXPECT_EQ(p.s, "x");
  bytes = test::from_hex("12 01 78 08 05");
  ASSERT_TRUE(codec.deserialize(bytes, p).ok());
  EXPECT_EQ(p.n, 5);
  EXPECT_EQ(p.s, std::nullopt);
  // Writing one with both is refused, as in every format.
  p.s = "y";
  Buffer out;
  EXPECT_EQ(codec.serialize(p, out).code(), Errc::oneof_conflict);
}

struct Flags {
  std::vector<bool> on;
  std::int32_t n = 0;
  friend bool operator==(const Flags&, const Flags&) = default;
};

TEST(Protobuf, ABoolListGainsEachAppearanceAndReadsLongRuns) {
  Engine engine;
  ASSERT_TRUE(
      engine.add(Struct<Flags>("Flags").field("on", &Flags::on).field("n", &Flags::n)).ok());
  auto codec = test::codec_of<Flags>(engine, Format::Protobuf);
  // Packed, unpacked, then packed again, with another field between: each appearance adds its
  // elements, and the first replaces what a used list held.
  Flags f{std::vector<bool>(10, true), 1};
  std::vector<std::uint8_t> bytes = test::from_hex("0A 02 01 00 08 01 10 05 0A 01 01");
  ASSERT_TRUE(codec.deserialize(bytes, f).ok());
  EXPECT_EQ(f, (Flags{{true, false, true, true}, 5}));
  // Any nonzero varint is true, in one byte or more.
  bytes = test::from_hex("0A 03 02 00 7F 0A 02 81 00 0A 02 80 00");
  ASSERT_TRUE(codec.deserialize(bytes, f).ok());
  EXPECT_EQ(f, (Flags{{true, false, true, true, false}, 0}));
  // A run longer than the elements the reader sets at once, into a list that held fewer.
  Flags many;
  for (int i = 0; i < 150; ++i) many.on.push_back(i % 3 == 0);
  Buffer out;
  ASSERT_TRUE(codec.serialize(many, out).ok());
  ASSERT_TRUE(codec.deserialize(out.bytes(), f).ok());
  EXPECT_EQ(f, many);
  EXPECT_EQ(codec.dyn().stats().tier_disagreements, 0u);
}

struct Tree {
  std::int32_t v = 0;
  std::unique_ptr<Tree> child;
};

TEST(Protobuf, NestingPastTheLimitIsAnError) {
  Engine engine(EngineOptions{.max_depth = 16});
  ASSERT_TRUE(
      engine.add(Struct<Tree>("Tree").field("v", &Tree::v).field("child", &Tree::child)).ok());
  auto codec = test::codec_of<Tree>(engine, Format::Protobuf);
  // child { child { ... } } twenty deep, each `12 <length>`.
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 20; ++i) {
    std::vector<std::uint8_t> outer{0x12, static_cast<std::uint8_t>(bytes.size())};
    outer.insert(outer.end(), bytes.begin(), bytes.end());
    bytes = std::move(outer);
  }
  Tree t;
  const Status s = codec.deserialize(bytes, t);
  EXPECT_EQ(s.code(), Errc::depth_exceeded) << s.to_string();
  // Groups nested past the limit, in a field no one declares.
  std::vector<std::uint8_t> groups;
  for (int i = 0; i < 40; ++i) groups.push_back(0x7B);
  for (int i = 0; i < 40; ++i) groups.push_back(0x7C);
  EXPECT_EQ(codec.deserialize(groups, t).code(), Errc::depth_exceeded);
}

// ---- interop with protoc's generated classes, on the benchmark payloads ---------------------

template <class T>
void interop_with_generated(Engine& engine, const T& value, const gp::Descriptor* descriptor) {
  auto codec = test::codec_of<T>(engine, Format::Protobuf);
  bench::protobuf_peer::Codec<T> peer;
  std::string theirs;
  ASSERT_TRUE(peer.serialize(value, theirs));
  Buffer ours;
  ASSERT_TRUE(codec.serialize(value, ours).ok());
  // Both write fields in number order, the shortest varints, packed scalars: the same bytes.
  EXPECT_EQ(test::to_hex(ours.bytes()),
            test::to_hex({reinterpret_cast<const std::uint8_t*>(theirs.data()), theirs.size()}));
  T from_theirs{};
  const Status s = codec.deserialize(std::string_view(theirs), from_theirs);
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_TRUE(from_theirs == value);
  T from_ours{};
  ASSERT_TRUE(peer.deserialize(
      std::string_view(reinterpret_cast<const char*>(ours.data()), ours.size()), from_ours));
  EXPECT_TRUE(from_ours == value);
  // DynamicMessage reads jitser's bytes as the generated class reads them.
  gp::DynamicMessageFactory factory;
  std::unique_ptr<gp::Message> dynamic(factory.GetPrototype(descriptor)->New());
  ASSERT_TRUE(dynamic->ParseFromArray(ours.data(), static_cast<int>(ours.size())));
  EXPECT_EQ(dynamic->SerializeAsString(), theirs);
}

TEST(ProtobufInterop, PayloadsReadAndWriteAsTheGeneratedClassesDo) {
  Engine engine;
  ASSERT_TRUE(payloads::register_all(engine).ok());
  interop_with_generated(engine, payloads::make_media_content(),
                         bench::pb::MediaContent::descriptor());
  interop_with_generated(engine, payloads::make_sample(), bench::pb::Sample::descriptor());
  // Values the payloads leave at zero, and negative ones.
  payloads::Sample sample = payloads::make_sample();
  sample.intValue = -1;
  sample.shortValue = -300;
  sample.IntValue = 0;
  sample.BooleanValue.reset();
  sample.intArray = {-1, 0, 1};
  interop_with_generated(engine, sample, bench::pb::Sample::descriptor());
}

// ---- randomized interop: every field kind, through DynamicMessage ------------------------------

class Collector : public gp::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& file, int line, int, const std::string& message) override {
    ADD_FAILURE() << file << ":" << line << ": " << message;
  }
};

std::string random_text(std::mt19937& rng) {
  static const char* pieces[] = {
      "a", "Z", "0", " ", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"};
  std::string s;
  const int n = static_cast<int>(rng() % 12);
  for (int i = 0; i < n; ++i) s += pieces[rng() % std::size(pieces)];
  return s;
}

// One value of a scalar field, often zero so that implicit presence is exercised.
void set_random(gp::Message& m, const gp::FieldDescriptor* f, std::mt19937& rng, int depth);

// Entry `index` of a map: a key no other entry of the map has (DynamicMessage keeps entries of
// one key apart, where a reader keeps the last), and a random value.
void set_entry(gp::Message& entry, int index, std::mt19937& rng, int depth) {
  const gp::Descriptor* d = entry.GetDescriptor();
  const gp::Reflection& r = *entry.GetReflection();
  const gp::FieldDescriptor* key = d->map_key();
  using T = gp::FieldDescriptor;
  const std::uint64_t distinct = (std::uint64_t{rng()} >> (rng() % 32)) * 4 + index;
  switch (key->cpp_type()) {
    case T::CPPTYPE_STRING:
      r.SetString(&entry, key, random_text(rng) + static_cast<char>('0' + index));
      break;
    case T::CPPTYPE_INT32: r.SetInt32(&entry, key, static_cast<std::int32_t>(distinct)); break;
    case T::CPPTYPE_INT64: r.SetInt64(&entry, key, static_cast<std::int64_t>(distinct)); break;
    case T::CPPTYPE_UINT32: r.SetUInt32(&entry, key, static_cast<std::uint32_t>(distinct)); break;
    default: r.SetUInt64(&entry, key, distinct); break;
  }
  set_random(entry, d->map_value(), rng, depth);
}

void add_random(gp::Message& m, const gp::FieldDescriptor* f, std::mt19937& rng, int depth,
                int index) {
  const gp::Reflection& r = *m.GetReflection();
  using T = gp::FieldDescriptor;
  const std::uint64_t bits =
      rng() % 4 == 0 ? 0 : (std::uint64_t{rng()} << 32 | rng()) >> (rng() % 64);
  switch (f->cpp_type()) {
    case T::CPPTYPE_INT32: r.AddInt32(&m, f, static_cast<std::int32_t>(bits)); break;
    case T::CPPTYPE_INT64: r.AddInt64(&m, f, static_cast<std::int64_t>(bits)); break;
    case T::CPPTYPE_UINT32: r.AddUInt32(&m, f, static_cast<std::uint32_t>(bits)); break;
    case T::CPPTYPE_UINT64: r.AddUInt64(&m, f, bits); break;
    case T::CPPTYPE_FLOAT:
      r.AddFloat(&m, f, static_cast<float>(static_cast<std::int32_t>(bits)) / 8);
      break;
    case T::CPPTYPE_DOUBLE:
      r.AddDouble(&m, f, static_cast<double>(static_cast<std::int64_t>(bits)) / 3);
      break;
    case T::CPPTYPE_BOOL: r.AddBool(&m, f, bits & 1); break;
    case T::CPPTYPE_ENUM: r.AddEnumValue(&m, f, static_cast<int>(rng() % 5) - 3); break;
    case T::CPPTYPE_STRING: r.AddString(&m, f, random_text(rng)); break;
    case T::CPPTYPE_MESSAGE: {
      gp::Message* sub = r.AddMessage(&m, f);
      if (f->is_map()) {
        set_entry(*sub, index, rng, depth);
      } else {
        for (int i = 0; i < sub->GetDescriptor()->field_count(); ++i) {
          set_random(*sub, sub->GetDescriptor()->field(i), rng, depth + 1);
        }
      }
      break;
    }
  }
}

void set_random(gp::Message& m, const gp::FieldDescriptor* f, std::mt19937& rng, int depth) {
  const gp::Reflection& r = *m.GetReflection();
  using T = gp::FieldDescriptor;
  if (f->is_repeated()) {
    const int n = static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) add_random(m, f, rng, depth, i);
    return;
  }
  if (f->real_containing_oneof() && r.HasOneof(m, f->real_containing_oneof())) return;
  if (rng() % 3 == 0) return;  // left out
  const std::uint64_t bits =
      rng() % 4 == 0 ? 0 : (std::uint64_t{rng()} << 32 | rng()) >> (rng() % 64);
  switch (f->cpp_type()) {
    case T::CPPTYPE_INT32: r.SetInt32(&m, f, static_cast<std::int32_t>(bits)); break;
    case T::CPPTYPE_INT64: r.SetInt64(&m, f, static_cast<std::int64_t>(bits)); break;
    case T::CPPTYPE_UINT32: r.SetUInt32(&m, f, static_cast<std::uint32_t>(bits)); break;
    case T::CPPTYPE_UINT64: r.SetUInt64(&m, f, bits); break;
    case T::CPPTYPE_FLOAT:
      r.SetFloat(&m, f, static_cast<float>(static_cast<std::int32_t>(bits)) / 8);
      break;
    case T::CPPTYPE_DOUBLE:
      r.SetDouble(&m, f, static_cast<double>(static_cast<std::int64_t>(bits)) / 3);
      break;
    case T::CPPTYPE_BOOL: r.SetBool(&m, f, bits & 1); break;
    case T::CPPTYPE_ENUM: r.SetEnumValue(&m, f, static_cast<int>(rng() % 5) - 3); break;
    case T::CPPTYPE_STRING: r.SetString(&m, f, random_text(rng)); break;
    case T::CPPTYPE_MESSAGE: {
      if (depth > 3) return;
      gp::Message* sub = r.MutableMessage(&m, f);
      const std::string& type = f->message_type()->full_name();
      if (type == "google.protobuf.Timestamp" || type == "google.protobuf.Duration") {
        const std::int64_t seconds = static_cast<std::int64_t>(rng() % 4000000000u) - 2000000000;
        std::int64_t nanos = rng() % 1000000000;
        if (type == "google.protobuf.Duration" && seconds < 0) nanos = -nanos;
        sub->GetReflection()->SetInt64(sub, sub->GetDescriptor()->field(0), seconds);
        sub->GetReflection()->SetInt32(sub, sub->GetDescriptor()->field(1),
                                       static_cast<std::int32_t>(nanos));
        return;
      }
      for (int i = 0; i < sub->GetDescriptor()->field_count(); ++i) {
        set_random(*sub, sub->GetDescriptor()->field(i), rng, depth + 1);
      }
      break;
    }
  }
}

// protobuf's bytes with map entries in key order, as jitser's maps keep them.
std::string deterministic(const gp::Message& m) {
  std::string out;
  gp::io::StringOutputStream stream(&out);
  gp::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  m.SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

TEST(ProtobufInterop, RandomMessagesOfEveryFieldKindBothWays) {
  const std::string dir = JITSER_SOURCE_DIR "/tests/proto/kinds";
  gp::compiler::DiskSourceTree sources;
  sources.MapPath("", dir);
  sources.MapPath("", JITSER_PROTOBUF_INCLUDE);
  Collector errors;
  gp::compiler::Importer importer(&sources, &errors);
  ASSERT_NE(importer.Import("every_kind.proto"), nullptr);
  const gp::Descriptor* descriptor =
      importer.pool()->FindMessageTypeByName("jitser.test.kinds.EveryKind");
  ASSERT_NE(descriptor, nullptr);
  gp::DynamicMessageFactory factory;

  Engine engine;
  const Status loaded = load_proto(engine, dir + "/every_kind.proto", {dir});
  ASSERT_TRUE(loaded.ok()) << loaded.to_string();
  const DynCodec codec =
      test::dyn_codec_of(engine, "jitser.test.kinds.EveryKind", Format::Protobuf);

  std::mt19937 rng(20261202);
  constexpr int kMessages = 300;
  for (int i = 0; i < kMessages; ++i) {
    std::unique_ptr<gp::Message> theirs(factory.GetPrototype(descriptor)->New());
    for (int k = 0; k < descriptor->field_count(); ++k) {
      set_random(*theirs, descriptor->field(k), rng, 0);
    }
    const std::string bytes = deterministic(*theirs);
    Object value(codec.type());
    const Status read = codec.deserialize(std::string_view(bytes), value);
    ASSERT_TRUE(read.ok()) << i << ": " << read.to_string() << "\n" << theirs->DebugString();
    Buffer ours;
    const Status write = codec.serialize(value, ours);
    ASSERT_TRUE(write.ok()) << i << ": " << write.to_string();
    EXPECT_EQ(test::to_hex(ours.bytes()),
              test::to_hex({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}))
        << i << "\n"
        << theirs->DebugString();
    std::unique_ptr<gp::Message> back(factory.GetPrototype(descriptor)->New());
    ASSERT_TRUE(back->ParseFromArray(ours.data(), static_cast<int>(ours.size()))) << i;
    EXPECT_TRUE(gp::util::MessageDifferencer::Equals(*theirs, *back))
        << i << "\n"
        << theirs->DebugString() << "\n"
        << back->DebugString();
  }
}

}  // namespace
}  // namespace jitser

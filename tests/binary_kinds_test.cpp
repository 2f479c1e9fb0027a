// Every type kind round-trips through the binary format, at its edge values.
#include <chrono>
#include <cmath>
#include <limits>

#include "support.h"

namespace jitser {
namespace {

using test::One;

using test::Color;
enum class Wide : std::uint64_t { Zero = 0, Max = ~0ull };

Status add_enums(Engine& e) {
  if (Status s = test::add_color(e); !s) return s;
  return e.add(Enum<Wide>("Wide").value("Zero", Wide::Zero).value("Max", Wide::Max));
}

// Round-trips each value through One<T> and checks it reads back equal.
template <class T>
void round_trips(std::initializer_list<T> values, Status (*extra)(Engine&) = nullptr) {
  Engine e;
  if (extra) {
    ASSERT_TRUE(extra(e).ok());
  }
  ASSERT_TRUE(test::add_one<T>(e).ok());
  auto codec = test::codec_of<One<T>>(e);
  for (const T& v : values) {
    One<T> in{v};
    Buffer out;
    ASSERT_TRUE(codec.serialize(in, out).ok());
    One<T> back{};
    Status s = codec.deserialize(out.bytes(), back);
    ASSERT_TRUE(s.ok()) << s.to_string() << " for " << test::to_hex(out.bytes());
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(back.v));
        continue;
      }
    }
    EXPECT_TRUE(back.v == v) << test::to_hex(out.bytes());
  }
}

template <class T>
std::initializer_list<T> limits() {
  static const std::initializer_list<T> values = {
      T{0}, T{1}, static_cast<T>(-1), std::numeric_limits<T>::min(), std::numeric_limits<T>::max()};
  return values;
}

TEST(BinaryKinds, Bool) { round_trips<bool>({false, true}); }
TEST(BinaryKinds, Int8) { round_trips(limits<std::int8_t>()); }
TEST(BinaryKinds, Int16) { round_trips(limits<std::int16_t>()); }
TEST(BinaryKinds, Int32) {
  round_trips<std::int32_t>({0, 1, -1, 63, -64, 64, INT32_MIN, INT32_MAX});
}
TEST(BinaryKinds, Int64) {
  round_trips<std::int64_t>(
      {0, -1, (1 << 30) - 1, -(1 << 30), 1 << 30, -(1 << 30) - 1, INT64_MIN, INT64_MAX});
}
TEST(BinaryKinds, UInt8) { round_trips(limits<std::uint8_t>()); }
TEST(BinaryKinds, UInt16) { round_trips(limits<std::uint16_t>()); }
TEST(BinaryKinds, UInt32) { round_trips(limits<std::uint32_t>()); }
TEST(BinaryKinds, UInt64) { round_trips(limits<std::uint64_t>()); }
TEST(BinaryKinds, Float) {
  round_trips<float>({0.0f, -0.0f, 1.5f, std::numeric_limits<float>::denorm_min(),
                      std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::quiet_NaN()});
}
TEST(BinaryKinds, Double) {
  round_trips<double>({0.0, -2.5e300, std::numeric_limits<double>::lowest(),
                       -std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN()});
}
TEST(BinaryKinds, String) {
  round_trips<std::string>({"", "hi", std::string(300, 'x'),
                            "snowman \xE2\x98\x83 and \xF0\x9F\x98\x80",
                            std::string("nul\0inside", 10)});
  // Every length across the compiled writer's in-line copies (16, 32 and 64 bytes) and beyond.
  Engine e;
  ASSERT_TRUE(test::add_one<std::string>(e).ok());
  auto codec = test::codec_of<One<std::string>>(e);
  for (std::size_t n = 0; n <= 80; ++n) {
    One<std::string> in;
    for (std::size_t i = 0; i < n; ++i) in.v += static_cast<char>('!' + (i * 7 + n) % 90);
    Buffer out;
    ASSERT_TRUE(codec.serialize(in, out).ok());
    One<std::string> back;
    ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
    EXPECT_EQ(back.v, in.v) << n;
  }
}
TEST(BinaryKinds, Bytes) {
  round_trips<std::vector<std::uint8_t>>({{}, {0, 255, 128}, std::vector<std::uint8_t>(1000, 7)});
  round_trips<std::vector<std::byte>>({{}, {std::byte{0xC3}, std::byte{0x28}}});
}
TEST(BinaryKinds, Enum) {
  round_trips<Color>({Color::Red, Color::Green, Color::Blue}, add_enums);
  round_trips<Wide>({Wide::Zero, Wide::Max}, add_enums);
}
TEST(BinaryKinds, Decimal) {
  round_trips<Decimal>(
      {{0, 0}, {12345, 2}, {-1, -3}, {INT64_MIN, INT32_MAX}, {INT64_MAX, INT32_MIN}});
}
TEST(BinaryKinds, Timestamp) {
  using namespace std::chrono;
  round_trips<sys_time<nanoseconds>>({sys_time<nanoseconds>(nanoseconds(0)),
                                      sys_time<nanoseconds>(nanoseconds(-1)),
                                      sys_time<nanoseconds>(nanoseconds(INT64_MAX)),
                                      sys_time<nanoseconds>(nanoseconds(INT64_MIN))});
  round_trips<sys_time<milliseconds>>(
      {sys_time<milliseconds>(milliseconds(1500)), sys_time<milliseconds>(milliseconds(-1))});
  round_trips<sys_time<seconds>>(
      {sys_time<seconds>(seconds(INT64_MIN)), sys_time<seconds>(seconds(INT64_MAX))});
}
TEST(BinaryKinds, Duration) {
  using namespace std::chrono;
  round_trips<microseconds>(
      {microseconds(0), microseconds(-1), microseconds(INT64_MAX), microseconds(INT64_MIN)});
  round_trips<seconds>({seconds(-86400)});
}
TEST(BinaryKinds, List) {
  round_trips<std::vector<std::int32_t>>({{}, {1, 2, 3}, std::vector<std::int32_t>(500, -9)});
  round_trips<std::vector<std::string>>({{}, {"", "a", "bc"}});
  round_trips<std::vector<std::vector<std::int64_t>>>({{{}, {1}, {2, 3}}});
  round_trips<std::vector<bool>>({{}, {true, false, true}});
  round_trips<std::vector<std::optional<std::string>>>({{std::nullopt, "x", std::nullopt}});
}
TEST(BinaryKinds, Array) {
  round_trips<std::array<std::int32_t, 3>>({{1, -2, 3}});
  round_trips<std::array<std::string, 2>>({{"a", "bb"}});
}
TEST(BinaryKinds, CArray) {
  Engine e;
  struct C {
    std::int16_t v[3];
  };
  ASSERT_TRUE(e.add(Struct<C>("C").field("v", &C::v)).ok());
  auto codec = test::codec_of<C>(e);
  Buffer out;
  ASSERT_TRUE(codec.serialize(C{{1, -2, 300}}, out).ok());
  C back{};
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_EQ(back.v[0], 1);
  EXPECT_EQ(back.v[1], -2);
  EXPECT_EQ(back.v[2], 300);
}
TEST(BinaryKinds, Optional) {
  round_trips<std::optional<std::int32_t>>({std::nullopt, 0, -5});
  round_trips<std::optional<std::string>>({std::nullopt, "", "text"});
}
TEST(BinaryKinds, Map) {
  round_trips<std::map<std::string, std::int32_t>>({{}, {{"a", 1}, {"b", -2}}});
  round_trips<std::unordered_map<std::int64_t, std::string>>({{{-1, "neg"}, {1LL << 40, "big"}}});
  round_trips<std::map<std::uint8_t, std::vector<std::string>>>({{{0, {"x"}}, {255, {}}}});
  round_trips<std::map<Color, double>>({{{Color::Red, 1.5}, {Color::Blue, -0.0}}}, add_enums);
}

struct Inner {
  std::int32_t x = 0;
  std::string s;
  bool operator==(const Inner&) const = default;
};

Status add_inner(Engine& e) {
  return e.add(Struct<Inner>("Inner").field("x", &Inner::x).field("s", &Inner::s));
}

TEST(BinaryKinds, NestedStructs) {
  round_trips<Inner>({{}, {-3, "deep"}}, add_inner);
  round_trips<std::vector<Inner>>({{{1, "a"}, {2, "b"}}}, add_inner);
  round_trips<std::optional<Inner>>({std::nullopt, Inner{4, "o"}}, add_inner);
  round_trips<std::map<std::string, Inner>>({{{"k", {5, "v"}}}}, add_inner);
}

TEST(BinaryKinds, UniquePtr) {
  Engine e;
  ASSERT_TRUE(add_inner(e).ok());
  ASSERT_TRUE(test::add_one<std::unique_ptr<Inner>>(e).ok());
  auto codec = test::codec_of<One<std::unique_ptr<Inner>>>(e);
  for (bool present : {false, true}) {
    One<std::unique_ptr<Inner>> in;
    if (present) in.v = std::make_unique<Inner>(Inner{9, "boxed"});
    Buffer out;
    ASSERT_TRUE(codec.serialize(in, out).ok());
    One<std::unique_ptr<Inner>> back;
    back.v = std::make_unique<Inner>();  // overwritten, or reset when the input holds null
    ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
    ASSERT_EQ(back.v != nullptr, present);
    if (present) {
      EXPECT_EQ(*back.v, *in.v);
    }
  }
}

// A struct that reaches itself through a pointer: a linked list.
struct Node {
  std::int32_t value = 0;
  std::unique_ptr<Node> next;
};

TEST(BinaryKinds, RecursiveThroughUniquePtr) {
  Engine e;
  ASSERT_TRUE(
      e.add(Struct<Node>("Node").field("value", &Node::value).field("next", &Node::next)).ok());
  auto codec = test::codec_of<Node>(e);
  Node head{1, std::make_unique<Node>(Node{2, std::make_unique<Node>(Node{3, nullptr})})};
  Buffer out;
  ASSERT_TRUE(codec.serialize(head, out).ok());
  Node back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  ASSERT_TRUE(back.next && back.next->next);
  EXPECT_EQ(back.value + back.next->value + back.next->next->value, 6);
  EXPECT_EQ(back.next->next->next, nullptr);
}

struct Pair {
  std::shared_ptr<Inner> a;
  std::shared_ptr<Inner> b;
};

TEST(BinaryKinds, SharedPtrKeepsIdentity) {
  Engine e;
  ASSERT_TRUE(add_inner(e).ok());
  ASSERT_TRUE(e.add(Struct<Pair>("Pair").field("a", &Pair::a).field("b", &Pair::b)).ok());
  auto codec = test::codec_of<Pair>(e);
  auto shared = std::make_shared<Inner>(Inner{1, "one"});
  for (Pair in : {Pair{shared, shared}, Pair{shared, std::make_shared<Inner>(*shared)},
                  Pair{nullptr, shared}}) {
    Buffer out;
    ASSERT_TRUE(codec.serialize(in, out).ok());
    Pair back;
    ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
    EXPECT_EQ(back.a == back.b, in.a == in.b);
    EXPECT_EQ(back.a == nullptr, in.a == nullptr);
    if (in.a) {
      EXPECT_EQ(*back.a, *in.a);
    }
    EXPECT_EQ(*back.b, *in.b);
  }
}

struct Aliased {
  std::shared_ptr<Inner> whole;
  std::shared_ptr<std::int32_t> first;  // aliases whole->x: the same address, another type
};

TEST(BinaryKinds, AliasingSharedPtrOfAnotherTypeIsAnotherObject) {
  Engine e;
  ASSERT_TRUE(add_inner(e).ok());
  ASSERT_TRUE(e.add(Struct<Aliased>("Aliased")
                        .field("whole", &Aliased::whole)
                        .field("first", &Aliased::first))
                  .ok());
  auto codec = test::codec_of<Aliased>(e);
  Aliased in;
  in.whole = std::make_shared<Inner>(Inner{42, "x"});
  in.first = std::shared_ptr<std::int32_t>(in.whole, &in.whole->x);
  ASSERT_EQ(static_cast<const void*>(in.first.get()), static_cast<const void*>(in.whole.get()));
  Buffer out;
  ASSERT_TRUE(codec.serialize(in, out).ok());
  Aliased back;
  Status s = codec.deserialize(out.bytes(), back);
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(*back.whole, *in.whole);
  EXPECT_EQ(*back.first, 42);
}

struct Cyclic {
  std::int32_t id = 0;
  std::shared_ptr<Cyclic> next;
};

TEST(BinaryKinds, SharedPtrCycles) {
  Engine e;
  ASSERT_TRUE(
      e.add(Struct<Cyclic>("Cyclic").field("id", &Cyclic::id).field("next", &Cyclic::next)).ok());
  auto codec = test::codec_of<Cyclic>(e);
  // root -> a -> b -> a
  Cyclic root{0, std::make_shared<Cyclic>()};
  root.next->id = 1;
  root.next->next = std::make_shared<Cyclic>(Cyclic{2, root.next});
  Buffer out;
  ASSERT_TRUE(codec.serialize(root, out).ok());
  Cyclic back;
  ASSERT_TRUE(codec.deserialize(out.bytes(), back).ok());
  ASSERT_TRUE(back.next && back.next->next);
  EXPECT_EQ(back.next->id, 1);
  EXPECT_EQ(back.next->next->id, 2);
  EXPECT_EQ(back.next->next->next, back.next);  // the cycle, one object
  // Shared cycles never free themselves; break both so LeakSanitizer sees a clean exit.
  root.next->next->next.reset();
  back.next->next->next.reset();
}

struct Meters {
  double value = 0;
  bool operator==(const Meters&) const = default;
};
struct Walk {
  Meters distance;
  std::vector<Meters> laps;
  bool operator==(const Walk&) const = default;
};

TEST(BinaryKinds, ValueWrapperEncodesAsItsField) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Meters>("Meters").wraps("value", &Meters::value)).ok());
  ASSERT_TRUE(
      e.add(Struct<Walk>("Walk").field("distance", &Walk::distance).field("laps", &Walk::laps))
          .ok());
  const Walk w{{1.5}, {{0.5}, {1.0}}};
  Buffer out;
  ASSERT_TRUE(test::codec_of<Walk>(e).serialize(w, out).ok());
  Walk back;
  ASSERT_TRUE(test::codec_of<Walk>(e).deserialize(out.bytes(), back).ok());
  EXPECT_EQ(back, w);
  // The wrapper adds no bytes: distance is the 8 bytes of a double right after the header.
  Buffer plain;
  EngineOptions no_fp;
  no_fp.write_fingerprint = false;
  Engine bare(no_fp);
  ASSERT_TRUE(bare.add(Struct<Meters>("Meters").wraps("value", &Meters::value)).ok());
  ASSERT_TRUE(test::add_one<Meters>(bare).ok());
  ASSERT_TRUE(test::codec_of<One<Meters>>(bare).serialize(One<Meters>{{1.5}}, plain).ok());
  EXPECT_EQ(test::to_hex(plain.bytes()), "4A 01 00 00 00 00 00 00 F8 3F");
}

TEST(BinaryKinds, DeserializeReusesAndOverwritesTheTarget) {
  Engine e;
  ASSERT_TRUE(test::add_one<std::vector<std::string>>(e).ok());
  auto codec = test::codec_of<One<std::vector<std::string>>>(e);
  Buffer out;
  ASSERT_TRUE(codec.serialize({{"a"}}, out).ok());
  One<std::vector<std::string>> target{{"old", "values", "here"}};
  ASSERT_TRUE(codec.deserialize(out.bytes(), target).ok());
  EXPECT_EQ(target.v, std::vector<std::string>{"a"});
}

}  // namespace
}  // namespace jitser

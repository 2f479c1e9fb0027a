// The benchmark payloads of docs/payloads.md, defined once and shared by the benchmark, the
// tests and the demonstration: C++ types, their registration, and one sample value each.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <jitser/jitser.h>

namespace jitser::payloads {

// MediaContent, with the field names of jvm-serializers.
enum class Player : std::int32_t { JAVA, FLASH };
enum class Size : std::int32_t { SMALL, LARGE };

struct Image {
  std::string uri;
  std::optional<std::string> title;
  std::int32_t width = 0;
  std::int32_t height = 0;
  Size size = Size::SMALL;
  friend bool operator==(const Image&, const Image&) = default;
};

struct Media {
  std::string uri;
  std::optional<std::string> title;
  std::int32_t width = 0;
  std::int32_t height = 0;
  std::string format;
  std::int64_t duration = 0;
  std::int64_t size = 0;
  std::int32_t bitrate = 0;
  bool hasBitrate = false;
  std::vector<std::string> persons;
  Player player = Player::JAVA;
  std::optional<std::string> copyright;
  friend bool operator==(const Media&, const Media&) = default;
};

struct MediaContent {
  Media media;
  std::vector<Image> images;
  friend bool operator==(const MediaContent&, const MediaContent&) = default;
};

// Sample, from the Kryo and Fory benchmarks: Java's boxed fields are optionals, char is char16_t.
struct Sample {
  std::int32_t intValue = 0;
  std::int64_t longValue = 0;
  float floatValue = 0;
  double doubleValue = 0;
  std::int16_t shortValue = 0;
  char16_t charValue = 0;
  bool booleanValue = false;
  std::optional<std::int32_t> IntValue;
  std::optional<std::int64_t> LongValue;
  std::optional<float> FloatValue;
  std::optional<double> DoubleValue;
  std::optional<std::int16_t> ShortValue;
  std::optional<char16_t> CharValue;
  std::optional<bool> BooleanValue;
  std::vector<std::int32_t> intArray;
  std::vector<std::int64_t> longArray;
  std::vector<float> floatArray;
  std::vector<double> doubleArray;
  std::vector<std::int16_t> shortArray;
  std::vector<char16_t> charArray;
  std::vector<bool> booleanArray;
  std::string string;
  friend bool operator==(const Sample&, const Sample&) = default;
};

// A1: a flat case class of the kind json4s benchmarks bind.
struct A1 {
  std::int32_t id = 0;
  std::string name;
  double score = 0;
  bool active = false;
  std::vector<std::string> tags;
  std::int64_t timestamp = 0;
  friend bool operator==(const A1&, const A1&) = default;
};

// Moshi's three-int class; `b` has a default (5). Formats that may omit fields test it missing.
struct Moshi {
  std::int32_t a = 0;
  std::int32_t b = 5;
  std::int32_t c = 0;
  friend bool operator==(const Moshi&, const Moshi&) = default;
};

// The Foo family: plain, immutable, with a default, with a value-class field.
struct Foo {
  std::string bar;
  std::int32_t baz = 0;
  friend bool operator==(const Foo&, const Foo&) = default;
};
struct FooImmutable {  // immutable in Kotlin; in C++ the same shape, registered on its own
  std::string bar;
  std::int32_t baz = 0;
  friend bool operator==(const FooImmutable&, const FooImmutable&) = default;
};
struct FooWithDefault {
  std::string bar;
  std::int32_t baz = 42;
  friend bool operator==(const FooWithDefault&, const FooWithDefault&) = default;
};
struct Bizz {  // a value class: encodes as its one field
  std::int32_t value = 0;
  friend bool operator==(const Bizz&, const Bizz&) = default;
};
struct FooWithValueClass {
  std::string bar;
  Bizz bizz;
  friend bool operator==(const FooWithValueClass&, const FooWithValueClass&) = default;
};

// The object graph: shared references (and cycles), lists, maps, enums, decimals, bytes.
enum class Role : std::uint8_t { Admin, Editor, Viewer };

struct Account {
  std::int64_t id = 0;
  std::string name;
  Role role = Role::Viewer;
  Decimal balance;
  std::vector<std::uint8_t> avatar;
  std::map<std::string, std::int64_t> counters;
  std::chrono::sys_time<std::chrono::microseconds> created{};
  std::shared_ptr<Account> manager;
  std::vector<std::shared_ptr<Account>> friends;
};

struct Attachment {
  std::string name;
  std::vector<std::uint8_t> data;
  friend bool operator==(const Attachment&, const Attachment&) = default;
};

struct Graph {
  std::vector<std::shared_ptr<Account>> accounts;
  std::map<std::string, std::shared_ptr<Account>> by_name;
  std::shared_ptr<Account> owner;
  std::unordered_map<std::int32_t, std::string> notes;
  std::optional<Decimal> total;
  std::unique_ptr<Attachment> attachment;
  std::array<std::int16_t, 4> dims{};
  std::chrono::duration<std::int64_t, std::milli> ttl{};

  Graph() = default;
  Graph(Graph&&) = default;
  // Swaps, so the old accounts die with `other` and their cycles are broken there.
  Graph& operator=(Graph&& other) noexcept;
  ~Graph();  // breaks the cycles between accounts, so the graph frees itself
  /// Equal values and equal sharing: the same positions share one account in both graphs.
  friend bool operator==(const Graph& a, const Graph& b);
};

/// The Graph in std::pmr types, allocator-aware: a GraphPmr made with a memory resource reads
/// every account, and everything in it, into that resource (docs/design.md, "Memory").
/// Registered as "GraphPmr" and "AccountPmr"; not one of for_each_payload's, since it is read
/// differently.
struct AccountPmr {
  using allocator_type = std::pmr::polymorphic_allocator<>;
  AccountPmr() = default;
  explicit AccountPmr(const allocator_type& a) : name(a), avatar(a), counters(a), friends(a) {}

  std::int64_t id = 0;
  std::pmr::string name;
  Role role = Role::Viewer;
  Decimal balance;
  std::pmr::vector<std::uint8_t> avatar;
  std::pmr::map<std::pmr::string, std::int64_t> counters;
  std::chrono::sys_time<std::chrono::microseconds> created{};
  std::shared_ptr<AccountPmr> manager;
  std::pmr::vector<std::shared_ptr<AccountPmr>> friends;
};

struct GraphPmr {
  using allocator_type = std::pmr::polymorphic_allocator<>;
  std::pmr::vector<std::shared_ptr<AccountPmr>> accounts;
  std::pmr::map<std::pmr::string, std::shared_ptr<AccountPmr>> by_name;
  std::shared_ptr<AccountPmr> owner;
  std::pmr::unordered_map<std::int32_t, std::pmr::string> notes;
  std::optional<Decimal> total;
  std::unique_ptr<Attachment> attachment;
  std::array<std::int16_t, 4> dims{};
  std::chrono::duration<std::int64_t, std::milli> ttl{};

  GraphPmr() = default;
  explicit GraphPmr(const allocator_type& a) : accounts(a), by_name(a), notes(a) {}
  GraphPmr(GraphPmr&&) = default;
  ~GraphPmr();  // breaks the cycles between accounts, as Graph's does
  allocator_type get_allocator() const { return accounts.get_allocator(); }
  friend bool operator==(const GraphPmr& a, const GraphPmr& b);
};

// The two large collections.
struct StringList {
  std::vector<std::string> items;  // 50,000 strings of 100 bytes
  friend bool operator==(const StringList&, const StringList&) = default;
};
struct StringMap {
  std::map<std::string, std::string> items;  // 30,000 entries, values of 100 bytes
  friend bool operator==(const StringMap&, const StringMap&) = default;
};
/// The StringMap in std::pmr types, read into memory of the caller's (registered as
/// "StringMapPmr"; not one of for_each_payload's, since it is read differently).
struct StringMapPmr {
  std::pmr::map<std::pmr::string, std::pmr::string> items;
  StringMapPmr() = default;
  explicit StringMapPmr(std::pmr::memory_resource* r) : items(r) {}
  friend bool operator==(const StringMapPmr&, const StringMapPmr&) = default;
};

/// Registers every payload type with the engine.
Status register_all(Engine& engine);

MediaContent make_media_content();
Sample make_sample();
A1 make_a1();
Moshi make_moshi();
Foo make_foo();
FooImmutable make_foo_immutable();
FooWithDefault make_foo_with_default();
FooWithValueClass make_foo_with_value_class();
Graph make_graph();
/// A deep copy of `g` written by hand, keeping which positions share an account: what making
/// and freeing a Graph's objects costs with no decoding, the floor under any reader into a
/// fresh Graph (bench/README.md). Every account `g` links to must be one of `g.accounts`.
Graph copy_graph(const Graph& g);
/// The same for a GraphPmr, into a fresh one over `resource`: the floor under a reader into it.
GraphPmr copy_graph(const GraphPmr& g, std::pmr::memory_resource* resource);
StringList make_string_list();
StringMap make_string_map();
StringMapPmr make_string_map_pmr();
GraphPmr make_graph_pmr();

/// Calls f(name, value) for each payload's sample value, in a fixed order.
template <class F>
void for_each_payload(F&& f) {
  f("MediaContent", make_media_content());
  f("Sample", make_sample());
  f("A1", make_a1());
  f("Moshi", make_moshi());
  f("Foo", make_foo());
  f("FooImmutable", make_foo_immutable());
  f("FooWithDefault", make_foo_with_default());
  f("FooWithValueClass", make_foo_with_value_class());
  f("Graph", make_graph());
  f("StringList", make_string_list());
  f("StringMap", make_string_map());
}

}  // namespace jitser::payloads

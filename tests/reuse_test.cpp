// Reading into a used object, as a server reads request after request: the value read equals a
// fresh read, the storage the object held is reused, and nothing another object shares changes.
// In every format, in whichever tier the suite's policy runs.
#include <algorithm>
#include <map>
#include <memory>
#include <memory_resource>
#include <string>
#include <unordered_map>
#include <vector>

#include "support.h"

namespace jitser {
namespace {

// Counts the single objects allocated through it, a map's nodes: how many entries were made
// anew. Stateless, so that every instance is equal and maps may swap their nodes.
inline int nodes_made = 0;
template <class T>
struct CountingAllocator {
  using value_type = T;
  CountingAllocator() = default;
  template <class U>
  CountingAllocator(const CountingAllocator<U>&) {}
  T* allocate(std::size_t n) {
    if (n == 1) ++nodes_made;
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) { std::allocator<T>().deallocate(p, n); }
  friend bool operator==(const CountingAllocator&, const CountingAllocator&) { return true; }
};

using SkuMap = std::map<std::string, std::string, std::less<std::string>,
                        CountingAllocator<std::pair<const std::string, std::string>>>;
using IdMap = std::unordered_map<std::int32_t, std::string, std::hash<std::int32_t>,
                                 std::equal_to<std::int32_t>,
                                 CountingAllocator<std::pair<const std::int32_t, std::string>>>;

struct Inventory {
  SkuMap by_sku;
  IdMap by_id;
  std::map<std::string, std::shared_ptr<std::int64_t>> counts;
  friend bool operator==(const Inventory& a, const Inventory& b) {
    if (a.by_sku != b.by_sku || a.by_id != b.by_id || a.counts.size() != b.counts.size()) {
      return false;
    }
    for (const auto& [k, v] : a.counts) {
      auto it = b.counts.find(k);
      if (it == b.counts.end() || !v != !it->second || (v && *v != *it->second)) return false;
    }
    return true;
  }
};

Status add_inventory(Engine& e) {
  return e.add(Struct<Inventory>("Inventory")
                   .field("by_sku", &Inventory::by_sku)
                   .field("by_id", &Inventory::by_id)
                   .field("counts", &Inventory::counts));
}

Inventory make_inventory(int first, int n) {
  Inventory v;
  for (int i = first; i < first + n; ++i) {
    const std::string key = "sku-" + std::to_string(1000 + i);
    v.by_sku[key] = std::string(40, static_cast<char>('a' + i % 26));
    v.by_id[i] = key;
    v.counts[key] = std::make_shared<std::int64_t>(i);
  }
  return v;
}

class Reuse : public ::testing::TestWithParam<Format> {};

TEST_P(Reuse, AUsedMapReadsEqualAndKeepsItsEntries) {
  Engine e;
  ASSERT_TRUE(add_inventory(e).ok());
  Codec<Inventory> codec = test::codec_of<Inventory>(e, GetParam());
  const Inventory sent = make_inventory(10, 30);
  Buffer bytes;
  ASSERT_TRUE(codec.serialize(sent, bytes).ok());
  const PaddedString input(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));

  // As many entries as will be read, under other keys: every entry is reused, none is made.
  Inventory target = make_inventory(100, 30);
  // Another object shares one of the target's counts: reading must not change it.
  const std::shared_ptr<std::int64_t> shared = target.counts.begin()->second;
  nodes_made = 0;
  ASSERT_TRUE(codec.deserialize(input, target).ok());
  EXPECT_TRUE(target == sent);
  EXPECT_EQ(nodes_made, 0);
  EXPECT_EQ(*shared, 100);
  // An empty target makes every entry.
  Inventory empty;
  nodes_made = 0;
  ASSERT_TRUE(codec.deserialize(input, empty).ok());
  EXPECT_TRUE(empty == sent);
  EXPECT_EQ(nodes_made, 60);

  // More entries than will be read, and fewer: equal either way, and nothing leaks (ASan).
  Inventory more = make_inventory(0, 50);
  ASSERT_TRUE(codec.deserialize(input, more).ok());
  EXPECT_TRUE(more == sent);
  Inventory fewer = make_inventory(5, 3);
  ASSERT_TRUE(codec.deserialize(input, fewer).ok());
  EXPECT_TRUE(fewer == sent);
}

// Lists of strings and of objects (in Protobuf, fields whose key comes once per item): a used
// list's elements are read into, so their strings keep their storage; a list that held more
// drops the rest, and one that held fewer grows.
struct Part {
  std::string name;
  std::int32_t count = 0;
  friend bool operator==(const Part&, const Part&) = default;
};
struct Order {
  std::vector<std::string> notes;
  std::vector<Part> parts;
  friend bool operator==(const Order&, const Order&) = default;
};

Order make_order(int first, int n) {
  Order o;
  for (int i = first; i < first + n; ++i) {
    o.notes.push_back("a note long enough to live on the heap, number " + std::to_string(i));
    o.parts.push_back({"a part name long enough for the heap, number " + std::to_string(i), i});
  }
  return o;
}

TEST_P(Reuse, UsedListsOfStringsAndObjectsReadEqualAndKeepTheirElements) {
  Engine e;
  ASSERT_TRUE(
      e.add(Struct<Part>("Part").field("name", &Part::name).field("count", &Part::count)).ok());
  ASSERT_TRUE(
      e.add(Struct<Order>("Order").field("notes", &Order::notes).field("parts", &Order::parts))
          .ok());
  Codec<Order> codec = test::codec_of<Order>(e, GetParam());
  const Order sent = make_order(0, 3);
  Buffer bytes;
  ASSERT_TRUE(codec.serialize(sent, bytes).ok());
  const PaddedString input(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));

  for (const int held : {3, 5, 1, 0}) {
    Order target = make_order(100, held);
    std::vector<const char*> storage;
    for (int i = 0; i < std::min(held, 3); ++i) {
      storage.push_back(target.notes[i].data());
      storage.push_back(target.parts[i].name.data());
    }
    ASSERT_TRUE(codec.deserialize(input, target).ok()) << held;
    EXPECT_TRUE(target == sent) << held;
    for (int i = 0; i < std::min(held, 3); ++i) {
      EXPECT_EQ(target.notes[i].data(), storage[2 * i]) << held << " " << i;
      EXPECT_EQ(target.parts[i].name.data(), storage[2 * i + 1]) << held << " " << i;
    }
  }
}

// A key that appears twice fails in the middle of a refill (or, in Protobuf, replaces the first):
// the entries set aside are freed (ASan finds a leak otherwise), and the object the failure left
// reads the next input whole.
TEST_P(Reuse, ADuplicateKeyInAUsedMapFailsCleanly) {
  Engine e;
  ASSERT_TRUE(e.load_schema("Doc { m: map<string, string> }").ok());
  DynCodec codec = test::dyn_codec_of(e, "Doc", GetParam());
  Object doc(codec.type());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(doc.at("m")->entry(Value("k" + std::to_string(i)))->set(Value("old")).ok());
  }
  Object two(codec.type());
  ASSERT_TRUE(two.at("m")->entry(Value("a"))->set(Value("1")).ok());
  ASSERT_TRUE(two.at("m")->entry(Value("b"))->set(Value("2")).ok());
  Buffer bytes;
  ASSERT_TRUE(codec.serialize(two, bytes).ok());
  const std::string good(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  // The second key becomes the first: one byte of the same length, so the input stays
  // well-formed but for the duplicate.
  std::string twice = good;
  const std::size_t b = twice.rfind('b');
  ASSERT_NE(b, std::string::npos);
  twice[b] = 'a';
  const Status s = codec.deserialize(PaddedString(twice), doc);
  if (GetParam() == Format::Protobuf) {
    // A Protobuf map entry of a key read before replaces it (FormatTraits::repeated_keys).
    ASSERT_TRUE(s.ok()) << s.to_string();
    EXPECT_EQ(*doc.at("m")->size(), 1u);
    EXPECT_EQ(*doc.at("m")->entry(Value("a"))->get(), Value("2"));
  } else {
    EXPECT_EQ(s.code(), Errc::duplicate_key) << s.to_string();
  }

  ASSERT_TRUE(codec.deserialize(PaddedString(good), doc).ok());
  EXPECT_TRUE(*doc.root()->get() == *two.root()->get());
}

// A map that allocates from a memory resource of its own: the entries set aside while it is
// refilled stay with that resource, so each is freed by the allocator that made it (ASan finds
// a buffer's node handed to operator delete otherwise).
struct Tally {
  std::pmr::map<std::int32_t, std::int64_t> counts;
  friend bool operator==(const Tally&, const Tally&) = default;
};

TEST_P(Reuse, AMapOverAMemoryResourceKeepsItsResource) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Tally>("Tally").field("counts", &Tally::counts)).ok());
  Codec<Tally> codec = test::codec_of<Tally>(e, GetParam());
  Tally sent;
  for (std::int32_t i = 0; i < 20; ++i) sent.counts[i] = i * 7;
  Buffer bytes;
  ASSERT_TRUE(codec.serialize(sent, bytes).ok());
  const PaddedString input(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));

  std::pmr::monotonic_buffer_resource arena;
  Tally target{std::pmr::map<std::int32_t, std::int64_t>(&arena)};
  for (std::int32_t i = 100; i < 130; ++i) target.counts[i] = i;
  ASSERT_TRUE(codec.deserialize(input, target).ok());
  EXPECT_TRUE(target == sent);
  EXPECT_EQ(target.counts.get_allocator().resource(), &arena);
}

// A used list of shared objects: an object no other shared_ptr holds is read into in place,
// keeping its address and its string's storage; one that another value also holds is left as
// it was, and the list gets a new object in its place.
struct Item {
  std::string name;
  std::int32_t count = 0;
  friend bool operator==(const Item&, const Item&) = default;
};
struct Basket {
  std::vector<std::shared_ptr<Item>> items;
  std::shared_ptr<Item> featured;
};

bool same_items(const std::shared_ptr<Item>& a, const std::shared_ptr<Item>& b) {
  return a && b ? *a == *b : !a && !b;
}

Basket make_basket(int first, int n) {
  Basket b;
  for (int i = first; i < first + n; ++i) {
    b.items.push_back(std::make_shared<Item>(
        Item{"an item name long enough for the heap, number " + std::to_string(i), i}));
  }
  return b;
}

TEST_P(Reuse, AUsedListOfSharedObjectsReusesOnlyThoseNoOtherValueHolds) {
  Engine e;
  ASSERT_TRUE(
      e.add(Struct<Item>("Item").field("name", &Item::name).field("count", &Item::count)).ok());
  ASSERT_TRUE(e.add(Struct<Basket>("Basket")
                        .field("items", &Basket::items)
                        .field("featured", &Basket::featured))
                  .ok());
  Codec<Basket> codec = test::codec_of<Basket>(e, GetParam());
  Basket sent = make_basket(0, 3);
  sent.featured = sent.items[1];
  Buffer bytes;
  ASSERT_TRUE(codec.serialize(sent, bytes).ok());
  const PaddedString input(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));

  Basket target = make_basket(100, 4);
  target.featured = make_basket(200, 1).items[0];
  const std::shared_ptr<Item> other = target.items[2];  // another value's, too
  const Item other_before = *other;
  const Item* kept[] = {target.items[0].get(), target.items[1].get()};
  const char* kept_name = target.items[0]->name.data();
  const Item* featured_before = target.featured.get();

  ASSERT_TRUE(codec.deserialize(input, target).ok());
  ASSERT_EQ(target.items.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(same_items(target.items[i], sent.items[i])) << i;
  EXPECT_TRUE(same_items(target.featured, sent.featured));
  EXPECT_EQ(target.items[0].get(), kept[0]);
  EXPECT_EQ(target.items[0]->name.data(), kept_name);
  EXPECT_EQ(target.items[1].get(), kept[1]);
  EXPECT_NE(target.items[2], other);
  EXPECT_EQ(*other, other_before);
  if (GetParam() == Format::Binary) {
    // The format keeps identity: the second reference is to the object read first.
    EXPECT_EQ(target.featured, target.items[1]);
  } else {
    EXPECT_EQ(target.featured.get(), featured_before);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, Reuse, ::testing::ValuesIn(all_formats()),
                         [](const auto& param) { return std::string(format_name(param.param)); });

}  // namespace
}  // namespace jitser

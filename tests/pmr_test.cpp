// The std::pmr forms of strings, vectors and maps: they write what their std twins write, read
// back equal, and a value read into keeps drawing on the memory resource it was made with, its
// elements too (docs/design.md, "Memory"). In every format, in whichever tier the suite's policy
// runs. An allocator-aware root takes the objects behind its shared_ptrs into its resource too.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "support.h"

namespace jitser {
namespace {

struct Entry {
  std::pmr::string label;
  std::int32_t n = 0;
  friend bool operator==(const Entry&, const Entry&) = default;
};

struct Record {
  std::pmr::string name;
  std::pmr::vector<std::int32_t> ids;
  std::pmr::vector<std::uint8_t> blob;
  std::pmr::vector<std::pmr::string> tags;
  std::pmr::map<std::pmr::string, std::pmr::string> attrs;
  std::pmr::unordered_map<std::int64_t, Entry> by_id;
  std::optional<std::pmr::string> note;
  std::pmr::vector<Entry> entries;

  Record() = default;
  explicit Record(std::pmr::memory_resource* r)
      : name(r), ids(r), blob(r), tags(r), attrs(r), by_id(r), entries(r) {}
  friend bool operator==(const Record&, const Record&) = default;
};

// The same fields in std types.
struct StdEntry {
  std::string label;
  std::int32_t n = 0;
};
struct StdRecord {
  std::string name;
  std::vector<std::int32_t> ids;
  std::vector<std::uint8_t> blob;
  std::vector<std::string> tags;
  std::map<std::string, std::string> attrs;
  std::unordered_map<std::int64_t, StdEntry> by_id;
  std::optional<std::string> note;
  std::vector<StdEntry> entries;
};

template <class R, class E>
Status add_record(Engine& e) {
  if (Status s = e.add(Struct<E>("Entry").field("label", &E::label).field("n", &E::n)); !s) {
    return s;
  }
  return e.add(Struct<R>("Record")
                   .field("name", &R::name)
                   .field("ids", &R::ids)
                   .field("blob", &R::blob)
                   .field("tags", &R::tags)
                   .field("attrs", &R::attrs)
                   .field("by_id", &R::by_id)
                   .field("note", &R::note)
                   .field("entries", &R::entries));
}

// Strings long enough to live outside the string itself, so that where they live shows.
std::string text(const char* what, int i) {
  return std::string(what) + " long enough for the heap, number " + std::to_string(i);
}

// `n` of each thing, numbered from `first`, in either record type.
template <class R>
R make_record(int first, int n) {
  R r;
  r.name = text("name", first);
  for (int i = first; i < first + n; ++i) {
    r.ids.push_back(i * 1000 - 7);
    r.blob.push_back(static_cast<std::uint8_t>(i * 37));
    r.tags.emplace_back(text("tag", i));
    r.attrs.emplace(text("key", i), text("value", i));
    r.by_id[i].label = text("by id", i);
    r.by_id[i].n = -i;
    r.entries.emplace_back();
    r.entries.back().label = text("entry", i);
    r.entries.back().n = i;
  }
  if (n % 2) r.note = text("note", first);
  return r;
}

std::string serialized(Engine& e, const auto& value, Format format) {
  auto codec = test::codec_of<std::remove_cvref_t<decltype(value)>>(e, format);
  Buffer out;
  const Status s = codec.serialize(value, out);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return std::string(reinterpret_cast<const char*>(out.data()), out.size());
}

// A memory resource over a buffer of its own, that goes nowhere else for memory: what was
// allocated from it lies inside the buffer.
class Arena {
 public:
  std::pmr::memory_resource* resource() { return &resource_; }
  bool holds(const void* p) const {
    const auto* b = static_cast<const std::byte*>(p);
    return b >= buffer_.data() && b < buffer_.data() + buffer_.size();
  }

 private:
  std::vector<std::byte> buffer_ = std::vector<std::byte>(1 << 20);
  std::pmr::monotonic_buffer_resource resource_{buffer_.data(), buffer_.size(),
                                                std::pmr::null_memory_resource()};
};

// Where every string, vector and map node of `r` that can allocate from `arena` lives.
void expect_all_in(const Arena& arena, Record& r) {
  EXPECT_TRUE(arena.holds(r.name.data()));
  EXPECT_TRUE(arena.holds(r.ids.data()));
  EXPECT_TRUE(arena.holds(r.blob.data()));
  EXPECT_TRUE(arena.holds(r.tags.data()));
  for (const auto& tag : r.tags) EXPECT_TRUE(arena.holds(tag.data())) << tag;
  for (const auto& [key, value] : r.attrs) {
    EXPECT_TRUE(arena.holds(&key)) << key;
    EXPECT_TRUE(arena.holds(key.data())) << key;
    EXPECT_TRUE(arena.holds(value.data())) << value;
  }
  for (const auto& [id, entry] : r.by_id) EXPECT_TRUE(arena.holds(&entry)) << id;
  EXPECT_TRUE(arena.holds(r.entries.data()));
}

class Pmr : public ::testing::TestWithParam<Format> {};

TEST_P(Pmr, WritesWhatItsStdTwinWritesAndReadsBackEqual) {
  Engine pmr_engine;
  ASSERT_TRUE((add_record<Record, Entry>(pmr_engine).ok()));
  Engine std_engine;
  ASSERT_TRUE((add_record<StdRecord, StdEntry>(std_engine).ok()));
  for (int n : {0, 1, 2, 17}) {
    const Record sent = make_record<Record>(3, n);
    const std::string bytes = serialized(pmr_engine, sent, GetParam());
    // An unordered map writes in its own order, which the two maps may not share.
    if (n < 2) {
      EXPECT_EQ(bytes, serialized(std_engine, make_record<StdRecord>(3, n), GetParam()));
    }
    Record back;
    const Status read_back =
        test::codec_of<Record>(pmr_engine, GetParam()).deserialize(bytes, back);
    ASSERT_TRUE(read_back.ok()) << read_back.to_string();
    EXPECT_TRUE(back == sent) << n;
    // And the std twin reads what the pmr form wrote.
    StdRecord twin;
    ASSERT_TRUE(test::codec_of<StdRecord>(std_engine, GetParam()).deserialize(bytes, twin).ok());
    EXPECT_EQ(twin.tags.size(), sent.tags.size());
    EXPECT_EQ(twin.name, std::string_view(sent.name));
  }
}

TEST_P(Pmr, WhatIsReadLivesInTheTargetsResource) {
  Engine e;
  ASSERT_TRUE((add_record<Record, Entry>(e).ok()));
  Codec<Record> codec = test::codec_of<Record>(e, GetParam());
  const Record sent = make_record<Record>(0, 20);
  const std::string bytes = serialized(e, sent, GetParam());

  Arena arena;
  Record target(arena.resource());
  ASSERT_TRUE(codec.deserialize(bytes, target).ok());
  EXPECT_TRUE(target == sent);
  expect_all_in(arena, target);
  EXPECT_EQ(target.tags.front().get_allocator().resource(), arena.resource());
  EXPECT_EQ(target.entries.front().label.get_allocator().resource(),
            std::pmr::get_default_resource());
}

TEST_P(Pmr, AUsedValueReadsEqualAndKeepsItsResource) {
  Engine e;
  ASSERT_TRUE((add_record<Record, Entry>(e).ok()));
  Codec<Record> codec = test::codec_of<Record>(e, GetParam());
  Arena arena;
  Record target(arena.resource());
  // Larger, smaller, then larger again than what the target holds.
  for (auto [first, n] : {std::pair{0, 30}, std::pair{100, 4}, std::pair{7, 40}}) {
    const Record sent = make_record<Record>(first, n);
    ASSERT_TRUE(codec.deserialize(serialized(e, sent, GetParam()), target).ok());
    EXPECT_TRUE(target == sent) << first;
    expect_all_in(arena, target);
    EXPECT_EQ(target.attrs.get_allocator().resource(), arena.resource());
  }
}

TEST_P(Pmr, CutInputIsAnErrorAndLeavesAValidValue) {
  Engine e;
  ASSERT_TRUE((add_record<Record, Entry>(e).ok()));
  Codec<Record> codec = test::codec_of<Record>(e, GetParam());
  const std::string bytes = serialized(e, make_record<Record>(0, 3), GetParam());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::pmr::monotonic_buffer_resource arena;
    Record target(&arena);
    // A prefix may itself be whole (a Protobuf message of fewer fields); what matters is that
    // reading it ends, and the value it leaves can be used and destroyed.
    (void)codec.deserialize(std::string_view(bytes).substr(0, n), target);
    Record copy = target;
    EXPECT_TRUE(copy == target);
  }
}

// Maps keyed by strings too long to live inside the string: where the keys are read shows.
struct Index {
  std::pmr::map<std::pmr::string, std::pmr::string> ordered;
  std::pmr::unordered_map<std::pmr::string, std::int32_t> hashed;

  Index() = default;
  explicit Index(std::pmr::memory_resource* r) : ordered(r), hashed(r) {}
  friend bool operator==(const Index&, const Index&) = default;
};

Index make_index(int first, int n) {
  Index x;
  for (int i = first; i < first + n; ++i) {
    x.ordered.emplace(text("key", i), text("value", i));
    x.hashed.emplace(text("hashed key", i), i);
  }
  return x;
}

// Counts what is asked of it, and takes it from the global heap.
class CountingResource : public std::pmr::memory_resource {
 public:
  int allocations = 0;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    ++allocations;
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};

// Makes `resource` the default memory resource while it lives.
class DefaultResource {
 public:
  explicit DefaultResource(std::pmr::memory_resource* resource)
      : before_(std::pmr::set_default_resource(resource)) {}
  DefaultResource(const DefaultResource&) = delete;
  DefaultResource& operator=(const DefaultResource&) = delete;
  ~DefaultResource() { std::pmr::set_default_resource(before_); }

 private:
  std::pmr::memory_resource* before_;
};

// A map's keys are read in the map's own resource, fresh entries and reused ones alike: a
// reader that read them into a string of the default resource and moved them in would copy each
// one, and draw on memory the caller did not give it. Nothing else in a read draws on the
// default resource either.
TEST_P(Pmr, AMapsKeysAreReadInItsResourceAlone) {
  Engine e;
  ASSERT_TRUE(
      e.add(
           Struct<Index>("Index").field("ordered", &Index::ordered).field("hashed", &Index::hashed))
          .ok());
  // Making the codec compiles it (under JITSER_JIT=sync), and compiling takes nothing either:
  // under lazy policies it happens inside the first read.
  CountingResource while_compiling;
  const Codec<Index> codec = [&] {
    DefaultResource during_the_compile(&while_compiling);
    return test::codec_of<Index>(e, GetParam());
  }();
  EXPECT_EQ(while_compiling.allocations, 0);
  Arena arena;
  Index target(arena.resource());
  for (auto [first, n] : {std::pair{0, 12}, std::pair{50, 5}, std::pair{3, 20}}) {
    const Index sent = make_index(first, n);
    const std::string bytes = serialized(e, sent, GetParam());
    CountingResource elsewhere;
    {
      DefaultResource during_the_read(&elsewhere);
      ASSERT_TRUE(codec.deserialize(bytes, target).ok()) << first;
    }
    EXPECT_EQ(elsewhere.allocations, 0) << first;
    EXPECT_TRUE(target == sent) << first;
    for (const auto& [key, value] : target.ordered) {
      EXPECT_TRUE(arena.holds(key.data())) << key;
      EXPECT_TRUE(arena.holds(value.data())) << key;
    }
    for (const auto& [key, value] : target.hashed) EXPECT_TRUE(arena.holds(key.data())) << key;
  }
}

// A graph whose root is allocator-aware: what a read makes behind its shared_ptrs comes from
// the root's resource, each node's own pmr members included, since Node is allocator-aware too.
struct Node {
  using allocator_type = std::pmr::polymorphic_allocator<>;
  Node() = default;
  explicit Node(const allocator_type& a) : name(a), tags(a), links(a) {}

  std::int32_t id = 0;
  std::pmr::string name;
  std::pmr::vector<std::pmr::string> tags;
  std::shared_ptr<Node> next;
  std::pmr::vector<std::shared_ptr<Node>> links;
};

struct Web {
  using allocator_type = std::pmr::polymorphic_allocator<>;
  Web() = default;
  explicit Web(const allocator_type& a) : nodes(a), by_name(a) {}
  allocator_type get_allocator() const { return nodes.get_allocator(); }

  std::pmr::vector<std::shared_ptr<Node>> nodes;
  std::pmr::map<std::pmr::string, std::shared_ptr<Node>> by_name;
  std::shared_ptr<Node> first;
};

Status add_web(Engine& e) {
  if (Status s = e.add(Struct<Node>("Node")
                           .field("id", &Node::id)
                           .field("name", &Node::name)
                           .field("tags", &Node::tags)
                           .field("next", &Node::next)
                           .field("links", &Node::links));
      !s) {
    return s;
  }
  return e.add(Struct<Web>("Web")
                   .field("nodes", &Web::nodes)
                   .field("by_name", &Web::by_name)
                   .field("first", &Web::first));
}

// A chain of `n` nodes, each but the first linked twice to one leaf, indexed by name: shared,
// without cycles, so that every format can write it.
Web make_web(int n) {
  Web w;
  auto leaf = std::make_shared<Node>();
  leaf->id = -1;
  leaf->name = text("leaf", 0);
  for (int i = 0; i < n; ++i) {
    auto node = std::make_shared<Node>();
    node->id = i;
    node->name = text("node", i);
    node->tags.emplace_back(text("tag", i));
    node->tags.emplace_back(text("other tag", i));
    if (!w.nodes.empty()) {
      w.nodes.back()->next = node;
      node->links = {leaf, leaf};
    }
    w.by_name[node->name] = node;
    w.nodes.push_back(node);
  }
  if (n) w.first = w.nodes.front();
  return w;
}

void expect_node_in(const Arena& arena, const std::shared_ptr<Node>& node) {
  ASSERT_TRUE(node);
  EXPECT_TRUE(arena.holds(node.get())) << node->id;
  EXPECT_TRUE(arena.holds(node->name.data())) << node->id;
  for (const auto& tag : node->tags) EXPECT_TRUE(arena.holds(tag.data())) << node->id;
  if (!node->links.empty()) {
    EXPECT_TRUE(arena.holds(node->links.data())) << node->id;
  }
}

TEST_P(Pmr, AnAllocatorAwareRootReadsItsWholeGraphIntoItsResource) {
  Engine e;
  ASSERT_TRUE(add_web(e).ok());
  Codec<Web> codec = test::codec_of<Web>(e, GetParam());
  const Web sent = make_web(6);
  const std::string bytes = serialized(e, sent, GetParam());

  Arena arena;
  Web target{Web::allocator_type(arena.resource())};
  ASSERT_TRUE(codec.deserialize(bytes, target).ok());
  EXPECT_EQ(serialized(e, target, GetParam()), bytes);
  ASSERT_EQ(target.nodes.size(), sent.nodes.size());
  for (const auto& node : target.nodes) {
    expect_node_in(arena, node);
    if (node->next) expect_node_in(arena, node->next);
    for (const auto& link : node->links) expect_node_in(arena, link);
  }
  for (const auto& [name, node] : target.by_name) expect_node_in(arena, node);
  expect_node_in(arena, target.first);
  EXPECT_EQ(target.nodes[2]->tags[1], sent.nodes[2]->tags[1]);
  // The binary format keeps identity: one object per node, however often it is referred to.
  if (GetParam() == Format::Binary) {
    EXPECT_EQ(target.first, target.nodes[0]);
    EXPECT_EQ(target.nodes[3]->next, target.nodes[4]);
    EXPECT_EQ(target.nodes[5]->links[1], target.nodes[1]->links[0]);
    EXPECT_EQ(target.by_name.at(target.nodes[1]->name), target.nodes[1]);
  }
}

TEST_P(Pmr, AnAllocatorAwareRootMadeWithoutAResourceRoundTrips) {
  Engine e;
  ASSERT_TRUE(add_web(e).ok());
  const Web sent = make_web(3);
  const std::string bytes = serialized(e, sent, GetParam());
  Web target;
  ASSERT_TRUE(test::codec_of<Web>(e, GetParam()).deserialize(bytes, target).ok());
  EXPECT_EQ(serialized(e, target, GetParam()), bytes);
}

TEST_P(Pmr, CutInputIntoAnAllocatorAwareRootLeavesAValidGraph) {
  Engine e;
  ASSERT_TRUE(add_web(e).ok());
  Codec<Web> codec = test::codec_of<Web>(e, GetParam());
  const std::string bytes = serialized(e, make_web(4), GetParam());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::pmr::monotonic_buffer_resource arena;
    Web target{Web::allocator_type(&arena)};
    (void)codec.deserialize(std::string_view(bytes).substr(0, n), target);
    Buffer out;
    EXPECT_TRUE(codec.serialize(target, out).ok()) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, Pmr, ::testing::ValuesIn(all_formats()),
                         [](const auto& format) { return std::string(format_name(format.param)); });

}  // namespace
}  // namespace jitser

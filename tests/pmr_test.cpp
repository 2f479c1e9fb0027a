// The std::pmr forms of strings, vectors and maps: they write what their std twins write, read
// back equal, and a value read into keeps drawing on the memory resource it was made with, its
// elements too (docs/design.md, "Memory"). In every format, in whichever tier the suite's policy
// runs.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
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
  EXPECT_TRUE(codec.serialize(value, out).ok());
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
    ASSERT_TRUE(test::codec_of<Record>(pmr_engine, GetParam()).deserialize(bytes, back).ok());
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

INSTANTIATE_TEST_SUITE_P(Formats, Pmr, ::testing::ValuesIn(all_formats()),
                         [](const auto& format) { return std::string(format_name(format.param)); });

}  // namespace
}  // namespace jitser

// The Engine API: type-erased codecs for types described by hand, thread safety, statuses.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench/payloads.h"
#include "support.h"

namespace jitser {
namespace {

// A type described without templates, as a program that learns its schema at run time would.
struct Reading {
  std::int32_t sensor = 0;
  double value = 0;
  std::string unit;
};

TypeDesc leaf(Kind kind, std::size_t size, std::size_t align) {
  TypeDesc t;
  t.kind = kind;
  t.size = size;
  t.align = align;
  return t;
}

TypeDesc reading_by_hand() {
  TypeDesc t;
  t.kind = Kind::Struct;
  t.name = "Reading";
  t.size = sizeof(Reading);
  t.align = alignof(Reading);
  auto add = [&](const char* name, std::size_t offset, TypeDesc type) {
    FieldDesc f;
    f.name = f.cpp_name = name;
    f.offset = offset;
    f.type = TypeBox(std::move(type));
    t.fields.push_back(std::move(f));
  };
  add("sensor", offsetof(Reading, sensor), leaf(Kind::Int32, 4, 4));
  add("value", offsetof(Reading, value), leaf(Kind::Float64, 8, 8));
  add("unit", offsetof(Reading, unit),
      leaf(Kind::String, sizeof(std::string), alignof(std::string)));
  return t;
}

TEST(Engine, DescriptorByHandMatchesTheTemplateBuilder) {
  Engine by_hand;
  ASSERT_TRUE(by_hand.add(reading_by_hand()).ok());
  auto dyn = by_hand.codec("Reading", Format::Binary);
  ASSERT_TRUE(dyn.ok()) << dyn.status().to_string();
  const Reading r{7, 21.5, "celsius"};
  Buffer a;
  ASSERT_TRUE(dyn->serialize(&r, a).ok());

  Engine templated;
  ASSERT_TRUE(templated
                  .add(Struct<Reading>("Reading")
                           .field("sensor", &Reading::sensor)
                           .field("value", &Reading::value)
                           .field("unit", &Reading::unit))
                  .ok());
  Buffer b;
  ASSERT_TRUE(test::codec_of<Reading>(templated).serialize(r, b).ok());
  EXPECT_EQ(a.to_vector(), b.to_vector());

  Reading back;
  ASSERT_TRUE(dyn->deserialize(b.bytes(), &back).ok());
  EXPECT_EQ(back.sensor, 7);
  EXPECT_EQ(back.value, 21.5);
  EXPECT_EQ(back.unit, "celsius");
  EXPECT_EQ(&dyn->type(), &by_hand.codec("Reading", Format::Binary)->type());
}

TEST(Engine, CodecsAreMadeOnceAndShared) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  auto a = e.codec<payloads::MediaContent>(Format::Binary);
  auto b = e.codec("MediaContent", Format::Binary);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(&a->dyn().type(), &b->type());
  EXPECT_EQ(a->dyn().format(), Format::Binary);
}

TEST(Engine, ManyThreadsRegisterAndRunCodecs) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  const payloads::MediaContent value = payloads::make_media_content();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      // Registration of new types races with codec use by the other threads.
      TypeDesc extra = reading_by_hand();
      extra.name = "Extra" + std::to_string(t);
      if (!e.add(std::move(extra)).ok()) ++failures;
      auto codec = e.codec<payloads::MediaContent>(Format::Binary);
      if (!codec) {
        ++failures;
        return;
      }
      Buffer out;
      for (int i = 0; i < 500; ++i) {
        payloads::MediaContent back;
        if (!codec->serialize(value, out) || !codec->deserialize(out.bytes(), back) ||
            !(back == value)) {
          ++failures;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(e.types().size(), 22u + 4u);
}

TEST(Engine, SerializeReplacesTheBufferAndResultFormsWork) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  auto codec = test::codec_of<payloads::Foo>(e);
  Buffer out;
  out.append("junk", 4);
  ASSERT_TRUE(codec.serialize(payloads::make_foo(), out).ok());
  auto bytes = codec.serialize(payloads::make_foo());
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, out.to_vector());
  auto back = codec.deserialize(*bytes);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, payloads::make_foo());
  auto bad = codec.deserialize(std::span<const std::uint8_t>());
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::truncated);
}

// A server reads into one object again and again. A value an optional or unique_ptr holds is
// read into in place, keeping the storage of its strings and containers (and the pointee of a
// unique_ptr), and ends equal to the value written, in each format.
struct Part {
  std::string name;
  std::vector<std::int32_t> sizes;
  std::optional<std::string> note;
  friend bool operator==(const Part&, const Part&) = default;
};
struct Parts {
  std::optional<Part> first;
  std::unique_ptr<Part> second;
  std::optional<std::string> label;
};

TEST(Engine, ReadingKeepsTheStorageOfHeldValues) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Part>("Part")
                        .field("name", &Part::name)
                        .field("sizes", &Part::sizes)
                        .field("note", &Part::note))
                  .ok());
  ASSERT_TRUE(e.add(Struct<Parts>("Parts")
                        .field("first", &Parts::first)
                        .field("second", &Parts::second)
                        .field("label", &Parts::label))
                  .ok());
  Parts written;
  written.first = Part{std::string(40, 'a'), {1, 2}, std::string(20, 'b')};
  written.second = std::make_unique<Part>(Part{"c", {}, std::nullopt});
  written.label = std::string(30, 'd');
  for (Format format : {Format::Binary, Format::Json}) {
    SCOPED_TRACE(format_name(format));
    auto codec = test::codec_of<Parts>(e, format);
    Buffer out;
    ASSERT_TRUE(codec.serialize(written, out).ok());

    Parts into;
    into.first = Part{std::string(200, 'x'), {9, 9, 9, 9}, std::string(100, 'y')};
    into.second = std::make_unique<Part>(Part{std::string(50, 'z'), {7}, "old"});
    into.label = std::string(300, 'w');
    const Part* pointee = into.second.get();
    ASSERT_TRUE(codec.deserialize(out.bytes(), into).ok());
    EXPECT_EQ(into.first, written.first);
    ASSERT_NE(into.second, nullptr);
    EXPECT_EQ(*into.second, *written.second);
    EXPECT_EQ(into.label, written.label);
    EXPECT_EQ(into.second.get(), pointee);
    EXPECT_GE(into.first->name.capacity(), 200u);
    EXPECT_GE(into.first->sizes.capacity(), 4u);
    EXPECT_GE(into.first->note->capacity(), 100u);
    EXPECT_GE(into.label->capacity(), 300u);

    // Empty ones empty what is there.
    Parts none;
    ASSERT_TRUE(codec.serialize(none, out).ok());
    ASSERT_TRUE(codec.deserialize(out.bytes(), into).ok());
    EXPECT_FALSE(into.first || into.second || into.label);
  }
}

TEST(Status, DescribesItself) {
  EXPECT_EQ(Status().to_string(), "ok");
  Status s(Errc::truncated, "needs 4 bytes, 1 left", 17, "MediaContent.images[2].width");
  EXPECT_EQ(s.to_string(),
            "truncated at byte 17 in MediaContent.images[2].width: needs 4 bytes, 1 left");
  Status copy = s;
  EXPECT_EQ(copy.code(), Errc::truncated);
  EXPECT_EQ(copy.path(), s.path());
}

// Every kind of input a program has reads the same value, in every format; PaddedString and a
// Buffer with room after its content are the inputs JSON reads in place.
TEST(Inputs, EveryInputTypeReadsTheSameValue) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  const payloads::MediaContent value = payloads::make_media_content();
  for (const Format format : all_formats()) {
    SCOPED_TRACE(format_name(format));
    auto codec = test::codec_of<payloads::MediaContent>(e, format);
    Buffer out;
    ASSERT_TRUE(codec.serialize(value, out).ok());
    const std::vector<std::uint8_t> bytes = out.to_vector();
    const std::string text(bytes.begin(), bytes.end());
    const std::vector<std::byte> as_bytes(
        reinterpret_cast<const std::byte*>(bytes.data()),
        reinterpret_cast<const std::byte*>(bytes.data()) + bytes.size());
    const PaddedString padded(text);
    Buffer roomy;
    roomy.reserve(bytes.size() + kReadPadding);
    roomy.append(bytes.data(), bytes.size());
    ASSERT_GE(roomy.padded().padding, kReadPadding);

    auto expect_reads = [&](const auto& input, const char* what) {
      SCOPED_TRACE(what);
      Result<payloads::MediaContent> fresh = codec.deserialize(input);
      ASSERT_TRUE(fresh.ok()) << fresh.status().to_string();
      EXPECT_TRUE(*fresh == value);
      payloads::MediaContent reused = value;
      reused.media.uri = "overwritten";
      ASSERT_TRUE(codec.deserialize(input, reused).ok());
      EXPECT_TRUE(reused == value);
    };
    expect_reads(bytes, "std::vector<std::uint8_t>");
    expect_reads(std::span<const std::uint8_t>(bytes), "std::span<const std::uint8_t>");
    expect_reads(std::span<const std::byte>(as_bytes), "std::span<const std::byte>");
    expect_reads(text, "std::string");
    expect_reads(std::string_view(text), "std::string_view");
    expect_reads(padded, "PaddedString");
    expect_reads(roomy.padded(), "Buffer::padded");
    // A bad byte is the same error through every input.
    std::string broken = text;
    broken.resize(broken.size() / 2);
    const Status from_text = codec.deserialize(broken).status();
    EXPECT_FALSE(from_text.ok());
    EXPECT_EQ(codec.deserialize(PaddedString(broken)).status().to_string(), from_text.to_string());
  }
}

TEST(Inputs, PaddedStringKeepsItsPaddingZero) {
  PaddedString s("abc");
  EXPECT_EQ(s.view(), "abc");
  s.resize(1);
  s.resize(3);
  EXPECT_EQ(s.view(), std::string_view("a\0\0", 3));
  const PaddedInput in = s;
  EXPECT_EQ(in.bytes.size(), 3u);
  EXPECT_GE(in.padding, kReadPadding);
  for (std::size_t i = 0; i < kReadPadding; ++i) EXPECT_EQ(s.data()[3 + i], 0) << i;
  PaddedString moved = std::move(s);
  EXPECT_EQ(moved.size(), 3u);
  EXPECT_TRUE(s.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty, documented
  const PaddedInput none = PaddedString();
  EXPECT_EQ(none.bytes.size(), 0u);
}

// A codec can be a member that is set later; until then every call is a clear error.
TEST(Codecs, DefaultConstructedIsEmptyAndSaysSo) {
  struct Service {
    Codec<payloads::Image> images;
  } service;
  EXPECT_TRUE(service.images.empty());
  payloads::Image image;
  Buffer out;
  const Status s = service.images.serialize(image, out);
  EXPECT_EQ(s.code(), Errc::empty_codec);
  EXPECT_NE(s.to_string().find("default-constructed"), std::string::npos) << s.to_string();
  EXPECT_EQ(service.images.deserialize(std::string_view("{}"), image).code(), Errc::empty_codec);
  EXPECT_EQ(service.images.dyn().dump_ir(Direction::Serialize, false).status().code(),
            Errc::empty_codec);
  EXPECT_EQ(service.images.dyn().stats().type, "");

  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  service.images = test::codec_of<payloads::Image>(e, Format::Json);
  EXPECT_FALSE(service.images.empty());
  ASSERT_TRUE(service.images.serialize(image, out).ok());
  EXPECT_EQ(service.images.dyn().type().name, "Image");
}

}  // namespace
}  // namespace jitser

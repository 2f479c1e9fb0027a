// The descriptor layer: what the builder captures, what validation refuses, fingerprints.
#include <xxhash.h>

#include <cstddef>
#include <fstream>
#include <sstream>

#include "bench/payloads.h"
#include "support.h"

namespace jitser {
namespace {

using payloads::Image;
using payloads::MediaContent;

TEST(Builder, CapturesKindsOffsetsAndSizes) {
  const TypeDesc d = Struct<Image>("Image")
                         .field("uri", &Image::uri)
                         .field("title", &Image::title)
                         .field("width", &Image::width, opt().rename("w").number(7))
                         .desc();
  EXPECT_EQ(d.kind, Kind::Struct);
  EXPECT_EQ(d.size, sizeof(Image));
  EXPECT_EQ(d.align, alignof(Image));
  ASSERT_EQ(d.fields.size(), 3u);
  EXPECT_EQ(d.fields[0].type->kind, Kind::String);
  EXPECT_EQ(d.fields[0].offset, offsetof(Image, uri));
  EXPECT_EQ(d.fields[1].type->kind, Kind::Optional);
  EXPECT_EQ(d.fields[1].type->element->kind, Kind::String);
  EXPECT_EQ(d.fields[1].offset, offsetof(Image, title));
  EXPECT_EQ(d.fields[2].name, "w");
  EXPECT_EQ(d.fields[2].cpp_name, "width");
  EXPECT_EQ(d.fields[2].number, 7u);
  EXPECT_EQ(d.fields[2].offset, offsetof(Image, width));
}

TEST(Builder, DescribesEveryStandardShape) {
  EXPECT_EQ(detail::describe<std::vector<std::uint8_t>>().kind, Kind::Bytes);
  EXPECT_EQ(detail::describe<std::vector<std::byte>>().kind, Kind::Bytes);
  EXPECT_EQ(detail::describe<std::vector<std::int8_t>>().kind, Kind::List);
  EXPECT_EQ((detail::describe<std::array<double, 3>>().count), 3u);
  EXPECT_EQ(detail::describe<std::int16_t[5]>().kind, Kind::Array);
  EXPECT_EQ(detail::describe<std::unique_ptr<int>>().kind, Kind::UniquePtr);
  EXPECT_EQ(detail::describe<std::shared_ptr<int>>().kind, Kind::SharedPtr);
  EXPECT_EQ((detail::describe<std::unordered_map<int, int>>().kind), Kind::Map);
  EXPECT_EQ(detail::describe<std::chrono::milliseconds>().unit, TimeUnit::Millis);
  EXPECT_EQ(detail::describe<std::chrono::sys_time<std::chrono::microseconds>>().kind,
            Kind::Timestamp);
  EXPECT_EQ(detail::describe<char16_t>().kind, Kind::UInt16);
  EXPECT_EQ(detail::describe<long long>().kind, Kind::Int64);
  EXPECT_EQ(detail::describe<Image>().kind, Kind::Named);
}

struct Twice {
  int a = 0;
  int b = 0;
};

TEST(Validation, DuplicateFieldName) {
  Engine e;
  Status s = e.add(Struct<Twice>("Twice").field("a", &Twice::a).field("a", &Twice::b));
  EXPECT_EQ(s.code(), Errc::duplicate_field);
  EXPECT_NE(s.message().find("'a'"), std::string::npos) << s.to_string();
}

TEST(Validation, RenameCollision) {
  Engine e;
  Status s =
      e.add(Struct<Twice>("Twice").field("a", &Twice::a).field("b", &Twice::b, opt().rename("a")));
  EXPECT_EQ(s.code(), Errc::duplicate_field);
}

TEST(Validation, DuplicateFieldNumber) {
  Engine e;
  Status s = e.add(Struct<Twice>("Twice")
                       .field("a", &Twice::a, opt().number(3))
                       .field("b", &Twice::b, opt().number(3)));
  EXPECT_EQ(s.code(), Errc::duplicate_number);
  EXPECT_NE(s.message().find("share number 3"), std::string::npos) << s.to_string();
}

TEST(Validation, ReservedFieldNumber) {
  Engine e;
  Status s = e.add(Struct<Twice>("Twice").field("a", &Twice::a, opt().number(19500)));
  EXPECT_EQ(s.code(), Errc::invalid_descriptor);
}

TEST(Validation, DuplicateTypeName) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Twice>("Twice").field("a", &Twice::a)).ok());
  EXPECT_EQ(e.add(Struct<Image>("Twice").field("uri", &Image::uri)).code(), Errc::duplicate_type);
  EXPECT_EQ(e.add(Struct<Twice>("Other").field("a", &Twice::a)).code(), Errc::duplicate_type);
}

TEST(Validation, NestedTypeNotRegistered) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<MediaContent>("MediaContent")
                        .field("media", &MediaContent::media)
                        .field("images", &MediaContent::images))
                  .ok());
  auto codec = e.codec<MediaContent>(Format::Binary);
  ASSERT_FALSE(codec.ok());
  EXPECT_EQ(codec.status().code(), Errc::unregistered_type);
  EXPECT_NE(codec.status().message().find("MediaContent.media"), std::string::npos)
      << codec.status().to_string();
  EXPECT_NE(codec.status().message().find("jitser::payloads::Media"), std::string::npos)
      << codec.status().to_string();
}

TEST(Validation, UnknownTypes) {
  Engine e;
  EXPECT_EQ(e.codec("Nope", Format::Binary).status().code(), Errc::unknown_type);
  EXPECT_EQ(e.codec<Twice>(Format::Binary).status().code(), Errc::unknown_type);
}

// A descriptor written by hand, for the checks the template builder makes impossible.
TypeDesc int32_type() {
  TypeDesc t;
  t.kind = Kind::Int32;
  t.size = t.align = 4;
  return t;
}

TypeDesc named(const std::string& name, std::size_t size) {
  TypeDesc t;
  t.kind = Kind::Named;
  t.name = name;
  t.size = size;
  t.align = 4;
  return t;
}

FieldDesc field(const std::string& name, std::size_t offset, TypeDesc type) {
  FieldDesc f;
  f.name = f.cpp_name = name;
  f.offset = offset;
  f.type = TypeBox(std::move(type));
  return f;
}

TEST(Validation, RecursionByValue) {
  Engine e;
  TypeDesc a;
  a.name = "A";
  a.size = 8;
  a.align = 4;
  a.fields.push_back(field("x", 0, int32_type()));
  a.fields.push_back(field("b", 4, named("B", 4)));
  TypeDesc b;
  b.name = "B";
  b.size = 4;
  b.align = 4;
  b.fields.push_back(field("a", 0, named("A", 0)));
  ASSERT_TRUE(e.add(a).ok());
  ASSERT_TRUE(e.add(b).ok());
  auto codec = e.codec("A", Format::Binary);
  ASSERT_FALSE(codec.ok());
  EXPECT_EQ(codec.status().code(), Errc::recursive_by_value);
  EXPECT_NE(codec.status().message().find("A.b.a"), std::string::npos)
      << codec.status().to_string();
}

TEST(Validation, FieldOutsideStruct) {
  Engine e;
  TypeDesc a;
  a.name = "A";
  a.size = 4;
  a.align = 4;
  a.fields.push_back(field("x", 4, int32_type()));
  Status s = e.add(a);
  EXPECT_EQ(s.code(), Errc::invalid_descriptor);
  EXPECT_NE(s.message().find("A.x"), std::string::npos) << s.to_string();
}

TEST(Validation, WrapperNeedsExactlyOneField) {
  Engine e;
  TypeDesc w = Struct<Twice>("W").field("a", &Twice::a).field("b", &Twice::b).desc();
  w.wrapper = true;
  EXPECT_EQ(e.add(w).code(), Errc::invalid_descriptor);
}

struct FloatKeys {
  std::map<double, int> m;
};

TEST(Validation, MapKeysMustBeStringsIntegersOrEnums) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<FloatKeys>("FloatKeys").field("m", &FloatKeys::m)).ok());
  auto codec = e.codec<FloatKeys>(Format::Binary);
  ASSERT_FALSE(codec.ok());
  EXPECT_EQ(codec.status().code(), Errc::invalid_descriptor);
  EXPECT_NE(codec.status().message().find("map keys"), std::string::npos);
}

TEST(Validation, DefaultMustMatchTheFieldType) {
  Engine e;
  ASSERT_TRUE(e.add(Struct<Twice>("Twice").field("a", &Twice::a, opt().default_to("text"))).ok());
  EXPECT_EQ(e.codec<Twice>(Format::Binary).status().code(), Errc::invalid_descriptor);
}

enum class Dup { X, Y };

TEST(Validation, EnumNamesAndValuesAreUnique) {
  Engine e;
  EXPECT_EQ(e.add(Enum<Dup>("Dup").value("X", Dup::X).value("X", Dup::Y)).code(),
            Errc::duplicate_field);
  EXPECT_EQ(e.add(Enum<Dup>("Dup").value("X", Dup::X).value("Y", Dup::X)).code(),
            Errc::duplicate_number);
}

// Names become JSON keys and enum names and appear in error messages: a name that is not UTF-8
// was accepted and then made JSON writing fail with an empty error, and compiled readers fail
// IR verification.
struct Named1 {
  std::int32_t x = 0;
};

TEST(Validation, NamesAreNonEmptyUtf8) {
  Engine e;
  auto refused = [](const Status& s, const char* what) {
    EXPECT_EQ(s.code(), Errc::invalid_descriptor) << s.to_string();
    EXPECT_NE(s.message().find(what), std::string::npos) << s.to_string();
  };
  refused(e.add(Enum<Dup>("\xc3").value("X", Dup::X)), "not valid UTF-8");
  refused(e.add(Enum<Dup>("Dup").value("\xc3", Dup::X)), "not valid UTF-8 (at byte 0)");
  refused(e.add(Enum<Dup>("Dup").value("ok", Dup::X).value("a\xff", Dup::Y)),
          "not valid UTF-8 (at byte 1)");
  refused(e.add(Enum<Dup>("Dup").value("", Dup::X)), "empty");
  refused(e.add(Struct<Named1>("\xed\xa0\x80").field("x", &Named1::x)), "not valid UTF-8");
  refused(e.add(Struct<Named1>("Named1").field("\xc3", &Named1::x)), "not valid UTF-8");
  refused(e.add(Struct<Named1>("Named1").field("x", &Named1::x, opt().rename("\xc0\xaf"))),
          "not valid UTF-8");
  refused(e.add(Struct<Named1>("Named1").field("", &Named1::x)), "empty");
  EXPECT_TRUE(e.add(Struct<Named1>("Named1").field("\xc3\xa9t\xc3\xa9 \"x\"", &Named1::x)).ok());
  EXPECT_TRUE(e.add(Enum<Dup>("Dup").value("\xf0\x9f\x98\x80", Dup::X)).ok());
}

TEST(Status, IsNeverAFailureWithTheCodeOk) {
  const Status s(Errc::ok, "something failed");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Errc::internal);
  EXPECT_EQ(s.to_string(), "internal error: something failed");
}

TEST(Fingerprint, IsXxHash64OfTheCanonicalText) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  const std::string text = *e.schema_text("MediaContent");
  test::expect_golden("MediaContent.schema.txt", text);
  EXPECT_EQ(*e.fingerprint("MediaContent"), XXH64(text.data(), text.size(), 0));
}

TEST(Fingerprint, SameSchemaSameFingerprintAcrossEngines) {
  Engine a, b;
  ASSERT_TRUE(payloads::register_all(a).ok());
  ASSERT_TRUE(payloads::register_all(b).ok());
  for (const char* name : {"MediaContent", "Sample", "Graph"}) {
    EXPECT_EQ(*a.fingerprint(name), *b.fingerprint(name)) << name;
  }
  EXPECT_NE(*a.fingerprint("Foo"), *a.fingerprint("FooImmutable"));
}

TEST(Fingerprint, ChangesWithNamesTypesAndOrder) {
  auto fp = [](auto build) {
    Engine e;
    EXPECT_TRUE(e.add(build()).ok());
    return *e.fingerprint("T");
  };
  const auto base =
      fp([] { return Struct<Twice>("T").field("a", &Twice::a).field("b", &Twice::b); });
  EXPECT_EQ(base,
            fp([] { return Struct<Twice>("T").field("a", &Twice::a).field("b", &Twice::b); }));
  EXPECT_NE(base,
            fp([] { return Struct<Twice>("T").field("b", &Twice::b).field("a", &Twice::a); }));
  EXPECT_NE(base,
            fp([] { return Struct<Twice>("T").field("a", &Twice::a).field("c", &Twice::b); }));
  EXPECT_NE(base, fp([] {
              return Struct<Image>("T").field("a", &Image::uri).field("b", &Image::width);
            }));
}

}  // namespace
}  // namespace jitser

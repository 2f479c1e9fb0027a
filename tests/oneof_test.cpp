// Oneofs (FieldDesc::oneof): fields of which at most one holds a value. Both directions refuse
// a value with two, in every format and in whichever tier the suite's policy runs; a type
// declared in C++ and the same type loaded from schema text agree.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "support.h"

namespace jitser {
namespace {

struct Note {
  std::string text;
  friend bool operator==(const Note&, const Note&) = default;
};

struct Payment {
  std::int32_t id = 0;
  std::optional<std::int64_t> card;
  std::unique_ptr<std::string> cash;
  std::shared_ptr<Note> voucher;
  std::optional<bool> gift;  // a group of its own
};

// Payment with no oneofs, for input that holds two alternatives.
struct Loose {
  std::int32_t id = 0;
  std::optional<std::int64_t> card;
  std::unique_ptr<std::string> cash;
  std::shared_ptr<Note> voucher;
  std::optional<bool> gift;
};

Status add_payment(Engine& e) {
  if (Status s = e.add(Struct<Note>("Note").field("text", &Note::text)); !s) return s;
  return e.add(Struct<Payment>("Payment")
                   .field("id", &Payment::id)
                   .field("card", &Payment::card, opt().oneof("method"))
                   .field("cash", &Payment::cash, opt().oneof("method"))
                   .field("voucher", &Payment::voucher, opt().oneof("method"))
                   .field("gift", &Payment::gift, opt().oneof("wrapping")));
}

Status add_loose(Engine& e) {
  if (Status s = e.add(Struct<Note>("Note").field("text", &Note::text)); !s) return s;
  return e.add(Struct<Loose>("Payment")
                   .field("id", &Loose::id)
                   .field("card", &Loose::card)
                   .field("cash", &Loose::cash)
                   .field("voucher", &Loose::voucher)
                   .field("gift", &Loose::gift));
}

EngineOptions without_fingerprint() {
  EngineOptions options;
  options.write_fingerprint = false;  // Loose's bytes, read as a Payment
  return options;
}

TEST(Oneof, OneAlternativeRoundTripsInEveryFormat) {
  Engine e(without_fingerprint());
  ASSERT_TRUE(add_payment(e).ok());
  for (const Format format : all_formats()) {
    SCOPED_TRACE(format_name(format));
    auto codec = test::codec_of<Payment>(e, format);
    for (int pick = 0; pick < 4; ++pick) {
      Payment p;
      p.id = 7;
      p.gift = pick % 2 == 0;
      if (pick == 0) p.card = -5;
      if (pick == 1) p.cash = std::make_unique<std::string>("ten");
      if (pick == 2) p.voucher = std::make_shared<Note>(Note{"thanks"});
      Buffer out;
      ASSERT_TRUE(codec.serialize(p, out).ok());
      Result<Payment> back = codec.deserialize(out.bytes());
      ASSERT_TRUE(back.ok()) << back.status().to_string();
      EXPECT_EQ(back->card, p.card);
      EXPECT_EQ(back->cash != nullptr, p.cash != nullptr);
      EXPECT_EQ(back->voucher != nullptr, p.voucher != nullptr);
      if (p.voucher && back->voucher) {
        EXPECT_EQ(*back->voucher, *p.voucher);
      }
      EXPECT_EQ(back->gift, p.gift);
    }
  }
}

TEST(Oneof, WritingTwoAlternativesIsAnError) {
  Engine e;
  ASSERT_TRUE(add_payment(e).ok());
  for (const Format format : all_formats()) {
    SCOPED_TRACE(format_name(format));
    auto codec = test::codec_of<Payment>(e, format);
    Payment p;
    p.card = 1;
    p.voucher = std::make_shared<Note>();
    Buffer out;
    const Status s = codec.serialize(p, out);
    EXPECT_EQ(s.code(), Errc::oneof_conflict) << s.to_string();
    EXPECT_EQ(s.path(), "Payment.voucher");
    EXPECT_NE(s.message().find("'method'"), std::string::npos) << s.message();
  }
}

// Input with two alternatives of one group is an error; Protobuf says the last one wins.
TEST(Oneof, ReadingTwoAlternativesIsAnError) {
  Engine loose(without_fingerprint());
  Engine strict(without_fingerprint());
  ASSERT_TRUE(add_loose(loose).ok());
  ASSERT_TRUE(add_payment(strict).ok());
  for (const Format format : all_formats()) {
    SCOPED_TRACE(format_name(format));
    auto writer = test::codec_of<Loose>(loose, format);
    auto reader = test::codec_of<Payment>(strict, format);
    Loose l;
    l.cash = std::make_unique<std::string>("5");
    l.voucher = std::make_shared<Note>(Note{"n"});
    l.gift = true;  // the other group holds one: fine
    Buffer out;
    ASSERT_TRUE(writer.serialize(l, out).ok());
    Result<Payment> back = reader.deserialize(out.bytes());
    if (format == Format::Protobuf) {
      // Protobuf's rule instead: the last alternative to come wins.
      ASSERT_TRUE(back.ok()) << back.status().to_string();
      EXPECT_EQ(back->cash, nullptr);
      ASSERT_NE(back->voucher, nullptr);
      EXPECT_EQ(back->voucher->text, "n");
    } else {
      ASSERT_FALSE(back.ok());
      EXPECT_EQ(back.status().code(), Errc::oneof_conflict) << back.status().to_string();
      EXPECT_EQ(back.status().path(), "Payment.voucher");
      EXPECT_NE(back.status().offset(), Status::kNoOffset);
    }
    // With one alternative the same reader accepts it.
    l.voucher.reset();
    ASSERT_TRUE(writer.serialize(l, out).ok());
    Result<Payment> one = reader.deserialize(out.bytes());
    ASSERT_TRUE(one.ok()) << one.status().to_string();
    ASSERT_NE(one->cash, nullptr);
    EXPECT_EQ(*one->cash, "5");
  }
}

TEST(Oneof, SchemaTextKeepsTheGroups) {
  Engine cpp;
  ASSERT_TRUE(add_payment(cpp).ok());
  Result<std::string> text = cpp.schema_text("Payment");
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("oneof method{card:optional<int64>,cash:unique_ptr<string>,voucher:"
                       "shared_ptr<Note>,},oneof wrapping{gift:optional<bool>,},"),
            std::string::npos)
      << *text;
  Engine loaded;
  ASSERT_TRUE(loaded.load_schema(*text).ok());
  EXPECT_EQ(*loaded.fingerprint("Payment"), *cpp.fingerprint("Payment"));
  // Without the groups the fingerprint differs: they are part of the schema.
  Engine loose;
  ASSERT_TRUE(add_loose(loose).ok());
  EXPECT_NE(*loose.fingerprint("Payment"), *cpp.fingerprint("Payment"));

  // An object of the loaded type refuses two alternatives as the C++ type does.
  for (const Format format : all_formats()) {
    Result<DynCodec> codec = loaded.codec("Payment", format);
    ASSERT_TRUE(codec.ok());
    Object value(codec->type());
    auto cpp_codec = test::codec_of<Payment>(cpp, format);
    Payment p;
    p.cash = std::make_unique<std::string>("x");
    Buffer out;
    ASSERT_TRUE(cpp_codec.serialize(p, out).ok());
    ASSERT_TRUE(codec->deserialize(out.bytes(), value).ok());
    Buffer again;
    ASSERT_TRUE(codec->serialize(value, again).ok());
    EXPECT_EQ(test::to_hex(again.bytes()), test::to_hex(out.bytes()));
  }
}

TEST(Oneof, MisdeclaredGroupsAreRefused) {
  struct Bad {
    std::int32_t a = 0;
    std::optional<std::int32_t> b, c;
  };
  Engine e;
  Status s = e.add(Struct<Bad>("Bad").field("a", &Bad::a, opt().oneof("g")));
  EXPECT_EQ(s.code(), Errc::invalid_descriptor);
  EXPECT_NE(s.message().find("optional or a pointer"), std::string::npos) << s.message();
  s = e.add(Struct<Bad>("Bad")
                .field("b", &Bad::b, opt().oneof("g"))
                .field("a", &Bad::a)
                .field("c", &Bad::c, opt().oneof("g")));
  EXPECT_EQ(s.code(), Errc::invalid_descriptor);
  EXPECT_NE(s.message().find("not adjacent"), std::string::npos) << s.message();

  Engine text;
  s = text.load_schema("S {\n  oneof g { a: int32 }\n}");
  EXPECT_EQ(s.code(), Errc::invalid_descriptor);
  EXPECT_NE(s.message().find("line 2, column 16"), std::string::npos) << s.message();
  s = text.load_schema("S { oneof g { } }");
  EXPECT_EQ(s.code(), Errc::invalid_descriptor) << s.to_string();
  s = text.load_schema("S { oneof g { a: optional<int32> }, oneof g { b: optional<int32> } }");
  EXPECT_EQ(s.code(), Errc::duplicate_field) << s.to_string();
  // `oneof` is an ordinary field name where no group name follows it.
  EXPECT_TRUE(text.load_schema("T { oneof: int32, oneof #2?: string }").code() ==
              Errc::duplicate_field);
  ASSERT_TRUE(text.load_schema("U { oneof: int32 }").ok());
}

}  // namespace
}  // namespace jitser

// .proto files read with libprotobuf's compiler (<jitser/proto.h>): what each construct
// becomes (a golden translation), that the types serve every format in whichever tier the
// suite's policy runs, and that what jitser cannot map is an error with its place.
#include <jitser/proto.h>

#include <string>
#include <vector>

#include "support.h"

namespace jitser {
namespace {

const std::string kProtoDir = JITSER_SOURCE_DIR "/tests/proto";

TEST(ProtoImport, TranslatesAProto2FileWithImportsAndWellKnownTypes) {
  // Only the file's own root is given: google/protobuf/*.proto are found without it.
  Result<std::string> text = proto_schema_text(kProtoDir + "/shop/v1/order.proto", {kProtoDir});
  ASSERT_TRUE(text.ok()) << text.status().to_string();
  test::expect_golden("proto_order.jitser", *text);
  Engine e;
  const Status s = load_proto(e, kProtoDir + "/shop/v1/order.proto", {kProtoDir});
  ASSERT_TRUE(s.ok()) << s.to_string();
  // Types are named by their full names, nested ones included; the mapped well-known types
  // and map entries are not types of their own.
  for (const char* name :
       {"shop.v1.Order", "shop.v1.Order.Line", "shop.v1.Order.Status", "shop.v1.Money"}) {
    EXPECT_TRUE(e.fingerprint(name).ok()) << name;
  }
  EXPECT_FALSE(e.fingerprint("google.protobuf.Timestamp").ok());
  EXPECT_FALSE(e.fingerprint("shop.v1.Order.BySkuEntry").ok());
}

TEST(ProtoImport, AnImportedFileFoundFromItsOwnDirectory) {
  // A file outside every import path is read from its own directory, as protoc reads it.
  Engine e;
  const Status s = load_proto(e, JITSER_SOURCE_DIR "/bench/peers/payloads.proto");
  ASSERT_TRUE(s.ok()) << s.to_string();
  Result<std::string> text = e.schema_text("jitser.bench.pb.MediaContent");
  ASSERT_TRUE(text.ok());
  // proto3: scalars and lists without presence read as zero when left out; `optional` and
  // message fields are optionals.
  EXPECT_NE(text->find("media#1:optional<jitser.bench.pb.Media>,images#2?:list<"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("title#2:optional<string>,width#3?:int32,"), std::string::npos) << *text;
  for (const Format format : all_formats()) test::dyn_codec_of(e, "jitser.bench.pb.Sample", format);
}

// An Order with every field set, as a document of jitser's JSON.
constexpr const char* kOrder = R"({
  "id": 18446744073709551615, "status": "SHIPPED",
  "lines": [{"sku": "a-1", "count": 3,
             "price": {"units": -5, "nanos": 250000000, "currency": "USD"},
             "parts": [{"sku": "a-1/x", "parts": []}]}],
  "by_sku": {"a-1": {"sku": "a-1", "parts": []}, "": {"sku": "", "parts": []}},
  "notes": {"-7": "fragile", "2147483647": "top"},
  "voucher": "SPRING",
  "placed": "2026-12-01T19:44:25.123456789Z", "ttl": "-3600.5s", "priority": -3,
  "extra": {"k": [1, "two", null, {"x": true}]},
  "parent": {"id": 1, "points": -9223372036854775808},
  "checks": [0, 4294967295], "blob": "AAEC/w==", "weight": -0.5, "ratio": 1.5, "gift": false,
  "history": ["1970-01-01T00:00:00Z"], "delta": -1
})";

TEST(ProtoImport, ItsTypesRoundTripInEveryFormat) {
  Engine e;
  ASSERT_TRUE(load_proto(e, kProtoDir + "/shop/v1/order.proto", {kProtoDir}).ok());
  const DynCodec json = test::dyn_codec_of(e, "shop.v1.Order", Format::Json);
  Object order(json.type());
  const Status read = json.deserialize(std::string_view(kOrder), order);
  ASSERT_TRUE(read.ok()) << read.to_string();
  Buffer first;
  ASSERT_TRUE(json.serialize(order, first).ok());
  for (const Format format : all_formats()) {
    SCOPED_TRACE(format_name(format));
    const DynCodec codec = test::dyn_codec_of(e, "shop.v1.Order", format);
    Buffer written;
    ASSERT_TRUE(codec.serialize(order, written).ok());
    Object back(codec.type());
    const Status s = codec.deserialize(written.bytes(), back);
    ASSERT_TRUE(s.ok()) << s.to_string();
    Buffer again;
    ASSERT_TRUE(json.serialize(back, again).ok());
    EXPECT_EQ(test::to_hex(again.bytes()), test::to_hex(first.bytes()));
  }
}

TEST(ProtoImport, AOneofWithTwoValuesIsRefused) {
  Engine e;
  ASSERT_TRUE(load_proto(e, kProtoDir + "/shop/v1/order.proto", {kProtoDir}).ok());
  const DynCodec json = test::dyn_codec_of(e, "shop.v1.Order", Format::Json);
  Object order(json.type());
  const Status s =
      json.deserialize(std::string_view(R"({"id":1,"card":{"units":2},"points":3})"), order);
  EXPECT_EQ(s.code(), Errc::oneof_conflict) << s.to_string();
  EXPECT_EQ(s.path(), "shop.v1.Order.points");
}

struct BadFile {
  const char* file;
  Errc code;
  const char* message;  // a part of it, with the place
};

TEST(ProtoImport, WhatCannotBeMappedIsAnErrorWithItsPlace) {
  const BadFile cases[] = {
      {"group.proto", Errc::unsupported,
       "group.proto, line 4, column 3: field 'Old.result' is a group"},
      {"extension.proto", Errc::unsupported,
       "extension.proto, line 8, column 3: extension 'extra'"},
      {"bool_map.proto", Errc::unsupported,
       "bool_map.proto, line 4, column 3: field 'Flags.by_flag' is a map with bool keys"},
      {"syntax.proto", Errc::syntax_error, "syntax.proto, line 5, column 3: Expected \";\""},
      {"unknown_type.proto", Errc::unregistered_type,
       "unknown_type.proto, line 4, column 3: \"Missing\" is not defined"},
      {"missing_import.proto", Errc::syntax_error,
       "missing_import.proto, line 3, column 1: Import \"not/there.proto\" was not found"},
  };
  for (const BadFile& c : cases) {
    SCOPED_TRACE(c.file);
    Engine e;
    const Status s = load_proto(e, kProtoDir + "/bad/" + c.file, {kProtoDir + "/bad"});
    EXPECT_EQ(s.code(), c.code) << s.to_string();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_TRUE(e.types().empty());  // nothing of the file was registered
  }
  Engine e;
  EXPECT_FALSE(load_proto(e, kProtoDir + "/bad/no_such_file.proto").ok());
}

}  // namespace
}  // namespace jitser

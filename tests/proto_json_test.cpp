// Protobuf's JSON mapping for types loaded from .proto files, checked against libprotobuf
// itself: what google::protobuf::util::MessageToJsonString writes for a message jitser reads
// and writes back byte for byte, and what jitser writes protobuf reads as the same message, in
// whichever tier the suite's policy runs.
#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include <jitser/proto.h>

#include "support.h"

namespace jitser {
namespace {

namespace gp = google::protobuf;

const std::string kProtoDir = JITSER_SOURCE_DIR "/tests/proto";

class SilentErrors : public gp::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& file, int line, int, const std::string& message) override {
    ADD_FAILURE() << file << ":" << line << ": " << message;
  }
};

// One .proto file, loaded into both protobuf (a DynamicMessage of each type) and jitser.
class Both {
 public:
  Both(const std::string& file, const std::string& root) : importer_(&sources_, &errors_) {
    sources_.MapPath("", root);
    sources_.MapPath("", JITSER_PROTOBUF_INCLUDE);  // protobuf's own .proto files
    EXPECT_NE(importer_.Import(file), nullptr);
    const Status s = load_proto(engine_, root + "/" + file, {root});
    EXPECT_TRUE(s.ok()) << s.to_string();
  }

  std::unique_ptr<gp::Message> message(const std::string& type) {
    const gp::Descriptor* d = importer_.pool()->FindMessageTypeByName(type);
    EXPECT_NE(d, nullptr) << type;
    return std::unique_ptr<gp::Message>(factory_.GetPrototype(d)->New());
  }

  // protobuf: the document read and written again.
  std::string protobuf_json(const std::string& type, const std::string& document) {
    std::unique_ptr<gp::Message> m = message(type);
    const auto read = gp::util::JsonStringToMessage(document, m.get());
    EXPECT_TRUE(read.ok()) << read.ToString() << "\n" << document;
    std::string out;
    EXPECT_TRUE(gp::util::MessageToJsonString(*m, &out).ok());
    return out;
  }

  // jitser: the document read into an Object and written again.
  std::string jitser_json(const std::string& type, const std::string& document) {
    const DynCodec codec = test::dyn_codec_of(engine_, type, Format::Json);
    Object value(codec.type());
    const Status read = codec.deserialize(std::string_view(document), value);
    EXPECT_TRUE(read.ok()) << read.to_string() << "\n" << document;
    Buffer out;
    const Status write = codec.serialize(value, out);
    EXPECT_TRUE(write.ok()) << write.to_string();
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
  }

  // Both ways: jitser writes what protobuf writes for the document, and protobuf reads what
  // jitser writes as it reads what it writes itself (protobuf reads its own -0 as 0). Protobuf
  // writes a map's entries in its hash map's order, so a document with maps of several entries
  // is compared as JSON values, and every other byte for byte.
  void check(const std::string& type, const std::string& document, bool maps = false) {
    SCOPED_TRACE(type + ": " + document);
    auto same = [&](const std::string& a, const std::string& b) {
      if (maps) {
        EXPECT_EQ(nlohmann::json::parse(a), nlohmann::json::parse(b)) << a << "\n" << b;
      } else {
        EXPECT_EQ(a, b);
      }
    };
    const std::string expected = protobuf_json(type, document);
    same(jitser_json(type, expected), expected);
    const std::string written = jitser_json(type, document);
    same(written, expected);
    same(protobuf_json(type, written), protobuf_json(type, expected));
  }

 private:
  gp::compiler::DiskSourceTree sources_;
  SilentErrors errors_;
  gp::compiler::Importer importer_;
  gp::DynamicMessageFactory factory_;
  Engine engine_;
};

TEST(ProtoJson, Proto3PayloadsMatchProtobuf) {
  Both both("payloads.proto", JITSER_SOURCE_DIR "/bench/peers");
  both.check("jitser.bench.pb.MediaContent",
             R"({"media":{"uri":"http://javaone.com/keynote.mpg","title":"Javaone Keynote",)"
             R"("width":640,"height":480,"format":"video/mpg4","duration":"18000000",)"
             R"("size":"58982400","bitrate":262144,"hasBitrate":true,)"
             R"("persons":["Bill Gates","Steve Jobs"],"player":"FLASH","copyright":""},)"
             R"("images":[{"uri":"http://javaone.com/keynote_large.jpg","title":"Javaone Keynote",)"
             R"("width":1024,"height":768,"size":"LARGE"},{"uri":"","width":0,"size":"SMALL"}]})");
  // Zero values are left out, present optionals are not; proto names and numbers for 64-bit
  // integers are read too.
  both.check("jitser.bench.pb.Sample",
             R"({"int_value":0,"longValue":-9223372036854775808,"floatValue":1.5,)"
             R"("doubleValue":-0.1,"shortValue":-32768,"charValue":65535,"booleanValue":false,)"
             R"("boxedInt":0,"boxedLong":"0","boxedFloat":"NaN","boxedDouble":"-Infinity",)"
             R"("intArray":[1,-2,2147483647],"longArray":["1",-2,"9223372036854775807"],)"
             R"("floatArray":[0.1,1e+20,3.4028235e+38,"Infinity"],)"
             R"("doubleArray":[5e-324,1.7976931348623157e+308,2,-0.0,123456789.125],)"
             R"("booleanArray":[true,false],"string":"\u00e9\n\"q\""})");
  both.check("jitser.bench.pb.Sample", "{}");
}

TEST(ProtoJson, Proto2WithWellKnownTypesMatchesProtobuf) {
  Both both("shop/v1/order.proto", kProtoDir);
  both.check("shop.v1.Order",
             R"({"id":"18446744073709551615","status":"SHIPPED",)"
             R"("lines":[{"sku":"a-1","count":3,"price":{"units":"-5","nanos":250000000,)"
             R"("currency":"USD"},"parts":[{"sku":"a-1/x"}]}],)"
             R"("bySku":{"a-1":{"sku":"a-1"},"":{"sku":"","count":0}},)"
             R"("notes":{"-7":"fragile","2147483647":"top"},"voucher":"SPRING",)"
             R"("placed":"2026-12-01T19:44:25.123456789Z","ttl":"-3600.500s","priority":-3,)"
             R"("extra":{"k":[1,"two",null,{"x":true}]},"parent":{"id":"1","points":"-9"},)"
             R"("checks":[0,4294967295],"blob":"AAEC/w==","weight":-0.5,"ratio":1.5,)"
             R"("gift":false,"history":["1970-01-01T00:00:00Z","2000-01-01T00:00:00.100Z",)"
             R"("2000-01-01T00:00:00.000100Z"],"delta":"-1"})",
             true);
  both.check("shop.v1.Order", R"({"id":"0","card":{"units":"7"},"ttl":"0s"})");
}

}  // namespace
}  // namespace jitser

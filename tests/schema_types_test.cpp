// Types with no C++ definition, loaded from a schema text (Engine::load_schema): laid out by
// jitser (typeinfo/layout.h), they read and write the same bytes as the C++ types whose schema
// text they came from, in every format, in whichever tier the suite's policy runs.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bench/payloads.h"
#include "support.h"

namespace jitser {
namespace {

// Each payload's schema text, loaded into another Engine: bytes the C++ type wrote read into
// an object of the loaded type, which writes them back the same, and they read back into the
// C++ type as the value they came from. (The Graph holds unordered maps, which the loaded type
// orders, and cycles that JSON cannot write; the shared-object tests below cover what it has.)
TEST(SchemaTypes, EveryPayloadLoadedFromItsSchemaWritesTheSameBytes) {
  Engine cpp;
  ASSERT_TRUE(payloads::register_all(cpp).ok());
  int checked = 0;
  payloads::for_each_payload([&](const char* name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    if (std::string_view(name) == "Graph") return;
    SCOPED_TRACE(name);
    Result<std::string> text = cpp.schema_text(name);
    ASSERT_TRUE(text.ok());
    Engine loaded;
    const Status s = loaded.load_schema(*text);
    ASSERT_TRUE(s.ok()) << s.to_string() << "\n" << *text;
    EXPECT_EQ(*loaded.fingerprint(name), *cpp.fingerprint(name));
    for (const Format format : all_formats()) {
      SCOPED_TRACE(format_name(format));
      auto typed = test::codec_of<T>(cpp, format);
      const DynCodec dyn = test::dyn_codec_of(loaded, name, format);
      Buffer written;
      ASSERT_TRUE(typed.serialize(value, written).ok());
      Object object(dyn.type());
      const Status read = dyn.deserialize(written.bytes(), object);
      ASSERT_TRUE(read.ok()) << read.to_string();
      Buffer again;
      ASSERT_TRUE(dyn.serialize(object, again).ok());
      EXPECT_EQ(test::to_hex(again.bytes()), test::to_hex(written.bytes()));
      Result<T> back = typed.deserialize(again.bytes());
      ASSERT_TRUE(back.ok()) << back.status().to_string();
      EXPECT_TRUE(*back == value);
      // Read again into the used object: the same bytes.
      ASSERT_TRUE(dyn.deserialize(written.bytes(), object.get()).ok());
      ASSERT_TRUE(dyn.serialize(object.get(), again).ok());
      EXPECT_EQ(test::to_hex(again.bytes()), test::to_hex(written.bytes()));
      ++checked;
    }
  });
  EXPECT_EQ(checked, 10 * static_cast<int>(all_formats().size()));
}

// Every kind a schema may use, with no C++ twin: a document read, written, read again from the
// binary format, and written as the same document.
constexpr std::string_view kEveryKind = R"(
  Color = enum(uint8) { RED = 0, GREEN = 1 }
  Money = wrap { cents: int64 }
  Point { x: float64, y: float32 }
  Node {
    name: string
    flags: list<bool>
    points: list<Point>
    grid: array<Point, 2>
    rows: list<list<Point>>
    best: optional<Point>
    none: optional<Point>
    owned: unique_ptr<Point>
    left: shared_ptr<Point>
    right: shared_ptr<Point>
    by_name: map<string, Point>
    by_color: map<Color, list<string>>
    by_number: map<int16, optional<Money>>
    price: Money
    amount: decimal
    blob: bytes
    any: value
    at: timestamp(ms)
    took: duration(us)
    color: Color
    small: int8
    big: uint64
    children: list<Node>
  }
)";

constexpr std::string_view kNode =
    R"({"name":"root","flags":[true,false,true],"points":[{"x":1.5,"y":2.5},{"x":-3,"y":0}],)"
    R"("grid":[{"x":0,"y":1},{"x":2,"y":3}],"rows":[[],[{"x":4,"y":5}]],"best":{"x":7,"y":8},)"
    R"("none":null,"owned":{"x":9,"y":10},"left":{"x":11,"y":12},"right":{"x":13,"y":14},)"
    R"("by_name":{"a":{"x":1,"y":1},"b":{"x":2,"y":2}},"by_color":{"RED":["r"],"GREEN":[]},)"
    R"("by_number":{"-1":null,"7":42},"price":1999,"amount":12.50,)"
    R"("blob":"AAEC/w==","any":{"k":[1,"two",null]},"at":"2024-03-01T12:00:00.123Z",)"
    R"("took":"1.000250s","color":"GREEN","small":-8,"big":18446744073709551615,)"
    R"("children":[{"name":"leaf","flags":[],"points":[],"grid":[{"x":0,"y":0},{"x":0,"y":0}],)"
    R"("rows":[],"best":null,"none":null,"owned":null,"left":null,"right":null,"by_name":{},)"
    R"("by_color":{},"by_number":{},"price":0,"amount":0,"blob":"","any":null,)"
    R"("at":"1970-01-01T00:00:00Z","took":"0s","color":"RED","small":0,"big":0,"children":[]}]})";

TEST(SchemaTypes, EveryKindRoundTripsWithNoCppType) {
  Engine e;
  const Status s = e.load_schema(kEveryKind);
  ASSERT_TRUE(s.ok()) << s.to_string();
  const DynCodec json = test::dyn_codec_of(e, "Node", Format::Json);
  const DynCodec binary = test::dyn_codec_of(e, "Node", Format::Binary);
  Object first(json.type());
  Status read = json.deserialize(kNode, first.get());
  ASSERT_TRUE(read.ok()) << read.to_string();
  Buffer text;
  ASSERT_TRUE(json.serialize(first.get(), text).ok());
  const std::string written(reinterpret_cast<const char*>(text.data()), text.size());
  // What jitser writes for the document it read: the same document, in its own spelling.
  Object from_written(json.type());
  ASSERT_TRUE(json.deserialize(written, from_written.get()).ok());
  Buffer bytes;
  ASSERT_TRUE(binary.serialize(from_written.get(), bytes).ok());
  Object from_binary(binary.type());
  read = binary.deserialize(bytes.bytes(), from_binary.get());
  ASSERT_TRUE(read.ok()) << read.to_string();
  Buffer text_again;
  ASSERT_TRUE(json.serialize(from_binary.get(), text_again).ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(text_again.data()), text_again.size()),
            written);
  EXPECT_NE(written.find(R"("by_name":{"a":{"x":1.0,"y":1.0},"b":{"x":2.0,"y":2.0}})"),
            std::string::npos)
      << written;
  EXPECT_NE(written.find(R"("children":[{"name":"leaf")"), std::string::npos) << written;
  for (const char* part : {R"("by_number":{"-1":null,"7":42})", R"("big":18446744073709551615)",
                           R"("took":"1.000250s")", R"("blob":"AAEC/w==")",
                           R"("any":{"k":[1,"two",null]})", R"("flags":[true,false,true])"}) {
    EXPECT_NE(written.find(part), std::string::npos) << part << " in " << written;
  }
  // Bad input is the same clear error as for a C++ type, and the object stays usable.
  const Status bad =
      json.deserialize(std::string_view(R"({"name":"x","flags":[1]})"), from_binary.get());
  EXPECT_EQ(bad.code(), Errc::type_mismatch) << bad.to_string();
  EXPECT_NE(bad.to_string().find("Node.flags[0]"), std::string::npos) << bad.to_string();
  ASSERT_TRUE(binary.deserialize(bytes.bytes(), from_binary.get()).ok());
}

// A shared object read twice stays one object: identity holds for loaded types.
TEST(SchemaTypes, SharedObjectsStayShared) {
  Engine e;
  ASSERT_TRUE(e.load_schema("P{v:int32}\nPair{a:shared_ptr<P>,b:shared_ptr<P>,c:shared_ptr<Q>}\n"
                            "Q{v:int32}")
                  .ok());
  const DynCodec binary = test::dyn_codec_of(e, "Pair", Format::Binary);
  const DynCodec json = test::dyn_codec_of(e, "Pair", Format::Json);
  Object pair(json.type());
  ASSERT_TRUE(
      json.deserialize(std::string_view(R"({"a":{"v":5},"b":null,"c":null})"), pair.get()).ok());
  // Point b at a's object, as a program would, and write it: one object, then a reference.
  const TypeDesc& type = binary.type();
  auto& a = *static_cast<std::shared_ptr<void>*>(
      static_cast<void*>(static_cast<std::byte*>(pair.get()) + type.fields[0].offset));
  auto& b = *static_cast<std::shared_ptr<void>*>(
      static_cast<void*>(static_cast<std::byte*>(pair.get()) + type.fields[1].offset));
  b = a;
  Buffer bytes;
  ASSERT_TRUE(binary.serialize(pair.get(), bytes).ok());
  Object back(type);
  ASSERT_TRUE(binary.deserialize(bytes.bytes(), back.get()).ok());
  auto& a2 = *static_cast<std::shared_ptr<void>*>(
      static_cast<void*>(static_cast<std::byte*>(back.get()) + type.fields[0].offset));
  auto& b2 = *static_cast<std::shared_ptr<void>*>(
      static_cast<void*>(static_cast<std::byte*>(back.get()) + type.fields[1].offset));
  ASSERT_NE(a2, nullptr);
  EXPECT_EQ(a2, b2);
  EXPECT_EQ(*static_cast<const std::int32_t*>(a2.get()), 5);
  // Each loaded type's shared pointers have a table of their own, which a reference read
  // later is checked against: a Q's pointer never takes a P's object.
  EXPECT_NE(type.fields[0].type->shared_ops, type.fields[2].type->shared_ops);
  EXPECT_EQ(type.fields[0].type->shared_ops, type.fields[1].type->shared_ops);
}

// examples/payloads.jitser, which the tool's tests load, is the payloads' schema: every type in
// it has the fingerprint of its C++ twin.
TEST(SchemaTypes, ThePayloadsSchemaFileMatchesTheCppPayloads) {
  Engine cpp;
  ASSERT_TRUE(payloads::register_all(cpp).ok());
  Engine loaded;
  const Status s = loaded.load_schema_file(JITSER_SOURCE_DIR "/examples/payloads.jitser");
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_EQ(loaded.types().size(), cpp.types().size());
  for (const TypeDesc* type : cpp.types()) {
    Result<std::uint64_t> fingerprint = loaded.fingerprint(type->name);
    ASSERT_TRUE(fingerprint.ok()) << type->name << ": " << fingerprint.status().to_string();
    EXPECT_EQ(*fingerprint, *cpp.fingerprint(type->name)) << type->name;
  }
}

// Ref: an Object's values by name and path, read and written, and as a jitser::Value.
TEST(SchemaTypes, ObjectsAreReadAndWrittenByNameAndPath) {
  Engine e;
  ASSERT_TRUE(e.load_schema(kEveryKind).ok());
  const DynCodec json = test::dyn_codec_of(e, "Node", Format::Json);
  Object node(json.type());
  ASSERT_TRUE(json.deserialize(kNode, node).ok());

  EXPECT_EQ(*node.at("name")->get_string(), "root");
  EXPECT_EQ(*node.at("points[1].x")->get_double(), -3.0);
  EXPECT_EQ(*node.at("flags[1]")->get_bool(), false);
  EXPECT_EQ(*node.at("best.y")->get_double(), 8.0);  // through the optional
  EXPECT_EQ(*node.at("by_name[\"b\"].x")->get_double(), 2.0);
  EXPECT_EQ(*node.at("by_number[7]")->get(), Value(42));  // a wrapper is its value
  EXPECT_EQ(*node.at("by_color[\"GREEN\"]")->size(), 0u);
  EXPECT_EQ(*node.at("children[0].name")->get_string(), "leaf");
  EXPECT_EQ(*node.at("color")->get(), Value("GREEN"));
  EXPECT_EQ(*node.at("big")->get_uint(), UINT64_MAX);
  EXPECT_EQ(*node.at("at")->get_int(), 1709294400123);  // ticks of its unit
  EXPECT_EQ(*node.at("grid")->size(), 2u);

  ASSERT_TRUE(node.at("name")->set("renamed").ok());
  ASSERT_TRUE(node.at("points")->append()->set(Value::Map{{"x", 5.0}, {"y", 6}}).ok());
  ASSERT_TRUE(node.at("by_name")->entry("c")->field("x")->set(9).ok());
  ASSERT_TRUE(node.at("none")->value()->field("x")->set(1.25).ok());
  ASSERT_TRUE(node.at("owned")->reset().ok());
  ASSERT_TRUE(node.at("small")->set(-128).ok());
  ASSERT_TRUE(node.at("flags[0]")->set(false).ok());
  ASSERT_TRUE(node.at("by_color")->entry("RED")->append()->set("r2").ok());
  ASSERT_TRUE(node.at("by_number")->entry(-1)->set(5).ok());
  Buffer out;
  ASSERT_TRUE(json.serialize(node, out).ok());
  const std::string text(reinterpret_cast<const char*>(out.data()), out.size());
  for (const char* part : {R"("name":"renamed")", R"({"x":-3.0,"y":0.0},{"x":5.0,"y":6.0}])",
                           R"("c":{"x":9.0,"y":0.0})", R"("none":{"x":1.25,"y":0.0})",
                           R"("owned":null)", R"("small":-128)", R"("flags":[false,false,true])",
                           R"("RED":["r","r2"])", R"("by_number":{"-1":5,"7":42})"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << " in " << text;
  }

  // The whole value as a jitser::Value, and back into another object: the same document.
  Result<Value> whole = node.root()->get();
  ASSERT_TRUE(whole.ok()) << whole.status().to_string();
  EXPECT_EQ(*whole->find("name"), Value("renamed"));
  Object copy(json.type());
  const Status set = copy.root()->set(*whole);
  ASSERT_TRUE(set.ok()) << set.to_string();
  Buffer again;
  ASSERT_TRUE(json.serialize(copy, again).ok());
  EXPECT_EQ(test::to_hex(again.bytes()), test::to_hex(out.bytes()));
}

TEST(SchemaTypes, ObjectAccessErrorsNameThePath) {
  Engine e;
  ASSERT_TRUE(e.load_schema(kEveryKind).ok());
  const DynCodec json = test::dyn_codec_of(e, "Node", Format::Json);
  Object node(json.type());
  ASSERT_TRUE(json.deserialize(kNode, node).ok());
  struct Case {
    Status status;
    Errc code;
    const char* path;
  };
  const Case cases[] = {
      {node.at("nope").status(), Errc::unknown_field, "Node"},
      {node.at("name.x").status(), Errc::type_mismatch, "Node.name"},
      {node.at("points[9]").status(), Errc::out_of_range, "Node.points[9]"},
      {node.at("by_name[\"zz\"]").status(), Errc::out_of_range, "Node.by_name"},
      {node.at("none.x").status(), Errc::out_of_range, "Node.none"},
      {node.at("points[").status(), Errc::syntax_error, ""},
      {node.at(".name").status(), Errc::syntax_error, ""},
      {node.at("small")->set(200), Errc::out_of_range, "Node.small"},
      {node.at("big")->set(-1), Errc::out_of_range, "Node.big"},
      {node.at("color")->set("BLUE"), Errc::unknown_enum, "Node.color"},
      {node.at("name")->set(3), Errc::type_mismatch, "Node.name"},
      {node.at("grid")->set(Value::Array{}), Errc::out_of_range, "Node.grid"},
      {node.root()->set(Value::Map{{"bogus", 1}}), Errc::unknown_field, "Node"},
      {node.at("by_number")->set(Value::Map{{"07", 1}}), Errc::type_mismatch,
       "Node.by_number[\"07\"]"},
      {node.at("name")->append().status(), Errc::type_mismatch, "Node.name"},
      {node.at("points")->field("x").status(), Errc::type_mismatch, "Node.points"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.status.code(), c.code) << c.status.to_string();
    EXPECT_EQ(c.status.path(), c.path) << c.status.to_string();
  }
  Object empty;
  EXPECT_EQ(empty.root().status().code(), Errc::type_mismatch);
}

// Ref works on C++ types too: it reads nothing but the descriptor.
TEST(SchemaTypes, RefsReachIntoCppValues) {
  Engine cpp;
  ASSERT_TRUE(payloads::register_all(cpp).ok());
  auto codec = test::codec_of<payloads::MediaContent>(cpp, Format::Json);
  payloads::MediaContent value = payloads::make_media_content();
  Ref root(codec.dyn().type(), &value, "MediaContent");
  EXPECT_EQ(*root.at("media.persons[1]")->get_string(), value.media.persons[1]);
  ASSERT_TRUE(root.at("images[0].width")->set(77).ok());
  EXPECT_EQ(value.images[0].width, 77);
}

// A shared object that holds itself is a cycle for get(), not an endless walk; breaking the
// cycle through a Ref lets the object be freed.
struct CppRing {
  std::int32_t id = 0;
  std::shared_ptr<CppRing> next;
};

TEST(SchemaTypes, ACycleOfSharedObjectsIsAnErrorForGet) {
  Engine cpp;
  ASSERT_TRUE(
      cpp.add(Struct<CppRing>("Ring").field("id", &CppRing::id).field("next", &CppRing::next))
          .ok());
  CppRing ring;
  ring.next = std::make_shared<CppRing>();
  ring.next->id = 1;
  ring.next->next = ring.next;
  Buffer bytes;
  ASSERT_TRUE(test::codec_of<CppRing>(cpp, Format::Binary).serialize(ring, bytes).ok());
  ring.next->next.reset();

  Engine e;
  ASSERT_TRUE(e.load_schema(*cpp.schema_text("Ring")).ok());
  const DynCodec binary = test::dyn_codec_of(e, "Ring", Format::Binary);
  Object looped(binary.type());
  ASSERT_TRUE(binary.deserialize(bytes.bytes(), looped).ok());
  EXPECT_EQ(*looped.at("next.next.next.id")->get_int(), 1);
  Result<Value> whole = looped.root()->get();
  EXPECT_EQ(whole.status().code(), Errc::cycle) << whole.status().to_string();
  EXPECT_EQ(whole.status().path(), "Ring.next.next");
  // Destroyed with its cycle, the object frees every shared object (AddressSanitizer's leak
  // check would see them otherwise); another ring, broken through a Ref, reads as a Value.
  Object broken(binary.type());
  ASSERT_TRUE(binary.deserialize(bytes.bytes(), broken).ok());
  ASSERT_TRUE(broken.at("next.next")->reset().ok());
  EXPECT_EQ(*broken.root()->get(),
            Value(Value::Map{{"id", 0}, {"next", Value::Map{{"id", 1}, {"next", nullptr}}}}));
}

// An Object owns its value, moves, and is given only to codecs of its type.
TEST(SchemaTypes, ObjectsOwnTheirValueAndMatchTheirCodec) {
  Engine e;
  ASSERT_TRUE(e.load_schema("A{names:list<string>}\nB{x:int32}").ok());
  const DynCodec a = test::dyn_codec_of(e, "A", Format::Json);
  const DynCodec b = test::dyn_codec_of(e, "B", Format::Json);
  Object first(a.type());
  ASSERT_TRUE(a.deserialize(std::string_view(R"({"names":["x","y","z"]})"), first).ok());
  Object moved = std::move(first);
  EXPECT_TRUE(first.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(moved.type(), &a.type());
  Buffer out;
  ASSERT_TRUE(a.serialize(moved, out).ok());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out.data()), out.size()),
            R"({"names":["x","y","z"]})");
  const Status wrong = b.serialize(moved, out);
  EXPECT_EQ(wrong.code(), Errc::type_mismatch);
  EXPECT_NE(wrong.to_string().find("an Object of A given to the codec of B"), std::string::npos)
      << wrong.to_string();
  EXPECT_EQ(b.deserialize(std::string_view(R"({"x":1})"), moved).code(), Errc::type_mismatch);
  EXPECT_EQ(a.serialize(first, out).code(), Errc::type_mismatch);  // empty
  moved = Object(b.type());  // the old value is destroyed (ASan checks the leak)
  ASSERT_TRUE(b.deserialize(std::string_view(R"({"x":7})"), moved).ok());
}

TEST(SchemaTypes, LoadingIsAllOrNothing) {
  Engine e;
  ASSERT_TRUE(e.load_schema("A{x:int32}").ok());
  const Status twice = e.load_schema("B{y:int32}\nA{z:string}");
  EXPECT_EQ(twice.code(), Errc::duplicate_type) << twice.to_string();
  EXPECT_EQ(e.codec("B", Format::Binary).status().code(), Errc::unknown_type);
  const Status syntax = e.load_schema("C{y int32}");
  EXPECT_EQ(syntax.code(), Errc::syntax_error);
  EXPECT_NE(syntax.message().find("line 1, column 5"), std::string::npos) << syntax.to_string();
  // A schema chooses its arrays' lengths: a type no allocation could hold is refused.
  const Status big = e.load_schema("Big{a:array<array<int64,100000>,100000>}");
  EXPECT_EQ(big.code(), Errc::invalid_descriptor) << big.to_string();
  EXPECT_NE(big.to_string().find("MiB"), std::string::npos) << big.to_string();
  EXPECT_TRUE(e.load_schema("B{y:int32}").ok());
  EXPECT_TRUE(e.codec("B", Format::Json).ok());
}

// A schema file is input: what cannot be read, or is not a schema, is an error that names the
// file, and loads nothing.
TEST(SchemaTypes, SchemaFileErrorsNameTheFile) {
  Engine e;
  const std::string dir = JITSER_SOURCE_DIR "/tests/schema";
  const Status placed = e.load_schema_file(dir + "/undeclared.jitser");
  EXPECT_EQ(placed.code(), Errc::unregistered_type) << placed.to_string();
  EXPECT_TRUE(placed.message().starts_with(dir + "/undeclared.jitser, line 3, column 14: "))
      << placed.to_string();
  EXPECT_EQ(e.codec("A", Format::Binary).status().code(), Errc::unknown_type);

  const Status missing = e.load_schema_file(dir + "/absent.jitser");
  EXPECT_EQ(missing.code(), Errc::cannot_read) << missing.to_string();
  EXPECT_TRUE(missing.message().starts_with(dir + "/absent.jitser: ")) << missing.to_string();
  EXPECT_EQ(e.load_schema_file(dir).code(), Errc::cannot_read);
  const Status proto = e.load_schema_file(JITSER_SOURCE_DIR "/tests/proto/common.proto");
  EXPECT_EQ(proto.code(), Errc::unsupported) << proto.to_string();
  EXPECT_NE(proto.message().find("load_proto"), std::string::npos) << proto.to_string();
}

}  // namespace
}  // namespace jitser

// The schema language (docs/schema.md): what Engine::schema_text prints parses back to types of
// the same canonical text and fingerprint; what people write parses too; and every error names
// its line and column.
#include "typeinfo/schema_text.h"

#include <string>
#include <string_view>
#include <vector>

#include "bench/payloads.h"
#include "support.h"
#include "typeinfo/registry.h"

namespace jitser {
namespace {

Result<ParsedSchema> parse(std::string_view text) { return parse_schema(text); }

// The canonical text of a parsed type, as the registry would print it.
std::string text_of(const ParsedSchema& schema, std::string_view root) {
  const TypeDesc* t = schema.find(root);
  return t ? canonical_text(*t) : std::string("(no type ") + std::string(root) + ")";
}

TEST(SchemaText, EveryPayloadTypeParsesBackToItsFingerprint) {
  Engine e(EngineOptions{.jit = JitPolicy::Off});
  ASSERT_TRUE(payloads::register_all(e).ok());
  int checked = 0;
  for (const TypeDesc* type : e.types()) {
    SCOPED_TRACE(type->name);
    Result<std::string> text = e.schema_text(type->name);
    ASSERT_TRUE(text.ok()) << text.status().to_string();
    Result<ParsedSchema> parsed = parse(*text);
    ASSERT_TRUE(parsed.ok()) << parsed.status().to_string() << "\n" << *text;
    EXPECT_EQ(text_of(*parsed, type->name), *text);
    EXPECT_EQ(fingerprint(*parsed->find(type->name)), *e.fingerprint(type->name));
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

TEST(SchemaText, WhatPeopleWriteParses) {
  Result<ParsedSchema> parsed = parse(R"(
    // An order, as a person writes it: spaces, comments, optional commas, defaults.
    Status = enum(uint8) { NEW = 0, PAID = 1; SHIPPED = 2 }
    Cents = wrap { value: int64 }
    shop.v1.Order {
      id #1 : uint64
      status #2 : Status = PAID
      "unit price" #3 : Cents,
      note #4 ? : string = "none \"yet\" \u00e9"
      ratio: float64 = -1.5e3
      lines: list<Line>
      by_sku: map<string, optional<Line>>
      taken: timestamp(us)
      grid: array<int16, 4>
      ok: bool = true
      big: uint64 = 18446744073709551615
    }
    Line { sku: string; count: int32 = 1; extra: value; owner: shared_ptr<shop.v1.Order> }
  )");
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->types.size(), 4u);
  const TypeDesc& order = *parsed->find("shop.v1.Order");
  ASSERT_EQ(order.fields.size(), 11u);
  EXPECT_EQ(order.fields[0].number, 1u);
  EXPECT_EQ(order.fields[1].type->resolved().name, "Status");
  EXPECT_EQ(std::get<std::int64_t>(order.fields[1].default_value), 1);
  EXPECT_EQ(order.fields[2].name, "unit price");
  EXPECT_TRUE(order.fields[3].nullable);
  EXPECT_EQ(std::get<std::string>(order.fields[3].default_value), "none \"yet\" \xC3\xA9");
  EXPECT_EQ(std::get<double>(order.fields[4].default_value), -1500.0);
  EXPECT_EQ(order.fields[7].type->kind, Kind::Timestamp);
  EXPECT_EQ(order.fields[7].type->unit, TimeUnit::Micros);
  EXPECT_EQ(order.fields[8].type->count, 4u);
  EXPECT_TRUE(std::get<bool>(order.fields[9].default_value));
  EXPECT_EQ(std::get<std::uint64_t>(order.fields[10].default_value), UINT64_MAX);
  EXPECT_TRUE(parsed->find("Cents")->wrapper);
  EXPECT_EQ(parsed->find("Status")->underlying, Kind::UInt8);
  // Its canonical text is canonical: it parses to itself.
  const std::string text = text_of(*parsed, "shop.v1.Order");
  EXPECT_NE(text.find("\"unit price\"#3:Cents,"), std::string::npos) << text;
  Result<ParsedSchema> again = parse(text);
  ASSERT_TRUE(again.ok()) << again.status().to_string() << "\n" << text;
  EXPECT_EQ(text_of(*again, "shop.v1.Order"), text);
}

struct BadSchema {
  const char* name;
  const char* text;
  Errc code;
  const char* where;    // "line L, column C"
  const char* message;  // part of the message
};

class SchemaErrors : public ::testing::TestWithParam<BadSchema> {};

TEST_P(SchemaErrors, NameTheLineAndColumn) {
  const BadSchema& bad = GetParam();
  Result<ParsedSchema> parsed = parse(bad.text);
  ASSERT_FALSE(parsed.ok());
  const Status& s = parsed.status();
  EXPECT_EQ(s.code(), bad.code) << s.to_string();
  EXPECT_NE(s.message().find(std::string(bad.where) + ": "), std::string::npos) << s.to_string();
  EXPECT_NE(s.message().find(bad.message), std::string::npos) << s.to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Schemas, SchemaErrors,
    ::testing::Values(
        BadSchema{"unknown_type", "A{x:int32}\nB{a:A,c:Nope}", Errc::unregistered_type,
                  "line 2, column 9", "type 'Nope' is not declared"},
        BadSchema{"duplicate_field", "A{\n  x:int32,\n  x:string}", Errc::duplicate_field,
                  "line 3, column 3", "field 'x' is declared twice"},
        BadSchema{"duplicate_number", "A{x#1:int32,y#1:int32}", Errc::duplicate_number,
                  "line 1, column 15", "field number 1"},
        BadSchema{"duplicate_type", "A{}\nA{}", Errc::duplicate_type, "line 2, column 1",
                  "declared twice"},
        BadSchema{"cycle_by_value", "A{b:B}\nB{list:list<A>,again:optional<A>}",
                  Errc::recursive_by_value, "line 2, column 16", "contains itself by value"},
        BadSchema{"cycle_through_array", "A{a:array<A,2>}", Errc::recursive_by_value,
                  "line 1, column 3", "contains itself by value"},
        BadSchema{"missing_colon", "A{x int32}", Errc::syntax_error, "line 1, column 5",
                  "expected ':'"},
        BadSchema{"unterminated", "A{x:list<int32}", Errc::syntax_error, "line 1, column 15",
                  "expected '>'"},
        BadSchema{"end_of_text", "A{x:int32", Errc::syntax_error, "line 1, column 10",
                  "the end of the text"},
        BadSchema{"bad_character", "A{x:int32}\n  @", Errc::syntax_error, "line 2, column 3",
                  "unexpected character '@'"},
        BadSchema{"column_counts_characters", "\"é\"{x:y}", Errc::unregistered_type,
                  "line 1, column 7", "'y'"},
        BadSchema{"bad_map_key", "A{m:map<float64,int32>}", Errc::invalid_descriptor,
                  "line 1, column 9", "a map key must be"},
        BadSchema{"wrapper_of_two", "W=wrap{a:int32,b:int32}", Errc::invalid_descriptor,
                  "line 1, column 1", "exactly one field"},
        BadSchema{"enum_out_of_range", "E=enum(uint8){A=256}", Errc::out_of_range,
                  "line 1, column 17", "does not fit"},
        BadSchema{"default_of_another_type", "A{x:int32=\"seven\"}", Errc::invalid_descriptor,
                  "line 1, column 11", "a default of the wrong type"},
        BadSchema{"enum_default_unknown", "E=enum(int32){A=0}\nS{e:E=B}", Errc::unknown_enum,
                  "line 2, column 7", "no value 'B'"},
        BadSchema{"builtin_name", "string{}", Errc::invalid_descriptor, "line 1, column 1",
                  "built-in type"},
        BadSchema{"unit", "A{t:timestamp(min)}", Errc::syntax_error, "line 1, column 15", "a unit"},
        BadSchema{"bad_escape", "A{\"\\q\":int32}", Errc::syntax_error, "line 1, column 4",
                  "unknown escape"},
        BadSchema{"not_utf8", "A{x:int32}\n\xFF", Errc::invalid_utf8, "line 2, column 1",
                  "not UTF-8"},
        BadSchema{"too_deep",
                  "A{x:list<list<list<list<list<list<list<list<list<list<list<list<list<list<"
                  "list<list<list<list<list<list<list<list<list<list<list<list<list<list<list<"
                  "list<list<list<list<list<list<list<list<list<list<list<list<list<list<list<"
                  "list<list<list<list<list<list<list<list<list<list<list<list<list<list<list<"
                  "list<list<list<list<list<list<int32",
                  Errc::depth_exceeded, "line 1, column 330", "nested too deeply"}),
    [](const ::testing::TestParamInfo<BadSchema>& p) { return p.param.name; });

// A chain of structs each holding the next by value, as long as a text can make it: the checks
// keep their own stack rather than the thread's, and refuse a chain deeper than a codec could
// go; one that deep by pointers is fine.
TEST(SchemaText, LongChainsOfStructsNeedNoDeepStack) {
  std::string text;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    text += "S" + std::to_string(i) + "{next:S" + std::to_string(i + 1) + "}\n";
  }
  text += "S" + std::to_string(n) + "{back:S0}\n";
  Result<ParsedSchema> parsed = parse(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), Errc::depth_exceeded) << parsed.status().to_string();
  std::string pointers;
  for (int i = 0; i < n; ++i) {
    pointers += "S" + std::to_string(i) + "{next:unique_ptr<S" + std::to_string(i + 1) + ">}\n";
  }
  pointers += "S" + std::to_string(n) + "{back:S0}\n";
  EXPECT_TRUE(parse(pointers).ok());
}

TEST(SchemaText, NamesThatAreNotPlainAreQuoted) {
  EXPECT_EQ(schema_name("plain_name.v1"), "plain_name.v1");
  EXPECT_EQ(schema_name("first-name"), "\"first-name\"");
  EXPECT_EQ(schema_name("9lives"), "\"9lives\"");
  EXPECT_EQ(schema_name("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  for (const char* name : {"first-name", "9lives", "a\"b\\c\nd\x01", "é:,{}"}) {
    Result<ParsedSchema> parsed = parse("A{" + schema_name(name) + ":int32}");
    ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
    EXPECT_EQ(parsed->types[0]->fields[0].name, name);
  }
}

}  // namespace
}  // namespace jitser

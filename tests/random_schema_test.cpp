// Random schemas, not only random bytes: for every struct of every generated seed
// (tests/random_schema/generate.py), in every format, the interpreter and the JIT policy under
// test must compile, write identical bytes, give identical errors on mutated input, and read
// back values equal to what was written, into fresh and into used objects. JSON must parse in
// nlohmann. JITSER_RANDOM_VALUES sets how many values each type gets (the soak mode raises it).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support.h"
#include "tests/random_schema/random_types.h"
#include "tests/random_schema/value_walk.h"
#include "typeinfo/memory.h"
#include "typeinfo/registry.h"
#include "typeinfo/schema_text.h"

namespace jitser::random_schema {
namespace {

// JITSER_JIT put aside while the reference engine is made, so that it runs the interpreter
// whatever policy the side under test has.
class JitEnvironmentAside {
 public:
  JitEnvironmentAside() {
    if (const char* v = std::getenv("JITSER_JIT")) saved_ = v;
    unsetenv("JITSER_JIT");
  }
  void restore() {
    if (saved_) setenv("JITSER_JIT", saved_->c_str(), 1);
  }

 private:
  std::optional<std::string> saved_;
};

EngineOptions interpreter_only(EngineOptions o) {
  o.jit = JitPolicy::Off;
  return o;
}

struct Reference {
  JitEnvironmentAside aside;
  Engine engine;
  explicit Reference(const EngineOptions& o) : engine(interpreter_only(o)) { aside.restore(); }
};

int values_per_type() {
  const char* v = std::getenv("JITSER_RANDOM_VALUES");
  return v && *v ? std::max(1, std::atoi(v)) : 6;
}

std::string outcome(const Status& s) { return s ? "ok" : s.to_string(); }

// Equal bytes, or where they first differ (the documents may be long).
::testing::AssertionResult same_bytes(const std::vector<std::uint8_t>& a,
                                      const std::vector<std::uint8_t>& b) {
  if (a == b) return ::testing::AssertionSuccess();
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  auto around = [i](const std::vector<std::uint8_t>& v) {
    const std::size_t from = i < 16 ? 0 : i - 16;
    return test::to_hex(std::span(v).subspan(from, std::min<std::size_t>(v.size() - from, 48)));
  };
  return ::testing::AssertionFailure()
         << "sizes " << a.size() << " and " << b.size() << ", first difference at byte " << i
         << ":\n  " << around(a) << "\n  " << around(b);
}

std::vector<std::uint8_t> mutate(std::vector<std::uint8_t> bytes, std::mt19937_64& rng) {
  if (bytes.empty()) return {std::uint8_t(rng())};
  const std::size_t at = rng() % bytes.size();
  switch (rng() % 5) {
    case 0: bytes.resize(at); break;                              // truncated
    case 1: bytes[at] ^= std::uint8_t(1u << (rng() % 8)); break;  // one bit
    case 2: bytes[at] = std::uint8_t(rng()); break;               // one byte
    case 3: bytes.insert(bytes.begin() + at, std::uint8_t(rng())); break;
    default: bytes.erase(bytes.begin() + at); break;
  }
  return bytes;
}

// nlohmann parses the document, or refuses it only for a number beyond a double's range
// (its error 406), which RFC 8259 lets a parser do; a decimal's exponent can be that large.
::testing::AssertionResult nlohmann_reads(const std::vector<std::uint8_t>& json) {
  try {
    const nlohmann::json parsed = nlohmann::json::parse(json.begin(), json.end());
    if (parsed.is_discarded()) return ::testing::AssertionFailure() << "discarded";
  } catch (const nlohmann::json::out_of_range& e) {
    if (e.id != 406) return ::testing::AssertionFailure() << e.what();
  } catch (const nlohmann::json::exception& e) {
    return ::testing::AssertionFailure() << e.what() << "\n"
                                         << std::string(json.begin(), json.end());
  }
  return ::testing::AssertionSuccess();
}

// The same JSON document, but for the order of object members (an unordered_map read back
// may iterate in another order). Where nlohmann cannot hold a number, the same bytes in any
// order.
::testing::AssertionResult same_document(const std::vector<std::uint8_t>& a,
                                         const std::vector<std::uint8_t>& b) {
  try {
    if (nlohmann::json::parse(a.begin(), a.end()) == nlohmann::json::parse(b.begin(), b.end())) {
      return ::testing::AssertionSuccess();
    }
  } catch (const nlohmann::json::out_of_range&) {
    std::vector<std::uint8_t> x = a, y = b;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    if (x == y) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "written again as another document:\n  " << std::string(a.begin(), a.end()) << "\n  "
         << std::string(b.begin(), b.end());
}

// A Buffer's bytes with the padding JSON reads in place, as users are told to provide.
PaddedInput padded(Buffer& buffer) {
  buffer.reserve(buffer.size() + kReadPadding);
  return buffer.padded();
}

// The options a format runs under besides its defaults.
enum class Variant : std::uint8_t {
  Plain,
  Omitting,  // keyed formats: omit_null and omit_default (CBOR: deterministic, keys_by_number,
             // text_timestamps)
  Compact,   // MessagePack and CBOR: struct_arrays and enum_integers
};

const char* variant_suffix(Variant v) {
  switch (v) {
    case Variant::Plain: return "";
    case Variant::Omitting: return "_omitting";
    case Variant::Compact: return "_compact";
  }
  return "";
}

struct Case {
  std::size_t schema;
  Format format;
  Variant variant = Variant::Plain;
  friend void PrintTo(const Case& c, std::ostream* os) {
    *os << "seed " << schemas()[c.schema].seed << ", " << format_name(c.format)
        << variant_suffix(c.variant);
  }
};

// What a format reads back as it was: JSON, MessagePack and CBOR write an optional that holds an
// empty one as null, as they write the empty one.
bool null_is_empty(Format format) {
  return format == Format::Json || format == Format::Msgpack || format == Format::Cbor;
}

FillOptions fill_options_for(Format format, Variant variant = Variant::Plain) {
  FillOptions options;
  options.json_values = format == Format::Json;
  options.no_value_decimals = format == Format::Msgpack;
  options.value_maps_in_key_order = format == Format::Cbor && variant == Variant::Omitting;
  options.value_floats = format != Format::Json;
  // CBOR's deterministic encoding (the Omitting variant) reorders a map's entries.
  options.value_entries = format == Format::Msgpack || format == Format::Binary ||
                          (format == Format::Cbor && variant != Variant::Omitting);
  options.value_cbor_items = format == Format::Cbor || format == Format::Binary;
  options.value_extensions = format == Format::Msgpack || format == Format::Binary;
  return options;
}

EngineOptions options_for(const Case& c) {
  EngineOptions o;
  o.omit_null = o.omit_default = c.variant == Variant::Omitting;
  o.struct_arrays = o.enum_integers = c.variant == Variant::Compact;
  o.deterministic = o.keys_by_number = o.text_timestamps =
      c.variant == Variant::Omitting && c.format == Format::Cbor;
  return o;
}

class RandomSchema : public ::testing::TestWithParam<Case> {};

// What a test's types were put through, so that a test shows it checked something.
struct Counts {
  std::size_t round_trips = 0;
  // Objects behind shared_ptrs, read into an allocator-aware root, found in its resource.
  std::size_t in_root_resource = 0;
};

// One type's checks; a failed assertion ends this type's, not the other types'.
void check_type(const Schema& schema, const std::string& name, Format format, Engine& reference,
                Engine& tested, Counts& counts, Variant variant = Variant::Plain) {
  SCOPED_TRACE("seed " + std::to_string(schema.seed) + ", type " + name + ", " +
               format_name(format));
  Result<DynCodec> slow = reference.codec(name, format);
  Result<DynCodec> fast = tested.codec(name, format);
  ASSERT_TRUE(slow.ok()) << slow.status().to_string();
  ASSERT_TRUE(fast.ok()) << fast.status().to_string();
  if (tested.jit_policy() == JitPolicy::Sync && format_compiles(format)) {
    ASSERT_EQ(fast->stats().tier, Tier::Compiled) << fast->stats().failure;
  }
  // Once per type: the IR is the same in every policy.
  if (tested.jit_policy() == JitPolicy::Off && format_compiles(format)) {
    // Compiled code reaches the type's tables through symbols, never through addresses.
    for (Direction d : {Direction::Serialize, Direction::Deserialize}) {
      const Result<std::string> ir = fast->dump_ir(d, false);
      ASSERT_TRUE(ir.ok()) << ir.status().to_string();
      EXPECT_EQ(ir->find("inttoptr (i64 "), std::string::npos);
    }
  }
  const TypeDesc& type = fast->type();
  const FillOptions fill_options = fill_options_for(format, variant);
  std::mt19937_64 rng(schema.seed * 1000003 + std::hash<std::string>()(name));
  const int values = values_per_type();
  for (int k = 0; k < values; ++k) {
    Object value(type);
    fill(type, value.get(), rng, fill_options);
    Buffer a, b;
    const Status wa = slow->serialize(value.get(), a);
    const Status wb = fast->serialize(value.get(), b);
    ASSERT_EQ(outcome(wa), outcome(wb)) << "value " << k;
    if (!wa) {
      // Only a time outside the years a format writes may fail to be written.
      EXPECT_EQ(wa.code(), Errc::out_of_range) << wa.to_string();
      continue;
    }
    const std::vector<std::uint8_t> written = a.to_vector();
    ASSERT_TRUE(same_bytes(written, b.to_vector())) << "value " << k;
    if (format == Format::Json) {
      EXPECT_TRUE(nlohmann_reads(written));
    }
    // Written again after reading into a fresh object, the same bytes from both tiers (not
    // always the bytes first written: an unordered_map read back may iterate in another order).
    std::vector<std::uint8_t> again[2];
    const std::string_view text(reinterpret_cast<const char*>(written.data()), written.size());
    const PaddedString padded_text(text);
    for (int tier = 0; tier < 2; ++tier) {
      const DynCodec& codec = tier == 0 ? *slow : *fast;
      for (bool used : {false, true}) {
        Object back(type);
        // Every other value, the used object's shared objects are held from outside as well,
        // so the reader must leave them alone and make its own; the others it may read into.
        // The twin, filled from the same random state, holds what each was before the read.
        std::vector<SharedObject> held, held_before;
        Object twin(type);
        if (used) {
          FillOptions shared = fill_options;
          shared.shared_with = k % 2 ? &held : nullptr;
          std::mt19937_64 same = rng;
          fill(type, back.get(), rng, shared);
          shared.shared_with = &held_before;
          fill(type, twin.get(), same, shared);
        }
        // Each input kind a user has: a Buffer with room after it, or bytes, for a fresh
        // object; a PaddedString, or text, for a used one.
        const Status r = format == Format::Json ? (used ? codec.deserialize(padded_text, back.get())
                                                        : codec.deserialize(padded(a), back.get()))
                                                : (used ? codec.deserialize(text, back.get())
                                                        : codec.deserialize(written, back.get()));
        ASSERT_TRUE(r.ok()) << r.to_string();
        std::string where;
        EXPECT_TRUE(equal(type, value.get(), back.get(), where, null_is_empty(format)))
            << "differs at " << where << (used ? " (read into a used object)" : "");
        for (std::size_t i = 0; i < held.size(); ++i) {
          EXPECT_TRUE(
              equal(*held[i].type, held[i].object.get(), held_before[i].object.get(), where))
              << "a shared object another value holds changed, at " << where;
        }
        if (used) continue;
        // A fresh allocator-aware root takes every object it reads behind a shared_ptr from
        // its resource (docs/design.md, "Memory").
        if (memory_resource_of(type, back.get()) == tracked_resource()) {
          for (const void* object : shared_objects(type, back.get())) {
            EXPECT_TRUE(tracked_resource()->holds(object))
                << "an object read into an allocator-aware root is not in its resource";
            ++counts.in_root_resource;
          }
        }
        Buffer out;
        ASSERT_TRUE(codec.serialize(back.get(), out).ok());
        again[tier] = out.to_vector();
      }
    }
    EXPECT_TRUE(same_bytes(again[0], again[1]));
    if (format == Format::Json) {
      EXPECT_TRUE(same_document(written, again[0]));
    }
    ++counts.round_trips;
    for (int m = 0; m < 12; ++m) {
      const std::vector<std::uint8_t> bad = mutate(written, rng);
      Object x(type), y(type);
      const Status ra = slow->deserialize(bad, x.get());
      const Status rb = fast->deserialize(bad, y.get());
      ASSERT_EQ(outcome(ra), outcome(rb)) << "mutation " << m << " of value " << k;
      if (ra) {
        Buffer xa, yb;
        ASSERT_EQ(outcome(slow->serialize(x.get(), xa)), outcome(fast->serialize(y.get(), yb)));
        EXPECT_TRUE(same_bytes(xa.to_vector(), yb.to_vector()));
      }
    }
  }
  EXPECT_EQ(fast->stats().tier_disagreements, 0u);
}

TEST_P(RandomSchema, BothTiersAgreeAndRoundTrip) {
  const Schema& schema = schemas()[GetParam().schema];
  Reference made(options_for(GetParam()));
  Engine tested(options_for(GetParam()));
  const Status registered = schema.register_types(made.engine);
  ASSERT_TRUE(registered.ok()) << registered.to_string();
  ASSERT_TRUE(schema.register_types(tested).ok());
  Counts counts;
  for (const std::string& name : schema.struct_names()) {
    check_type(schema, name, GetParam().format, made.engine, tested, counts, GetParam().variant);
  }
  EXPECT_GT(counts.round_trips, 0u);
  EXPECT_GT(counts.in_root_resource, 0u);
}

// Code linked from the code cache (jit/code_cache.h) is the code that was compiled: a second
// Engine over the directory the first filled reads and writes every generated type as the
// interpreter does, and under sync every codec of it came from the cache.
class RandomSchemaCached : public ::testing::TestWithParam<Format> {};

TEST_P(RandomSchemaCached, CodeFromTheCacheAgreesWithTheInterpreter) {
  const Schema& schema = schemas().front();
  char dir[] = "/tmp/jitser-random-cache-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  EngineOptions options;
  options.cache_dir = dir;
  Reference made(options);
  ASSERT_TRUE(schema.register_types(made.engine).ok());
  Counts counts;
  for (const bool warm : {false, true}) {
    SCOPED_TRACE(warm ? "from the cache" : "compiled");
    Engine tested(options);
    ASSERT_TRUE(schema.register_types(tested).ok());
    for (const std::string& name : schema.struct_names()) {
      check_type(schema, name, GetParam(), made.engine, tested, counts);
      if (warm && tested.jit_policy() == JitPolicy::Sync && format_compiles(GetParam())) {
        EXPECT_EQ(tested.codec(name, GetParam())->stats().cache, "hit") << name;
      }
    }
  }
  EXPECT_GT(counts.round_trips, 0u);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Formats, RandomSchemaCached,
                         ::testing::Values(Format::Binary, Format::Json, Format::Protobuf,
                                           Format::Msgpack, Format::Cbor),
                         [](const ::testing::TestParamInfo<Format>& param) {
                           return std::string(format_name(param.param));
                         });

// Every generated type's schema text parses back to a type of the same text and fingerprint
// (docs/schema.md), whatever kinds and names the generator chose.
TEST(RandomSchemaText, ParsesBackToTheSameFingerprint) {
  std::size_t checked = 0;
  for (const Schema& schema : schemas()) {
    Engine e(EngineOptions{.jit = JitPolicy::Off});
    ASSERT_TRUE(schema.register_types(e).ok());
    for (const std::string& name : schema.struct_names()) {
      SCOPED_TRACE("seed " + std::to_string(schema.seed) + ", type " + name);
      Result<std::string> text = e.schema_text(name);
      ASSERT_TRUE(text.ok()) << text.status().to_string();
      Result<ParsedSchema> parsed = parse_schema(*text);
      ASSERT_TRUE(parsed.ok()) << parsed.status().to_string() << "\n" << *text;
      const TypeDesc* root = parsed->find(name);
      ASSERT_NE(root, nullptr);
      EXPECT_EQ(canonical_text(*root), *text);
      EXPECT_EQ(fingerprint(*root), *e.fingerprint(name));
      ++checked;
    }
  }
  EXPECT_GT(checked, 0u);
}

// Generated types, loaded again from their schema text with no C++ type behind them
// (Engine::load_schema), read what the C++ types write and write what the C++ types read back
// as the same value, in every format and in whichever tier the policy runs: every generated
// struct of the seed.

// Whether a struct the type reaches declares a default for some field; with `in_messages`, a
// Protobuf message does.
bool declares_defaults(const TypeDesc& root, bool in_messages = false) {
  std::vector<const TypeDesc*> todo{&root.resolved()};
  std::vector<const TypeDesc*> seen;
  while (!todo.empty()) {
    const TypeDesc& t = *todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), &t) != seen.end()) continue;
    seen.push_back(&t);
    for (const FieldDesc& f : t.fields) {
      if (!std::holds_alternative<std::monostate>(f.default_value) && (t.message || !in_messages)) {
        return true;
      }
      todo.push_back(&f.type->resolved());
    }
    if (t.element) todo.push_back(&t.element->resolved());
    if (t.key) todo.push_back(&t.key->resolved());
  }
  return false;
}

class RandomSchemaLoaded : public ::testing::TestWithParam<std::size_t> {};

TEST_P(RandomSchemaLoaded, ReadsAndWritesWhatTheCppTypeDoes) {
  std::size_t checked = 0;
  {
    const Schema& schema = schemas()[GetParam()];
    Engine cpp;
    ASSERT_TRUE(schema.register_types(cpp).ok());
    // One text of every declaration the generated structs reach, each once.
    std::vector<std::string> lines;
    for (const std::string& name : schema.struct_names()) {
      Result<std::string> text = cpp.schema_text(name);
      ASSERT_TRUE(text.ok()) << text.status().to_string();
      std::size_t from = 0;
      for (std::size_t end; (end = text->find('\n', from)) != std::string::npos; from = end + 1) {
        std::string line = text->substr(from, end - from);
        if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
      }
    }
    std::string all;
    for (const std::string& line : lines) all += line + "\n";
    Engine loaded;
    const Status s = loaded.load_schema(all);
    ASSERT_TRUE(s.ok()) << s.to_string();
    for (const Format format : all_formats()) {
      for (const std::string& name : schema.struct_names()) {
        SCOPED_TRACE("seed " + std::to_string(schema.seed) + ", type " + name + ", " +
                     format_name(format));
        Result<DynCodec> typed = cpp.codec(name, format);
        Result<DynCodec> dyn = loaded.codec(name, format);
        ASSERT_TRUE(typed.ok() && dyn.ok()) << dyn.status().to_string();
        if (loaded.jit_policy() == JitPolicy::Sync && format_compiles(format)) {
          ASSERT_EQ(dyn->stats().tier, Tier::Compiled) << dyn->stats().failure;
        }
        // The text is the fingerprint's, which leaves out defaults: a loaded type has none.
        // Protobuf, and JSON in a Protobuf message, leave out what equals a field's default, so
        // there the two types read each other's bytes alike only where no field declares one.
        if (format == Format::Protobuf && declares_defaults(typed->type())) continue;
        if (format == Format::Json && declares_defaults(typed->type(), true)) continue;
        EXPECT_EQ(*loaded.fingerprint(name), *cpp.fingerprint(name));
        const FillOptions fill_options = fill_options_for(format);
        const std::uint64_t seed = schema.seed * 7919 + std::hash<std::string>()(name);
        for (int k = 0; k < 2; ++k) {
          std::mt19937_64 rng(seed + k), same_rng(seed + k);
          Object value(typed->type());
          fill(typed->type(), value.get(), rng, fill_options);
          Buffer written;
          if (!typed->serialize(value.get(), written)) continue;  // a time no format writes
          // What the C++ type wrote, read and written by the loaded type, reads back equal.
          Object object(dyn->type());
          Status r = dyn->deserialize(written.padded(), object.get());
          ASSERT_TRUE(r.ok()) << r.to_string();
          Buffer rewritten;
          ASSERT_TRUE(dyn->serialize(object.get(), rewritten).ok());
          Object back(typed->type());
          r = typed->deserialize(rewritten.padded(), back.get());
          ASSERT_TRUE(r.ok()) << r.to_string();
          std::string where;
          EXPECT_TRUE(equal(typed->type(), value.get(), back.get(), where, null_is_empty(format)))
              << "differs at " << where;
          // The loaded type's own objects, filled by the same walk, hold the same value.
          Object own(dyn->type());
          fill(dyn->type(), own.get(), same_rng, fill_options);
          Buffer own_bytes;
          ASSERT_TRUE(dyn->serialize(own.get(), own_bytes).ok());
          Object back_again(typed->type());
          r = typed->deserialize(own_bytes.padded(), back_again.get());
          ASSERT_TRUE(r.ok()) << r.to_string();
          EXPECT_TRUE(
              equal(typed->type(), value.get(), back_again.get(), where, null_is_empty(format)))
              << "differs at " << where;
          // As a jitser::Value and back: the same value, but for what a Value cannot tell
          // apart (an optional holding an empty one is null, as in JSON).
          Result<Value> as_value = object.root()->get();
          ASSERT_TRUE(as_value.ok()) << as_value.status().to_string();
          Object from_value(dyn->type());
          const Status set = from_value.root()->set(*as_value);
          ASSERT_TRUE(set.ok()) << set.to_string();
          EXPECT_TRUE(equal(dyn->type(), object.get(), from_value.get(), where, true))
              << "differs at " << where;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomSchemaLoaded,
                         ::testing::Range<std::size_t>(0, schemas().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                           return "seed" + std::to_string(schemas()[p.param].seed);
                         });

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (std::size_t i = 0; i < schemas().size(); ++i) {
    out.push_back({i, Format::Binary});
    out.push_back({i, Format::Json});
    out.push_back({i, Format::Json, Variant::Omitting});
    out.push_back({i, Format::Protobuf});
    for (const Format f : {Format::Msgpack, Format::Cbor}) {
      out.push_back({i, f});
      out.push_back({i, f, Variant::Omitting});
      out.push_back({i, f, Variant::Compact});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomSchema, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return "seed" + std::to_string(schemas()[param.param.schema].seed) +
                                  "_" + format_name(param.param.format) +
                                  variant_suffix(param.param.variant);
                         });

}  // namespace
}  // namespace jitser::random_schema

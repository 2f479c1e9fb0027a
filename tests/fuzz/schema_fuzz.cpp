// libFuzzer target: arbitrary bytes into the schema parser (docs/schema.md) and
// Engine::load_schema. Fails on a crash, a sanitizer report, a loaded struct without codecs, or
// a schema whose canonical text does not parse back to itself: what Engine::schema_text prints
// must always be a schema the parser reads to the same types.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <jitser/jitser.h>

#include "typeinfo/registry.h"
#include "typeinfo/schema_text.h"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "jitser schema fuzz: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  jitser::Result<jitser::ParsedSchema> parsed = jitser::parse_schema(text);
  if (!parsed) {
    if (parsed.status().message().rfind("line ", 0) != 0) {
      fail("an error without its line: " + parsed.status().to_string());
    }
    return 0;
  }
  // Laid out and registered, every struct gets its codecs: lowering sees whatever types the
  // text can declare. (Compiling them is the codec fuzz target's part.)
  jitser::Engine engine(jitser::EngineOptions{.jit = jitser::JitPolicy::Off});
  if (engine.load_schema(text)) {
    for (const auto& type : parsed->types) {
      if (type->kind != jitser::Kind::Struct) continue;
      for (const jitser::Format format : jitser::all_formats()) {
        if (!engine.codec(type->name, format)) fail("no codec for a loaded type " + type->name);
      }
    }
  }
  for (const auto& type : parsed->types) {
    const std::string canonical = jitser::canonical_text(*type);
    jitser::Result<jitser::ParsedSchema> again = jitser::parse_schema(canonical);
    if (!again)
      fail("canonical text does not parse: " + again.status().to_string() + "\n" + canonical);
    const jitser::TypeDesc* same = again->find(type->name);
    if (!same || jitser::canonical_text(*same) != canonical) {
      fail("canonical text parses to another type:\n" + canonical);
    }
  }
  return 0;
}

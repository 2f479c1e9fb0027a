// libFuzzer target: arbitrary bytes into the deserializer of a payload type in one format, in
// both tiers. Fails on a crash, a sanitizer report (the JIT instruments its code too when the
// host runs under AddressSanitizer), or any difference between the tiers: status text, or the
// bytes each tier writes back from the value it read (which compares values bit for bit, NaNs
// included, where operator== would not).
//
// JITSER_FUZZ_FORMAT=binary|json|protobuf|msgpack|cbor (default binary) picks the format and
// JITSER_FUZZ_PAYLOAD=<name> the type (required); tests/fuzz/corpus/<format>/<name>/ is its corpus.
// JITSER_FUZZ_COMPACT=1 reads structs as arrays and enums as integers (EngineOptions
// struct_arrays and enum_integers), with tests/fuzz/corpus/<format>-compact/<name>/.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include <jitser/jitser.h>

#include "bench/payloads.h"

namespace {

using namespace jitser;
using namespace jitser::payloads;

bool compact() {
  const char* v = std::getenv("JITSER_FUZZ_COMPACT");
  return v && std::strcmp(v, "1") == 0;
}

struct Tiers {
  Engine interp{
      EngineOptions{.struct_arrays = compact(), .enum_integers = compact(), .jit = JitPolicy::Off}};
  Engine jit{EngineOptions{
      .struct_arrays = compact(), .enum_integers = compact(), .jit = JitPolicy::Sync}};
  Format format = Format::Binary;
  int type = -1;  // index into kTypes
};

Tiers& tiers() {
  static Tiers both;
  return both;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "jitser fuzz: %s\n", what.c_str());
  std::abort();
}

template <class T>
void check(std::span<const std::uint8_t> input) {
  auto slow = tiers().interp.codec<T>(tiers().format);
  auto fast = tiers().jit.codec<T>(tiers().format);
  if (!slow || !fast) fail("no codec");
  if (format_compiles(tiers().format) && fast->dyn().stats().tier != Tier::Compiled)
    fail("not compiled: " + fast->dyn().stats().failure);

  T a{}, b{};
  const Status sa = slow->deserialize(input, a);
  const Status sb = fast->deserialize(input, b);
  if (sa.to_string() != sb.to_string()) {
    fail("tiers disagree on input: interpreter '" + sa.to_string() + "', jit '" + sb.to_string() +
         "'");
  }
  if (fast->dyn().stats().tier_disagreements != 0)
    fail("compiled code failed where the interpreter did not");
  if (!sa.ok()) return;
  Buffer wa, wb;
  const Status ra = slow->serialize(a, wa);
  const Status rb = fast->serialize(b, wb);
  if (ra.to_string() != rb.to_string())
    fail("tiers disagree writing back: " + ra.to_string() + " / " + rb.to_string());
  if (ra.ok() && !(wa.to_vector() == wb.to_vector())) fail("tiers wrote different bytes");
  // A Graph's cycles are broken only by its destructor; one read into would leak the objects
  // it replaces.
  if (!ra.ok() || std::is_same_v<T, Graph>) return;

  // Read again into the objects just read, as a server reuses one: every field is overwritten
  // (optionals and unique_ptrs are read into, not replaced), so the value is the same.
  if (!slow->deserialize(input, a).ok() || !fast->deserialize(input, b).ok())
    fail("a second read into the used object failed");
  Buffer again_a, again_b;
  if (!slow->serialize(a, again_a).ok() || !fast->serialize(b, again_b).ok() ||
      !(again_a.to_vector() == wa.to_vector()) || !(again_b.to_vector() == wa.to_vector())) {
    fail("a second read into the used object gave another value");
  }
}

constexpr const char* kTypes[] = {"MediaContent", "Sample", "A1", "Graph", "StringMap", "Value"};

void dispatch(int type, std::span<const std::uint8_t> input) {
  switch (type) {
    case 0: check<MediaContent>(input); break;
    case 1: check<Sample>(input); break;
    case 2: check<A1>(input); break;
    case 3: check<Graph>(input); break;
    case 4: check<StringMap>(input); break;
    default: check<jitser::Value>(input); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!register_all(tiers().interp).ok() || !register_all(tiers().jit).ok()) fail("registration");
  if (const char* format = std::getenv("JITSER_FUZZ_FORMAT")) {
    const std::optional<Format> named = parse_format(format);
    if (!named) fail("JITSER_FUZZ_FORMAT is binary, json, protobuf, msgpack or cbor");
    tiers().format = *named;
  }
  const char* name = std::getenv("JITSER_FUZZ_PAYLOAD");
  for (int i = 0; name && i < static_cast<int>(std::size(kTypes)); ++i) {
    if (std::strcmp(name, kTypes[i]) == 0) tiers().type = i;
  }
  if (tiers().type < 0) {
    fail("set JITSER_FUZZ_PAYLOAD to MediaContent, Sample, A1, Graph, StringMap or Value");
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dispatch(tiers().type, std::span<const std::uint8_t>(data, size));
  return 0;
}

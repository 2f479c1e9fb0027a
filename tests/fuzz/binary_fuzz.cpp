// libFuzzer target: arbitrary bytes into the binary deserializer of several payload types, in
// both tiers. Fails on a crash, a sanitizer report (the JIT instruments its code too when the
// host runs under AddressSanitizer), or any difference between the tiers: status text, or the
// bytes each tier writes back from the value it read (which compares values bit for bit, NaNs
// included, where operator== would not).
//
// JITSER_FUZZ_PAYLOAD=<name> picks the type (required); tests/fuzz/corpus/<name>/ is its corpus.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include "bench/payloads.h"
#include "engine/jitser.h"

namespace {

using namespace jitser;
using namespace jitser::payloads;

struct Tiers {
  Engine interp{EngineOptions{.jit = JitPolicy::Off}};
  Engine jit{EngineOptions{.jit = JitPolicy::Sync}};
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
  auto slow = tiers().interp.codec<T>(Format::Binary);
  auto fast = tiers().jit.codec<T>(Format::Binary);
  if (!slow || !fast) fail("no codec");
  if (fast->dyn().stats().tier != Tier::Compiled)
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
}

constexpr const char* kTypes[] = {"MediaContent", "Sample", "A1", "Graph", "StringMap"};

void dispatch(int type, std::span<const std::uint8_t> input) {
  switch (type) {
    case 0: check<MediaContent>(input); break;
    case 1: check<Sample>(input); break;
    case 2: check<A1>(input); break;
    case 3: check<Graph>(input); break;
    default: check<StringMap>(input); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!register_all(tiers().interp).ok() || !register_all(tiers().jit).ok()) fail("registration");
  const char* name = std::getenv("JITSER_FUZZ_PAYLOAD");
  for (int i = 0; name && i < static_cast<int>(std::size(kTypes)); ++i) {
    if (std::strcmp(name, kTypes[i]) == 0) tiers().type = i;
  }
  if (tiers().type < 0) {
    fail("set JITSER_FUZZ_PAYLOAD to MediaContent, Sample, A1, Graph or StringMap");
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dispatch(tiers().type, std::span<const std::uint8_t>(data, size));
  return 0;
}

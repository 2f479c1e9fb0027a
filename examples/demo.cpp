// The demonstration: register the payload types, round-trip each in every format jitser has,
// and print sizes and timings. Run it with scripts/demo.sh.
#include <chrono>
#include <cstdio>
#include <string>

#include "bench/payloads.h"

namespace {

using Clock = std::chrono::steady_clock;

// Median-free but honest: the mean of many calls after a warm-up, in nanoseconds.
template <class F>
double time_ns(F&& f) {
  for (int i = 0; i < 3; ++i) f();
  int runs = 0;
  const auto start = Clock::now();
  auto elapsed = Clock::duration::zero();
  while (elapsed < std::chrono::milliseconds(100) && runs < 100000) {
    f();
    ++runs;
    elapsed = Clock::now() - start;
  }
  return std::chrono::duration<double, std::nano>(elapsed).count() / runs;
}

}  // namespace

int main() {
  using namespace jitser;
  Engine engine;
  if (Status s = payloads::register_all(engine); !s) {
    std::fprintf(stderr, "registration failed: %s\n", s.to_string().c_str());
    return 1;
  }
  std::printf("jitser demo: %zu types registered\n\n", engine.types().size());
  std::printf("%-18s %-7s %10s %16s %16s %6s\n", "payload", "format", "bytes", "serialize ns",
              "deserialize ns", "equal");
  int failures = 0;
  payloads::for_each_payload([&]<class T>(const char* name, const T& value) {
    auto codec = engine.codec<T>(Format::Binary);
    if (!codec) {
      std::fprintf(stderr, "%s: %s\n", name, codec.status().to_string().c_str());
      ++failures;
      return;
    }
    Buffer out;
    if (Status s = codec->serialize(value, out); !s) {
      std::fprintf(stderr, "%s: %s\n", name, s.to_string().c_str());
      ++failures;
      return;
    }
    T back{};
    const Status read = codec->deserialize(out.bytes(), back);
    const bool equal = read.ok() && back == value;
    failures += !equal;
    const double ser = time_ns([&] { (void)codec->serialize(value, out); });
    const double de = time_ns([&] {
      T fresh{};
      (void)codec->deserialize(out.bytes(), fresh);
    });
    std::printf("%-18s %-7s %10zu %16.0f %16.0f %6s\n", name, format_name(Format::Binary),
                out.size(), ser, de, equal ? "yes" : "NO");
  });
  std::printf("\nTier: interpreter (the JIT tier is not built yet).\n");
  return failures == 0 ? 0 : 1;
}

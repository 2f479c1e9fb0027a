// The demonstration: register the payload types, round-trip each in every format jitser has,
// and print sizes and timings. Run it with scripts/demo.sh.
#include <chrono>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/payloads.h"

namespace {

using Clock = std::chrono::steady_clock;

// The mean of many calls after a warm-up, in nanoseconds; the clock is read once per batch so
// its own cost stays out of short calls.
template <class F>
double time_ns(F&& f) {
  for (int i = 0; i < 3; ++i) f();
  long runs = 0;
  int batch = 1;
  const auto start = Clock::now();
  auto elapsed = Clock::duration::zero();
  while (elapsed < std::chrono::milliseconds(100)) {
    for (int i = 0; i < batch; ++i) f();
    runs += batch;
    batch = batch < 1024 ? batch * 2 : batch;
    elapsed = Clock::now() - start;
  }
  return std::chrono::duration<double, std::nano>(elapsed).count() / static_cast<double>(runs);
}

}  // namespace

int main() {
  using namespace jitser;
  // Two engines side by side: one never compiles, the other compiles every codec in the
  // background as soon as it is made (the default policy).
  Engine interp(EngineOptions{.jit = JitPolicy::Off});
  Engine jit(EngineOptions{.jit = JitPolicy::Async});
  if (Status s = payloads::register_all(interp); !s) {
    std::fprintf(stderr, "registration failed: %s\n", s.to_string().c_str());
    return 1;
  }
  if (Status s = payloads::register_all(jit); !s) {
    std::fprintf(stderr, "registration failed: %s\n", s.to_string().c_str());
    return 1;
  }
  std::printf("jitser demo: %zu types registered; JIT policy %s\n", jit.types().size(),
              jit_policy_name(jit.jit_policy()));
  // Every payload's codec in every format, compiled before the timings start.
  CompileScope payloads;
  for (const TypeDesc* type : jit.types()) {
    if (type->kind == Kind::Struct) payloads.types.push_back(type->name);
  }
  const auto start = Clock::now();
  const Status compiled = jit.compile_all(payloads);
  std::printf("compile_all: %zu codecs ready %.0f ms after the call%s%s\n\n", jit.stats().size(),
              std::chrono::duration<double, std::milli>(Clock::now() - start).count(),
              compiled ? "" : "; ", compiled ? "" : compiled.to_string().c_str());

  std::printf("%-18s %-7s %7s %12s %12s %6s %12s %12s %6s %6s\n", "payload", "format", "bytes",
              "interp ser", "jit ser", "", "interp de", "jit de", "", "equal");
  int failures = 0;
  auto row = [&]<class T>(Format format, const char* name, const T& value) {
    auto slow = interp.codec<T>(format);
    auto fast = jit.codec<T>(format);
    if (!slow || !fast) {
      std::fprintf(stderr, "%s: no codec\n", name);
      ++failures;
      return;
    }
    Buffer a, b;
    T back{};
    // Both tiers must write the same bytes and read back an equal value.
    const bool equal = slow->serialize(value, a).ok() && fast->serialize(value, b).ok() &&
                       a.to_vector() == b.to_vector() && fast->deserialize(b.bytes(), back).ok() &&
                       back == value;
    failures += !equal;
    const double ser_slow = time_ns([&] { (void)slow->serialize(value, a); });
    const double ser_fast = time_ns([&] { (void)fast->serialize(value, b); });
    const double de_slow = time_ns([&] {
      T fresh{};
      (void)slow->deserialize(a.padded(), fresh);
    });
    const double de_fast = time_ns([&] {
      T fresh{};
      (void)fast->deserialize(b.padded(), fresh);
    });
    const CodecStats stats = fast->dyn().stats();
    std::printf("%-18s %-7s %7zu %12.0f %12.0f %5.1fx %12.0f %12.0f %5.1fx %6s%s\n", name,
                format_name(format), b.size(), ser_slow, ser_fast, ser_slow / ser_fast, de_slow,
                de_fast, de_slow / de_fast, equal ? "yes" : "NO",
                stats.tier == Tier::Compiled ? "" : "  (not compiled)");
  };
  for (Format format : all_formats()) {
    payloads::for_each_payload([&]<class T>(const char* name, const T& value) {
      // JSON and Protobuf have no references: the sample Graph, whose accounts refer to each
      // other in cycles, cannot be written in them (jitser says so: a `cycle` error naming the
      // path).
      if constexpr (!std::is_same_v<T, payloads::Graph>) {
        row(format, name, value);
      } else if (format == Format::Binary) {
        row(format, name, value);
      }
    });
  }
  if (const std::vector<CodecStats> all = jit.stats(); !all.empty()) {
    for (const CodecStats& s : all) {
      if (s.reader_kernel.empty()) continue;
      std::printf("\nJSON is read with simdjson: %s.", s.reader_kernel.c_str());
      break;
    }
  }
  std::printf(
      "\nns per call, the mean of many calls; deserialize includes making a fresh object.\n"
      "The Graph sample has reference cycles, which only the binary format can write.\n"
      "For medians and peers run the benchmark (bench/README.md).\n");
  return failures == 0 ? 0 : 1;
}

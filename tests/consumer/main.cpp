// A program outside the jitser tree, built against an installed jitser: it includes only
// <jitser/jitser.h>, registers a type, round-trips it in every format and says which tier ran.
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jitser/jitser.h>

enum class Unit { Celsius, Kelvin };

struct Sample {
  std::int64_t at_ms = 0;
  double value = 0;
  bool operator==(const Sample&) const = default;
};

struct Reading {
  std::string sensor;
  Unit unit = Unit::Celsius;
  std::optional<std::string> note;
  std::vector<Sample> samples;
  std::map<std::string, std::int32_t> tags;
  std::chrono::sys_time<std::chrono::milliseconds> taken{};
  bool operator==(const Reading&) const = default;
};

int main() {
  jitser::Engine engine(jitser::EngineOptions{.jit = jitser::JitPolicy::Sync});
  jitser::Status s =
      engine.add(jitser::Enum<Unit>("Unit").value("C", Unit::Celsius).value("K", Unit::Kelvin));
  if (s) {
    s = engine.add(jitser::Struct<Sample>("Sample")
                       .field("at_ms", &Sample::at_ms)
                       .field("value", &Sample::value));
  }
  if (s) {
    s = engine.add(jitser::Struct<Reading>("Reading")
                       .field("sensor", &Reading::sensor)
                       .field("unit", &Reading::unit)
                       .field("note", &Reading::note)
                       .field("samples", &Reading::samples)
                       .field("tags", &Reading::tags)
                       .field("taken", &Reading::taken));
  }
  if (!s) {
    std::printf("consumer: %s\n", s.to_string().c_str());
    return 1;
  }
  Reading reading{"boiler",
                  Unit::Kelvin,
                  "after service",
                  {{1, 351.5}, {2, 352.25}},
                  {{"floor", 2}, {"unit", -1}},
                  {}};
  reading.taken =
      std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(1700000000123));

  int failures = 0;
  for (const jitser::Format format : jitser::all_formats()) {
    auto codec = engine.codec<Reading>(format);
    if (!codec) {
      std::printf("consumer: %s\n", codec.status().to_string().c_str());
      return 2;
    }
    jitser::Buffer out;
    Reading back;
    s = codec->serialize(reading, out);
    // Read in place, as the README shows: a PaddedString holds the bytes and the padding.
    const jitser::PaddedString input(
        std::string_view(reinterpret_cast<const char*>(out.data()), out.size()));
    if (s) s = codec->deserialize(input, back);
    const bool equal = s && back == reading;
    const jitser::CodecStats stats = codec->dyn().stats();
    std::printf("consumer: %-6s %4zu bytes, round trip %s, tier %s\n", jitser::format_name(format),
                out.size(), equal ? "ok" : "FAILED",
                stats.tier == jitser::Tier::Compiled ? "compiled" : "interpreter");
    if (!s) std::printf("consumer: %s\n", s.to_string().c_str());
    if (!equal || (jitser::format_compiles(format) && stats.tier != jitser::Tier::Compiled)) {
      ++failures;
    }
  }
  return failures == 0 ? 0 : 3;
}

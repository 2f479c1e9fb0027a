// A program outside the jitser tree: includes the installed header, links jitser::jitser.
#include <jitser/jitser.h>

#include <cstdio>
#include <string>

struct Point {
  std::int32_t x = 0;
  std::string label;
  bool operator==(const Point&) const = default;
};

int main() {
  jitser::Engine engine;
  if (!engine.add(
          jitser::Struct<Point>("Point").field("x", &Point::x).field("label", &Point::label))) {
    return 1;
  }
  auto codec = engine.codec<Point>(jitser::Format::Binary);
  if (!codec) return 2;
  const Point p{-7, "consumer"};
  auto bytes = codec->serialize(p);
  if (!bytes) return 3;
  auto back = codec->deserialize(*bytes);
  if (!back || !(*back == p)) return 4;
  std::printf("consumer: %zu bytes, round trip ok\n", bytes->size());
  return 0;
}

// Must not compile: std::set has no descriptor (see tests/CMakeLists.txt).
#include <set>

#include <jitser/jitser.h>

struct Tags {
  std::set<int> values;
};

int main() {
  jitser::Engine engine;
  return engine.add(jitser::Struct<Tags>("Tags").field("values", &Tags::values)).ok() ? 0 : 1;
}

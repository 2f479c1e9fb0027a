// Must not compile: a field of the type JITSER_REJECTED, which the builder has no descriptor
// for (see tests/CMakeLists.txt for each type and the message it must give).
#include <chrono>
#include <list>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

#include <jitser/jitser.h>

struct Holder {
  JITSER_REJECTED value;
};

int main() {
  jitser::Engine engine;
  return engine.add(jitser::Struct<Holder>("Holder").field("value", &Holder::value)).ok() ? 0 : 1;
}

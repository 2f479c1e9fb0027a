// The main of the test binaries. Every Engine a test makes audits its codecs when destroyed
// (JITSER_AUDIT, engine.cpp): a tier disagreement, or a codec that ran interpreted under sync,
// ends the test, so no test passes on the interpreter's fallback alone. Under the lazy policy,
// codecs compile after two calls rather than a thousand, so that most tests reach compiled code.
// JITSER_JIT=first, the suites' fifth policy, is sync with first-tier code only
// (JITSER_TIERS=first): every test then runs on the code that runs while optimized code
// compiles.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

int main(int argc, char** argv) {
  setenv("JITSER_AUDIT", "1", 0);
  if (const char* policy = std::getenv("JITSER_JIT");
      policy && std::string_view(policy) == "lazy") {
    setenv("JITSER_LAZY_CALLS", "2", 0);
  }
  if (const char* policy = std::getenv("JITSER_JIT");
      policy && std::string_view(policy) == "first") {
    setenv("JITSER_JIT", "sync", 1);
    setenv("JITSER_TIERS", "first", 1);
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

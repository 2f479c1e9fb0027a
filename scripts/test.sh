#!/usr/bin/env bash
# Sets up, builds and runs every test: the suite in an optimized build, then again with
# AddressSanitizer and UndefinedBehaviorSanitizer, then the benchmark binary once briefly so a
# broken entry is caught. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

echo "== build and test (RelWithDebInfo)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJITSER_SANITIZE= \
  -DJITSER_BUILD_TESTS=ON -DJITSER_BUILD_BENCH=ON -DJITSER_CONSUMER_TEST=ON
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure --no-tests=error

echo "== build and test (AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DJITSER_SANITIZE=address,undefined \
  -DJITSER_BUILD_TESTS=ON -DJITSER_BUILD_BENCH=OFF -DJITSER_CONSUMER_TEST=OFF
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" --output-on-failure --no-tests=error

echo "== benchmark smoke run (every entry once, each checks its round trip)"
build/jitser_bench --benchmark_min_time=0.01 > build/bench-smoke.txt
if grep -q "ERROR OCCURRED" build/bench-smoke.txt; then
  cat build/bench-smoke.txt
  echo "benchmark: an entry failed its round-trip check" >&2
  exit 1
fi
echo "benchmark: $(grep -c '/interp' build/bench-smoke.txt) entries ran"

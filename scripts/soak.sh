#!/usr/bin/env bash
# The random-schema test's soak mode: new seeds, as many as asked, each with 40 generated struct
# types, checked in both formats against the interpreter under JITSER_JIT=sync (or the policy
# in the environment). Builds its own tree (build-soak/); the test command runs fixed seeds.
#   scripts/soak.sh FIRST_SEED SEED_COUNT [VALUES_PER_TYPE]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: scripts/soak.sh FIRST_SEED SEED_COUNT [VALUES_PER_TYPE]" >&2
  exit 2
fi
first=$1
count=$2
seeds=$(seq -s ';' "$first" $((first + count - 1)))
scripts/setup.sh
mkdir -p build-soak
cmake -S . -B build-soak -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJITSER_SANITIZE= \
  -DJITSER_FUZZ=OFF -DJITSER_BUILD_TESTS=ON -DJITSER_BUILD_BENCH=OFF -DJITSER_CONSUMER_TEST=OFF \
  "-DJITSER_RANDOM_SEEDS=$seeds" > build-soak/cmake.log 2>&1
cmake --build build-soak -j "$(nproc)" --target jitser_random_tests > build-soak/build.log 2>&1 ||
  { tail -30 build-soak/build.log; exit 1; }
echo "soak: seeds $first to $((first + count - 1)), $((count * 40)) types, both formats"
JITSER_JIT=${JITSER_JIT:-sync} JITSER_RANDOM_VALUES=${3:-6} build-soak/tests/jitser_random_tests

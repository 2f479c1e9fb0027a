#!/usr/bin/env bash
# Sets up, builds and runs the demonstration: registers the payload types, compiles their codecs,
# round-trips each in every format in both tiers and prints JIT against interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DJITSER_SANITIZE= -DJITSER_FUZZ=OFF \
  -DJITSER_BUILD_TESTS=OFF -DJITSER_BUILD_BENCH=OFF -DJITSER_CONSUMER_TEST=OFF
cmake --build build-demo --target jitser_demo
build-demo/jitser_demo

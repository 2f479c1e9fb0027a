#!/usr/bin/env bash
# Sets up, builds and runs the demonstration: registers the payload types, round-trips each in
# every format, prints sizes and timings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DJITSER_SANITIZE= -DJITSER_BUILD_TESTS=OFF -DJITSER_BUILD_BENCH=OFF
cmake --build build --target jitser_demo
build/jitser_demo

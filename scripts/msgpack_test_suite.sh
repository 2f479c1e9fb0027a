#!/usr/bin/env bash
# Installs the MessagePack test suite (npm package msgpack-test-suite) and copies its cases,
# one JSON file, to <dir>/msgpack-test-suite.json, for tests/msgpack_conformance_test.cpp.
# Needs npm, which it installs when missing.
set -euo pipefail
dir=${1:?usage: msgpack_test_suite.sh <output dir>}
if [ -f "$dir/.complete" ]; then exit 0; fi
mkdir -p "$dir"
work="$dir.npm"
"$(dirname "$0")/npm_package.sh" msgpack-test-suite@1.0.0 "$work"
cp "$work/node_modules/msgpack-test-suite/dist/msgpack-test-suite.json" "$dir/"
echo "msgpack_test_suite: cases in $dir/msgpack-test-suite.json"
touch "$dir/.complete"

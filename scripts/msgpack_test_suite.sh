#!/usr/bin/env bash
# Installs the MessagePack test suite (npm package msgpack-test-suite) and copies its cases,
# one JSON file, to <dir>/msgpack-test-suite.json, for tests/msgpack_conformance_test.cpp.
# Needs npm.
set -euo pipefail
dir=${1:?usage: msgpack_test_suite.sh <output dir>}
if [ -f "$dir/.complete" ]; then exit 0; fi
if ! command -v npm > /dev/null; then
  echo "msgpack_test_suite: installing npm"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
fi
mkdir -p "$dir"
work="$dir.npm"
mkdir -p "$work"
npm install --silent --no-audit --no-fund --prefix "$work" msgpack-test-suite@1.0.0 > /dev/null
cp "$work/node_modules/msgpack-test-suite/dist/msgpack-test-suite.json" "$dir/"
echo "msgpack_test_suite: cases in $dir/msgpack-test-suite.json"
touch "$dir/.complete"

#!/usr/bin/env bash
# Installs the Debian packages jitser builds with, when any is missing. Needs root (or sudo) only
# when something is missing. The one list of build dependencies: keep it in step with README.md.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3
  libxxhash-dev libgtest-dev libbenchmark-dev
  llvm-19-dev clang-19 libclang-rt-19-dev libfuzzer-19-dev
  libprotobuf-dev libprotoc-dev protobuf-compiler
  libsimdjson-dev rapidjson-dev nlohmann-json3-dev libmsgpack-cxx-dev libcbor-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

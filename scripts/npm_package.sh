#!/usr/bin/env bash
# Installs one npm package (name@version) under <prefix>/node_modules, installing npm first when
# the machine has none. The conformance suites' scripts fetch their data with it.
set -euo pipefail
package=${1:?usage: npm_package.sh <name@version> <prefix>}
prefix=${2:?usage: npm_package.sh <name@version> <prefix>}
if ! command -v npm > /dev/null; then
  echo "npm_package: installing npm"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
fi
mkdir -p "$prefix"
npm install --silent --no-audit --no-fund --prefix "$prefix" "$package" > /dev/null

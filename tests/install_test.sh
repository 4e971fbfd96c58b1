#!/usr/bin/env bash
# The library as a program outside this repository uses it: installed
# (cmake --install, components lib and dev) into a temporary prefix, then
# examples/embedding's flag-fall programs, in C and in C++, built against
# that prefix once with pkg-config and once with find_package(Arbiter) (the
# shared library and the static one), and run on cutechess #710's position
# and on a lone king.
#   tests/install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() {
  echo "install_test: $*" >&2
  exit 1
}

for component in lib dev; do
  cmake --install "$build" --prefix "$prefix" --component "$component" > /dev/null
done
# The library directory is lib/<multiarch> (as Debian puts it) or lib.
libdir=$(dirname "$(find "$prefix" -name libarbiter.so -print -quit)")
[ -d "$libdir" ] && [ "$libdir" != . ] || fail "cmake --install installed no libarbiter.so"
for f in "$prefix/include/arbiter/arbiter.h" "$prefix/include/arbiter/arbiter.hpp" \
  "$libdir/libarbiter.a" "$libdir/pkgconfig/arbiter.pc" "$libdir/cmake/Arbiter/ArbiterConfig.cmake"; do
  [ -e "$f" ] || fail "cmake --install did not install $f"
done
soname=$(readelf -d "$libdir/libarbiter.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
api=$(sed -n 's/^#define ARBITER_API_VERSION \([0-9]*\)$/\1/p' "$prefix/include/arbiter/arbiter.h")
[ "$soname" = "libarbiter.so.$api" ] || fail "SONAME is '$soname', not libarbiter.so.$api"
# Only the C API is exported: core, abseil's templates and the C++ runtime
# stay inside.
others=$(nm -D --defined-only "$libdir/libarbiter.so" | awk '$3 !~ /^arbiter_/ && $3 != "ARBITER_1"')
[ -z "$others" ] || fail "libarbiter.so exports more than arbiter_*: $others"

# Each program rules both flag falls; `$1` names it in failures.
check_rulings() {
  local name=$1
  shift
  local out
  out=$("$@" '8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1' black) || fail "$name exited $?"
  case "$out" in
    "1-0: White can still mate, e.g. "*) ;;
    *) fail "$name on cutechess #710's position printed: $out" ;;
  esac
  out=$("$@" '8/8/3rk3/8/8/2K5/8/8 w - - 0 1' black) || fail "$name exited $?"
  [ "$out" = "1/2-1/2: White cannot mate (proof: material)" ] ||
    fail "$name on a lone king printed: $out"
  if "$@" 'not a fen' black > /dev/null 2> "$work/err"; then fail "$name accepted a bad FEN"; fi
  grep -q "invalid_argument" "$work/err" || fail "$name's error for a bad FEN: $(cat "$work/err")"
}

# pkg-config, for C and for C++.
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs arbiter) || fail "pkg-config cannot read arbiter.pc"
cc -std=c11 -Wall -Werror "$source_dir/examples/embedding/flag_fall.c" $flags \
  -Wl,-rpath,"$libdir" -o "$work/flag_fall_c"
c++ -std=c++17 -Wall -Werror "$source_dir/examples/embedding/flag_fall.cc" $flags \
  -Wl,-rpath,"$libdir" -o "$work/flag_fall_cxx"
ldd "$work/flag_fall_c" | grep -q "$libdir/libarbiter.so.$api" ||
  fail "flag_fall (pkg-config) does not load the installed library"
check_rulings "flag_fall (C, pkg-config)" "$work/flag_fall_c"
check_rulings "flag_fall (C++, pkg-config)" "$work/flag_fall_cxx"

# find_package(Arbiter): Arbiter::arbiter and Arbiter::arbiter_static.
cmake -S "$source_dir/examples/embedding" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release > "$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "find_package(Arbiter) failed"; }
cmake --build "$work/cmake" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the CMake build failed"; }
check_rulings "flag_fall (C, find_package)" "$work/cmake/flag_fall"
check_rulings "flag_fall (C++ static, find_package)" "$work/cmake/flag_fall_cpp"
if ldd "$work/cmake/flag_fall_cpp" | grep -q libarbiter; then
  fail "flag_fall_cpp was to link libarbiter.a, but loads libarbiter.so"
fi
echo "install_test: headers, libraries, arbiter.pc and ArbiterConfig.cmake installed; 4 programs built and ruled"

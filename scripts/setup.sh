#!/usr/bin/env bash
# Installs every dependency from Debian 12 packages and builds Arbiter.
# Idempotent: packages already present are not fetched again, and the build
# is incremental (ccache keeps compiled objects across clean builds).
# Run as root (or with sudo) on Debian 12.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache git openssl
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev libfathom-dev libzstd-dev zstd
  prometheus-cpp-dev libsqlite3-dev libcli11-dev
  libboost1.81-dev     # the HTTP front (Boost.Beast/Asio, header-only)
  libcpp-httplib-dev   # the HTTP client of tests/http_test and bench/analyze_latency
  clang clang-format libclang-rt-14-dev
  stockfish fathom pgn-extract python3-yaml curl python3-jsonschema
  python3-grpcio python3-protobuf  # clients/python and its test
  python3-venv                     # pip install ./clients/python (a venv), python_install_test
  chromium                         # tests/browser
  help2man groff-base              # the man pages (packaging/) and their rendering check
  dpkg-dev file                    # cpack -G DEB: dpkg-shlibdeps, file (tests/packages_test)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "setup: installing ${missing[*]}" >&2
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Node.js and the pinned JavaScript packages: the reference libraries
# (chessops, chess.js) for tests/js_diff_test.cc, and puppeteer-core, which
# drives Chromium for tests/browser/browser_test.mjs. Debian's nodejs/npm
# only when no node exists: a NodeSource node conflicts with Debian's npm
# package.
if ! command -v node >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "setup: installing nodejs npm" >&2
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends nodejs npm
fi
# npm ci writes node_modules/.package-lock.json; a newer package-lock.json
# (changed pins) means the install is stale.
for dir in tests/js tests/browser; do
  if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
    [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
done

BUILD_DIR=${BUILD_DIR:-build}
export CCACHE_BASEDIR="$PWD"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
# Warnings are errors here as in CI (this is the compiler CI uses): the
# build scripts/test.sh checks is then this very one, and the README's
# second command compiles nothing the first already did. A flag that
# differed would change every compile line and miss ccache for all of it.
cmake -S . -B "$BUILD_DIR" -DARBITER_WERROR=ON ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" --parallel "$(nproc)"

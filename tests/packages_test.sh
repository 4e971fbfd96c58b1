#!/usr/bin/env bash
# The Debian packages (packaging/, docs/packages.md), made and used as a
# user would: cpack -G DEB into a temporary directory; each of the four
# .deb files holds what it should (dpkg-deb -c) and depends on what it
# should (dpkg-deb -f); together they hold every file `cmake --install`
# installs; unpacked into a temporary root (dpkg-deb -x), the programs run
# from there (arbiter --version, arbiter verify on examples/), a C program
# builds against the root's headers and library and runs, the man pages
# render and the bash completion completes. Any difference fails the test
# with what differed.
#
# Usage: packages_test.sh CPACK SOURCE_DIR BINARY_DIR VERSION SOVERSION LIBRARY_FILE MULTIARCH CC
# (LIBRARY_FILE: the shared library's file name, libarbiter.so.1.x.y).
set -uo pipefail  # (so no "cmd | grep -q": grep leaving early fails the pipeline)
cpack=$1 src=$2 build=$3 version=$4 soversion=$5 library=$6 multiarch=$7 cc=$8
cmake=${cpack%/*}/cmake

failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
die() {
  echo "FAIL: $*"
  echo "packages_test: FAILED"
  exit 1
}
for tool in dpkg-deb dpkg-shlibdeps dpkg gzip file; do
  command -v "$tool" >/dev/null || die "$tool not found (dpkg-dev; scripts/setup.sh installs it)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

# --- Build the packages ---------------------------------------------------------
(cd "$build" && "$cpack" -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; die "cpack -G DEB failed (its output is above)"; }
echo "cpack: $((SECONDS - start)) s"
arch=$(dpkg --print-architecture)
lib=libarbiter$soversion
declare -A deb
for package in "$lib" libarbiter-dev arbiter arbiter-cluster python3-arbiter; do
  deb[$package]=$tmp/out/${package}_${version}_${arch}.deb
  [[ -f ${deb[$package]} ]] || die "cpack made no ${deb[$package]##*/}; it made: $(cd "$tmp/out" && echo *.deb)"
done
count=$(find "$tmp/out" -maxdepth 1 -name '*.deb' | wc -l)
((count == 5)) || fail "cpack made $count packages, not 5: $(cd "$tmp/out" && echo *.deb)"

# --- Their control fields --------------------------------------------------------
# field PACKAGE FIELD: the field's value.
field() { dpkg-deb -f "${deb[$1]}" "$2"; }
# depends_on PACKAGE WHAT...: its Depends names each WHAT (an exact
# "name (op version)" entry, or a name).
depends_on() {
  local package=$1 want entry found
  shift
  local depends
  depends=$(field "$package" Depends)
  for want in "$@"; do
    found=0
    while IFS= read -r entry; do
      entry=${entry# }
      [[ $entry == "$want" || ${entry%% *} == "$want" ]] && found=1
    done < <(tr ',' '\n' <<<"$depends")
    ((found)) || fail "$package: Depends ($depends) has no $want"
  done
}
for package in "${!deb[@]}"; do
  [[ $(field "$package" Package) == "$package" ]] || fail "${deb[$package]##*/}: Package is $(field "$package" Package)"
  [[ $(field "$package" Version) == "$version" ]] || fail "$package: Version is $(field "$package" Version)"
  [[ $(field "$package" Architecture) == "$arch" ]] || fail "$package: Architecture is $(field "$package" Architecture)"
  [[ -n $(field "$package" Maintainer) ]] || fail "$package: no Maintainer"
  [[ -n $(field "$package" Description) ]] || fail "$package: no Description"
done
[[ $(field "$lib" Section) == libs ]] || fail "$lib: Section is $(field "$lib" Section)"
[[ $(field libarbiter-dev Section) == libdevel ]] || fail "libarbiter-dev: Section is $(field libarbiter-dev Section)"
[[ $(field arbiter Section) == utils ]] || fail "arbiter: Section is $(field arbiter Section)"
[[ $(field arbiter-cluster Section) == net ]] || fail "arbiter-cluster: Section is $(field arbiter-cluster Section)"
# dpkg-shlibdeps's Depends: the C and C++ runtimes, and the libraries each
# links (zstd for all; gRPC for the programs).
depends_on "$lib" libc6 libstdc++6 libzstd1
depends_on libarbiter-dev "$lib (= $version)"
depends_on arbiter libc6 libstdc++6 libzstd1
depends_on arbiter-cluster "arbiter (= $version)" libc6 libstdc++6
depends_on python3-arbiter "$lib (= $version)" python3
for package in arbiter arbiter-cluster; do
  [[ $(field "$package" Depends) == *libgrpc++* ]] || fail "$package: Depends ($(field "$package" Depends)) has no libgrpc++"
done
# The shared library's shlibs file, for dpkg-shlibdeps of programs that
# link it, and its ldconfig call.
dpkg-deb -e "${deb[$lib]}" "$tmp/control-lib"
grep -qx "libarbiter $soversion $lib (>= $version)" "$tmp/control-lib/shlibs" ||
  fail "$lib: shlibs is '$(cat "$tmp/control-lib/shlibs" 2>/dev/null)'"
grep -qx "activate-noawait ldconfig" "$tmp/control-lib/triggers" 2>/dev/null || fail "$lib: no ldconfig trigger"
dpkg-deb -e "${deb[arbiter-cluster]}" "$tmp/control-cluster"
for script in postinst prerm postrm; do
  [[ -x $tmp/control-cluster/$script ]] || fail "arbiter-cluster: no $script"
done

# --- Their contents --------------------------------------------------------------
# The files (and links) of each package, as ./usr/...; links as "PATH -> TARGET".
declare -A listing
for package in "${!deb[@]}"; do
  listing[$package]=$(dpkg-deb -c "${deb[$package]}" | awk '$1 !~ /^d/ { $1=$2=$3=$4=$5=""; sub(/^ +/, ""); print }' | sort)
done
# holds PACKAGE PATH...: the package has each PATH (a file, or "LINK -> TARGET").
holds() {
  local package=$1 path
  shift
  for path in "$@"; do
    grep -qxF -- "$path" <<<"${listing[$package]}" || fail "$package does not hold $path"
  done
}
# holds_only PACKAGE REGEX: every path in it matches REGEX.
holds_only() {
  local stray
  stray=$(grep -vE -- "$2" <<<"${listing[$1]}")
  [[ -z $stray ]] || fail "$1 holds what it should not: ${stray//$'\n'/, }"
}
libdir=./usr/lib/$multiarch
holds "$lib" "$libdir/libarbiter.so.$soversion -> $library" "$libdir/$library"
holds_only "$lib" "^$libdir/libarbiter\\.so\\.$soversion(\\.|\$| )"
holds libarbiter-dev ./usr/include/arbiter/arbiter.h ./usr/include/arbiter/arbiter.hpp \
  "$libdir/libarbiter.a" "$libdir/libarbiter.so -> libarbiter.so.$soversion" \
  "$libdir/pkgconfig/arbiter.pc" "$libdir/cmake/Arbiter/ArbiterConfig.cmake" \
  "$libdir/cmake/Arbiter/ArbiterConfigVersion.cmake" "$libdir/cmake/Arbiter/ArbiterTargets.cmake"
holds_only libarbiter-dev "^(\\./usr/include/arbiter/|$libdir/(libarbiter\\.(a|so -> )|pkgconfig/|cmake/Arbiter/))"
holds arbiter ./usr/bin/arbiter ./usr/share/man/man1/arbiter.1.gz \
  ./usr/share/bash-completion/completions/arbiter ./usr/share/doc/arbiter/README.md \
  ./usr/share/doc/arbiter/docs/commands.md ./usr/share/doc/arbiter/deploy/README.md
holds_only arbiter "^\\./usr/(bin/arbiter\$|share/man/man1/arbiter\\.1\\.gz\$|share/bash-completion/completions/arbiter\$|share/doc/arbiter/)"
holds arbiter-cluster ./usr/bin/arbiter-coordinator ./usr/bin/arbiter-worker \
  ./usr/share/man/man1/arbiter-coordinator.1.gz ./usr/share/man/man1/arbiter-worker.1.gz \
  ./usr/lib/systemd/system/arbiter-coordinator.service ./usr/lib/systemd/system/arbiter-worker.service \
  ./usr/share/doc/arbiter/systemd/arbiter-coordinator.default \
  ./usr/share/doc/arbiter/systemd/arbiter-worker.default
holds_only arbiter-cluster "^\\./usr/(bin/arbiter-(coordinator|worker)\$|share/man/man1/arbiter-(coordinator|worker)\\.1\\.gz\$|lib/systemd/system/arbiter-(coordinator|worker)\\.service\$|share/doc/arbiter/systemd/)"
holds python3-arbiter ./usr/lib/python3/dist-packages/arbiter/engine.py \
  ./usr/lib/python3/dist-packages/arbiter/_installed.py \
  ./usr/lib/python3/dist-packages/arbiter/v1/arbiter_pb2_grpc.py \
  ./usr/lib/python3/dist-packages/arbiter_client/client.py
holds_only python3-arbiter "^\\./usr/lib/python3/dist-packages/arbiter(_client)?/"
# No file in two packages.
dups=$(printf '%s\n' "${listing[@]}" | sort | uniq -d)
[[ -z $dups ]] || fail "in more than one package: ${dups//$'\n'/, }"
# Together they hold all that `cmake --install` installs: no install rule
# outside the five components.
DESTDIR=$tmp/installed "$cmake" --install "$build" --prefix /usr >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install failed"; }
installed=$(cd "$tmp/installed" && find . ! -type d | sort)
packaged=$(printf '%s\n' "${listing[@]}" | sed 's/ -> .*//' | sort)
missing=$(comm -23 <(echo "$installed") <(echo "$packaged"))
[[ -z $missing ]] || fail "installed by cmake --install but in no package: ${missing//$'\n'/, }"

# --- Unpacked ---------------------------------------------------------------------
root=$tmp/root
for package in "${!deb[@]}"; do
  dpkg-deb -x "${deb[$package]}" "$root" || die "dpkg-deb -x ${deb[$package]##*/} failed"
done
# The units name the installed programs (the install rewrites the
# repository's /usr/local/bin), and nothing of the build or the staging.
for unit in arbiter-coordinator arbiter-worker; do
  file=$root/usr/lib/systemd/system/$unit.service
  grep -qx "ExecStart=/usr/bin/$unit .*" "$file" || fail "$unit.service: $(grep ExecStart= "$file")"
  # (Its comments may say /usr/local/bin: they tell of the rewriting.)
  settings=$(grep -v '^#' "$file")
  ! grep -qE "/usr/local|${tmp}|${build}" <<<"$settings" ||
    fail "$unit.service names $(grep -oE "/usr/local[^ ]*|${tmp}[^ ]*|${build}[^ ]*" <<<"$settings" | head -1)"
done
# Stripped, as Debian ships them.
for file in "$root/usr/bin/arbiter" "$root/usr/bin/arbiter-coordinator" "$root/usr/bin/arbiter-worker" \
  "$root${libdir#.}/libarbiter.so.$soversion"; do
  [[ $(file -L "$file") == *", stripped"* ]] || fail "${file#"$root"}: not stripped ($(file -L "$file"))"
done
# The programs run from the root: every library they need is a system
# library (none of the build tree's).
for program in arbiter arbiter-coordinator arbiter-worker; do
  out=$("$root/usr/bin/$program" --version 2>&1) || fail "$program --version failed: $out"
  [[ $out == "$program $version "* ]] || fail "$program --version printed '$out'"
  libraries=$(ldd "$root/usr/bin/$program")
  ! grep -E "not found|$build" <<<"$libraries" || fail "$program: the libraries above"
done
# arbiter verify on the bundled games: four verdicts that agree with the
# declared results, the fifth (an Atomic game) skipped, and the summary.
export XDG_CACHE_HOME=$tmp/cache
tables=${ARBITER_TABLES:-$tmp/tables}
if out=$("$root/usr/bin/arbiter" verify --format jsonl --tables "$tables" "$src/examples/lichess_sample.pgn" 2>"$tmp/verify.err"); then
  verdicts=$(grep -c '^{"type": "verdict"' <<<"$out")
  skipped=$(grep -c '^{"type": "skipped"' <<<"$out")
  summary=$(grep '^{"type": "summary"' <<<"$out")
  if ! ((verdicts == 4 && skipped == 1)) ||
    [[ $summary != *'"games": 5, "errors": 0, "agree": 4, "disagree": 0, "skipped": 1,'* ]]; then
    fail "arbiter verify: $verdicts verdicts and $skipped skipped, not 4 and 1: $out"
  fi
else
  fail "arbiter verify failed: $(cat "$tmp/verify.err")"
fi

# A C program against the root's headers and library.
cat >"$tmp/prog.c" <<'EOF'
#include <arbiter/arbiter.h>
#include <stdio.h>

/* A rook against a lone king: White, with the king alone, cannot mate. */
int main(void) {
  arbiter_options options = {0};
  options.tables_dir = "";
  arbiter_error error;
  arbiter_engine* engine = arbiter_engine_new(&options, &error);
  if (engine == NULL) {
    fprintf(stderr, "arbiter_engine_new: %s\n", error.message);
    return 1;
  }
  arbiter_mate mate = {0};
  arbiter_status status =
      arbiter_can_mate(engine, "8/8/3rk3/8/8/2K5/8/8 w - - 0 1", ARBITER_WHITE, &mate, &error);
  if (status != ARBITER_OK) {
    fprintf(stderr, "arbiter_can_mate: %s\n", error.message);
    return 1;
  }
  int no = mate.answer == ARBITER_NO;
  printf("answer %d proof %s api %d\n", (int)mate.answer, arbiter_proof_name(mate.proof),
         arbiter_api_version());
  arbiter_mate_clear(&mate);
  arbiter_engine_free(engine);
  return no ? 0 : 1;
}
EOF
if "$cc" -std=c11 -Wall -Werror -I "$root/usr/include" "$tmp/prog.c" -L "$root${libdir#.}" -larbiter \
  -Wl,-rpath,"$root${libdir#.}" -o "$tmp/prog" 2>"$tmp/cc.err"; then
  libraries=$(ldd "$tmp/prog")
  grep -qF "libarbiter.so.$soversion => $root${libdir#.}/" <<<"$libraries" ||
    fail "prog does not load the root's libarbiter: $(grep arbiter <<<"$libraries")"
  out=$("$tmp/prog" 2>&1) || fail "prog: $out"
  [[ $out == "answer 2 proof material api $soversion" ]] || fail "prog printed '$out'"
else
  fail "cc against the root failed: $(cat "$tmp/cc.err")"
fi
# arbiter.pc, relocated with the root (its prefix is found from its own
# place).
if command -v pkg-config >/dev/null; then
  read -r include _ < <(PKG_CONFIG_LIBDIR=$root${libdir#.}/pkgconfig pkg-config --cflags-only-I arbiter)
  read -r libs _ < <(PKG_CONFIG_LIBDIR=$root${libdir#.}/pkgconfig pkg-config --libs-only-L arbiter)
  [[ $(realpath -m "${include#-I}") == "$root/usr/include" && $(realpath -m "${libs#-L}") == "$root${libdir#.}" ]] ||
    fail "pkg-config: arbiter.pc says $include $libs, not in $root"
fi

# The Python module from the root: it names the library where the package
# puts it (/usr/lib/<multiarch>), here under the root, so ARBITER_LIBRARY
# points there.
installed=$(grep -o "/usr/lib/[^\"']*libarbiter[^\"']*" "$root/usr/lib/python3/dist-packages/arbiter/_installed.py" | head -1)
[[ $installed == "/usr/lib/$multiarch/libarbiter.so.$soversion" ]] ||
  fail "python3-arbiter names the library '$installed', not /usr/lib/$multiarch/libarbiter.so.$soversion"
out=$(ARBITER_LIBRARY="$root${libdir#.}/libarbiter.so.$soversion" \
  PYTHONPATH="$root/usr/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c '
import arbiter, arbiter_client
print(arbiter.Engine(tables_dir="").can_mate("8/8/3rk3/8/8/2K5/8/8 w - - 0 1", True)["proof"])' 2>&1) ||
  fail "python3-arbiter from the root: $out"
[[ $out == material ]] || fail "python3-arbiter: can_mate printed '$out'"

# The man pages: gzip'd roff that renders without warnings.
for page in arbiter arbiter-coordinator arbiter-worker; do
  file=$(find "$root/usr/share/man/man1" -name "$page.1.gz")
  [[ -n $file ]] || continue  # reported above
  gzip -t "$file" || { fail "$page.1.gz is not gzip"; continue; }
  roff=$(zcat "$file")
  grep -q "^\\.TH ${page^^} \"1\"" <<<"$roff" || fail "$page.1.gz has no .TH ${page^^} 1"
  if command -v groff >/dev/null; then
    text=$(groff -man -Tutf8 -P-cbou -ww <<<"$roff" 2>"$tmp/groff.err")  # plain text
    [[ ! -s $tmp/groff.err ]] || fail "$page.1: groff warns: $(cat "$tmp/groff.err")"
    if ! grep -q "^NAME" <<<"$text" || ! grep -q "^SYNOPSIS" <<<"$text"; then
      fail "$page.1 renders no NAME or SYNOPSIS"
    fi
    grep -q -- "--help" <<<"$text" || fail "$page.1 renders no --help"
  fi
done

# The bash completion, sourced from the root, completing with the root's
# arbiter (tests/bash_completion_test.sh checks it in full).
out=$(PATH=$root/usr/bin:$PATH bash -c '
  source "$1" || exit 1
  COMP_WORDS=(arbiter ver); COMP_CWORD=1; _arbiter; echo "${COMPREPLY[*]}"
  COMP_WORDS=(arbiter verify --fo); COMP_CWORD=2; _arbiter; echo "${COMPREPLY[*]}"' \
  _ "$root/usr/share/bash-completion/completions/arbiter" 2>&1)
[[ $out == $'verify\n--format' ]] || fail "the packaged completion offers '$out'"

echo "packages_test: $((SECONDS - start)) s"
if ((failed)); then
  echo "packages_test: FAILED"
  exit 1
fi
for package in "$lib" libarbiter-dev arbiter arbiter-cluster python3-arbiter; do
  printf '%-24s %8d bytes\n' "${deb[$package]##*/}" "$(stat -c %s "${deb[$package]}")"
done
echo "packages_test: passed"

#!/usr/bin/env bash
# The bash completion (packaging/arbiter.bash-completion) against a real
# arbiter: sources it, sets COMP_WORDS and COMP_CWORD as bash does for a
# line, calls _arbiter and compares COMPREPLY with what the line should
# offer. The completion reads the options from `arbiter ... --help`, so
# this also checks that it still parses CLI11's help as the program prints
# it. tests/packages_test.sh runs it again on the packaged files.
#
# Usage: bash_completion_test.sh COMPLETION_FILE DIR_OF_ARBITER
set -uo pipefail
completion=$1
export PATH="$2:$PATH"
command -v arbiter >/dev/null || { echo "bash_completion_test: no arbiter in $2" >&2; exit 1; }
# shellcheck source=/dev/null
source "$completion" || { echo "bash_completion_test: cannot source $completion" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tables" "$tmp/syzygy"
touch "$tmp/games.pgn" "$tmp/games.pgn.zst" "$tmp/tablebase.rtbw"

failed=0
checks=0
# The offers for a line whose words are the arguments, the cursor at the end
# of the last one, sorted one a line.
offers() {
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _arbiter
  ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | sort
}
# expect "WORDS" OFFER...: the line offers exactly these.
expect() {
  local line=$1
  shift
  local got want
  # shellcheck disable=SC2086  # the line's words
  got=$(offers $line)
  want=$( (($#)) && printf '%s\n' "$@" | sort)
  checks=$((checks + 1))
  if [[ $got != "$want" ]]; then
    echo "FAIL: '$line<TAB>' offers [${got//$'\n'/ }], expected [${want//$'\n'/ }]"
    failed=1
  fi
}
# expect_words WORD... -- OFFER...: as expect, for lines with an empty word
# (the cursor after a space) or other words the shell would split.
expect_words() {
  local -a words=()
  while (($#)) && [[ $1 != -- ]]; do
    words+=("$1")
    shift
  done
  shift
  local got want
  got=$(offers "${words[@]}")
  want=$( (($#)) && printf '%s\n' "$@" | sort)
  checks=$((checks + 1))
  if [[ $got != "$want" ]]; then
    echo "FAIL: '${words[*]}<TAB>' offers [${got//$'\n'/ }], expected [${want//$'\n'/ }]"
    failed=1
  fi
}
# expect_some "WORDS" OFFER...: the line offers at least these.
expect_some() {
  local line=$1
  shift
  local got want
  # shellcheck disable=SC2086
  got=$(offers $line)
  checks=$((checks + 1))
  for want in "$@"; do
    if ! grep -qxF -- "$want" <<<"$got"; then
      echo "FAIL: '$line<TAB>' offers [${got//$'\n'/ }], without $want"
      failed=1
    fi
  done
}

# Commands and subcommands.
expect "arbiter ver" verify
expect "arbiter an" analyze
expect_words arbiter "" -- perft analyze verify tables job serve help
expect_words arbiter tables "" -- build
expect "arbiter job sub" submit
expect_words arbiter job "" -- submit watch list cancel delete results
expect_words arbiter help "" --
# A command's options, read from its --help.
expect "arbiter verify --f" --format --fail-on
expect "arbiter verify --fo" --format
expect "arbiter job submit --bu" --budget
expect "arbiter tables build --sig" --signatures
expect_some "arbiter verify -" -h --help --format --jobs --output --syzygy --coordinator
# The top level's options, and its option values skipped on the way to the
# command.
expect "arbiter --ver" --version
expect "arbiter --coordinator 127.0.0.1:50051 ve" verify
expect_words arbiter --tls-ca "$tmp/games.pgn" verify --f -- --format --fail-on
# shellcheck disable=SC2154  # set by the completion file
for option in "${_arbiter_root_options[@]}"; do
  checks=$((checks + 1))
  grep -qe "$option" <(arbiter --help) ||
    { echo "FAIL: $option (the completion's top-level options) is not in arbiter --help"; failed=1; }
done
# Values: the ones the help lists (a|b|c), as "--opt VALUE", "--opt=VALUE"
# (which bash splits at "=") and "--opt=VALUE" whole; a comma list; none
# for a number.
expect_words arbiter verify --format "" -- text jsonl csv
expect "arbiter verify --format j" jsonl
expect_words arbiter verify --format = -- text jsonl csv
expect_words arbiter verify --format = cs -- csv
expect "arbiter verify --format=cs" --format=csv
expect "arbiter verify --fail-on disagree,e" disagree,error
expect_words arbiter verify --jobs "" --
# Files: operands, FILE values, and after "--" (where "--fo" is a file name
# to complete, not an option); directories for DIR values.
expect "arbiter verify $tmp/ga" "$tmp/games.pgn" "$tmp/games.pgn.zst"
expect "arbiter verify --format csv $tmp/games.pgn." "$tmp/games.pgn.zst"
expect "arbiter verify --output $tmp/ga" "$tmp/games.pgn" "$tmp/games.pgn.zst"
expect "arbiter verify --syzygy $tmp/" "$tmp/syzygy" "$tmp/tables"
expect "arbiter verify -- --fo"
expect "arbiter job submit $tmp/games.pgn.z" "$tmp/games.pgn.zst"

if ((failed)); then
  echo "bash_completion_test: FAILED"
  exit 1
fi
echo "bash_completion_test: $checks checks passed"

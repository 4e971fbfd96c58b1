#!/usr/bin/env bash
# The layer check (cmake/CheckLayers.cmake) passes on the tree, and fails,
# naming the file and the header, on a copy of a module given an include
# across layers: core/chess using core/mate, and core/ using gRPC.
# Usage: layers_test.sh SOURCE_DIR RULES_FILE
set -euo pipefail
source_dir="$1"
rules="$2"
check() { cmake -DSOURCE_DIR="$1" -DRULES="$rules" -P "$source_dir/cmake/CheckLayers.cmake"; }

check "$source_dir"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/core"
cp -r "$source_dir/core/chess" "$scratch/core/"
for case in 'core/mate/mate_ability.h' 'grpcpp/server.h'; do
  rm -f "$scratch/core/chess/forbidden.h"
  printf '#pragma once\n#include "%s"\n' "$case" > "$scratch/core/chess/forbidden.h"
  if output="$(check "$scratch" 2>&1)"; then
    echo "FAIL: the check accepted core/chess including $case" >&2
    exit 1
  fi
  if ! grep -q "core/chess/forbidden.h: #include \"$case\"" <<< "$output"; then
    echo "FAIL: the message does not name the include:" >&2
    echo "$output" >&2
    exit 1
  fi
  echo "refused as expected: core/chess including $case"
done

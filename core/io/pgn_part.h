// One part of a large PGN file, so that N processes can share a file without
// each reading all of it: part I of N starts near byte I/N of the file (for
// zstd, at the first frame starting there) and ends where part I+1 starts.
//
// Cuts fall where a tag section begins after a blank line ("\n\n["), found
// by the same forward search from the same place by both neighbours, so the
// parts hold every byte of the file exactly once, in order, whatever the
// content (a "\n\n[" inside a multi-line comment would split that game into
// two records with errors; it never loses or repeats bytes). Plain files
// are cut anywhere; zstd files only between frames: a file of one frame (as
// `zstd` writes by default) is refused for N > 1 — recompress it in frames,
// e.g. `zstd -dc FILE | pzstd -o OUT`, or concatenate per-day files.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/io/byte_source.h"

namespace arbiter {

// The decompressed bytes of part `index` (0-based) of `count` of `path`.
// Games read from it are numbered from 1 within the part.
absl::StatusOr<std::unique_ptr<ByteSource>> OpenPgnPart(const std::string& path, int index,
                                                        int count);

}  // namespace arbiter

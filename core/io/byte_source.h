// Sequential byte input for readers of files far larger than memory: a plain
// file, standard input or an in-memory string, each transparently
// decompressed when it holds zstd data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arbiter {

class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Opens `path` for reading; "-" is standard input. Zstd data is recognised
  // by its magic bytes (28 B5 2F FD, or a skippable frame's 5? 2A 4D 18 as
  // pzstd writes first), not by the file name, so compressed input also
  // works through a pipe.
  static absl::StatusOr<std::unique_ptr<ByteSource>> Open(const std::string& path);

  // The bytes [begin, end) of the file `path` (an `end` past the file's end
  // stops there), decompressed when they start with zstd magic bytes: one
  // part of a large file (core/io/pgn_part.h).
  static absl::StatusOr<std::unique_ptr<ByteSource>> OpenRange(const std::string& path,
                                                               uint64_t begin, uint64_t end);

  // Whether `head`, the first 4 bytes of an input, start zstd data: a
  // frame's magic bytes, or a skippable frame's (which pzstd writes first).
  static bool IsZstdStart(std::string_view head);

  // Serves `data` (decompressed when it starts with zstd magic bytes; a
  // corrupt stream is then reported by Read). Mostly for tests.
  static std::unique_ptr<ByteSource> FromString(std::string data);

  // Serves what `raw` serves, decompressed when it starts with zstd magic
  // bytes; `name` names it in errors. Reads `raw`'s first bytes at once
  // (so call it where a Read may block); its errors are reported by the
  // first Read.
  static std::unique_ptr<ByteSource> Decoding(std::unique_ptr<ByteSource> raw, std::string name);

  // Reads up to `n` (> 0) bytes into `buf`. Returns how many were read, 0
  // only at the end of the input. Errors name the input and, for corrupt
  // compressed data, the byte offset in the compressed stream.
  virtual absl::StatusOr<size_t> Read(char* buf, size_t n) = 0;
};

}  // namespace arbiter

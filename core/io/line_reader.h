// Lines of a ByteSource (a file, standard input, zstd data), for batch
// commands that answer one line at a time: `analyze FILE`, `analyze -`.
//
// A program that feeds a batch command one line and waits for its answer
// (a live feed, as CHA's users drive it) must see that answer before the
// command blocks for more input; a program that pipes a million lines
// should not pay a write per answer. So the reader calls `before_wait`
// (the caller flushes its output there) only when its buffer is empty and
// the next read may block.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/io/byte_source.h"

namespace arbiter {

class LineReader {
 public:
  LineReader(std::unique_ptr<ByteSource> source, std::function<void()> before_wait);

  // The next line, without its "\n" or "\r\n"; false at the end of the
  // input (a last line without "\n" is still a line). An error of the
  // source ends the input as well and is kept in status().
  bool Next(std::string* line);

  // 1-based number of the line Next returned last.
  int64_t line_number() const { return line_number_; }
  const absl::Status& status() const { return status_; }

 private:
  bool Fill();

  std::unique_ptr<ByteSource> source_;
  std::function<void()> before_wait_;
  std::string buffer_;
  size_t begin_ = 0, end_ = 0;  // unread bytes: buffer_[begin_, end_)
  bool at_end_ = false;
  int64_t line_number_ = 0;
  absl::Status status_;
};

}  // namespace arbiter

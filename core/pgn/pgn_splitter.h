// Cuts a PGN byte stream into the texts of its games without reading them:
// a client of a coordinator sends each game's text, and the worker that
// rules on it reads it (PgnReader, via ReadFirstGame). Only the usual strict
// shape is cut — tag lines, blank lines, movetext that ends in a result, the
// next game's first tag line — because there a text read alone gives the
// game the streaming reader gives, line numbers apart (the text's line 1 is
// the input's line `first_line`). At anything else (garbage between games,
// a tag or '%' line inside movetext, an unclosed comment, a Chess 99 game, a
// read error) the splitter stops, and the caller reads the rest with the
// real reader, from the games already cut on (docs/cluster.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/io/byte_source.h"

namespace arbiter {

class PgnSplitter {
 public:
  // A text longer than this is not cut: the reader's limits (a comment of
  // 1 MiB, ...) are then never reached in a text that is.
  static constexpr size_t kMaxGameBytes = 1 << 20;

  explicit PgnSplitter(std::unique_ptr<ByteSource> source);

  // The next game's text, valid until the next call, and the input's line
  // it starts on. False at the end of the input (ended()) or where the
  // input stops having the strict shape.
  bool Next(std::string_view* text, int64_t* first_line);

  // After Next returned false: whether the whole input was cut. Otherwise
  // the games from number games() + 1 on are for the real reader.
  bool ended() const { return ended_; }
  // Games cut so far.
  int64_t games() const { return games_; }

 private:
  // The length of the strict game text at cut_ (up to the next game's first
  // line), 0 when the bytes there are not of the strict shape, or -1 when
  // more input is needed to tell.
  int64_t GameLength() const;
  // Reads more input behind what is buffered; false at its end or on error.
  bool Fill();

  std::unique_ptr<ByteSource> source_;
  std::string buf_;
  size_t cut_ = 0;  // where the next game's text starts in buf_
  bool eof_ = false;
  bool failed_ = false;
  bool ended_ = false;
  bool started_ = false;  // blank lines before the first game skipped
  int64_t line_ = 1;      // the input's line at cut_
  int64_t games_ = 0;
};

}  // namespace arbiter

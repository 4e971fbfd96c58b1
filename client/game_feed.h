// The games of one PGN file as `arbiter --coordinator ... verify` sends
// them: the text of each game while the file has the strict shape
// (core/pgn/pgn_splitter.h), which the workers read, so that the client
// neither reads nor encodes the records; from where it stops having that
// shape, records read by the real reader, which reads the file again from
// its start and skips the games already cut. Either way the games, their
// numbers and their lines are those the embedded run reads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/pgn/pgn_reader.h"
#include "core/pgn/pgn_splitter.h"

namespace arbiter::cli {

// One game to send: the PGN text of that game alone when `text` is not
// empty (valid until the next game is asked for), whose first line is line
// `first_line` of the input; otherwise `record`.
struct OutgoingGame {
  std::string_view text;
  int64_t first_line = 0;
  RawGame record;
};

class GameFeed {
 public:
  // `path` names a file (not stdin: it may be read twice); `options` are
  // the reader's for the records.
  static absl::StatusOr<std::unique_ptr<GameFeed>> Open(const std::string& path,
                                                        PgnReaderOptions options);

  // The next game; false after the last.
  bool Next(OutgoingGame* game);
  // Why the input ended early (PgnReader::input_error), or OK.
  const absl::Status& input_error() const;
  // Games sent as texts, and as records.
  int64_t texts() const { return texts_; }
  int64_t records() const { return records_; }

 private:
  GameFeed(std::string path, PgnReaderOptions options, std::unique_ptr<PgnSplitter> splitter)
      : path_(std::move(path)), options_(std::move(options)), splitter_(std::move(splitter)) {}

  const std::string path_;
  const PgnReaderOptions options_;
  std::unique_ptr<PgnSplitter> splitter_;  // until it stops
  std::unique_ptr<PgnReader> reader_;      // from then on
  absl::Status open_error_;
  int64_t texts_ = 0, records_ = 0;
};

}  // namespace arbiter::cli

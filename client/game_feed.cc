#include "client/game_feed.h"

#include "core/io/byte_source.h"

namespace arbiter::cli {

absl::StatusOr<std::unique_ptr<GameFeed>> GameFeed::Open(const std::string& path,
                                                         PgnReaderOptions options) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  if (!source.ok()) return source.status();
  return std::unique_ptr<GameFeed>(
      new GameFeed(path, std::move(options), std::make_unique<PgnSplitter>(*std::move(source))));
}

const absl::Status& GameFeed::input_error() const {
  if (!open_error_.ok() || !reader_) return open_error_;
  return reader_->input_error();
}

bool GameFeed::Next(OutgoingGame* game) {
  if (splitter_) {
    if (splitter_->Next(&game->text, &game->first_line)) {
      ++texts_;
      return true;
    }
    const bool ended = splitter_->ended();
    const int64_t cut = splitter_->games();
    splitter_.reset();
    if (ended) return false;
    // The rest is the real reader's, from the start: only it knows where
    // the games after the last cut begin.
    absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path_);
    if (!source.ok()) {
      open_error_ = source.status();
      return false;
    }
    reader_ = std::make_unique<PgnReader>(*std::move(source), options_);
    for (int64_t i = 0; i < cut; ++i)
      if (!reader_->Next(&game->record)) return false;
  }
  if (!reader_) return false;
  game->text = {};
  if (!reader_->Next(&game->record)) return false;
  ++records_;
  return true;
}

}  // namespace arbiter::cli

// Streaming PGN reader: splits a byte stream into games (tags, main-line SAN
// moves with their comments, clocks and NAGs, result). It checks only the
// lexical structure; move legality is game_replay.h's job.
//
// Memory use is bounded by the longest line (at most kMaxLineBytes), not by
// the file size, so it reads files far larger than memory and stdin.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/io/byte_source.h"
#include "core/pgn/record_encoding.h"

namespace arbiter {

struct RawMove {
  // User-provided so that moves.emplace_back() does not zero-fill the whole
  // struct before constructing it (value-initialisation); it shows in bulk
  // reading.
  RawMove() {}
  RawMove(std::string_view san, int64_t line, int32_t column)
      : san(san), line(line), column(column) {}

  std::string san;  // as written, without suffix annotations (!, ?, !?, ...)
  int64_t line = 0;
  // The byte of its line the move starts at, 1-based (bytes as read, after
  // decompression): a column an editor's "go to" finds.
  int32_t column = 0;
  int clock_centis = -1;  // from [%clk h:mm:ss(.f)] in the comment after the move
  // Comment text after the move (several comments joined by a space). Empty
  // when PgnReaderOptions::keep_comments is false.
  std::string comment;
  std::vector<int> nags;  // $n, and !/?/!!/??/!?/?! as $1..$6
};

struct RawGame {
  int64_t index = 0;                                      // 1-based game number in the input
  int64_t first_line = 0;                                 // line of the game's first tag or move
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  std::vector<RawMove> moves;                             // main line only
  std::string result_token;  // "1-0", "0-1", "1/2-1/2", "*" or empty if missing
  // The movetext's last comment when no move follows it ("{White forfeits
  // on time} 0-1"), trimmed; empty otherwise. Kept whatever keep_comments
  // says: it is where several sources write how the game ended.
  std::string closing_comment;
  // OK, or InvalidArgument with the reason for a lexical error (the fields
  // then hold what was read before it), or the I/O error that ended the
  // input. The message says what, not where: `error_line` and
  // `error_column` are where (the game is `index`), so that no one parses a
  // location back out of text. 0: not known (the column of an error that
  // spans lines, such as an unterminated comment, is not given).
  absl::Status error;
  int64_t error_line = 0;
  int32_t error_column = 0;
  // kUtf8 when the game's text was valid UTF-8 (kept as it was), or
  // kWindows1252 when it was not and all of it was converted from
  // Windows-1252 (core/pgn/game_encoding.h). Every text field above, the
  // error message included, is valid UTF-8 either way.
  RecordEncoding encoding = RecordEncoding::kUtf8;

  // Value of the first tag called `name`, or null.
  const std::string* Tag(std::string_view name) const;
};

struct PgnReaderOptions {
  // Copy comment text into RawMove::comment. Clocks are extracted either way,
  // and a comment holding a [%claim] command is kept; switching this off
  // saves a copy per commented move.
  bool keep_comments = true;
  // Given to games without a [Variant] tag, as that tag (`arbiter verify
  // --rules chess99`: "Chess 99"); empty: such games stay untagged.
  std::string untagged_variant = {};
};

class PgnReader {
 public:
  // Limits beyond which input is reported as an error rather than buffered.
  // The first three make a game's error; a line longer than kMaxLineBytes
  // cannot be resynchronised from and ends the input like an I/O error.
  static constexpr size_t kMaxTagBytes = 64 << 10;
  static constexpr size_t kMaxCommentBytes = 1 << 20;
  static constexpr size_t kMaxPlies = 10000;
  static constexpr size_t kMaxLineBytes = 16 << 20;

  explicit PgnReader(std::unique_ptr<ByteSource> source, PgnReaderOptions options = {});
  ~PgnReader();
  PgnReader(const PgnReader&) = delete;
  PgnReader& operator=(const PgnReader&) = delete;

  // Reads the next game into `game`, reusing its storage. Returns false at
  // the end of the input. After a game with a lexical error, reading resumes
  // at the next line starting with '[' that follows movetext or a blank line.
  // The game's text comes out in UTF-8 (RawGame::encoding).
  bool Next(RawGame* game);

  // Why the input ended before its end, or OK: an I/O error, corrupt or
  // truncated compressed data, a line too long to resynchronise from. The
  // games after it were never read, so a run over this input is incomplete
  // (the error is also that of the game being read then).
  const absl::Status& input_error() const { return io_error_; }

  // Bytes taken from the source so far (decompressed size).
  int64_t bytes_read() const { return bytes_read_; }

 private:
  enum class Phase { kBefore, kHeader, kMovetext };

  // Buffer management: the region [p_, lines_end_) always holds complete
  // lines, so tokens, tag pairs and ';' comments never straddle a refill.
  bool Refill();
  bool Available() { return p_ < lines_end_ || Refill(); }

  // Next() before the game's text is made UTF-8.
  bool ReadGame(RawGame* game);
  void BeginGame(RawGame* game);
  // Records a lexical error at `line` and arranges the resynchronisation;
  // `at`, when given, is the offending byte, on the current line.
  void Fail(RawGame* game, int64_t line, std::string_view reason, const char* at = nullptr);
  // The 1-based column of `at`, a byte of the current line in the buffer.
  int32_t ColumnOf(const char* at);
  // Called when the input stops inside `what` (a comment, a variation):
  // records the I/O error if there was one, else a lexical error at `line`.
  bool InputEnded(RawGame* game, int64_t line, std::string_view what);
  void SkipToNextGame();
  void SkipRestOfLine();

  // Each returns false when the game ended in an error (recorded in it).
  bool ReadTag(RawGame* game);
  static bool HasTagNamedAt(const RawGame& game, const char* bracket);
  bool ReadComment(RawGame* game);
  bool SkipVariation(RawGame* game);
  bool ReadToken(RawGame* game, bool* game_over);
  // The movetext of a Chess 99 game: moves in its notation ("Kxb8(B*)",
  // "b=Be4", "Kf1&i1", "d6xe5*"), where '(' glued to a move is part of it
  // and '*' glued to a move is not the result.
  bool ReadChess99Token(RawGame* game, bool* game_over);
  // At the first movetext token: applies untagged_variant and decides how
  // the movetext is read.
  void EnterMovetext(RawGame* game);
  // Consumes what follows a move while it has the plain shape of most
  // movetext (moves, move numbers, comments closed on the same line, blanks);
  // stops before anything else, which the general loop handles. A fast path
  // only: the general loop alone reads the same games.
  void ScanPlainMovetext(RawGame* game);
  void BeginMovetext(RawGame* game);
  // Adds a move token, turning glued suffix annotations into NAGs.
  bool AddSan(RawGame* game, std::string_view token, int64_t line);
  bool AddMove(RawGame* game, std::string_view san, int64_t line);
  // Shared by both movetext readers: a result ends the game; "!?" alone
  // annotates the last move; anything unreadable fails the game, quoted.
  bool EndWithResult(RawGame* game, std::string_view token, bool* game_over);
  bool AddNag(RawGame* game, std::string_view token, int64_t line);
  bool UnexpectedToken(RawGame* game, std::string_view token, int64_t line);
  void AttachComment(RawGame* game, std::string_view text);
  // Moves the unparsed bytes (p_ must be the buffer's start) to a new
  // buffer of `new_cap` bytes.
  void Grow(size_t new_cap);

  std::unique_ptr<ByteSource> source_;
  PgnReaderOptions options_;

  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0;
  char* p_ = nullptr;          // next byte to parse
  char* lines_end_ = nullptr;  // one past the last complete line
  char* data_end_ = nullptr;   // one past the last byte read
  bool source_eof_ = false;
  absl::Status io_error_;
  int64_t bytes_read_ = 0;

  int64_t line_ = 1;
  // ColumnOf's memo: where line `column_line_` starts in the buffer (0: none;
  // a refill moves the buffer), so that a line is searched once, not once
  // per move.
  int64_t column_line_ = 0;
  const char* column_line_start_ = nullptr;
  bool at_line_start_ = true;     // only blanks so far on this line
  bool line_is_tag_ = false;      // this line started with '['
  bool blank_line_seen_ = false;  // since the last tag pair
  int64_t games_ = 0;
  bool chess99_ = false;  // this game's movetext is Chess 99's
  // A move comment dropped (keep_comments off) was not valid UTF-8: the game
  // is then converted as if it had been kept, so that it reads the same
  // either way.
  bool dropped_text_invalid_ = false;
  bool resync_ = false;
  bool resync_from_tag_line_ = false;
  bool done_ = false;

  Phase phase_ = Phase::kBefore;
  std::string comment_;  // comment being read
  // Tags of earlier games, moved out so that their strings' heap buffers are
  // reused instead of reallocated.
  std::vector<std::pair<std::string, std::string>> spare_tags_;
};

// The first game of a PGN text (a request that holds one game), numbered
// `index`; a text without a game becomes a game with an error, like any
// unreadable game.
RawGame ReadFirstGame(std::string text, int64_t index, const PgnReaderOptions& options);
// The same into `game`, reusing its storage (a worker reads one text after
// another).
void ReadFirstGame(std::string text, int64_t index, const PgnReaderOptions& options, RawGame* game);

}  // namespace arbiter

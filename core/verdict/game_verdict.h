// One game record in, one verdict out: the unit of work of `arbiter verify`
// (and of the workers). A record that cannot be read or replayed becomes a
// verdict with an error, so that a bulk run goes on with the next game.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/domain/ruleset.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"
#include "core/tablebase/syzygy.h"
#include "core/verdict/ruling.h"
#include "core/verdict/tablebase_verdict.h"

namespace arbiter {

struct GameVerdict {
  int64_t game = 0;  // 1-based index in the input
  std::string site;
  std::string declared;          // Result tag as written ("" when absent)
  std::string termination;       // Termination tag ("" when absent)
  int plies = 0;                 // moves in the record
  std::optional<Ruling> ruling;  // unset when `error` is set
  // The first move recorded after the game had ended on the board, as
  // written (it may be illegal there: "3. Kf2" after mate), or "".
  std::string first_move_after_end;
  // kWindows1252 when the record's bytes were not UTF-8 and were read as
  // Windows-1252 (every field is UTF-8 either way).
  RecordEncoding encoding = RecordEncoding::kUtf8;
  std::string end_fen;  // position where the game was ruled
  // The mating line of `ruling->winner_can_mate`, in UCI from end_fen, and
  // in SAN (its line_san).
  std::vector<std::string> winner_line;
  std::vector<std::string> winner_line_san;
  // The rules the game was ruled under: those asked for (--rules), or
  // kChess99 for a Chess 99 game (chess99_verdict.h), whose `end_fen` is
  // then FEN-9 and whose `detail` says why, in a sentence.
  Ruleset rules = Ruleset::kFide;
  std::string detail;
  // Set for a game of a variant Arbiter does not rule (its [Variant] tag,
  // "Atomic"): skipped, neither ruled nor an error, so that a site's
  // export (Lichess mixes variants into its standard files) is not a run
  // with errors. `ruling` is unset and `error` empty.
  std::string skipped_variant;
  std::string error;  // empty, or what is wrong
  // A record that could not be read or replayed: neither ruled nor
  // skipped. What --fail-on error, the summary and the disputes count.
  bool is_error() const { return !ruling && skipped_variant.empty(); }
  int64_t error_line = 0;    // and where: the record's line (0 when not known)
  int32_t error_column = 0;  // and its 1-based byte (0 when not known)
  // Set exactly when tables were given: the records of a run without tables
  // stay as they were before tablebases existed.
  std::optional<TablebaseJudgement> tablebase;
};

// `scratch` is reused between calls to avoid reallocations. With `tables`,
// the position where the game was ruled is probed and compared with the
// declared result (core/verdict/tablebase_verdict.h), and they are evidence
// for the record's claims. `options.rules` rules the chess games (a game is
// Chess 99 by its [Variant] tag, see core/pgn/variant.h).
// "game G, line L: what" (", line L" left out when 0): how text output
// names an error record.
std::string LocatedError(const GameVerdict& v);

void VerifyGame(const RawGame& raw, const MateSearchOptions& options, ReplayedGame* scratch,
                GameVerdict* out, const SyzygyTablebase* tables = nullptr);

}  // namespace arbiter

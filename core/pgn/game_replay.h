// Turns a RawGame (text) into checked moves: sets up the start position from
// the [Variant], [SetUp] and [FEN] tags, then resolves and plays every SAN
// move, so that each move of a replayed game is known to be legal.
//
// Variants: none, "Standard", "Chess", "From Position" (Lichess) are standard
// chess; "Chess960", "Chess 960", "Fischerandom" (any case) are Chess960;
// anything else (Atomic, Crazyhouse, ...) is an "unsupported variant" error
// rather than a misreading. A [FEN] tag is used whenever present, with or
// without [SetUp "1"]; [SetUp "1"] without a FEN is an error.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/chess/position.h"
#include "core/pgn/pgn_reader.h"

namespace arbiter {

struct ReplayedGame {
  Position start = Position::Start();
  // Position after the last move played (after the last legal one when
  // `error` is set).
  Position end = Position::Start();
  std::vector<Move> moves;
  std::vector<int> clock_centis;  // parallel to `moves`; -1 where no [%clk]
  bool chess960 = false;
  // OK, or the RawGame's own error, or "unsupported variant X", a bad FEN,
  // or "move N. SAN: reason" for the first bad move; `error_line` and
  // `error_column` are where (the game's first line, column unknown, for
  // what its tags say).
  absl::Status error;
  int64_t error_line = 0;
  int32_t error_column = 0;
  // Index in RawGame::moves of that bad move (`moves` holds those before
  // it), or -1: a game already over on the board before it is still ruled.
  int bad_move = -1;
};

// The [Variant] tag of a game of a variant Arbiter does not rule (Atomic,
// Crazyhouse, ...), as written (trimmed); nullopt for standard chess and
// Chess960. `verify` skips such games rather than report them as errors
// (core/verdict/game_verdict.h); ReplayGame makes them an error.
std::optional<std::string> UnsupportedVariant(const RawGame& raw);

// Replays `raw` into `out`, reusing its storage.
void ReplayGame(const RawGame& raw, ReplayedGame* out);
ReplayedGame ReplayGame(const RawGame& raw);

}  // namespace arbiter

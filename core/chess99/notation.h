// Reading and writing Chess 99 moves. Every reader resolves the text against
// the moves GenerateMoves gives, so a move it returns is legal in `pos`.
//
// Coordinate form (ours, UCI-like; written by MoveToCoordinate):
//   e2e4       ordinary move or capture (also a king capture)
//   e1f1       short castle: the king steps onto a friendly unit, they swap
//   e1f1&i1    long castle: king steps to f1, the partner on i1 jumps to e1
//   d3b5*      en passant capture
//   b7b9=B     promotion on arrival (=B or =N); b7b9 leaves the pawn unpromoted
//   b1=B       deferred promotion only (the pawn waiting on b1 becomes a B)
//   b1=Be4     deferred promotion, then the new piece moves (b1=Be4* e.p.)
//
// Site notation (the chess99.net SAN-like form; grammar in README.md):
//   pieces K Q R B N, paladin P (A also read), pawns no letter; optional
//   origin file, rank or square; x or × for a capture; `*` en passant;
//   `(K)` / `(B*)` naming the captured unit; =B / =N; b=Be4 deferred
//   promotion; b35 (pawn b3 to b5); Kf1 short castle onto a friendly unit,
//   Kf1&i1 long castle. Trailing + # ! ? are ignored.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/chess99/move.h"
#include "core/chess99/position.h"

namespace arbiter::chess99 {

std::string MoveToCoordinate(const Move& m);
absl::StatusOr<Move> ParseCoordinate(const Position& pos, std::string_view text);

// Canonical site notation of `m` (a move of `pos`); ParseSite reads it back
// to the same move. Disambiguation is the shortest of file, rank, square.
std::string MoveToSite(const Position& pos, const Move& m);
absl::StatusOr<Move> ParseSite(const Position& pos, std::string_view text);

// Coordinate form if the text is one, else site notation.
absl::StatusOr<Move> ParseMove(const Position& pos, std::string_view text);

}  // namespace arbiter::chess99

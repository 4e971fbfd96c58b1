// Move notation: UCI (long algebraic as spoken by engines) and SAN.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/chess/position.h"

namespace arbiter {

std::string SquareName(Square s);

// SAN piece letters: 'N', 'B', 'R', 'Q', 'K' (upper case only, so that "b4"
// stays a pawn move); kNoPieceType for anything else.
PieceType PieceFromSanLetter(char c);

// UCI: "e2e4", "e7e8q". Castling is written king-to-destination ("e1g1") in
// standard chess and king-takes-rook ("e1h1") in Chess960, as engines do.
std::string ToUci(const Position& pos, Move m);
// A line of moves from `start` in UCI, each spelled in the position it is
// played from (a castling move's spelling depends on it).
std::vector<std::string> UciLine(const Position& start, const std::vector<Move>& line);
// Accepts both castling spellings when unambiguous.
absl::StatusOr<Move> ParseUci(const Position& pos, std::string_view text);

// SAN: "Nbd7", "exd6", "e8=Q+", "O-O-O#". `pos` is restored before return.
std::string ToSan(Position& pos, Move m);
// Tolerant SAN reader: also accepts "0-0", "e8Q", "e8(Q)", "e8=q", trailing
// annotations ("!?", "+", "#", "e.p."), a redundant pawn letter ("Pe4"),
// long algebraic ("Ng1-f3", "e2xe4") and UCI ("e2e4").
absl::StatusOr<Move> ParseSan(const Position& pos, std::string_view text);

}  // namespace arbiter

// A line of SAN moves as people read it: numbered from the position it
// starts at, "1. Kf1 Kf4 2. Kf2", or "12... Kd7 13. Qe7#" when Black moves
// first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/chess/types.h"

namespace arbiter {

// Where a line starts: the move number and the side to move.
struct MoveNumber {
  int fullmove = 1;
  Color side_to_move = kWhite;
};

// The side to move and move number of a FEN's 2nd and 6th fields; a field
// that is missing or unreadable reads as White, move 1 (a Chess 99 FEN-9
// has the same fields).
MoveNumber MoveNumberOfFen(std::string_view fen);

// The move number of the position `plies` plies after `start`.
MoveNumber MoveNumberAfter(MoveNumber start, int plies);

// The moves joined with numbers: "1. e4 e5 2. Nf3", "3... Kd7 4. Qe7#";
// "" for no moves.
std::string NumberedSan(const std::vector<std::string>& san, MoveNumber start);

// Text output shows at most this many plies of a line: a mating line may
// run to 150 plies (over 1,000 characters), and a terminal line that long
// hides the verdict it belongs to.
inline constexpr size_t kShownPlies = 32;

// NumberedSan of the first kShownPlies moves; a longer line ends with how
// many plies it has in all and `whole_at`, where the whole line is shown
// (an option such as "--json"): "1. Kd1 Kd4 ... 16... Kb2 (+40 plies, 72 in
// all: see --json)".
std::string ShownSan(const std::vector<std::string>& san, MoveNumber start,
                     std::string_view whole_at);

}  // namespace arbiter

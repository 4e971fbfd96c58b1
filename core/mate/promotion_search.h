// Cooperative search for a queen promotion by `winner`: the first leg of
// most helpmates in real endgames, where the winning side has pawns but too
// little else. The loser only clears the pawn's path or moves its king, the
// winner only moves the pawn or clears its path, so the tree stays small.
#pragma once

#include <cstdint>
#include <vector>

#include "core/chess/position.h"

namespace arbiter {

// Looks for a line of at most `max_plies` after which `winner` has just
// promoted a pawn to a queen. On success fills `line` (from `pos`, which is
// restored) and returns true. Stops after `*nodes_left` nodes (decremented).
bool FindQueenPromotion(Position& pos, Color winner, int max_plies, uint64_t* nodes_left,
                        std::vector<Move>* line);

}  // namespace arbiter

// The exact shortest helpmate by breadth-first search over every reachable
// position, built to hold a hundred million of them: the developer tools'
// yardstick (tools/helpmate_composer scores its candidates with it,
// tools/mate_ability_sweep checks the analysis's "no" answers against it).
// The move-count rules are ignored: it answers what the pieces can do.
#pragma once

#include <cstddef>
#include <string>

#include "core/chess/position.h"

namespace arbiter::tools {

struct HelpmateSearch {
  int plies = -1;        // the shortest helpmate; -1 when none was found
  bool complete = true;  // false when the search stopped at its cap
  size_t states = 0;     // positions reached
};

// Shortest series of moves from `start` after which `winner` has mated,
// both sides cooperating; gives up once more than `cap` positions are
// reached. With `line`, also the moves of one shortest helpmate in UCI
// (the search then keeps every layer to walk back from the mate).
// Castling rights, standard or Chess960, are searched like any other.
HelpmateSearch ShortestHelpmate(const Position& start, Color winner, size_t cap,
                                std::string* line = nullptr);

}  // namespace arbiter::tools

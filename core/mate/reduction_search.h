// Helpmates by reduction: a position of 5 or more men whose mate the
// searches miss is often a small endgame in disguise. Both sides trade men
// away (captures are free, other moves cost one credit) until at most 4 men
// are left, where retrograde analysis is exact: if the side can mate there,
// the captures followed by the tables' shortest helpmate are a mating line.
// It only ever proves "yes"; the caller replays the line before believing it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/chess/position.h"
#include "core/tablebase/retrograde.h"

namespace arbiter {

// A mating line for `winner` through a small endgame, or false within
// `node_budget` positions and `max_credit` non-capturing moves.
bool FindMateByReduction(const Position& pos, Color winner, RetrogradeSolver& solver,
                         uint64_t node_budget, int max_credit, std::vector<Move>* line);

}  // namespace arbiter

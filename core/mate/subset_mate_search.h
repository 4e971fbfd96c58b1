// Helpmates by abstraction: in a position of many men, a mate often needs
// only the two kings and one or two other men while the rest stand still
// (a lone bishop mating a king hemmed in by one of its own men; a queen and
// a king against a bare king in a far corner). For every small set of men
// the retrograde tables hold (kings plus up to kMaxMen - 2 others), the
// position with only those men is probed; the shortest helpmates found
// there are followed in the full position, where the other men stand still:
// a depth-first walk over every shortest line of the reduced position (the
// tables' distance falls by one each ply) whose moves are legal in the full
// position too, until one ends in mate there as well.
//
// It only ever proves "yes": the caller replays the line (LineIsPlayable)
// before believing it. Cost: one table probe per set, a table walk and a
// walk bounded by a probe budget per set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/chess/position.h"
#include "core/tablebase/retrograde.h"

namespace arbiter {

// A mating line for `winner` found this way: at most `max_sets` sets of
// men, those with the shortest reduced mates first, each walked with at
// most `probes_per_set` table probes; false if none gives a mate.
bool FindMateWithStillMen(const Position& pos, Color winner, RetrogradeSolver& solver,
                          size_t max_sets, uint64_t probes_per_set, std::vector<Move>* line);

}  // namespace arbiter

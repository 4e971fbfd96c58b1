// Perft: counts leaf nodes of the legal move tree, the standard exactness
// test for move generators.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/chess/position.h"

namespace arbiter {

uint64_t Perft(Position& pos, int depth);
// Per root move counts, in generation order.
std::vector<std::pair<Move, uint64_t>> PerftDivide(Position& pos, int depth);

}  // namespace arbiter

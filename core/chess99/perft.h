// Perft for Chess 99: the number of move sequences of a given length. A
// position where a king has been captured is a leaf (the game is over and
// GenerateMoves gives nothing), so lines stop there.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/chess99/position.h"

namespace arbiter::chess99 {

uint64_t Perft(Position& pos, int depth);
// Per first move (in coordinate notation): its perft(depth - 1).
std::vector<std::pair<std::string, uint64_t>> PerftDivide(Position& pos, int depth);

}  // namespace arbiter::chess99

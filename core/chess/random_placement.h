// Random positions with given men (material written as Syzygy names
// tables: "KRPvKR" is White's K+R+P against Black's K+R): for warming
// tablebase files, differential tests and benchmarks. The locked-wall
// positions of the sweeps are the developer tools' (tools/wall_positions.h).
#pragma once

#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "core/chess/position.h"

namespace arbiter {

// A position with exactly these men on random squares (pawns never on the
// first or last rank), `side_to_move` to move, no castling rights, no e.p.
// square, clocks 0. Placements that are illegal (the side not to move in
// check) are drawn again; nullopt after `attempts` draws or for malformed
// material.
std::optional<Position> RandomPlacement(std::string_view men, Color side_to_move,
                                        std::mt19937_64& rng, int attempts = 1000);

// FEN field 1 for a board of 64 characters, a1 first, '.' for an empty
// square and FEN letters for men.
std::string FenPlacement(std::string_view board);

}  // namespace arbiter

// Board geometry of the 9x9 board: the squares a leaper reaches and the rays
// of the sliders from every square, computed once. Move generation and the
// attack test both walk these lists, so blocking is handled in one place.
#pragma once

#include <array>

#include "core/chess99/board.h"

namespace arbiter::chess99 {

struct SquareList {
  std::array<Square, 8> squares{};
  int size = 0;
  const Square* begin() const { return squares.data(); }
  const Square* end() const { return squares.data() + size; }
};

// Directions 0..3 are orthogonal (N, S, E, W), 4..7 diagonal.
constexpr int kOrthogonalBegin = 0;
constexpr int kDiagonalBegin = 4;
constexpr int kDirections = 8;

const SquareList& KnightTargets(Square s);
const SquareList& KingTargets(Square s);
// The squares from `s` outward in direction `dir`, nearest first.
const SquareList& Ray(Square s, int dir);

}  // namespace arbiter::chess99

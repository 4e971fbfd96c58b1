// Material classes that can never give checkmate, helpmate-aware.
#pragma once

#include "core/chess/position.h"

namespace arbiter {

// True when `side` can never checkmate whatever is played, from material
// alone. The classes (each checked by exhaustive enumeration of mate
// positions for the 4-man cases):
//  - a bare king;
//  - king and one knight, when the opponent has nothing but king and queens
//    (a queen next to the mated king would always see the knight);
//  - king and bishops all on squares of one colour, when no pawns or knights
//    are on the board and the opponent's bishops share that colour (its
//    rooks and queens cannot help: they would capture or interpose).
// A rook, queen or pawn of `side` always leaves mate possible in principle.
bool HasInsufficientMaterial(const Position& pos, Color side);

}  // namespace arbiter

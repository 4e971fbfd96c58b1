#include "core/mate/material.h"

namespace arbiter {

bool HasInsufficientMaterial(const Position& pos, Color side) {
  const Bitboard ours = pos.pieces(side);
  if (ours & pos.pieces(kPawn, kRook)) return false;
  if (ours & pos.pieces(kQueen)) return false;
  if (ours & pos.pieces(kKnight)) {
    // One knight and the king; the opponent may only hold queens. Any other
    // enemy piece (even a pawn) can block a flight square without guarding
    // the knight's checking square.
    return PopCount(ours) == 2 && !(pos.pieces(~side) & ~pos.pieces(kKing) & ~pos.pieces(kQueen));
  }
  if (ours & pos.pieces(kBishop)) {
    // Bishops (of both sides) all on one square colour can never attack the
    // other colour, and a king in the corner needs a blocker on it; pawns
    // and knights could provide one.
    Bitboard bishops = pos.pieces(kBishop);
    bool one_colour = !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
    return one_colour && !pos.pieces(kPawn) && !pos.pieces(kKnight);
  }
  return true;  // bare king
}

}  // namespace arbiter

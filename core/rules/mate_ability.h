// "Can this side checkmate by some series of legal moves, the opponent
// cooperating?" — the one question behind FIDE 5.2.2 (dead position),
// 6.9 (flag fall) and 5.1.2 (resignation). Every answer carries its evidence:
// `yes` a replayable mating line, `no` the kind of proof, `unknown` nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/chess/position.h"

namespace arbiter {

enum class CanMate { kYes, kNo, kUnknown };
const char* ToString(CanMate c);

struct MateAbility {
  CanMate answer = CanMate::kUnknown;
  // For kNo: how it was proven ("material", ...). Empty otherwise.
  std::string proof;
  // For kYes: moves from the position to a checkmate by this side.
  std::vector<Move> line;
};

// True when `side` can never checkmate whatever is played, from material
// alone. The classes (each checked by exhaustive enumeration of mate
// positions for the 4-man cases):
//  - a bare king;
//  - king and one knight, when the opponent has nothing but king and queens
//    (a queen next to the mated king would always see the knight);
//  - king and bishops all on squares of one colour, when no pawns or knights
//    are on the board and the opponent's bishops share that colour.
// A rook, queen or pawn of `side` always leaves mate possible in principle.
bool HasInsufficientMaterial(const Position& pos, Color side);

// Per-side verdict from the methods available in this build (material).
MateAbility AnalyzeMateAbility(const Position& pos, Color side);

}  // namespace arbiter

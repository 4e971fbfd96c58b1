// Move generation for Chess 99 (spec §3–4). Every move that follows a
// unit's movement pattern is legal: there is no king-safety filter, and a
// capture of the enemy king is an ordinary move.
#pragma once

#include <vector>

#include "core/chess99/move.h"
#include "core/chess99/position.h"

namespace arbiter::chess99 {

// Appends every move of the side to move to `out` (cleared first). Gives
// nothing once a king has been captured: the game is over (§5.1).
//
// Order: units square by square from a1; per unit its ordinary moves, then
// castling (kings) — callers must not rely on more than determinism.
void GenerateMoves(const Position& pos, std::vector<Move>* out);
std::vector<Move> GenerateMoves(const Position& pos);

// The side to move has at least one move (§7.9: a side without one loses).
bool HasAnyMove(const Position& pos);

// The side to move can capture the enemy king now (basis of a D5 claim).
bool CanCaptureKing(const Position& pos);

}  // namespace arbiter::chess99

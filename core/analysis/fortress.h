// Static proof that a side can never give check, hence never mate: the
// blocked-pawn fortress. Every pawn is stuck behind another pawn and no man
// can ever take or be taken by a pawn, so the pawn wall is permanent; the
// squares each king and piece can ever reach are then flood-filled around
// it, and if no square a piece of `winner` can ever attack is one the
// losing king can ever stand on, no check, and so no mate, exists.
//
// Sound by over-approximation: reach is computed with only the pawns as
// obstacles (other men may move away or be taken), so a piece's true reach
// is a subset of the computed one. No search; a few bitboard floods.
#pragma once

#include "core/chess/position.h"

namespace arbiter {

// True when `winner` provably cannot checkmate (proof "fortress"). False
// means only that this argument does not apply.
bool FortressDeniesMate(const Position& pos, Color winner);

// Every pawn has a pawn directly in front of it: the precondition above and
// a cheap filter for callers.
bool AllPawnsBlocked(const Position& pos);

}  // namespace arbiter

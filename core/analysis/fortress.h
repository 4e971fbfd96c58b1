// Static proof that a side can never give check, hence never mate: the
// pawn-wall fortress. Some pawns can provably never move and never be taken
// (the "fixed" pawns); they stand as permanent walls. Every other man's
// possible squares are over-approximated by a flood around those walls, and
// if no square a man of `winner` could ever attack is one the losing king
// could ever stand on, no check, and so no mate, exists.
//
// The argument, and the precondition behind each of its steps (checked in
// the code, never assumed):
// - A pawn is fixed only while nothing can dislodge it: the square in front
//   of it holds a fixed pawn (so it cannot push), no enemy man other than the
//   king can ever stand on a square it attacks (so it cannot capture), it
//   stands on no square an enemy man can ever attack (so it cannot be taken;
//   for the enemy king, unless a fixed pawn of its own guards it), and it is
//   neither the pawn that just moved two squares nor one that can take it en
//   passant now (the FEN's e.p. square). The fixed set is the largest one
//   consistent with these rules, found by dropping violators until none is
//   left.
// - Every other man's squares are flooded with only fixed pawns as
//   obstacles (other men may move away or be taken): a piece by its moves, a
//   king by steps onto squares no enemy fixed pawn attacks, a pawn by pushes
//   and by captures onto squares an enemy man can stand on (so future en
//   passant captures are covered: a pawn's region holds the square it skips),
//   and a pawn that can reach its last rank as every piece it may promote to
//   (queen and knight moves from there).
// - Castling, standard or Chess960, moves the king through squares that must
//   be empty and unattacked and the rook along its rank through empty
//   squares, so the step-by-step floods cover it; castling rights need no
//   special case.
// - The move-count rules and repetitions only end games sooner; ignoring
//   them over-approximates what can happen.
// The proof holds when the losing king's region meets no square a winning
// man could attack from its region, nor a square a winning fixed pawn
// attacks (a king already in check from a fixed pawn is left to other
// methods). No search; a few bitboard floods per round, at most one round
// per pawn.
#pragma once

#include "core/chess/position.h"

namespace arbiter {

// True when `winner` provably cannot checkmate (proof "fortress"). False
// means only that this argument does not apply.
bool FortressDeniesMate(const Position& pos, Color winner);

// Every pawn has a pawn directly in front of it: a cheap filter for callers
// that look for closed positions.
bool AllPawnsBlocked(const Position& pos);

}  // namespace arbiter
